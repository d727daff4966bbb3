/**
 * Resuming a thread with a chat model, on the test file's real SQLite database against a small
 * OpenAI-compatible server on 127.0.0.1: what it received is asserted against the budgeted
 * history the context endpoint shows at that moment, and what was stored against what it sent.
 */
import { spawn } from "node:child_process";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ASSUMED_CONTEXT_WINDOW } from "@/lib/domain/threads/chat-reply";
import { readServerSentEvents } from "@/lib/domain/server-sent-events";
import { db } from "@/lib/db/engine/client";
import type { Turn } from "@/lib/domain/types";
import { serverSettings } from "@/lib/env";
import { LLM_ENV } from "@/lib/llm/config";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { answer, fail, stream, type ChatHandler, type FakeOpenAi, type RecordedRequest } from "@/lib/testing/fake-openai";
import { withFakeOpenAi } from "@/lib/testing/fake-openai-env";
import { expectError, fetchThread, newThread, newTurn, restoreServerEnv, rowCounts, setServerEnv, sleep } from "@/lib/testing/integration";
import { GET as contextGet } from "../context/route";
import { DELETE as messagesDelete, POST as messagesPost } from "./route";

const KEY = "sk-test-chat-secret-0123456789";

const stop = (id: string) => messagesDelete(jsonRequest("DELETE", `/api/threads/${id}/messages`), params({ id }));
const send = (id: string, body: unknown, query = "") =>
  messagesPost(jsonRequest("POST", `/api/threads/${id}/messages${query}`, body), params({ id }));

async function seed(): Promise<string> {
  const thread = await newThread({ toolName: "debug", title: "Refresh 401" });
  await newTurn(thread.id, { role: "user", content: "Login fails with a 401 after the token refresh." });
  await newTurn(thread.id, {
    role: "assistant",
    content: "The refresh token is compared before it is decoded.",
    modelProvider: "openai",
    modelName: "gpt-4o",
  });
  return thread.id;
}

type SseEvent = { event: string; data: any };

async function readEvents(response: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readServerSentEvents(response.body!)) events.push(event as SseEvent);
  return events;
}

/** Answers like `then`, after reading what the context endpoint says the model is sent right now. */
function recordingBudget(id: string, query: string, seen: { history?: string }, then: ChatHandler): ChatHandler {
  return (request: RecordedRequest, res: ServerResponse) => {
    void (async () => {
      const response = await contextGet(jsonRequest("GET", `/api/threads/${id}/context?${query}`), params({ id }));
      seen.history = (await json<{ text: string }>(response)).text;
      then(request, res);
    })();
  };
}

const llm = withFakeOpenAi((server) => ({
  openaiCompatibleBaseUrl: server.baseUrl,
  openaiCompatibleApiKey: KEY,
  chatModel: "openai-compatible:test-model",
}));
let fake: FakeOpenAi;
beforeEach(() => {
  fake = llm.server;
  fake.answerWith(answer("Decode first, then compare."));
});
afterEach(() => restoreServerEnv());

