import { buildWorkers } from "../../scripts/build-workers.mjs";
import { prepareTemplate } from "./test-database";

/**
 * One migrated template database per run; each test file works on its own copy (setup-database.ts).
 * The parse worker's bundle, as `npm start` builds it: a followed folder's sync then parses there.
 */
export default function setup(): Promise<() => Promise<void>> {
  buildWorkers();
  return prepareTemplate();
}
