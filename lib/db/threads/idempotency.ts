import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_TTL_MS,
  idempotencyRequestText,
  idempotencyVerdict,
  type IdempotentOperation,
} from "@/lib/domain/requests/idempotency";
import { db } from "../engine/client";
import { databaseKind } from "../engine/create-client";
import { lockForWrite } from "../engine/dialect";
import type { Prisma } from "../generated/client";
import { WRITE_TRANSACTION } from "../engine/transactions";
import { quoteInput } from "@/lib/domain/secrets/quote";

/**
 * The Idempotency-Key store (rules in lib/domain/requests/idempotency.ts). A request with a key first
 * claims it: a row "pending" under (thread, key), so a concurrent retry answers 409 instead of
 * writing twice. The write then runs, and its answer is recorded ("done"); a retry within 24 hours
 * answers that record. A write that throws (it wrote nothing) gives the key back.
 *
 * The turns append records its answer in its own transaction: both commit or neither. The other
 * writes record it just after: a process that dies in between leaves the key pending, and a retry
 * answers 409 until IDEMPOTENCY_PENDING_ABANDONED_MS (15 minutes) have passed, then runs the write
 * again, which may then be done twice.
 */

/** An answer as stored: its HTTP status and JSON body. */
export type IdempotentResult = { status: number; body: unknown };

export type IdempotencyScope = { threadId: string; key: string; operation: IdempotentOperation; body: unknown };

/** Rows older than the TTL are deleted at most this often per process (they are ignored anyway). */
const CLEANUP_EVERY_MS = 60 * 60 * 1000;
const globalForCleanup = globalThis as unknown as { threadlineIdempotencyCleanup?: number };

/** A key this request holds, pending until its answer is recorded or the key is given back. */
export class IdempotencyClaim {
  private settled = false;
  private deferred = false;

  constructor(
    readonly threadId: string,
    readonly key: string,
    /** When it was claimed: written on the row, so a claim taken over after being abandoned no longer matches. */
    private readonly claimedAt: Date,
  ) {}

  private get pendingRow() {
    return { threadId: this.threadId, key: this.key, state: "pending", createdAt: this.claimedAt };
  }

  /**
   * Records the answer inside the write's transaction, so the write and its record commit
   * together. Throws (rolling the write back) when the claim was taken over meanwhile.
   */
  async recordIn(tx: Prisma.TransactionClient, result: IdempotentResult): Promise<void> {
    const recorded = await tx.idempotencyKey.updateMany({ where: this.pendingRow, data: doneData(result) });
    if (recorded.count === 0) {
      throw new AppError(
        "conflict",
        `${IDEMPOTENCY_HEADER} ${quoteInput(this.key)} was taken over by another request; this one wrote nothing`,
      );
    }
    this.settled = true;
  }

  /** Records the answer once it is known: a streamed reply's outcome. Never throws (the answer was already given). */
  async record(result: IdempotentResult): Promise<void> {
    this.settled = true;
    try {
      await (await db()).idempotencyKey.updateMany({ where: this.pendingRow, data: doneData(result) });
    } catch (error) {
      console.error("[threadline] could not record an Idempotency-Key's answer", error);
    }
  }

  /** The answer is recorded later with `record` (a streamed reply): `run` does not record it. */
  recordLater(): void {
    this.deferred = true;
  }

  /** Gives the key back: the request wrote nothing, so a retry may run it again. */
  async release(): Promise<void> {
    this.settled = true;
    try {
      await (await db()).idempotencyKey.deleteMany({ where: this.pendingRow });
    } catch (error) {
      console.error("[threadline] could not release an Idempotency-Key", error);
    }
  }

  /**
   * Runs the write under this claim: an answer is recorded (unless the write recorded it in its
   * transaction, or will record it later), a throw gives the key back and is rethrown.
   */
  async run<T>(
    write: (claim: IdempotencyClaim) => Promise<T>,
    resultOf: (value: T) => IdempotentResult | Promise<IdempotentResult>,
  ): Promise<T> {
    let value: T;
    try {
      value = await write(this);
    } catch (error) {
      // Matches only a row still pending under this claim: a write that recorded its answer keeps it.
      await this.release();
      throw error;
    }
    if (!this.settled && !this.deferred) await this.record(await resultOf(value));
    return value;
  }
}

function doneData(result: IdempotentResult) {
  return { state: "done", status: result.status, response: JSON.stringify(result.body) };
}

/**
 * Claims a key for a request, or answers the stored result of the same request (`replay`).
 * Throws a 409 for a request still in progress under the key, or a different request under it.
 * Race-free across processes: the read and the write are one transaction under the write lock.
 */
export async function claimIdempotencyKey(scope: IdempotencyScope): Promise<{ claim: IdempotencyClaim } | { replay: IdempotentResult }> {
  const client = await db();
  await cleanUpNowAndThen();
  const requestHash = createHash("sha256").update(idempotencyRequestText(scope.operation, scope.body)).digest("hex");
  const { threadId, key } = scope;
  return client.$transaction(async (tx) => {
    await lockForWrite(tx, databaseKind(client));
    const now = new Date();
    const existing = await tx.idempotencyKey.findUnique({ where: { threadId_key: { threadId, key } } });
    const pending = { requestHash, state: "pending", status: null, response: null, createdAt: now };
    if (!existing) {
      await tx.idempotencyKey.create({ data: { threadId, key, ...pending } });
    } else if (idempotencyVerdict(existing, requestHash, key, now) === "takeOver") {
      await tx.idempotencyKey.update({ where: { threadId_key: { threadId, key } }, data: pending });
    } else {
      const response = existing.response === null ? null : (JSON.parse(existing.response) as unknown);
      return { replay: { status: existing.status ?? 200, body: response } };
    }
    return { claim: new IdempotencyClaim(threadId, key, now) };
  }, WRITE_TRANSACTION);
}

/**
 * Runs a write under a key (or plainly, without one): the write's answer, or the stored answer
 * of the same earlier request with `replayed` set.
 */
export async function runIdempotent(
  scope: IdempotencyScope | null,
  write: (claim: IdempotencyClaim | null) => Promise<IdempotentResult>,
): Promise<IdempotentResult & { replayed: boolean }> {
  if (!scope) return { ...(await write(null)), replayed: false };
  const started = await claimIdempotencyKey(scope);
  if ("replay" in started) return { ...started.replay, replayed: true };
  return { ...(await started.claim.run(write, (result) => result)), replayed: false };
}

/** Deletes keys older than the TTL, at most once an hour per process. */
async function cleanUpNowAndThen(): Promise<void> {
  const now = Date.now();
  if (now - (globalForCleanup.threadlineIdempotencyCleanup ?? 0) < CLEANUP_EVERY_MS) return;
  globalForCleanup.threadlineIdempotencyCleanup = now;
  await deleteExpiredIdempotencyKeys(new Date(now));
}

/**
 * Deletes the keys that no longer count (older than 24 hours); answers how many.
 * @internal exported for its tests
 */
export async function deleteExpiredIdempotencyKeys(now = new Date()): Promise<number> {
  const client = await db();
  const deleted = await client.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS) } },
  });
  return deleted.count;
}
