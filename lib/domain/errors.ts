/** Expected failures; the API layer maps each to one HTTP status (lib/http/responses.ts HTTP_STATUS). */
export type AppErrorCode =
  | "not_found"
  | "expired"
  | "invalid_json"
  | "validation_failed"
  | "turn_limit"
  | "conflict"
  | "payload_too_large"
  /** An import whose file is in no supported format (or not valid in the one asked for). */
  | "unsupported_format"
  /** A compaction a guard refuses: it would not shrink the history, or it changes nothing. */
  | "compaction_refused"
  /** The LLM summariser failed (network, timeout, rate limit, empty output...). */
  | "summarizer_failed"
  /** The chat model's provider failed (the user's turn is kept, marked unanswered). */
  | "provider_failed"
  /** Sign-in is on and the request has no valid session or API token. */
  | "unauthorized"
  /** Signed in, but the action is not this person's to take (an admin's, or another person's token). */
  | "forbidden";

export type ErrorDetails = Record<string, unknown> | unknown[];

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: ErrorDetails;
  constructor(code: AppErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }
}

/** Why a call to a model provider failed. */
export type LlmErrorKind = "config" | "network" | "timeout" | "rate-limit" | "auth" | "empty" | "cancelled" | "provider";
