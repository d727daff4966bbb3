import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client";
import { sqliteFilePath } from "./database-url";
import { serializeConnection } from "./serialized-adapter";

export type Database = PrismaClient;

/**
 * A Prisma client over the embedded SQLite file. Unguarded (no "server-only") so scripts, the
 * seed and test fixtures can use it; the app goes through lib/db/client.ts.
 */
export function createDatabase(url: string): Database {
  if (!url.startsWith("file:")) {
    throw new Error("Only SQLite (file:) URLs are supported so far; PostgreSQL support is tracked separately.");
  }
  // A writer waits up to 15 s for another process's write to finish instead of failing at once.
  const adapter = new PrismaBetterSQLite3({ url: `file:${sqliteFilePath(url)}`, timeout: 15_000 });
  // One connection per client: queries outside a transaction must not run inside an open one.
  return new PrismaClient({ adapter: serializeConnection(adapter) });
}