describe("POST /api/threads/:id/messages (streamed)", () => {
  it("streams the reply as server-sent events and stores both turns with attribution and usage", async () => {
    const id = await seed();
    const seen: { history?: string } = {};
    fake.answerWith(recordingBudget(id, `contextWindow=${ASSUMED_CONTEXT_WINDOW}`, seen, stream(["Decode ", "first, ", "then compare."])));
    const response = await send(id, { content: "How do I fix it?" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = await readEvents(response);
    expect(events.map((e) => e.event)).toEqual(["start", "delta", "delta", "delta", "done"]);
    expect(
      events
        .filter((e) => e.event === "delta")
        .map((e) => e.data.text)
        .join(""),
    ).toBe("Decode first, then compare.");
    const start = events[0]!.data;
    expect(start.model).toBe("openai-compatible:test-model");
    expect(start.budget).toMatchObject({
      catalogModel: null,
      contextWindow: ASSUMED_CONTEXT_WINDOW,
      assumed: true,
      tokenizer: "o200k_base",
      turnsIncluded: 3,
      turnsTotal: 3,
    });
    expect(start.userTurn).toMatchObject({ index: 2, role: "user", content: "How do I fix it?", toolName: "chat" });

    // What the model was sent is exactly the budgeted history the context endpoint showed, as one user message.
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.body).toMatchObject({ model: "test-model", stream: true });
    expect(sent.body.tools).toBeUndefined();
    expect(sent.body.messages).toEqual([{ role: "user", content: seen.history }]);
    expect(seen.history).toContain("How do I fix it?");
    expect(seen.history).toContain("compared before it is decoded");
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(start.budget.historyTokens).toBeGreaterThan(0);

    const { thread, turns } = await fetchThread(id);
    expect(turns).toHaveLength(4);
    const reply = turns[3]!;
    expect(reply).toMatchObject({
      role: "assistant",
      content: "Decode first, then compare.",
      toolName: "chat",
      modelProvider: "openai-compatible",
      modelName: "test-model",
    });
    expect(reply.modelMetadata).toMatchObject({
      usage: { inputTokens: 321, outputTokens: 45 },
      finishReason: "stop",
      context: { contextWindow: ASSUMED_CONTEXT_WINDOW, assumed: true },
    });
    expect(events.at(-1)!.data.turn.id).toBe(reply.id);
    expect(thread.modelsUsed).toEqual(["gpt-4o", "test-model"]);
  });

  it("budgets the history with the catalog's window and tokenizer when it knows the model", async () => {
    const id = await seed();
    const seen: { history?: string } = {};
    fake.answerWith(recordingBudget(id, "model=gpt-4o-mini", seen, answer("Sure.")));
    const response = await send(id, { content: "And the tests?", model: "openai-compatible:gpt-4o-mini" }, "?stream=0");
    expect(response.status, await response.clone().text()).toBe(201);
    const body = await json<{ budget: Record<string, unknown>; model: string }>(response);
    expect(body.model).toBe("openai-compatible:gpt-4o-mini");
    expect(body.budget).toMatchObject({ catalogModel: "gpt-4o-mini", contextWindow: 128_000, assumed: false });
    expect(fake.requests[0]!.body.messages).toEqual([{ role: "user", content: seen.history }]);
  });

  it("keeps the part of a reply that arrived before the connection dropped, marked incomplete", async () => {
    const id = await seed();
    fake.answerWith(stream(["Decode ", "first, ", "then compare."], { dropAfter: 2 }));
    const response = await send(id, { content: "How do I fix it?" });
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    expect(events.map((e) => e.event)).toEqual(["start", "delta", "delta", "error"]);
    const error = events.at(-1)!.data.error;
    expect(error.code).toBe("provider_failed");
    expect(error.details.kind).toBe("network");
    expect(JSON.stringify(events)).not.toContain(KEY);

    const { turns } = await fetchThread(id);
    expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(turns[3]!.content).toBe("Decode first, ");
    expect(turns[3]!.modelMetadata).toMatchObject({ incomplete: { kind: "network" } });
    expect(turns[2]!.modelMetadata).toBeNull();
  });

  it("stops the provider when the reader goes away, and keeps what arrived", async () => {
    const id = await seed();
    fake.answerWith(stream(["One. ", "Two. ", "Three. ", "Four. ", "Five."], { delayMs: 150 }));
    const response = await send(id, { content: "Count slowly." });
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("event: delta")) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    let turns: Turn[] = [];
    for (let i = 0; i < 100 && turns.length < 4; i++) {
      await sleep(20);
      turns = (await fetchThread(id)).turns;
    }
    expect(turns).toHaveLength(4);
    expect(turns[3]!.content.startsWith("One. ")).toBe(true);
    expect(turns[3]!.content).not.toContain("Five.");
    expect(turns[3]!.modelMetadata).toMatchObject({ incomplete: { kind: "cancelled", reason: "The reply was cancelled." } });
  });
});

