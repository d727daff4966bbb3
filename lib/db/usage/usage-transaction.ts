import "server-only";
import { serverSettings } from "@/lib/env";
import type { Database, DatabaseKind } from "../engine/create-client";
import { lockForWrite } from "../engine/dialect";
import { WRITE_TRANSACTION } from "../engine/transactions";
import { withImportTransaction } from "../imports/import-writer";
import type { Tx } from "./usage-derived";

/**
 * Runs one of the refresh's transactions holding the write lock: on SQLite on the import
 * connection (withImportTransaction), whose raw statements cost a first sync's sums a second less
 * than Prisma's; on PostgreSQL through Prisma, with the advisory lock every writer takes.
 */
export function writeTransaction<T>(client: Database, kind: DatabaseKind, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (kind === "sqlite") return withImportTransaction(serverSettings().databaseUrl, work);
  return client.$transaction(async (tx) => {
    await lockForWrite(tx, kind);
    return work(tx);
  }, WRITE_TRANSACTION);
}
