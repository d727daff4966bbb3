import { mkdirSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { resolveDatabaseUrl, sqliteFilePath } from "./lib/env/database-url";
import { isPostgresUrl, postgresAdapter } from "./lib/db/engine/postgres-adapter";

// The CLI (migrate deploy, migrate diff) runs on the bundled Wasm schema engine through this
// driver adapter: the native engines cannot be downloaded on our machines.
// DATABASE_URL picks the database: a postgres:// URL takes the PostgreSQL schema (generated from
// prisma/schema.prisma) and its own migrations; anything else is the SQLite file.
const url = resolveDatabaseUrl(process.env.DATABASE_URL);
process.env.DATABASE_URL = url;
const postgres = isPostgresUrl(url);
// SQLite creates the file but not its folder (./data on a fresh clone).
if (!postgres) mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
const folder = postgres ? path.join("prisma", "postgres") : "prisma";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(folder, "schema.prisma"),
  migrations: { path: path.join(folder, "migrations") },
  adapter: async () => (postgres ? postgresAdapter(url) : new PrismaBetterSQLite3({ url })),
});
