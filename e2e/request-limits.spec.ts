/**
 * Requests too large for the server, sent to the real one (scripts/server.mjs in front of the
 * production build): every refusal comes in the API's JSON error shape, pages' included, where Node
 * answered an oversized head with an empty 431 before. Raw sockets, so nothing between the test
 * and the server trims or refuses a request first.
 */
import net from "node:net";
import { SEEDED_URL } from "../playwright.config";
import { expect, test } from "./fixtures";

const TARGET = new URL(SEEDED_URL);

type Answer = { status: number; headers: Record<string, string>; body: string };

/** A chunked body's data (the app's own answers stream). */
function unchunked(raw: string): string {
  let out = "";
  for (let at = 0; ;) {
    const lineEnd = raw.indexOf("\r\n", at);
    const size = parseInt(raw.slice(at, lineEnd), 16);
    if (!size) return out;
    out += raw.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** Writes `head` on a new connection and reads the answer until the server closes it. */
function send(head: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(TARGET.port), TARGET.hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1"); // one character a byte, as chunk sizes count
      const split = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      const raw = text.slice(split + 4);
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: Buffer.from(headers["transfer-encoding"] === "chunked" ? unchunked(raw) : raw, "latin1").toString("utf8"),
      });
    });
    socket.write(head);
  });
}

const get = (target: string, headers: string[] = []) =>
  send([`GET ${target} HTTP/1.1`, `Host: ${TARGET.host}`, "Connection: close", ...headers, "", ""].join("\r\n"));

function expectApiError(answer: Answer, status: number, code: string): string {
  expect(answer.status, answer.body.slice(0, 300)).toBe(status);
  expect(answer.headers["content-type"]).toContain("application/json");
  const body = JSON.parse(answer.body);
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  return body.error.message;
}

test("a 64 KB query string answers 414 in the API's error shape, from an API route and from a page", async () => {
  const q = "x".repeat(64 * 1024);
  for (const path of ["/api/threads", "/threads"]) {
    const message = expectApiError(await get(`${path}?q=${q}`), 414, "request_too_large");
    expect(message, path).toContain("16,384");
  }
});

test("headers over 32 KB answer 431 in the same shape, and so do heads too large for Node's parser to read", async () => {
  const filler = Array.from({ length: 40 }, (_, i) => `X-Filler-${i}: ${"y".repeat(1000)}`);
  expect(expectApiError(await get("/api/threads?limit=1", filler), 431, "request_too_large")).toContain("32,768");
  expectApiError(await get("/threads", [`Cookie: a=${"z".repeat(40 * 1024)}`]), 431, "request_too_large");
  // Past what the parser reads (128 KB) Node refuses the request itself; the body is still JSON.
  expect(expectApiError(await get("/threads", [`X-Huge: ${"h".repeat(200 * 1024)}`]), 431, "request_too_large")).toContain("128 KB");
  expectApiError(await get(`/api/threads?q=${"q".repeat(200 * 1024)}`), 431, "request_too_large");
});

test("a request that is not HTTP answers 400 JSON; requests within the limits are answered by the app as before", async () => {
  expectApiError(await send("HELLO THERE\r\n\r\n"), 400, "bad_request");
  // A long query the API reads and refuses itself, with its own validation error.
  expectApiError(await get(`/api/threads?q=${"w".repeat(10_000)}`), 400, "validation_failed");
  const list = await get("/api/threads?limit=1");
  expect(list.status).toBe(200);
  expect(JSON.parse(list.body).items).toHaveLength(1);
});
