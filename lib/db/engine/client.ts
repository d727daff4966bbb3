/*
 * How lib/db reaches the database. An exported data-access function gets the client itself with
 * db(); its callers pass none. A helper meant to run inside a caller's transaction takes that
 * transaction client explicitly, named `tx`. Two kinds take the connection they run on as their
 * first argument instead: the raw statements of dialect*.ts (run on the client, a transaction or
 * an import's own SQLite connection) and the tools that work on a database their caller names
 * (copy.ts, migrate.ts: another database than the app's).
 */
import "server-only";
import { serverSettings } from "@/lib/env";
import { createDatabase, type Database } from "./create-client";
import { prepareConnection } from "./dialect";

const globalForDb = globalThis as unknown as { threadlineDb?: { url: string; db: Database; ready: Promise<void> } };

/**
 * The app's one Prisma client (reused across dev hot reloads), with per-connection settings
 * applied before the first query.
 */
export async function db(): Promise<Database> {
  const url = serverSettings().databaseUrl;
  let entry = globalForDb.threadlineDb;
  if (!entry || entry.url !== url) {
    const client = createDatabase(url);
    entry = { url, db: client, ready: prepareConnection(client) };
    globalForDb.threadlineDb = entry;
  }
  await entry.ready;
  return entry.db;
}
