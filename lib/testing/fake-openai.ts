/**
 * A small OpenAI-compatible server on 127.0.0.1 for tests of the LLM summariser: it answers
 * POST /v1/chat/completions as the test says and records every request it received, so the
 * test asserts what was sent. The only stand-in the suite has: providers are out of reach here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ChatRequestBody = { model: string; messages: { role: string; content: string }[]; tools?: unknown; [key: string]: unknown };
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

/** Answers with one chat completion holding `content`. */
export const answer =
  (content: string | null): ChatHandler =>
  (request, res) =>
    sendJson(res, 200, {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_700_000_000,
      model: request.body.model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 },
    });

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
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
        sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
        return;
      }
      const recorded: RecordedRequest = { method: req.method, url: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequestBody };
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
      server.closeAllConnections();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
