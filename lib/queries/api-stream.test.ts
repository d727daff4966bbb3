import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatEvent } from "@/lib/domain/server-sent-events";
import { ApiError } from "./api-client";
import { apiStream } from "./api-stream";

describe("apiStream, against a real local server", () => {
  let server: Server;
  let base: string;
  const received: { method?: string; accept?: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        received.push({ method: request.method, accept: request.headers.accept, body });
        const stream = { "content-type": "text/event-stream" };
        if (request.url === "/reply") {
          response.writeHead(200, stream).write(formatEvent("start", { model: "m" }));
          return void response.end(formatEvent("delta", { text: "Hi" }) + formatEvent("done", {}));
        }
        if (request.url === "/fails-midway") {
          response.writeHead(200, stream).write(formatEvent("delta", { text: "Hal" }));
          return void response.end(formatEvent("error", { error: { code: "provider_failed", message: "The provider hung up" } }));
        }
        if (request.url === "/bare-error") return void response.writeHead(200, stream).end(formatEvent("error", {}));
        if (request.url === "/html") return void response.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>");
        response
          .writeHead(409, { "content-type": "application/json" })
          .end('{"error":{"code":"conflict","message":"A reply is already being written"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function collect(events: AsyncGenerator<{ event: string; data: unknown }>) {
    const seen: { event: string; data: unknown }[] = [];
    for await (const event of events) seen.push(event);
    return seen;
  }

  it("posts the JSON asking for an event stream, and yields each event as it came", async () => {
    const events = await apiStream(`${base}/reply`, { json: { content: "hello" } });
    await expect(collect(events)).resolves.toEqual([
      { event: "start", data: { model: "m" } },
      { event: "delta", data: { text: "Hi" } },
      { event: "done", data: {} },
    ]);
    expect(received.at(-1)).toEqual({ method: "POST", accept: "text/event-stream", body: '{"content":"hello"}' });
  });

  it("throws the API's error before any event when the answer is not 2xx", async () => {
    await expect(apiStream(`${base}/busy`, { json: {} })).rejects.toMatchObject({
      status: 409,
      code: "conflict",
      message: "A reply is already being written",
    });
    await expect(apiStream(`${base}/html`, { json: {} })).rejects.toMatchObject({ status: 502, message: "The server answered HTTP 502." });
  });

  it("ends the events at an error event, throwing its ApiError after what arrived", async () => {
    const seen: unknown[] = [];
    const events = await apiStream(`${base}/fails-midway`, { json: {} }, "The reply failed.");
    const failure = await (async () => {
      for await (const event of events) seen.push(event.data);
    })().catch((error: unknown) => error);
    expect(seen).toEqual([{ text: "Hal" }]);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 200, code: "provider_failed", message: "The provider hung up" });
  });

  it("names an error event that carries no message with the fallback", async () => {
    const events = await apiStream(`${base}/bare-error`, { json: {} }, "The reply failed.");
    await expect(collect(events)).rejects.toMatchObject({ code: "unknown", message: "The reply failed." });
  });
});
