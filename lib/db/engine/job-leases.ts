import "server-only";
import { randomUUID } from "node:crypto";
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { db } from "./client";
import { databaseKind } from "./create-client";
import { lockForWrite } from "./dialect";
import { WRITE_TRANSACTION } from "./transactions";

/**
 * Leases on background jobs that one instance at a time runs on a shared database (the sync of
 * followed sources), as lib/db/engine/reply-leases.ts does for a thread's reply: claimed in a transaction
 * under the write lock, renewed while the job runs, released when it ends; a holder that died frees
 * the job when its lease runs out, or at once when it was a process of this machine that is gone.
 */

/**
 * A lease owner's name for this process: its machine, process namespace and pid, then a random
 * part (one process may run several holders). A server stopped with Ctrl-C, killed or crashed
 * mid-sync cannot release its lease; the server started after it on the same machine sees the
 * holder is gone and claims at once, rather than showing "held elsewhere" for a minute.
 */
export function newLeaseOwner(): string {
  return [hostname(), PID_NAMESPACE, process.pid, randomUUID()].join(" ");
}

/** Containers on one host can share a host name and reuse pids: a holder is judged only within the same pid namespace. */
const PID_NAMESPACE = (() => {
  try {
    return readlinkSync("/proc/self/ns/pid").replace(/\s/g, "");
  } catch {
    return "-"; // no /proc (macOS): the host name and pid decide
  }
})();

/** True when `owner` names a process of this machine and namespace that no longer runs. */
function holderIsGone(owner: string): boolean {
  const [host, namespace, pid] = owner.split(" ");
  if (host !== hostname() || namespace !== PID_NAMESPACE || !/^\d+$/.test(pid ?? "")) return false;
  if (Number(pid) === process.pid) return false; // this process: alive, another of its holders
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    // EPERM: the process runs under another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Claims `name` for `owner` for `ms`, unless another owner holds a lease that has not run out. True when claimed (or already held by `owner`). */
export async function claimJobLease(name: string, owner: string, ms: number): Promise<boolean> {
  const client = await db();
  return client.$transaction(async (tx) => {
    await lockForWrite(tx, databaseKind(client)); // read, then write: two claims must not both see it free
    const now = new Date();
    const held = await tx.jobLease.findUnique({ where: { name } });
    if (held && held.owner !== owner && held.expiresAt > now && !holderIsGone(held.owner)) return false;
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