describe("POST /api/threads/:id/messages?stream=0", () => {
  it("answers 201 with both stored turns", async () => {
    const id = await seed();
    const response = await send(id, { content: "How do I fix it?" }, "?stream=0");
    expect(response.status, await response.clone().text()).toBe(201);
    const body = await json<{ userTurn: Turn; turn: Turn }>(response);
    expect(body.userTurn).toMatchObject({ index: 2, role: "user", toolName: "chat" });
    expect(body.turn).toMatchObject({ index: 3, role: "assistant", content: "Decode first, then compare.", modelName: "test-model" });
    expect(fake.requests[0]!.body.stream).toBe(true);
  });

  it("answers 424 when the provider fails, keeping the user's turn marked unanswered; retry answers it", async () => {
    const id = await seed();
    fake.answerWith(fail(503, `upstream overloaded (key ${KEY})`));
    const failed = await send(id, { content: "How do I fix it?" }, "?stream=0");
    const error = await expectError(failed, 424, "provider_failed");
    expect(error.message).toContain("HTTP 503");
    expect(error.message).not.toContain(KEY);
    const details = error.details as { kind: string; providerStatus: number; userTurn: Turn; partialTurn: Turn | null };
    expect(details).toMatchObject({ kind: "provider", providerStatus: 503, partialTurn: null });
    expect(details.userTurn.modelMetadata).toMatchObject({ unanswered: { kind: "provider", model: "openai-compatible:test-model" } });
    let { turns } = await fetchThread(id);
    expect(turns).toHaveLength(3);
    expect(turns[2]!.modelMetadata).toMatchObject({ unanswered: { kind: "provider" } });

    fake.answerWith(answer("Decode first."));
    const retried = await send(id, { retry: true }, "?stream=0");
    expect(retried.status, await retried.clone().text()).toBe(201);
    ({ turns } = await fetchThread(id));
    expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(turns[2]!.modelMetadata).toBeNull();
    expect(turns[3]!.content).toBe("Decode first.");
    // The retry sent the same history: the stored message once, not twice.
    expect(fake.requests[1]!.body.messages[0]!.content).toBe(fake.requests[0]!.body.messages[0]!.content);
  });

  it("answers 424 (streamed too) before any event when the provider fails at once, and for an empty reply", async () => {
    const id = await seed();
    fake.answerWith(fail(401, "invalid api key"));
    const refused = await expectError(await send(id, { content: "Hello?" }), 424, "provider_failed");
    expect(refused.details).toMatchObject({ kind: "auth", providerStatus: 401 });
    fake.answerWith(answer(""));
    const empty = await expectError(await send(id, { retry: true }, "?stream=0"), 424, "provider_failed");
    expect(empty.details).toMatchObject({ kind: "empty" });
    expect((await fetchThread(id)).turns).toHaveLength(3);
  });
});

