import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { migrateDatabase } from "../db/migrate";

/** One migrated SQLite file per run; each test file works on its own copy (setup-database.ts). */
export const TEMPLATE_DIR = path.resolve(".tmp", "vitest");

export default function setup(): void {
  rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  migrateDatabase(`file:${path.join(TEMPLATE_DIR, "template.db")}`);
}
