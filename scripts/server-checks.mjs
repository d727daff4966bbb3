// What scripts/server.mjs does to a request before Next.js sees it: the sizes it accepts, its
// refusals in the API's error shape ({"error": {"code", "message"}}), and the peer header.
// Node built-ins only.
import { STATUS_CODES } from "node:http";

/** The connection's address, as the server records it for the app (lib/auth/sign-in-limits.ts reads it). */
export const PEER_HEADER = "x-threadline-peer";

/**
 * Drops every x-threadline-* header a client sent (they are the server's own) and records the
 * connection's address in PEER_HEADER, so nothing downstream can be handed a forged one.
 * @param {Record<string, string | string[] | undefined>} headers Node's parsed headers, changed in place
 * @param {string | undefined} remoteAddress
 */
export function recordPeer(headers, remoteAddress) {
  for (const name of Object.keys(headers)) if (name.startsWith("x-threadline-")) delete headers[name];
  if (remoteAddress) headers[PEER_HEADER] = remoteAddress;
}

/** The request target (path and query) may be this many bytes; a longer one answers 414. */
export const MAX_URL_BYTES = 16 * 1024;
/** The header lines together (names, values, ": " and line ends) may be this many bytes; more answers 431. */
export const MAX_HEADER_BYTES = 32 * 1024;
/**
 * What Node's HTTP parser reads of a request's head (request line and headers) before it refuses
 * the request itself (HPE_HEADER_OVERFLOW, answered by clientErrorResponse). Well above the two
 * limits, so that a URL or headers over them get their own answer from the server.
 */
export const PARSER_MAX_HEADER_BYTES = 128 * 1024;

const bytes = (n) => n.toLocaleString("en-US");

/** The API's error body. */
export function errorBody(code, message) {
  return JSON.stringify({ error: { code, message } });
}

/**
 * 414 for a request target over MAX_URL_BYTES, 431 for headers over MAX_HEADER_BYTES, else null.
 * Node hands both as latin1 strings, one character per byte received.
 * @param {string} url
 * @param {string[]} rawHeaders
 * @returns {{ status: 414 | 431, code: string, message: string } | null}
 */
export function oversizedRequest(url, rawHeaders) {
  if (url.length > MAX_URL_BYTES) {
    return {
      status: 414,
      code: "request_too_large",
      message: `The URL is ${bytes(url.length)} bytes; this server accepts at most ${bytes(MAX_URL_BYTES)} (16 KB).`,
    };
  }
  let size = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) size += rawHeaders[i].length + 2 + (rawHeaders[i + 1] ?? "").length + 2;
  if (size > MAX_HEADER_BYTES) {
    return {
      status: 431,
      code: "request_too_large",
      message: `The request's headers are ${bytes(size)} bytes together; this server accepts at most ${bytes(MAX_HEADER_BYTES)} (32 KB).`,
    };
  }
  return null;
}

/**
 * The answer to a request Node's parser refused (the server's 'clientError'), as Node's own
 * default picks the status, but with the API's JSON body instead of an empty one.
 * @param {string | undefined} errorCode
 * @returns {{ status: number, code: string, message: string }}
 */
export function parserRefusal(errorCode) {
  switch (errorCode) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        code: "request_too_large",
        message: `The request's URL and headers are over ${bytes(PARSER_MAX_HEADER_BYTES)} bytes (128 KB), the most this server reads.`,
      };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, code: "payload_too_large", message: "The request body's chunk extensions are too large." };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, code: "request_timeout", message: "The request did not arrive in time." };
    default:
      return { status: 400, code: "bad_request", message: "The request is not valid HTTP." };
  }
}

/** The headers of every refusal: JSON, and the connection closed (the rest of the request is not read). */
export function refusalHeaders(body) {
  return {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(body)),
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
    connection: "close",
  };
}

/** A whole HTTP/1.1 response as bytes to write to a socket (a parser error has no response object). */
export function rawRefusal({ status, code, message }) {
  const body = errorBody(code, message);
  const head = Object.entries(refusalHeaders(body))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n${head}\r\n${body}`;
}