describe("POST /api/threads/:id/messages, edge cases", () => {
  it("continues a thread with no turns yet, and one whose last reply alone is over the budget", async () => {
    const empty = await newThread({ toolName: "chat" });
    const first = await send(empty.id, { content: "Hello there." }, "?stream=0");
    expect(first.status, await first.clone().text()).toBe(201);
    expect((await fetchThread(empty.id)).thread).toMatchObject({ turnCount: 2, title: "Hello there." });

    const big = await seed();
    await newTurn(big, { role: "user", content: "Paste the log." });
    await newTurn(big, { role: "assistant", content: "log line ".repeat(20_000) });
    const response = await send(big, { content: "Summarise it." }, "?stream=0");
    expect(response.status, await response.clone().text()).toBe(201);
    const { budget } = await json<{ budget: { turnsIncluded: number; turnsTotal: number } }>(response);
    expect(budget.turnsIncluded).toBeLessThan(budget.turnsTotal);
  });

  it("takes one reply at a time per thread: a second message meanwhile answers 409, and the reply answers its own message", async () => {
    const id = await seed();
    fake.answerWith(stream(["Answer ", "to A."], { delayMs: 100 }));
    const first = send(id, { content: "Message A" }, "?stream=0");
    await sleep(30);
    const second = await send(id, { content: "Message B" }, "?stream=0");
    const refused = await expectError(second, 409, "conflict");
    expect(refused.message).toContain("already being written");
    expect((await first).status).toBe(201);
    const { turns } = await fetchThread(id);
    expect(turns.map((t) => t.content).slice(2)).toEqual(["Message A", "Answer to A."]);
    expect(fake.requests).toHaveLength(1);
  });

  it("retries only a message marked unanswered", async () => {
    const id = await seed();
    await newTurn(id, { role: "user", content: "An agent's message, not the chat's." });
    const before = await rowCounts();
    const error = await expectError(await send(id, { retry: true }), 409, "conflict");
    expect(error.message).toContain("not a message marked unanswered");
    expect(await rowCounts()).toEqual(before);
  });

  it("stops on DELETE, keeping what arrived; a retry that keeps a partial reply clears the unanswered mark", async () => {
    const id = await seed();
    fake.answerWith(stream(["One. ", "Two. ", "Three. ", "Four."], { delayMs: 150 }));
    const response = await send(id, { content: "Count slowly." });
    const events: SseEvent[] = [];
    for await (const event of readServerSentEvents(response.body!)) {
      events.push(event as SseEvent);
      if (event.event === "delta" && events.filter((e) => e.event === "delta").length === 1) expect((await stop(id)).status).toBe(204);
    }
    const last = events.at(-1)!;
    expect(last.event).toBe("error");
    expect(last.data.error.details).toMatchObject({ kind: "cancelled" });
    expect(last.data.error.details.partialTurn.content.startsWith("One. ")).toBe(true);
    await expectError(await stop(id), 404, "not_found");

    // A failed message, retried into a reply that is cut off: kept as incomplete, no longer unanswered.
    fake.answerWith(fail(503, "busy"));
    await expectError(await send(id, { content: "Again?" }, "?stream=0"), 424, "provider_failed");
    fake.answerWith(stream(["Partly ", "there"], { dropAfter: 1 }));
    const retried = await send(id, { retry: true }, "?stream=0");
    const error = await expectError(retried, 424, "provider_failed");
    expect(error.details).toMatchObject({ kind: "network", partialTurn: { content: "Partly " } });
    const { turns } = await fetchThread(id);
    expect(turns.at(-2)!.modelMetadata).toBeNull();
    expect(turns.at(-1)!.modelMetadata).toMatchObject({ incomplete: { kind: "network" } });
  });

  it("stores a reply whose server ends it with a finish reason of its own as complete", async () => {
    const id = await seed();
    fake.answerWith(stream(["All ", "done."], { finishReason: "eos" }));
    const response = await send(id, { content: "Finish?" }, "?stream=0");
    expect(response.status, await response.clone().text()).toBe(201);
    const { turn } = await json<{ turn: Turn }>(response);
    expect(turn.content).toBe("All done.");
    expect(turn.modelMetadata).not.toHaveProperty("incomplete");
  });

  it("never repeats credentials written into the base URL", async () => {
    const id = await seed();
    const url = new URL(fake.baseUrl);
    process.env[LLM_ENV.openaiCompatibleBaseUrl] = `http://chatuser:hunter2secret@${url.host}/v1?api-key=querysecret123`;
    const response = await send(id, { content: "Hi" }, "?stream=0");
    const text = await response.clone().text();
    expect(response.status, text).toBe(424);
    for (const secret of ["hunter2secret", "chatuser", "querysecret123"]) expect(text).not.toContain(secret);
    const { turns } = await fetchThread(id);
    expect(JSON.stringify(turns)).not.toContain("hunter2secret");
  });
});

