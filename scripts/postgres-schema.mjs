// Writes prisma/postgres/schema.prisma from prisma/schema.prisma, the one source of the models:
// the same models for PostgreSQL, their client generated beside SQLite's. `--check` exits 1 when
// the committed file is stale instead of writing it (the unit suite checks the same).
// Usage: node scripts/postgres-schema.mjs [--check]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { commandLine } from "./lib.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const POSTGRES_SCHEMA = path.join(root, "prisma", "postgres", "schema.prisma");

/** The PostgreSQL schema text for a SQLite schema text; throws when an expected line is missing. */
export function postgresSchema(sqlite) {
  const swaps = [
    [/provider = "sqlite"/, 'provider = "postgresql"'],
    [/output\s+= "\.\.\/lib\/db\/generated"/, 'output       = "../../lib/db/generated-pg"'],
  ];
  let text = sqlite;
  for (const [pattern, replacement] of swaps) {
    if (!pattern.test(text)) throw new Error(`prisma/schema.prisma: expected a line matching ${pattern}`);
    text = text.replace(pattern, replacement);
  }
  return `// GENERATED from prisma/schema.prisma by scripts/postgres-schema.mjs: edit that file, then run\n// npm run db:schema. The models are the same; only the provider and the client's folder differ.\n\n${text}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const wanted = postgresSchema(readFileSync(SQLITE_SCHEMA, "utf8"));
  let current = "";
  try {
    current = readFileSync(POSTGRES_SCHEMA, "utf8");
  } catch {}
  const { values } = commandLine("db:schema", "usage: npm run db:schema [-- --check]", { check: { type: "boolean" } });
  if (values.check) {
    if (current !== wanted) {
      console.error("prisma/postgres/schema.prisma is stale: run npm run db:schema");
      process.exit(1);
    }
  } else if (current !== wanted) {
    writeFileSync(POSTGRES_SCHEMA, wanted);
    console.log("wrote prisma/postgres/schema.prisma");
  }
}
