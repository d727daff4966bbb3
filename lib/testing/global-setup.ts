import { prepareTemplate } from "./test-database";

/** One migrated template database per run; each test file works on its own copy (setup-database.ts). */
export default function setup(): Promise<() => Promise<void>> {
  return prepareTemplate();
}
