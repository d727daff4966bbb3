/**
 * The checks scripts/server.mjs runs before Next.js sees a request, on a real Node HTTP server
 * (its parser included) with a stand-in for Next.js that answers with the headers it was given.
 * The end-to-end suite sends the same requests to the real app (e2e/request-limits.spec.ts).
 */
import net from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedServer, KEEP_ALIVE_MS } from "./server.mjs";
import { MAX_HEADER_BYTES, MAX_URL_BYTES, oversizedRequest, parserRefusal, PARSER_MAX_HEADER_BYTES, rawRefusal } from "./server-checks.mjs";

let server: Server;
let port: number;
let handled = 0;

/** Sends `head` (and nothing else) on a new connection; the answer, read until the server closes it. */
function send(head: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [top = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = top.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
    socket.write(head);
  });
}

const get = (target: string, headers: string[] = []) =>
  send([`GET ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close", ...headers, "", ""].join("\r\n"));

function expectRefusal(answer: { status: number; headers: Record<string, string>; body: string }, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body);
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.message as string;
}

beforeAll(async () => {
  server = checkedServer(async (req, res) => {
    handled++;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(req.headers));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the peer header", () => {
  it("is the connection's address; a client's own x-threadline-* headers never get through", async () => {
    const answer = await get("/api/threads", [
      "X-Threadline-Peer: 203.0.113.9",
      "x-threadline-client: 198.51.100.1",
      "X-Forwarded-For: 10.0.0.1",
    ]);
    expect(answer.status).toBe(200);
    const headers = JSON.parse(answer.body);
    expect(headers["x-threadline-peer"]).toBe("127.0.0.1");
    expect(headers["x-threadline-client"]).toBeUndefined();
    expect(headers["x-forwarded-for"]).toBe("10.0.0.1"); // the app decides whether to believe it
  });
});

describe("kept-alive connections", () => {
  it("stay open longer than a proxy's 60 s idle (Node's default is 5 s), and every answer says so", async () => {
    const answer = await send(
      ["GET /a HTTP/1.1", "Host: 127.0.0.1", "", "GET /b HTTP/1.1", "Host: 127.0.0.1", "Connection: close", "", ""].join("\r\n"),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers["keep-alive"]).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_MS);
  });
});

describe("request sizes", () => {
  it("answers a 64 KB query string 414 in the API's error shape, before the app sees it", async () => {
    const before = handled;
    const answer = await get(`/api/threads?q=${"a".repeat(64 * 1024)}`);
    expect(expectRefusal(answer, 414, "request_too_large")).toContain("16,384");
    expect(answer.headers.connection).toBe("close");
    expect(handled).toBe(before);
  });

  it("lets a URL of exactly the limit through, and refuses one byte more", async () => {
    const target = (length: number) => `/threads?q=${"b".repeat(length - "/threads?q=".length)}`;
    expect((await get(target(MAX_URL_BYTES))).status).toBe(200);
    expectRefusal(await get(target(MAX_URL_BYTES + 1)), 414, "request_too_large");
  });

  it("answers headers over the limit 431, counted over every line", async () => {
    const filler = (size: number) => Array.from({ length: Math.ceil(size / 1000) }, (_, i) => `X-Filler-${i}: ${"c".repeat(986)}`);
    expect((await get("/threads", filler(MAX_HEADER_BYTES - 4000))).status).toBe(200);
    expect(expectRefusal(await get("/threads", filler(MAX_HEADER_BYTES + 1000)), 431, "request_too_large")).toContain("32,768");
    expectRefusal(await get("/threads", [`Cookie: ${"d".repeat(MAX_HEADER_BYTES)}`]), 431, "request_too_large");
  });

  it("answers what Node's own parser refuses in the same shape: too much to read 431, not HTTP 400", async () => {
    expect(expectRefusal(await get("/threads", [`X-Huge: ${"e".repeat(PARSER_MAX_HEADER_BYTES)}`]), 431, "request_too_large")).toContain(
      "128 KB",
    );
    expectRefusal(await get(`/threads?q=${"f".repeat(PARSER_MAX_HEADER_BYTES)}`), 431, "request_too_large");
    expectRefusal(await send("NOT HTTP AT ALL\r\n\r\n"), 400, "bad_request");
    expectRefusal(await send("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"), 400, "bad_request");
  });
});

describe("the checks alone", () => {
  it("count a header line as its name, value, ': ' and line end", () => {
    const name = "x-a";
    const value = "v".repeat(MAX_HEADER_BYTES - name.length - 4);
    expect(oversizedRequest("/", [name, value])).toBeNull();
    expect(oversizedRequest("/", [name, `${value}v`])).toMatchObject({ status: 431 });
  });

  it("pick the status Node would for a parser error", () => {
    expect(parserRefusal("HPE_HEADER_OVERFLOW").status).toBe(431);
    expect(parserRefusal("HPE_CHUNK_EXTENSIONS_OVERFLOW")).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(parserRefusal("ERR_HTTP_REQUEST_TIMEOUT")).toMatchObject({ status: 408, code: "request_timeout" });
    expect(parserRefusal("HPE_INVALID_METHOD")).toMatchObject({ status: 400, code: "bad_request" });
    expect(parserRefusal(undefined).status).toBe(400);
    expect(rawRefusal(parserRefusal(undefined))).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*\r\n\r\n\{"error":\{"code":"bad_request",/);
  });
});
