import "server-only";
import { DEMO_SOURCE } from "@/lib/demo/demo-data";
import { db } from "../db/engine/client";
import { threadsWritten } from "../db/threads/thread-writes";
import { WRITE_TRANSACTION } from "../db/engine/transactions";

/** How many demo threads (source "demo", seeded by lib/demo/seeding.ts) the database holds. */
export async function countDemoThreads(): Promise<number> {
  return (await db()).thread.count({ where: { source: DEMO_SOURCE } });
}

/**
 * Deletes the demo threads, and only them (source "demo"), with what was written for them, as a
 * purge does (compaction jobs and runs, Idempotency-Key answers); answers how many went.
 */
export async function removeDemoThreads(): Promise<number> {
  const client = await db();
  const ids = await client.$transaction(async (tx) => {
    const found = (await tx.thread.findMany({ where: { source: DEMO_SOURCE }, select: { id: true } })).map((thread) => thread.id);
    if (found.length === 0) return found;
    await tx.thread.deleteMany({ where: { id: { in: found }, source: DEMO_SOURCE } });
    await tx.compactionJob.deleteMany({ where: { threadId: { in: found } } });
    await tx.compactionRun.deleteMany({ where: { threadId: { in: found } } });
    await tx.idempotencyKey.deleteMany({ where: { threadId: { in: found } } });
    return found;
  }, WRITE_TRANSACTION);
  if (ids.length > 0) threadsWritten(ids);
  return ids.length;
}
