/**
 * What a provider's error body becomes: the user who configured the provider sees its status,
 * its error code and the start of its message, never more than 300 characters; the thread keeps
 * Threadline's own words only. A provider (or a base URL set to a hostile server) can answer
 * anything, including the conversation it was sent.
 */
import { describe, expect, it } from "vitest";
import type { Turn } from "@/lib/domain/types";
import { MAX_ERROR_MESSAGE } from "@/lib/llm/provider";
import { jsonRequest, params } from "@/lib/testing/api";
import { sendJson } from "@/lib/testing/fake-openai";
import { withFakeOpenAi } from "@/lib/testing/fake-openai-env";
import { expectError, fetchThread, newThread, newTurn } from "@/lib/testing/integration";
import { POST as messagesPost } from "./route";

const KEY = "sk-test-provider-errors-0123456789";
const CONVERSATION = "The staging database password is hunter2-rotated";

const send = (id: string, body: unknown) => messagesPost(jsonRequest("POST", `/api/threads/${id}/messages?stream=0`, body), params({ id }));

const llm = withFakeOpenAi((server) => ({
  openaiCompatibleBaseUrl: server.baseUrl,
  openaiCompatibleApiKey: KEY,
  chatModel: "openai-compatible:test-model",
}));

async function seed(): Promise<string> {
  const thread = await newThread({ toolName: "chat" });
  await newTurn(thread.id, { role: "user", content: CONVERSATION });
  await newTurn(thread.id, { role: "assistant", content: "Noted." });
  return thread.id;
}

async function unansweredReason(id: string): Promise<string> {
  const { turns } = await fetchThread(id);
  const last = turns.at(-1) as Turn;
  return (last.modelMetadata as { unanswered: { reason: string } }).unanswered.reason;
}

describe("a provider's error body", () => {
  it("is cut to its status, code and the start of its message, and kept out of the stored turn", async () => {
    const id = await seed();
    // A server that echoes what it was sent, at length, with the key it was given.
    const echo = `Upstream overloaded while processing: ${llm.server.baseUrl} ${KEY} ${CONVERSATION} ${"x".repeat(5_000)}`;
    llm.server.answerWith((_request, res) =>
      sendJson(res, 500, { error: { message: echo, type: "server_error", code: "upstream_overloaded" } }),
    );
    const error = await expectError(await send(id, { content: "And the next step?" }), 424, "provider_failed");
    expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
    expect(error.message).toMatch(/^OpenAI-compatible server answered HTTP 500, upstream_overloaded: Upstream overloaded while processing/);
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain("x".repeat(400));

    const reason = await unansweredReason(id);
    expect(reason).toBe("OpenAI-compatible server answered HTTP 500, upstream_overloaded");
    expect(JSON.stringify((await fetchThread(id)).turns)).not.toContain("Upstream overloaded");
  });

  it("that is not JSON (a proxy's HTML page) shows the status text only", async () => {
    const id = await seed();
    llm.server.answerWith((_request, res) => {
      res.writeHead(502, "Bad Gateway", { "content-type": "text/html", connection: "close" });
      res.end(`<html><body><script>alert(1)</script>${"<p>nginx</p>".repeat(3_000)}</body></html>`);
    });
    const error = await expectError(await send(id, { content: "Still there?" }), 424, "provider_failed");
    expect(error.message).toBe("OpenAI-compatible server answered HTTP 502: Bad Gateway.");
    expect(await unansweredReason(id)).toBe("OpenAI-compatible server answered HTTP 502");
  });

  it("of a refused key names where the key comes from, within the limit", async () => {
    const id = await seed();
    llm.server.answerWith((_request, res) =>
      sendJson(res, 401, {
        error: {
          message: `Incorrect API key provided: ${KEY}. ${"y".repeat(2_000)}`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      }),
    );
    const error = await expectError(await send(id, { content: "Hello?" }), 424, "provider_failed");
    expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
    expect(error.message).toMatch(
      /^OpenAI-compatible server refused the request \(HTTP 401, invalid_api_key\): Incorrect API key provided: \[redacted\]/,
    );
    expect(error.message).toMatch(/Check the API key from .+\.$/);
    expect(await unansweredReason(id)).toBe("OpenAI-compatible server refused the request (HTTP 401, invalid_api_key)");
  });
});
