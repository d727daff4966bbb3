import { randomUUID } from "node:crypto";
import { retryAfterSeconds, type SignInLimit } from "@/lib/domain/requests/sign-in";
import { db } from "../engine/client";

/**
 * Per-account sign-in counts (SIGN_IN_ACCOUNT_LIMIT), kept in Better Auth's RateLimit table beside
 * its per-address rows, so every instance on the database shares them. Each of our rows holds a
 * fixed window: `count` attempts and, in `lastRequest`, the window's end (ms). Better Auth prunes
 * rows whose lastRequest is more than a minute in the past, which removes ours once their window
 * is over and not before. Our keys start with "sign-in-account:"; Better Auth's start with an
 * address, so the two never meet.
 *
 * An attempt is counted before the password is checked (so parallel guesses cannot all pass a
 * check made before any of them failed) and handed back when it turns out not to be a wrong
 * password (releaseSignInAttempt). Every step is one conditional statement on the row, so two
 * instances counting at once cannot both take the last place.
 */

export type SignInReservation = { allowed: true; windowEnd: bigint } | { allowed: false; retryAfter: number };

/** Rounds of read-then-update before giving up: another instance would have to change the row every time. */
const MAX_ROUNDS = 10;

/** Counts one attempt for `key`, or says how long the key is locked (seconds). */
export async function reserveSignInAttempt(key: string, limit: SignInLimit, now = Date.now()): Promise<SignInReservation> {
  const client = await db();
  const at = BigInt(now);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const row = await client.rateLimit.findUnique({ where: { key }, select: { count: true, lastRequest: true } });
    if (!row) {
      const windowEnd = at + BigInt(limit.window * 1000);
      try {
        await client.rateLimit.create({ data: { id: randomUUID(), key, count: 1, lastRequest: windowEnd } });
        return { allowed: true, windowEnd };
      } catch {
        continue; // another attempt created it first (the key is unique): count on its row
      }
    }
    if (row.lastRequest > at) {
      if (row.count >= limit.max) return { allowed: false, retryAfter: retryAfterSeconds(Number(row.lastRequest), now) };
      // Only in the window read, and only while there is room.
      const counted = await client.rateLimit.updateMany({
        where: { key, lastRequest: row.lastRequest, count: { lt: limit.max } },
        data: { count: { increment: 1 } },
      });
      if (counted.count === 1) return { allowed: true, windowEnd: row.lastRequest };
    } else {
      // The window is over: this attempt starts the next one.
      const windowEnd = at + BigInt(limit.window * 1000);
      const restarted = await client.rateLimit.updateMany({
        where: { key, lastRequest: row.lastRequest },
        data: { count: 1, lastRequest: windowEnd },
      });
      if (restarted.count === 1) return { allowed: true, windowEnd };
    }
  }
  throw new Error(`The sign-in count for one account changed ${MAX_ROUNDS} times while it was being read; try again.`);
}

/** Hands back an attempt counted in the window ending at `windowEnd` (a later window is left alone). */
export async function releaseSignInAttempt(key: string, windowEnd: bigint): Promise<void> {
  const client = await db();
  await client.rateLimit.updateMany({ where: { key, lastRequest: windowEnd, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}
