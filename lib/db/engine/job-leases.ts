import "server-only";
import { db } from "./client";
import { databaseKind } from "./create-client";
import { lockForWrite } from "./dialect";
import { WRITE_TRANSACTION } from "./transactions";

/**
 * Leases on background jobs that one instance at a time runs on a shared database (the sync of
 * followed sources), as lib/db/engine/reply-leases.ts does for a thread's reply: claimed in a transaction
 * under the write lock, renewed while the job runs, released when it ends; a holder that died frees
 * the job when its lease runs out.
 */

/** Claims `name` for `owner` for `ms`, unless another owner holds a lease that has not run out. True when claimed (or already held by `owner`). */
export async function claimJobLease(name: string, owner: string, ms: number): Promise<boolean> {
  const client = await db();
  return client.$transaction(async (tx) => {
    await lockForWrite(tx, databaseKind(client)); // read, then write: two claims must not both see it free
    const now = new Date();
    const held = await tx.jobLease.findUnique({ where: { name } });
    if (held && held.owner !== owner && held.expiresAt > now) return false;
    const lease = { owner, expiresAt: new Date(now.getTime() + ms) };
    await tx.jobLease.upsert({ where: { name }, create: { name, ...lease }, update: lease });
    return true;
  }, WRITE_TRANSACTION);
}

/** Extends `owner`'s lease by `ms`; false when it was lost (it ran out and another owner claimed it). */
export async function renewJobLease(name: string, owner: string, ms: number): Promise<boolean> {
  const client = await db();
  const renewed = await client.jobLease.updateMany({ where: { name, owner }, data: { expiresAt: new Date(Date.now() + ms) } });
  return renewed.count > 0;
}

export async function releaseJobLease(name: string, owner: string): Promise<void> {
  const client = await db();
  await client.jobLease.deleteMany({ where: { name, owner } });
}
