import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../generated/client";
import { PrismaClient as PostgresPrismaClient } from "../generated-pg/client";
import { sqliteFilePath } from "../../env/database-url";
import { isPostgresUrl, postgresAdapter } from "./postgres-adapter";
import { keepNulCharacters } from "./postgres-text";
import { databaseLock, serializeConnection } from "./serialized-adapter";
import { checkpointSoon, checkpointsOffThread } from "./checkpoints";

/**
 * The app's Prisma client type. Both generated clients come from the same models (the PostgreSQL
 * schema is generated from the SQLite one), so the PostgreSQL client is used through this type.
 */
export type Database = PrismaClient;
export type DatabaseKind = "sqlite" | "postgres";

/** How long a writer waits for another process's write to finish before it fails. */
export const WRITE_WAIT_MS = 15_000;

/**
 * Kept on globalThis, as lib/db/engine/client.ts keeps the client: a production build bundles this module
 * into instrumentation's chunk and again into each route's, and the app's one client, created by
 * whichever copy ran first, must be known as PostgreSQL to every copy (else raw SQL goes out with
 * SQLite's `?` placeholders and fails).
 */
const globalForKinds = globalThis as unknown as { threadlineDatabaseKinds?: WeakMap<object, DatabaseKind> };
const kinds = (globalForKinds.threadlineDatabaseKinds ??= new WeakMap<object, DatabaseKind>());

/** Which database a client (from createDatabase) talks to: raw SQL differs between them. */
export function databaseKind(db: object): DatabaseKind {
  return kinds.get(db) ?? "sqlite";
}

/**
 * A Prisma client for DATABASE_URL: the embedded SQLite file, or PostgreSQL for a postgres:// URL.
 * Unguarded (no "server-only") so scripts, the seed and test fixtures can use it; the app goes
 * through lib/db/engine/client.ts.
 */
export function createDatabase(url: string): Database {
  if (isPostgresUrl(url)) {
    const client = new PostgresPrismaClient({ adapter: keepNulCharacters(postgresAdapter(url)) }) as unknown as Database;
    kinds.set(client, "postgres");
    return client;
  }
  if (!url.startsWith("file:")) throw new Error(`DATABASE_URL must be a file: (SQLite) or postgres:// URL`);
  const file = sqliteFilePath(url);
  const adapter = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: WRITE_WAIT_MS });
  // One connection per client: queries outside a transaction must not run inside an open one.
  // Its writes leave the log's checkpoints to the worker too (prepareConnection), as imports do.
  const afterWrite = checkpointsOffThread() ? () => checkpointSoon(file) : undefined;
  const client = new PrismaClient({ adapter: serializeConnection(adapter, databaseLock(file), afterWrite) });
  kinds.set(client, "sqlite");
  return client;
}
