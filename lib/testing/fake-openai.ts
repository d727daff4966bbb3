/**
 * A small OpenAI-compatible server on 127.0.0.1 for tests of the LLM summariser and the chat: it
 * answers POST /v1/chat/completions (whole or streamed) as the test says and records every
 * request it received, so the test asserts what was sent. The only stand-in the suite has: providers are out of reach here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type ChatRequestBody = { model: string; messages: { role: string; content: string }[]; tools?: unknown; [key: string]: unknown };
export type RecordedRequest = { method: string; url: string; headers: IncomingMessage["headers"]; body: ChatRequestBody };
export type ChatHandler = (request: RecordedRequest, res: ServerResponse) => void;

export type FakeOpenAi = {
  /** The base URL to configure, ending in /v1. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** How the next requests are answered. */
  answerWith(handler: ChatHandler): void;
  /** Ends requests still open (one a test never answered). */
  dropConnections(): void;
  close(): Promise<void>;
};

/** Each answer closes its connection: a client never reuses one that a test's cleanup dropped. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify(body));
}

const USAGE = { prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 };

function chunk(request: RecordedRequest, choices: unknown[], extra: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", created: 1_700_000_000, model: request.body.model, choices, ...extra })}\n\n`;
}

export type StreamOptions = {
  /** Pause before each piece, so a test (or a page) sees the reply arrive in pieces. */
  delayMs?: number;
  /** Drop the connection after this many pieces, before the reply ends. */
  dropAfter?: number;
  /** The finish_reason of the last chunk (default "stop"; some servers send their own words). */
  finishReason?: string;
};

/**
 * Streams `pieces` as Chat Completions chunks (server-sent events), then the finish reason, the
 * usage (as `stream_options.include_usage` asks) and [DONE].
 */
export const stream =
  (pieces: string[], options: StreamOptions = {}): ChatHandler =>
  (request, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "close" });
    let gone = false;
    res.on("close", () => (gone = true));
    void (async () => {
      for (const [i, piece] of pieces.entries()) {
        if (options.dropAfter !== undefined && i >= options.dropAfter) {
          // Let what was written reach the client first.
          await new Promise((resolve) => setTimeout(resolve, 50));
          res.destroy();
          return;
        }
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        if (gone) return;
        res.write(
          chunk(request, [{ index: 0, delta: i === 0 ? { role: "assistant", content: piece } : { content: piece }, finish_reason: null }]),
        );
      }
      res.write(chunk(request, [{ index: 0, delta: {}, finish_reason: options.finishReason ?? "stop" }]));
      res.write(chunk(request, [], { usage: USAGE }));
      res.end("data: [DONE]\n\n");
    })();
  };

/** Answers with one chat completion holding `content`; streamed in word-sized pieces when the request asks to stream. */
export const answer =
  (content: string | null): ChatHandler =>
  (request, res) => {
    if (request.body.stream === true) return stream(content === null ? [] : (content.match(/\S+\s*|\s+/g) ?? [content]))(request, res);
    sendJson(res, 200, {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_700_000_000,
      model: request.body.model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: USAGE,
    });
  };

/** Answers with an HTTP error in OpenAI's shape. */
export const fail =
  (status: number, message: string): ChatHandler =>
  (_request, res) =>
    sendJson(res, status, { error: { message, type: "test_error", code: null } });

/** Never answers (until the test closes the server). */
export const hang: ChatHandler = () => {};

export async function startFakeOpenAi(initial: ChatHandler = answer("A summary.")): Promise<FakeOpenAi> {
  const requests: RecordedRequest[] = [];
  let handler = initial;
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
        sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
        return;
      }
      const recorded: RecordedRequest = {
        method: req.method,
        url: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequestBody,
      };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    answerWith(next) {
      handler = next;
    },
    dropConnections() {
      // Only sockets with a request in flight: an idle one may be in the client's pool, and
      // closing it under the client fails its next request ("other side closed").
      for (const res of open) res.socket?.destroy();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
