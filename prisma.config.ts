import { mkdirSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { resolveDatabaseUrl, sqliteFilePath } from "./lib/db/database-url";

// The CLI (migrate deploy, migrate diff) runs on the bundled Wasm schema engine through this
// driver adapter: the native engines cannot be downloaded on our machines.
const url = resolveDatabaseUrl(process.env.DATABASE_URL);
process.env.DATABASE_URL = url;
// SQLite creates the file but not its folder (./data on a fresh clone).
mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => new PrismaBetterSQLite3({ url }),
});
