import "server-only";
import { maskDeep, maskSecrets } from "@/lib/domain/secrets/detect";

/**
 * Secrets in API answers, in one place: every answer that leaves `handleRoute` (and the MCP
 * endpoint) goes through `maskResponse`, so a route that forgets to mask still answers masks.
 * A route masks its own answer faster with `maskedJson` (no parsing back), and a route whose
 * answer must carry values says so with `unmasked(response, reason)`: the reveal endpoint and
 * the lossless export. `app/api/secrets/masking.integration.test.ts` calls every route and fails
 * on a value in any answer that is not one of those.
 */

/** Answers already masked by maskedJson, or let through on purpose by unmasked(). */
const settled = new WeakSet<Response>();

/** A JSON answer with every secret in it masked (what Response.json would answer, masked). */
export function maskedJson(value: unknown, init?: ResponseInit): Response {
  const response = Response.json(maskDeep(value), init);
  settled.add(response);
  return response;
}

/**
 * An answer that carries secrets' values on purpose, left as it is. `reason` says why, for the
 * reader of the route (and of this call): the only callers are the reveal endpoint and the
 * lossless export.
 */
export function unmasked(response: Response, reason: string): Response {
  if (reason.trim() === "") throw new Error("unmasked: say why this answer may carry secrets");
  settled.add(response);
  return response;
}

/**
 * The answer with every secret masked: JSON value by value (so it stays JSON, and a value's text
 * is masked as the pages mask it), other text as a whole. Streams (server-sent events) and
 * binary bodies are left to their writer: an event stream masks each event's data as it writes it.
 */
export async function maskResponse(response: Response): Promise<Response> {
  if (settled.has(response) || response.body === null) return response;
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const json = /[/+]json\b/.test(type);
  if (!json && (!type.startsWith("text/") || type.startsWith("text/event-stream"))) return response;
  const text = await response.text();
  let body: string;
  if (json) {
    try {
      body = JSON.stringify(maskDeep(JSON.parse(text) as unknown));
    } catch {
      body = maskSecrets(text);
    }
  } else body = maskSecrets(text);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
