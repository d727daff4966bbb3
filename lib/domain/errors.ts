/** Expected failures, each mapped to one HTTP status by the API layer. */
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
  | "provider_failed";

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

export const HTTP_STATUS: Record<AppErrorCode, number> = {
  not_found: 404,
  expired: 404,
  invalid_json: 400,
  validation_failed: 400,
  turn_limit: 409,
  conflict: 409,
  payload_too_large: 413,
  unsupported_format: 400,
  compaction_refused: 422,
  summarizer_failed: 502,
  provider_failed: 424,
};
