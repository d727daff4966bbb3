import "server-only";
import { db } from "./client";
import { databaseKind } from "./create-client";
import { lockForWrite } from "./dialect";
import { WRITE_TRANSACTION } from "./transactions";

/** How long a claim lasts without renewal: a reply whose process died frees its thread after this. */
const REPLY_LEASE_MS = 30_000;

/**
 * Claims the thread for a reply, unless another reply holds a lease that has not run out (in this
 * process or any other sharing the database). True when claimed.
 */
export async function claimReplyLease(threadId: string, owner: string): Promise<boolean> {
  const client = await db();
  return client.$transaction(async (tx) => {
    await lockForWrite(tx, databaseKind(client)); // read, then write: two claims must not both see it free
    const now = new Date();
    const held = await tx.replyLease.findUnique({ where: { threadId } });
    if (held && held.expiresAt > now) return false;
    const lease = { owner, expiresAt: new Date(now.getTime() + REPLY_LEASE_MS), stopRequested: false };
    await tx.replyLease.upsert({ where: { threadId }, create: { threadId, ...lease }, update: lease });
    return true;
  }, WRITE_TRANSACTION);
}

/**
 * Extends the lease by REPLY_LEASE_MS. `held` is false when it was lost (it ran out and another
 * reply claimed the thread); `stopRequested` when another process asked this reply to stop.
 */
export async function renewReplyLease(threadId: string, owner: string): Promise<{ held: boolean; stopRequested: boolean }> {
  const client = await db();
  const renewed = await client.replyLease.updateMany({
    where: { threadId, owner },
    data: { expiresAt: new Date(Date.now() + REPLY_LEASE_MS) },
  });
  if (renewed.count === 0) return { held: false, stopRequested: false };
  const lease = await client.replyLease.findUnique({ where: { threadId }, select: { owner: true, stopRequested: true } });
  return { held: lease?.owner === owner, stopRequested: lease?.owner === owner && lease.stopRequested };
}

/** Asks the reply holding the thread, in whichever process, to stop. False when none holds it. */
export async function requestReplyStop(threadId: string): Promise<boolean> {
  const client = await db();
  const asked = await client.replyLease.updateMany({ where: { threadId, expiresAt: { gt: new Date() } }, data: { stopRequested: true } });
  return asked.count > 0;
}

export async function releaseReplyLease(threadId: string, owner: string): Promise<void> {
  const client = await db();
  await client.replyLease.deleteMany({ where: { threadId, owner } });
}
