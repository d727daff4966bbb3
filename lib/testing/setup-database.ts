import { copyFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";

// A real SQLite file per test file, copied from the migrated template: no database mocks.
const dir = path.resolve(".tmp", "vitest");
const file = path.join(dir, `${randomUUID()}.db`);
copyFileSync(path.join(dir, "template.db"), file);
process.env.DATABASE_URL = `file:${file}`;
