import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client";
import { sqliteFilePath } from "./database-url";
import { databaseLock, serializeConnection } from "./serialized-adapter";

export type Database = PrismaClient;

/** How long a writer waits for another process's write to finish before it fails. */
export const WRITE_WAIT_MS = 15_000;

/**
 * A Prisma client over the embedded SQLite file. Unguarded (no "server-only") so scripts, the
 * seed and test fixtures can use it; the app goes through lib/db/client.ts.
 */
export function createDatabase(url: string): Database {
  if (!url.startsWith("file:")) {
    throw new Error("Only SQLite (file:) URLs are supported so far; PostgreSQL support is tracked separately.");
  }
  const file = sqliteFilePath(url);
  const adapter = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: WRITE_WAIT_MS });
  // One connection per client: queries outside a transaction must not run inside an open one.
  return new PrismaClient({ adapter: serializeConnection(adapter, databaseLock(file)) });
}
