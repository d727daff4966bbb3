import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, apiErrorOf, apiFetch, readApiError } from "./api-client";

describe("apiErrorOf", () => {
  it("takes the API's error shape: message, code, details", () => {
    const error = apiErrorOf(
      422,
      { error: { code: "compaction_refused", message: "It would not shrink", details: { guard: "no_gain" } } },
      "fallback",
    );
    expect(error).toBeInstanceOf(ApiError);
    expect([error.message, error.status, error.code, error.kind]).toEqual(["It would not shrink", 422, "compaction_refused", "no_gain"]);
  });

  it("stands in with the fallback for a body that is not the API's (a proxy's page, nothing)", () => {
    for (const body of [null, "Bad gateway", { error: "text" }, { error: { code: "x" } }, []]) {
      const error = apiErrorOf(502, body, "The server answered HTTP 502.");
      expect([error.message, error.code, error.kind]).toEqual(["The server answered HTTP 502.", "unknown", null]);
    }
  });

  it("reads a kind only from object details", () => {
    expect(
      apiErrorOf(400, { error: { code: "validation_failed", message: "m", details: [{ field: "a", message: "b" }] } }, "f").kind,
    ).toBeNull();
    expect(apiErrorOf(502, { error: { code: "summarizer_failed", message: "m", details: { kind: "timeout" } } }, "f").kind).toBe("timeout");
  });
});

describe("readApiError", () => {
  it("reads the API's sentence from a response's body", async () => {
    const response = Response.json({ error: { code: "forbidden", message: "Only an admin may reveal secrets." } }, { status: 403 });
    await expect(readApiError(response)).resolves.toMatchObject({
      status: 403,
      code: "forbidden",
      message: "Only an admin may reveal secrets.",
    });
  });

  it("stands in with the fallback, or the status, for a body that is not the API's", async () => {
    await expect(readApiError(new Response("<h1>Bad gateway</h1>", { status: 502 }), "Loading failed")).resolves.toMatchObject({
      code: "unknown",
      message: "Loading failed",
    });
    await expect(readApiError(new Response(null, { status: 500 }))).resolves.toMatchObject({ message: "The server answered HTTP 500." });
  });
});

describe("apiFetch, against a real local server", () => {
  let server: Server;
  let base: string;
  const received: { method?: string; type?: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        received.push({ method: request.method, type: request.headers["content-type"], body });
        if (request.url === "/ok") return void response.writeHead(200, { "content-type": "application/json" }).end('{"turn":{"id":"t"}}');
        if (request.url === "/stopped") return void response.writeHead(204).end();
        if (request.url === "/html") return void response.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>");
        response
          .writeHead(404, { "content-type": "application/json" })
          .end('{"error":{"code":"not_found","message":"Thread x not found"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends JSON with a POST and answers the JSON", async () => {
    await expect(apiFetch(`${base}/ok`, { json: { a: 1 } })).resolves.toEqual({ turn: { id: "t" } });
    expect(received.at(-1)).toEqual({ method: "POST", type: "application/json", body: '{"a":1}' });
  });

  it("throws the API's error, or the fallback when the answer is not JSON", async () => {
    await expect(apiFetch(`${base}/missing`)).rejects.toMatchObject({ status: 404, code: "not_found", message: "Thread x not found" });
    await expect(apiFetch(`${base}/html`, { fallback: "Loading failed" })).rejects.toMatchObject({
      status: 502,
      code: "unknown",
      message: "Loading failed",
    });
    expect(received.at(-1)?.method).toBe("GET");
  });

  it("says a server that does not answer as one sentence, and leaves an abort an abort", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/threads`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(apiFetch(gone)).rejects.toMatchObject({
      status: 0,
      code: "unreachable",
      message: "Could not reach the Threadline server.",
    });
    const controller = new AbortController();
    controller.abort();
    await expect(apiFetch(`${base}/ok`, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("answers null for an empty answer (204) and sends the method asked", async () => {
    await expect(apiFetch(`${base}/stopped`, { method: "DELETE" })).resolves.toBeNull();
    expect(received.at(-1)?.method).toBe("DELETE");
  });
});
