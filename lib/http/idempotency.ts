import "server-only";
import { claimIdempotencyKey, type IdempotencyClaim } from "@/lib/db/threads/idempotency";
import { IDEMPOTENCY_HEADER, parseIdempotencyKey, type IdempotentOperation } from "@/lib/domain/requests/idempotency";
import { maskedJson } from "./masking";

/** Set on an answer repeated from the store for a retried Idempotency-Key. */
const REPLAYED_HEADER = "Idempotency-Replayed";

/**
 * The one wrapper of the thread writes that take an Idempotency-Key header (turns, messages,
 * continue, forks, compactions with apply). Without the header the write just runs. With it, the
 * same request (operation and validated body) within 24 hours answers the first one's status and
 * JSON body again (masked, as every answer is), without writing; see lib/db/threads/idempotency.ts. `body`
 * is the validated request.
 *
 * The write's JSON answer is recorded, whatever its status: errors that wrote nothing are thrown
 * (and give the key back), so a returned error (a chat reply that failed after its message was
 * stored) is a result. A streamed answer calls claim.recordLater() and records its outcome itself.
 */
export async function idempotentWrite(
  request: Request,
  threadId: string,
  operation: IdempotentOperation,
  body: unknown,
  write: (claim: IdempotencyClaim | null) => Promise<Response>,
): Promise<Response> {
  const key = idempotencyKeyOf(request);
  if (key === null) return write(null);
  const started = await claimIdempotencyKey({ threadId, key, operation, body });
  if ("replay" in started) {
    // The record holds what the write answered before masking (an append records the stored turn).
    return maskedJson(started.replay.body, { status: started.replay.status, headers: { [REPLAYED_HEADER]: "true" } });
  }
  return started.claim.run(write, async (response) => ({ status: response.status, body: await response.clone().json() }));
}

/** The request's Idempotency-Key, or null without one; a 400 naming the header when it is malformed. */
function idempotencyKeyOf(request: Request): string | null {
  const raw = request.headers.get(IDEMPOTENCY_HEADER);
  return raw === null ? null : parseIdempotencyKey(raw);
}