describe("POST /api/threads/:id/messages refusals write nothing", () => {
  it("409 when a message and its reply would pass the turn limit", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "3" });
    const id = await seed();
    const before = await rowCounts();
    const error = await expectError(await send(id, { content: "One more?" }), 409, "turn_limit");
    expect(error.message).toContain("2 of its 3 turns");
    expect(await rowCounts()).toEqual(before);
    expect(fake.requests).toHaveLength(0);
  });

  it("400 without a usable model, naming what to set", async () => {
    const id = await seed();
    const before = await rowCounts();
    delete process.env[LLM_ENV.chatModel];
    const none = await expectError(await send(id, { content: "Hi" }), 400, "validation_failed");
    expect(none.message).toContain("no chat model chosen");
    const badSpec = await expectError(await send(id, { content: "Hi", model: "gpt-4o" }), 400, "validation_failed");
    expect(badSpec.message).toContain('"<provider>:<model>"');
    const unconfigured = await expectError(
      await send(id, { content: "Hi", model: "anthropic:claude-sonnet-4-5" }),
      400,
      "validation_failed",
    );
    expect(unconfigured.message).toContain("ANTHROPIC_API_KEY");
    expect(await rowCounts()).toEqual(before);
    expect(fake.requests).toHaveLength(0);
  });

  it("400 for a bad body or query, 409 for a retry with nothing to retry, 404 for an unknown thread", async () => {
    const id = await seed();
    const before = await rowCounts();
    await expectError(await send(id, { content: "  " }), 400, "validation_failed");
    await expectError(await send(id, {}), 400, "validation_failed");
    await expectError(await send(id, { content: "x", retry: true }), 400, "validation_failed");
    await expectError(await send(id, { content: "x", extra: 1 }), 400, "validation_failed");
    await expectError(await send(id, { content: "x" }, "?stream=maybe"), 400, "validation_failed");
    const tooLong = await expectError(await send(id, { content: "word ".repeat(40_000) }), 400, "validation_failed");
    expect(tooLong.message).toMatch(/^content: the message is \d+ tokens/);
    await expectError(await send(id, { retry: true }), 409, "conflict");
    await expectError(await send("6f1c1f3e-8d0e-4c5b-9a51-0b7a3f4e2d10", { content: "x" }), 404, "not_found");
    expect(await rowCounts()).toEqual(before);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("one reply at a time per thread across app processes", () => {
  const WORKER = path.resolve("lib/testing/chat-reply-worker.ts");
  const TSX = path.resolve("node_modules/.bin/tsx");

  /** Another process sending a message to the thread through the real route; resolves its outcome. */
  function otherProcess(threadId: string, content: string) {
    const child = spawn(TSX, ["--conditions=react-server", WORKER, threadId, content], {
      cwd: process.cwd(),
      env: { ...process.env, DATABASE_URL: serverSettings().databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let markStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("started\n")) markStarted();
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const outcome = new Promise<{ status: number; events: string[]; last: any }>((resolve, reject) => {
      child.on("exit", (code) => {
        markStarted();
        const line = stdout.split("\n").find((l) => l.startsWith("{"));
        if (code !== 0 || !line) reject(new Error(`worker exited with ${code}\n${stderr}\n${stdout}`));
        else resolve(JSON.parse(line));
      });
    });
    return { started, outcome };
  }

  it(
    "refuses a message here while another process streams a reply, stops that reply from here, then answers",
    { timeout: 60_000 },
    async () => {
      const id = await seed();
      const pieces = Array.from({ length: 200 }, (_, i) => `word${i} `);
      fake.answerWith(stream(pieces, { delayMs: 50 })); // 10 s unless stopped
      const other = otherProcess(id, "From the other process");
      await other.started;

      const refused = await expectError(await send(id, { content: "From this process" }), 409, "conflict");
      expect(refused.message).toMatch(/another Threadline process/);
      expect((await stop(id)).status).toBe(204);
      const { status, events, last } = await other.outcome;
      expect(status).toBe(200);
      expect(events.at(-1)).toBe("error");
      expect(last.error.details).toMatchObject({ kind: "cancelled" });
      const kept = last.error.details.partialTurn.content as string;
      expect(kept.startsWith("word0 word1 ")).toBe(true);
      expect(kept.length).toBeLessThan(pieces.join("").length); // stopped at its next heartbeat, before the 10 s reply ended

      // The lease went with the reply: this process answers now.
      fake.answerWith(answer("Answered here."));
      const response = await send(id, { content: "From this process" }, "?stream=0");
      expect(response.status, await response.clone().text()).toBe(201);
      const { turns } = await fetchThread(id);
      expect(turns.slice(-4).map((t) => t.content)).toEqual(["From the other process", kept, "From this process", "Answered here."]);
    },
  );

  it("a lease left by a process that died runs out instead of blocking the thread", async () => {
    const id = await seed();
    const client = await db();
    await client.replyLease.create({ data: { threadId: id, owner: "a crashed process", expiresAt: new Date(Date.now() + 60_000) } });
    await expectError(await send(id, { content: "Blocked?" }), 409, "conflict");
    expect((await stop(id)).status).toBe(204); // asked; the dead holder never hears it
    await client.replyLease.update({ where: { threadId: id }, data: { expiresAt: new Date(Date.now() - 1) } });
    const response = await send(id, { content: "Blocked?" }, "?stream=0");
    expect(response.status, await response.clone().text()).toBe(201);
    expect(await client.replyLease.count({ where: { threadId: id } })).toBe(0);
  });
});
