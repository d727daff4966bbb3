import { AppError } from "../errors";
import { quoteInput } from "../secrets/quote";

/**
 * Idempotency keys: a client that retries a write (after a timeout, a dropped connection) sends
 * the same Idempotency-Key, and the retry answers the first request's result instead of writing
 * again. These are the rules; the store is lib/db/threads/idempotency.ts.
 */

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long a key answers its first result; after that it may be used again. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A key still "pending" this long after its request began belongs to a process that crashed (or
 * lost its database connection) between writing and recording the result: it may be taken over.
 * Longer than any request runs (a chat reply may stream for minutes; it stops after 2 idle minutes).
 * @internal exported for its tests
 */
export const IDEMPOTENCY_PENDING_ABANDONED_MS = 15 * 60 * 1000;

/** The writes that take a key; each hashes its operation with the body, so one key cannot serve two. */
export type IdempotentOperation = "append_turn" | "chat_message" | "continue" | "fork" | "compaction_apply";

/** The key as given, or a 400 naming `field` when it is not 1-255 printable ASCII characters. */
export function parseIdempotencyKey(raw: unknown, field: string = IDEMPOTENCY_HEADER): string {
  const why =
    typeof raw !== "string"
      ? "must be a string"
      : raw.length === 0
        ? "must not be empty"
        : raw.length > MAX_IDEMPOTENCY_KEY_LENGTH
          ? `must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`
          : /^[\x20-\x7e]+$/.test(raw)
            ? null
            : "must be printable ASCII (characters 0x20-0x7E)";
  if (why === null) return raw as string;
  throw new AppError("validation_failed", `${field}: ${why}`, [{ field, message: why }]);
}

/**
 * JSON with object keys sorted at every level, so key order and spacing do not change a request's hash.
 * @internal exported for its tests
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

/**
 * What a key is bound to: the operation and its validated request body (defaults filled in), as
 * one text; the store keeps its SHA-256 (lib/db/threads/idempotency.ts).
 */
export function idempotencyRequestText(operation: IdempotentOperation, body: unknown): string {
  return `${operation}\n${canonicalJson(body ?? null)}`;
}

export type IdempotencyRecord = { requestHash: string; state: "pending" | "done" | string; createdAt: Date };

/**
 * What a request under a key already in the store does: `takeOver` when that row no longer counts
 * (older than a day, or pending and abandoned), `replay` the stored result, or a 409 for a request
 * still running or a different request under the same key.
 */
export function idempotencyVerdict(existing: IdempotencyRecord, requestHash: string, key: string, now: Date): "takeOver" | "replay" {
  const age = now.getTime() - existing.createdAt.getTime();
  if (age >= IDEMPOTENCY_KEY_TTL_MS) return "takeOver";
  if (existing.requestHash !== requestHash) {
    throw new AppError(
      "conflict",
      `${IDEMPOTENCY_HEADER} ${quoteInput(key)} was already used in this thread for a different request (another endpoint or body) in the last 24 hours; use a new key for a new request`,
      { field: IDEMPOTENCY_HEADER, reason: "different_request" },
    );
  }
  if (existing.state === "done") return "replay";
  if (age >= IDEMPOTENCY_PENDING_ABANDONED_MS) return "takeOver";
  throw new AppError(
    "conflict",
    `The request with ${IDEMPOTENCY_HEADER} ${quoteInput(key)} is still in progress; retry once it has finished to get its result`,
    { field: IDEMPOTENCY_HEADER, reason: "in_progress" },
  );
}
