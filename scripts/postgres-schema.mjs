// Writes prisma/postgres/schema.prisma from prisma/schema.prisma, the one source of the models:
// the same models for PostgreSQL, their client generated beside SQLite's (`npm start` does the
// same, in its own process: scripts/lib.mjs). `--check` exits 1 when the committed file is stale
// instead of writing it (the unit suite checks the same).
// Usage: node scripts/postgres-schema.mjs [--check]
import { commandLine, postgresSchemaIsCurrent, writePostgresSchema } from "./lib.mjs";

const { values } = commandLine("db:schema", "usage: npm run db:schema [-- --check]", { check: { type: "boolean" } });
if (values.check) {
  if (!postgresSchemaIsCurrent()) {
    console.error("prisma/postgres/schema.prisma is stale: run npm run db:schema");
    process.exit(1);
  }
} else if (writePostgresSchema()) console.log("wrote prisma/postgres/schema.prisma");
