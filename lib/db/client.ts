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
