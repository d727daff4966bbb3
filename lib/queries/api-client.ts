/**
 * Client-safe: the one way browser code calls Threadline's REST API. Every API error has one shape,
 * `{error: {code, message, details?}}` (lib/http/responses.ts); a failed call throws an ApiError
 * carrying it, so callers show `error.message` and branch on `status` or `code`, never on a body
 * they parse themselves.
 */

/** A failed API call: the API's own error, or one that stands in for it (no JSON; no answer at all: status 0, code "unreachable"). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: unknown = undefined,
    /** The answer's Retry-After (a 429 says how long to wait), when it had one. */
    readonly retryAfter: string | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** A guard's or summariser's failure kind, when the details name one (compaction refusals). */
  get kind(): string | null {
    const details = this.details;
    if (!details || typeof details !== "object" || Array.isArray(details)) return null;
    const { kind, guard } = details as { kind?: unknown; guard?: unknown };
    return typeof kind === "string" ? kind : typeof guard === "string" ? guard : null;
  }
}

/** The ApiError a response stands for: its body's error when it has the API's shape, else `fallback`. */
export function apiErrorOf(status: number, body: unknown, fallback: string, retryAfter: string | null = null): ApiError {
  const error = body && typeof body === "object" ? (body as { error?: unknown }).error : undefined;
  if (error && typeof error === "object") {
    const { message, code, details } = error as { message?: unknown; code?: unknown; details?: unknown };
    if (typeof message === "string") return new ApiError(message, status, typeof code === "string" ? code : "unknown", details, retryAfter);
  }
  return new ApiError(fallback, status, "unknown", undefined, retryAfter);
}

export type ApiRequest = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is (a File streams), as application/octet-stream. */
  raw?: BodyInit;
  signal?: AbortSignal;
  /** The message when the answer carries none (not JSON: a proxy's page, an empty body). */
  fallback?: string;
};

/**
 * The ApiError a failed response stands for, read from its body (the one reader of error answers).
 * @internal exported for its tests
 */
export async function readApiError(response: Response, fallback = `The server answered HTTP ${response.status}.`): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  return apiErrorOf(response.status, body, fallback, response.headers.get("retry-after"));
}

/**
 * Sends a request to the API and answers the response once it is 2xx, its body unread; throws
 * ApiError for any other answer. `accept` names what the caller reads (JSON, or an event stream).
 */
export async function apiResponse(path: string, request: ApiRequest = {}, accept = "application/json"): Promise<Response> {
  const { method = request.json !== undefined || request.raw !== undefined ? "POST" : "GET", json, raw, signal } = request;
  const contentType = json !== undefined ? "application/json" : raw !== undefined ? "application/octet-stream" : null;
  const response = await fetch(path, {
    method,
    cache: "no-store",
    signal,
    headers: { accept, ...(contentType ? { "content-type": contentType } : {}) },
    ...(json !== undefined ? { body: JSON.stringify(json) } : raw !== undefined ? { body: raw } : {}),
  }).catch((error: unknown) => {
    // An abort stays what it is (React Query and Stop tell it by the signal); no answer at all is said as one sentence.
    if (signal?.aborted) throw error;
    throw new ApiError("Could not reach the Threadline server.", 0, "unreachable");
  });
  if (!response.ok) throw await readApiError(response, request.fallback);
  return response;
}

/** Calls the API and answers its JSON (null for an empty answer, a 204); throws ApiError for any answer that is not 2xx. */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const response = await apiResponse(path, request);
  return (await response.json().catch(() => null)) as T;
}
