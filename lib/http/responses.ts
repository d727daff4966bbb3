import "server-only";
import type { z } from "zod";
import { AppError, type AppErrorCode, type ErrorDetails } from "@/lib/domain/errors";
import { normalizeId } from "@/lib/domain/ids";
import { serverSettings } from "@/lib/env";
import { parseOrThrow } from "@/lib/domain/parse";
import { quoteInput } from "@/lib/domain/secrets/quote";
import { queryObject } from "@/lib/validation/query";
import { maskResponse } from "./masking";

/** The HTTP status of each expected failure: the API layer's choice, not the services'. */
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
  unauthorized: 401,
  forbidden: 403,
};

/** Every API error has this one shape: {error: {code, message, details?}}. */
export function errorResponse(status: number, code: AppErrorCode | "internal", message: string, details?: ErrorDetails): Response {
  return Response.json({ error: details === undefined ? { code, message } : { code, message, details } }, { status });
}

/**
 * Runs a route body and maps failures to the error shape: expected ones (AppError) to their
 * status, anything else to a 500 that names no internals (the stack goes to the server log only).
 * Whatever it answers, secrets in it are masked (lib/http/masking.ts): answers a route built
 * with `maskedJson` or let through with `unmasked` are left as they are.
 */
export async function handleRoute(run: () => Promise<Response>): Promise<Response> {
  return maskResponse(await answerOf(run));
}

async function answerOf(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) return errorResponse(HTTP_STATUS[error.code], error.code, error.message, error.details);
    console.error("[threadline] unexpected error in API route", error);
    return errorResponse(500, "internal", "Internal error; see the server log.");
  }
}

/** The thread id from the URL, or a 404 before any query when it is not a UUID. */
export function threadIdFrom(raw: string): string {
  const id = normalizeId(raw);
  if (!id) throw new AppError("not_found", `Thread ${quoteInput(raw)} not found: thread ids are UUIDs`);
  return id;
}

/** Reads the body as text, refusing more than THREADLINE_MAX_BODY_BYTES without buffering it all. */
export async function readBodyText(request: Request): Promise<string> {
  const limit = serverSettings().maxBodyBytes.value;
  const tooLarge = () =>
    new AppError("payload_too_large", `Request body is larger than the limit of ${limit} bytes (THREADLINE_MAX_BODY_BYTES)`);
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Parses JSON text, naming the position of a syntax error. A lone UTF-16 surrogate ("\ud800"
 * without its pair) is valid JSON syntax but not Unicode text: the database layer cannot bind it
 * (it failed there with a 500), so it is refused here as invalid JSON.
 */
export function parseJsonText(text: string, what = "Request body"): unknown {
  if (text.trim() === "") throw new AppError("invalid_json", `${what} is empty; expected JSON`);
  // Only a \uD800-\uDFFF escape can produce a lone surrogate (decoded UTF-8 never does).
  const reviver = /\\u[dD][89a-fA-F]/.test(text) ? refuseLoneSurrogates(what) : undefined;
  let value: unknown;
  try {
    value = JSON.parse(text, reviver);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("invalid_json", `${what} is not valid JSON: ${error instanceof SyntaxError ? syntaxErrorOf(error) : "unparseable"}`);
  }
  // JSON.parse copes with any depth, but validation recurses and overflowed the stack (a 500) on
  // some thousand levels. A text too short for MAX_JSON_DEPTH + 1 bracket pairs is not walked.
  if (text.length > 2 * MAX_JSON_DEPTH && nestingExceeds(value, MAX_JSON_DEPTH)) {
    throw new AppError("invalid_json", `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (the limit)`);
  }
  return value;
}

/**
 * A JSON syntax error's message without the excerpt of the text V8 puts in some ("Unexpected token
 * 'g', "ghp_abcdef"... is not valid JSON"): the first ten characters of a secret are not
 * recognizable as one, so masking the answer would not hide them.
 */
function syntaxErrorOf(error: SyntaxError): string {
  return error.message.replace(/(?:^|,? )".*"(?:\.\.\.)? is not valid JSON$/s, "").trim() || "unexpected text";
}

/** Deepest nesting of arrays and objects a request body may have; real documents use under 15. */
const MAX_JSON_DEPTH = 64;

/** Whether arrays and objects nest deeper than `limit`; iterative (no recursion to overflow), stops early. */
function nestingExceeds(root: unknown, limit: number): boolean {
  const stack: [object, number][] = typeof root === "object" && root !== null ? [[root, 1]] : [];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [value, depth] = entry;
    if (depth > limit) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function refuseLoneSurrogates(what: string) {
  return (key: string, value: unknown): unknown => {
    if (!key.isWellFormed() || (typeof value === "string" && !value.isWellFormed())) {
      throw new AppError(
        "invalid_json",
        `${what} is not valid Unicode text: the ${key.isWellFormed() ? "value of" : "key"} ${quoteInput(key)} holds a lone UTF-16 surrogate escape (\\uD800-\\uDFFF without its pair)`,
      );
    }
    return value;
  };
}

export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return parseOrThrow(schema, parseJsonText(await readBodyText(request)));
}

/** The request's query parameters as `schema` reads them, each given once (lib/validation/query.ts). */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  return parseOrThrow(schema, queryObject(new URL(request.url).searchParams));
}
