/**
 * Integration tests of the thread REST API: the real route handlers, called with real Request
 * objects, against this test file's own SQLite database (lib/testing/setup-database.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import type { Thread, Turn } from "@/lib/domain/types";
import { json, jsonRequest, params } from "@/lib/testing/api";
import {
  api,
  expectError,
  fetchThread,
  newThread,
  newTurn,
  restoreServerEnv,
  rowCounts,
  setServerEnv,
  sleep,
  switchToFreshDatabase,
  UUID_V4,
} from "@/lib/testing/integration";
import { GET as getRoute } from "./[id]/route";
import { POST as turnsRoute } from "./[id]/turns/route";
import { POST as createRoute } from "./route";

const HOUR_MS = 3_600_000;

afterEach(() => {
  vi.restoreAllMocks();
  restoreServerEnv();
});

/** Moves a thread's expiry into the past, as if its timeout had run out. */
async function expire(id: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await (await db()).thread.update({ where: { id }, data: { lastUpdatedAt: new Date(past.getTime() - HOUR_MS), expiresAt: past } });
}

/** A thread read with its turns, before any model response. */
const ZERO_USAGE = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, source: "estimated" };

describe("POST /api/threads", () => {
  it("creates a thread: 201, {thread}, a UUID, a Location header and the default 3-hour expiry", async () => {
    const before = Date.now();
    const response = await api.createThread({ toolName: "chat", initialContext: { prompt: "hi", files: ["a.ts"] } });
    const after = Date.now();
    expect(response.status).toBe(201);
    const body = await json<{ thread: Thread }>(response);
    expect(Object.keys(body)).toEqual(["thread"]);
    const { thread } = body;
    expect(thread.id).toMatch(UUID_V4);
    expect(response.headers.get("location")).toBe(`/api/threads/${thread.id}`);
    expect(thread).toMatchObject({
      parentThreadId: null,
      title: null,
      toolName: "chat",
      source: "api",
      initialContext: { prompt: "hi", files: ["a.ts"] },
      metadata: null,
      expired: false,
      turnCount: 0,
      tokenEstimate: 0,
      modelsUsed: [],
    });
    const created = Date.parse(thread.createdAt);
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(after);
    expect(thread.lastUpdatedAt).toBe(thread.createdAt);
    expect(Date.parse(thread.expiresAt!) - created).toBe(3 * HOUR_MS);

    // Stored, not just echoed; read with its turns it also carries their usage (none yet).
    expect(thread.usage).toBeNull();
    expect((await fetchThread(thread.id)).thread).toEqual({ ...thread, usage: ZERO_USAGE });
  });

  it("uses CONVERSATION_TIMEOUT_HOURS for the expiry, fractional hours included", async () => {
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "0.5" });
    const thread = await newThread();
    expect(Date.parse(thread.expiresAt!) - Date.parse(thread.lastUpdatedAt)).toBe(HOUR_MS / 2);
  });

  it("falls back to the 3-hour default, with a warning, for an out-of-range CONVERSATION_TIMEOUT_HOURS (was a 500)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "1e10", MAX_CONVERSATION_TURNS: "1e20" });
    const thread = await newThread();
    expect(Date.parse(thread.expiresAt!) - Date.parse(thread.lastUpdatedAt)).toBe(3 * HOUR_MS);
    await newTurn(thread.id, { role: "user", content: "still writable" });
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringContaining("CONVERSATION_TIMEOUT_HOURS value ('1e10')"),
      expect.stringContaining("MAX_CONVERSATION_TURNS value ('1e20')"),
    ]);
  });

  it("keeps the title null until the first user turn, then takes it cut to 100 characters", async () => {
    const thread = await newThread({ toolName: "chat" });
    expect(thread.title).toBeNull();

    await newTurn(thread.id, { role: "assistant", content: "I am not a user turn" });
    expect((await fetchThread(thread.id)).thread.title).toBeNull();
    await newTurn(thread.id, { role: "user", content: "   \n\t  " }); // blank: no title from it
    expect((await fetchThread(thread.id)).thread.title).toBeNull();

    const words = "Please   review\nthe authentication module " + "x".repeat(150);
    await newTurn(thread.id, { role: "user", content: words });
    const titled = (await fetchThread(thread.id)).thread.title!;
    const expected = words.replace(/\s+/g, " ").slice(0, 100);
    expect(titled).toBe(expected);
    expect(titled).toHaveLength(100);

    await newTurn(thread.id, { role: "user", content: "a later user turn" });
    expect((await fetchThread(thread.id)).thread.title).toBe(expected);
  });

  it("cuts an emoji title by code point, never splitting a surrogate pair", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "😀".repeat(120) });
    const { title } = (await fetchThread(thread.id)).thread;
    expect(Array.from(title!)).toHaveLength(100);
    expect(title).toBe("😀".repeat(100));
  });

  it("keeps an explicit title over the first user turn", async () => {
    const thread = await newThread({ toolName: "chat", title: "Named by the caller" });
    await newTurn(thread.id, { role: "user", content: "something else" });
    expect((await fetchThread(thread.id)).thread.title).toBe("Named by the caller");
  });

  it("links to an existing parent and lower-cases its id", async () => {
    const parent = await newThread();
    const child = await newThread({ toolName: "chat", parentThreadId: parent.id.toUpperCase() });
    expect(child.parentThreadId).toBe(parent.id);
  });

  it("rejects an unknown or expired parentThreadId with 400 naming parentThreadId", async () => {
    const before = await rowCounts();
    const unknown = await expectError(
      await api.createThread({ toolName: "chat", parentThreadId: "00000000-0000-4000-8000-000000000000" }),
      400,
      "validation_failed",
    );
    expect(unknown.message).toContain("parentThreadId");
    expect(unknown.details).toEqual([{ field: "parentThreadId", message: expect.any(String) }]);

    const parent = await newThread();
    await expire(parent.id);
    const expired = await expectError(await api.createThread({ toolName: "chat", parentThreadId: parent.id }), 400, "validation_failed");
    expect(expired.message).toContain("parentThreadId");
    expect(expired.message).toContain("expired");

    const notUuid = await expectError(await api.createThread({ toolName: "chat", parentThreadId: "nope" }), 400, "validation_failed");
    expect(notUuid.details).toEqual([{ field: "parentThreadId", message: "must be a UUID" }]);
    expect(await rowCounts()).toEqual({ threads: before.threads + 1, turns: before.turns }); // only the parent
  });

  it.each([
    ["a missing toolName", {}, "toolName"],
    ["an empty toolName", { toolName: "   " }, "toolName"],
    ["a non-string toolName", { toolName: 42 }, "toolName"],
    ["an over-long title", { toolName: "chat", title: "t".repeat(501) }, "title"],
    ["a non-object initialContext", { toolName: "chat", initialContext: [1, 2] }, "initialContext"],
  ])("answers 400 validation_failed for %s, naming the field", async (_name, body, field) => {
    const before = await rowCounts();
    const error = await expectError(await api.createThread(body), 400, "validation_failed");
    expect(error.message.startsWith(`${field}:`), error.message).toBe(true);
    expect(error.details).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
    expect(await rowCounts()).toEqual(before);
  });

  it("rejects unknown fields", async () => {
    const error = await expectError(await api.createThread({ toolName: "chat", colour: "blue" }), 400, "validation_failed");
    expect(error.message).toContain("colour");
    expect(error.details).toEqual([{ field: "(body)", message: expect.stringContaining("colour") }]);
  });

  it("lists every failing field in details and counts them in the message", async () => {
    const error = await expectError(await api.createThread({ title: "", initialContext: "x" }), 400, "validation_failed");
    const fields = (error.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(["initialContext", "title", "toolName"]);
    expect(error.message).toContain("(and 2 more)");
  });

  it.each([
    ["truncated JSON", '{"toolName": "chat"'],
    ["not JSON at all", "toolName=chat"],
    ["an empty body", ""],
  ])("answers 400 invalid_json for %s", async (_name, text) => {
    const before = await rowCounts();
    await expectError(await createRoute(jsonRequest("POST", "/api/threads", text)), 400, "invalid_json");
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 400 validation_failed (not 500) for JSON that is not an object", async () => {
    for (const body of ["null", "[]", '"chat"', "42"]) {
      await expectError(await createRoute(jsonRequest("POST", "/api/threads", body)), 400, "validation_failed");
    }
  });

  it("refuses a body over THREADLINE_MAX_BODY_BYTES with 413, declared or streamed", async () => {
    setServerEnv({ THREADLINE_MAX_BODY_BYTES: "256" });
    const before = await rowCounts();
    const big = JSON.stringify({ toolName: "chat", initialContext: { blob: "x".repeat(400) } });
    const error = await expectError(await api.createThread(big), 413, "payload_too_large");
    expect(error.message).toContain("256");

    // No Content-Length: the limit is enforced while reading the stream.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64) controller.enqueue(bytes.slice(i, i + 64));
        controller.close();
      },
    });
    const streamed = new Request("http://threadline.test/api/threads", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(streamed.headers.get("content-length")).toBeNull();
    await expectError(await createRoute(streamed), 413, "payload_too_large");

    // A lying Content-Length does not get a large body through either.
    const lying = new Request("http://threadline.test/api/threads", {
      method: "POST",
      body: big,
      headers: { "content-type": "application/json", "content-length": "10" },
    });
    await expectError(await createRoute(lying), 413, "payload_too_large");
    expect(await rowCounts()).toEqual(before);

    // Just under the limit is fine.
    await newThread({ toolName: "chat", initialContext: { blob: "x".repeat(150) } });
  });

  it("answers 400 invalid_json, not 500, for a lone UTF-16 surrogate that cannot be stored", async () => {
    // "\ud800" without its low half is valid JSON syntax but not Unicode text; the database layer
    // cannot bind it (it used to fail there with a 500).
    const thread = await newThread();
    const before = await rowCounts();
    const bodies = [
      ["/api/threads", '{"toolName": "chat", "title": "bad \\ud800 title"}'],
      ["/api/threads", '{"toolName": "chat", "initialContext": {"k\\udc00": "v"}}'],
      [`/api/threads/${thread.id}/turns`, '{"role": "user", "content": "bad \\udfff content"}'],
    ] as const;
    for (const [path, text] of bodies) {
      const request = jsonRequest("POST", path, text);
      const response = path === "/api/threads" ? await createRoute(request) : await turnsRoute(request, params({ id: thread.id }));
      const error = await expectError(response, 400, "invalid_json");
      expect(error.message).toMatch(/surrogate/i);
    }
    expect(await rowCounts()).toEqual(before);
    // A proper pair written as escapes is fine.
    const paired = await turnsRoute(
      jsonRequest("POST", "/x", '{"role": "user", "content": "ok \\ud83d\\ude00"}'),
      params({ id: thread.id }),
    );
    expect(paired.status).toBe(201);
    expect((await json<{ turn: Turn }>(paired)).turn.content).toBe("ok 😀");
  });
});

describe("unusual JSON on create and append", () => {
  const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

  it("answers 400 invalid_json naming the limit for JSON nested deeper than 64 levels (was a 500 stack overflow)", async () => {
    const thread = await newThread();
    const before = await rowCounts();
    const deepCreate = `{"toolName": "chat", "initialContext": {"deep": ${nested(2000)}}}`;
    const deepTurn = `{"role": "user", "content": "x", "modelMetadata": {"deep": ${nested(2000)}}}`;
    for (const response of [
      await createRoute(jsonRequest("POST", "/api/threads", deepCreate)),
      await turnsRoute(jsonRequest("POST", "/x", deepTurn), params({ id: thread.id })),
    ]) {
      const error = await expectError(response, 400, "invalid_json");
      expect(error.message).toContain("64 levels");
    }
    expect(await rowCounts()).toEqual(before);
    // 64 levels in all (the body object, initialContext, then 62 arrays) are fine.
    const deepest = await createRoute(jsonRequest("POST", "/api/threads", `{"toolName": "chat", "initialContext": {"a": ${nested(62)}}}`));
    expect(deepest.status, await deepest.clone().text()).toBe(201);
    await expectError(await createRoute(jsonRequest("POST", "/api/threads", `{"toolName": "chat", "initialContext": {"a": ${nested(63)}}}`)), 400, "invalid_json");
  });

  it("refuses a __proto__ key in JSON objects with 400 naming the field, instead of dropping it", async () => {
    const thread = await newThread();
    const before = await rowCounts();
    const cases = [
      [await createRoute(jsonRequest("POST", "/api/threads", '{"toolName": "chat", "initialContext": {"a": 1, "__proto__": {"x": 1}}}')), "initialContext.__proto__"],
      [await createRoute(jsonRequest("POST", "/api/threads", '{"toolName": "chat", "initialContext": {"a": [0, {"__proto__": 1}]}}')), "initialContext.a[1].__proto__"],
      [await turnsRoute(jsonRequest("POST", "/x", '{"role": "assistant", "content": "x", "modelMetadata": {"__proto__": null}}'), params({ id: thread.id })), "modelMetadata.__proto__"],
      [
        await turnsRoute(jsonRequest("POST", "/x", '{"role": "assistant", "content": "x", "parts": [{"type": "text", "text": "x", "__proto__": "y"}]}'), params({ id: thread.id })),
        "parts[0].__proto__",
      ],
    ] as const;
    for (const [response, field] of cases) {
      const error = await expectError(response, 400, "validation_failed");
      expect(error.message).toBe(`${field}: "__proto__" is not allowed as a key`);
      expect(error.details).toEqual([{ field, message: '"__proto__" is not allowed as a key' }]);
    }
    expect(await rowCounts()).toEqual(before);
    // An ordinary key that merely contains the word is kept.
    const kept = await newThread({ toolName: "chat", initialContext: { proto: { __proto: 1 } } });
    expect(kept.initialContext).toEqual({ proto: { __proto: 1 } });
  });

  it("takes null in optional fields as absent, as the API itself answers with nulls", async () => {
    const parent = await newThread();
    const thread = await newThread({ toolName: "chat", title: null, initialContext: null, parentThreadId: null });
    expect(thread).toMatchObject({ title: null, initialContext: {}, parentThreadId: null });
    expect((await newThread({ toolName: "chat", parentThreadId: parent.id, title: null })).parentThreadId).toBe(parent.id);
    const turn = await newTurn(thread.id, {
      role: "assistant",
      content: "x",
      files: null,
      images: null,
      toolName: null,
      modelProvider: null,
      modelName: null,
      modelMetadata: null,
      parts: null,
      fileSnapshots: null,
    });
    expect(turn).toMatchObject({ files: [], images: [], toolName: null, modelProvider: null, modelName: null, modelMetadata: null, parts: null, fileSnapshots: [] });
    // Required fields still are.
    await expectError(await api.createThread({ toolName: null }), 400, "validation_failed");
    await expectError(await api.appendTurn(thread.id, { role: "user", content: null }), 400, "validation_failed");
  });
});

describe("GET /api/threads/:id", () => {
  it.each([
    ["a word", "not-a-uuid"],
    ["a path traversal", "../../etc/passwd"],
    ["SQL", "' OR 1=1 --"],
    ["a UUID with junk after it", "00000000-0000-4000-8000-000000000000x"],
    ["a very long string", "a".repeat(5000)],
    ["an empty string", ""],
  ])("answers 404 JSON (never 500) for %s", async (_name, id) => {
    const error = await expectError(await getRoute(jsonRequest("GET", "/api/threads/x"), params({ id })), 404, "not_found");
    expect(error.message.length).toBeLessThan(300); // the raw id is cut, not echoed whole
  });

  it("answers 404 not_found for an unknown UUID", async () => {
    const id = "6f1c1d1e-0000-4000-8000-000000000000";
    const error = await expectError(await api.getThread(id), 404, "not_found");
    expect(error.message).toContain(id);
  });

  it("returns the thread with its turns, also for an upper-case id", async () => {
    const thread = await newThread();
    const turn = await newTurn(thread.id, { role: "user", content: "hello" });
    const body = await fetchThread(thread.id.toUpperCase());
    expect(Object.keys(body).sort()).toEqual(["thread", "turns"]);
    expect(body.thread.id).toBe(thread.id);
    expect(body.turns).toEqual([turn]);
  });

  it("answers 404 expired, saying so, once the expiry has passed (kept in the database)", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "hello" });
    await expire(thread.id);
    const error = await expectError(await api.getThread(thread.id), 404, "expired");
    expect(error.message).toContain("expired");
    expect(error.message).toContain(thread.id);
    expect(await (await db()).thread.count({ where: { id: thread.id } })).toBe(1);
  });

  it("expires a thread by the clock when CONVERSATION_TIMEOUT_HOURS is tiny", async () => {
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: String(150 / HOUR_MS) }); // 150 ms
    const thread = await newThread();
    expect((await fetchThread(thread.id)).thread.expired).toBe(false);
    await sleep(200);
    const error = await expectError(await api.getThread(thread.id), 404, "expired");
    expect(error.message).toContain("expired");
  });

  it("never expires a thread with CONVERSATION_TIMEOUT_HOURS=0", async () => {
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "0" });
    const thread = await newThread();
    expect(thread.expiresAt).toBeNull();
    await newTurn(thread.id, { role: "user", content: "hello" });
    // Last touched long ago, still there.
    await (await db()).thread.update({ where: { id: thread.id }, data: { lastUpdatedAt: new Date("2001-01-01T00:00:00Z") } });
    const { thread: stored } = await fetchThread(thread.id);
    expect(stored.expiresAt).toBeNull();
    expect(stored.expired).toBe(false);
    await newTurn(thread.id, { role: "assistant", content: "still here" });
    expect((await fetchThread(thread.id)).thread.expiresAt).toBeNull();
  });
});

describe("POST /api/threads/:id/turns", () => {
  it("appends turns with contiguous 0-based indexes and stores every attribution field", async () => {
    const thread = await newThread({ toolName: "consensus" });
    const rich = {
      role: "assistant",
      content: "Here is my review ✅",
      files: ["/src/auth.ts", "/src/b.ts", "/src/auth.ts"],
      images: ["/tmp/screenshot.png"],
      toolName: "codereview",
      modelProvider: "openai",
      modelName: "gpt-5",
      modelMetadata: { thinking_mode: "high", usage: { input: 1200, output: 340, cached: [1, 2] }, ok: true, none: null },
      parts: [
        { type: "thinking", text: "let me think", signature: "abc" },
        { type: "tool_call", id: "call_1", name: "read_file", arguments: { path: "/src/auth.ts" } },
        { type: "tool_result", toolCallId: "call_1", content: "file text", isError: false },
        { type: "text", text: "Here is my review ✅" },
        { type: "image", path: "/tmp/screenshot.png", mediaType: "image/png" },
      ],
    };
    const first = await newTurn(thread.id, { role: "user", content: "Review auth please" });
    const response = await api.appendTurn(thread.id, rich);
    expect(response.status).toBe(201);
    const body = await json<{ turn: Turn }>(response);
    expect(Object.keys(body)).toEqual(["turn"]);
    const second = body.turn;
    const third = await newTurn(thread.id, { role: "tool", content: "" });

    expect([first.index, second.index, third.index]).toEqual([0, 1, 2]);
    expect(second.id).toMatch(UUID_V4);
    expect(second).toMatchObject({ ...rich, threadId: thread.id, index: 1, tokenEstimate: Math.floor(rich.content.length / 4) });
    expect(first).toMatchObject({ files: [], images: [], toolName: null, modelProvider: null, modelName: null, modelMetadata: null, parts: null });

    const stored = await fetchThread(thread.id);
    expect(stored.turns.map(({ usage: _usage, ...turn }) => ({ ...turn, usage: null }))).toEqual([first, second, third]);
    // Its metadata.usage has none of the known count names: the response's usage is estimated from
    // the turn before it (input) and its own tokens (output).
    expect(stored.turns.map((t) => t.usage?.source ?? null)).toEqual([null, "estimated", null]);
    expect(stored.turns[1]!.usage).toMatchObject({ inputTokens: stored.turns[0]!.tokens, outputTokens: stored.turns[1]!.tokens });
    expect(stored.thread.turnCount).toBe(3);
    expect(stored.thread.modelsUsed).toEqual(["gpt-5"]);
    expect(stored.thread.tokenEstimate).toBe(first.tokenEstimate + second.tokenEstimate + third.tokenEstimate);
    // Key order of JSON payloads survives storage.
    expect(JSON.stringify(stored.turns[1]!.modelMetadata)).toBe(JSON.stringify(rich.modelMetadata));
    expect(JSON.stringify(stored.turns[1]!.parts)).toBe(JSON.stringify(rich.parts));
  });

  it("refreshes lastUpdatedAt and expiresAt on every turn", async () => {
    const thread = await newThread();
    let previous = thread;
    for (const content of ["one", "two"]) {
      await sleep(5);
      const turn = await newTurn(thread.id, { role: "user", content });
      const { thread: now } = await fetchThread(thread.id);
      expect(Date.parse(now.lastUpdatedAt)).toBeGreaterThan(Date.parse(previous.lastUpdatedAt));
      expect(now.lastUpdatedAt).toBe(turn.timestamp);
      expect(Date.parse(now.expiresAt!) - Date.parse(now.lastUpdatedAt)).toBe(3 * HOUR_MS);
      expect(now.createdAt).toBe(thread.createdAt);
      previous = now;
    }
  });

  it("answers 409 turn_limit at MAX_CONVERSATION_TURNS, naming the limit, and writes nothing", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "3" });
    const thread = await newThread();
    for (let i = 0; i < 3; i++) await newTurn(thread.id, { role: i % 2 ? "assistant" : "user", content: `turn ${i}` });
    const before = await fetchThread(thread.id);
    const error = await expectError(await api.appendTurn(thread.id, { role: "user", content: "one too many" }), 409, "turn_limit");
    expect(error.message).toContain("3 turns");
    expect(error.message).toContain("MAX_CONVERSATION_TURNS");
    const after = await fetchThread(thread.id);
    expect(after).toEqual(before);
    expect(after.thread.turnCount).toBe(3);
  });

  it("falls back to 50 turns, with a warning, for an invalid MAX_CONVERSATION_TURNS", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    setServerEnv({ MAX_CONVERSATION_TURNS: "abc" });
    const thread = await newThread();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/MAX_CONVERSATION_TURNS.*abc.*50/);
    for (let i = 0; i < 50; i++) await newTurn(thread.id, { role: "user", content: `turn ${i}` });
    const error = await expectError(await api.appendTurn(thread.id, { role: "user", content: "51st" }), 409, "turn_limit");
    expect(error.message).toContain("50 turns");
    expect(warn).toHaveBeenCalledTimes(1); // read once per process, not per request
  });

  it("answers 404 expired for a turn to an expired thread and changes nothing", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "hello" });
    await expire(thread.id);
    const before = await rowCounts();
    const row = await (await db()).thread.findUniqueOrThrow({ where: { id: thread.id } });
    const error = await expectError(await api.appendTurn(thread.id, { role: "user", content: "anyone?" }), 404, "expired");
    expect(error.message).toContain("expired");
    expect(await rowCounts()).toEqual(before);
    expect(await (await db()).thread.findUniqueOrThrow({ where: { id: thread.id } })).toEqual(row);
  });

  it("answers 404 not_found for a turn to an unknown or malformed thread id", async () => {
    const before = await rowCounts();
    await expectError(await api.appendTurn("11111111-2222-4333-8444-555555555555", { role: "user", content: "x" }), 404, "not_found");
    await expectError(await api.appendTurn("nope", { role: "user", content: "x" }), 404, "not_found");
    expect(await rowCounts()).toEqual(before);
  });

  it.each([
    ["a bad role", { role: "robot", content: "x" }, "role"],
    ["a missing content", { role: "user" }, "content"],
    ["a non-string file", { role: "user", content: "x", files: ["ok", 3] }, "files[1]"],
    ["an empty image path", { role: "user", content: "x", images: [""] }, "images[0]"],
    ["a part of unknown type", { role: "user", content: "x", parts: [{ type: "video" }] }, "parts[0].type"],
    ["a tool_call without a name", { role: "user", content: "x", parts: [{ type: "tool_call", id: "c1" }] }, "parts[0].name"],
    ["a non-object modelMetadata", { role: "user", content: "x", modelMetadata: "high" }, "modelMetadata"],
    ["an empty modelName", { role: "user", content: "x", modelName: "" }, "modelName"],
  ])("answers 400 naming the field for %s", async (_name, body, field) => {
    const thread = await newThread();
    const error = await expectError(await api.appendTurn(thread.id, body), 400, "validation_failed");
    expect(error.message.startsWith(`${field}:`), error.message).toBe(true);
    expect(error.details).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
    expect((await fetchThread(thread.id)).thread.turnCount).toBe(0);
  });

  it("rejects unknown fields and malformed JSON on turns", async () => {
    const thread = await newThread();
    const unknown = await expectError(await api.appendTurn(thread.id, { role: "user", content: "x", mood: "happy" }), 400, "validation_failed");
    expect(unknown.message).toContain("mood");
    await expectError(
      await turnsRoute(jsonRequest("POST", "/x", '{"role": "user", "content": }'), params({ id: thread.id })),
      400,
      "invalid_json",
    );
    expect((await fetchThread(thread.id)).turns).toEqual([]);
  });
});

describe("GET /api/threads (list)", () => {
  type Page = { items: Thread[]; nextCursor: string | null };

  async function listPage(query: Record<string, string>): Promise<Page> {
    const response = await api.listThreads(query);
    expect(response.status, await response.clone().text()).toBe(200);
    return json<Page>(response);
  }

  /** Every page from the start, following nextCursor. */
  async function listAll(query: Record<string, string>): Promise<{ pages: Page[]; ids: string[] }> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await listPage(cursor ? { ...query, cursor } : query);
      pages.push(page);
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(100);
    } while (cursor);
    return { pages, ids: pages.flatMap((p) => p.items.map((t) => t.id)) };
  }

  /** The expected order, computed from the rows rather than from the API. */
  async function expectedOrder(ids?: string[]): Promise<string[]> {
    const rows = await (await db()).thread.findMany({ where: ids ? { id: { in: ids } } : {}, select: { id: true, lastUpdatedAt: true } });
    return rows
      .sort((a, b) => b.lastUpdatedAt.getTime() - a.lastUpdatedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((r) => r.id);
  }

  describe("keyset pagination (own database)", () => {
    let created: string[];

    beforeEach(async () => {
      await switchToFreshDatabase();
      created = [];
      for (let i = 0; i < 30; i++) created.push((await newThread({ toolName: i % 2 ? "chat" : "codereview" })).id);
      // Some activity reorders the list; ten threads share one timestamp, so ids break the ties.
      for (const id of [created[3]!, created[17]!, created[8]!]) {
        await sleep(2);
        await newTurn(id, { role: "user", content: "bump" });
      }
      const tie = new Date(Date.now() - 60_000);
      await (await db()).thread.updateMany({ where: { id: { in: created.slice(20, 30) } }, data: { lastUpdatedAt: tie } });
    });

    it("pages through 30 threads 7 at a time: each exactly once, lastUpdatedAt desc then id desc", async () => {
      const { pages, ids } = await listAll({ limit: "7" });
      expect(pages.map((p) => p.items.length)).toEqual([7, 7, 7, 7, 2]);
      expect(pages.at(-1)!.nextCursor).toBeNull();
      expect(new Set(ids).size).toBe(30);
      expect([...ids].sort()).toEqual([...created].sort());
      expect(ids).toEqual(await expectedOrder());
      expect(ids.slice(0, 3)).toEqual([created[8], created[17], created[3]]);
    });

    it("defaults to 25 per page and ends with nextCursor null", async () => {
      const first = await listPage({});
      expect(first.items).toHaveLength(25);
      expect(first.nextCursor).not.toBeNull();
      const second = await listPage({ cursor: first.nextCursor! });
      expect(second.items).toHaveLength(5);
      expect(second.nextCursor).toBeNull();
      const exact = await listPage({ limit: "30" });
      expect(exact.items).toHaveLength(30);
      expect(exact.nextCursor).toBeNull();
    });

    it("stays stable when threads are created between page fetches: no duplicates, no skips", async () => {
      const firstPage = await listPage({ limit: "7" });
      const seen = firstPage.items.map((t) => t.id);
      let cursor = firstPage.nextCursor;
      const added: string[] = [];
      while (cursor) {
        for (let i = 0; i < 2; i++) added.push((await newThread({ toolName: "late" })).id);
        const page = await listPage({ limit: "7", cursor });
        seen.push(...page.items.map((t) => t.id));
        cursor = page.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual([...created].sort()); // the new threads are newer than every cursor
      expect(added.length).toBeGreaterThan(0);
      // A fresh listing starts with the new ones.
      const fresh = await listAll({ limit: "7" });
      expect(fresh.ids).toHaveLength(30 + added.length);
      expect(fresh.ids.slice(0, added.length).sort()).toEqual([...added].sort());
    });

    it("pages search results with the same keyset (q, cursor and filters together)", async () => {
      // Every created thread gets a turn that matches; the list order is by activity.
      for (const id of created) await newTurn(id, { role: "assistant", content: `pagination marker ${id.slice(0, 4)}` });
      const searched = await listAll({ q: "pagination", limit: "4" });
      expect(searched.pages.map((p) => p.items.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 2]);
      expect(searched.ids).toEqual(await expectedOrder());
      const filtered = await listAll({ q: "marker", tool: "codereview", limit: "4" });
      const codereview = (await (await db()).thread.findMany({ where: { toolName: "codereview" }, select: { id: true } })).map((r) => r.id);
      expect(filtered.ids).toEqual(await expectedOrder(codereview));
      expect(filtered.ids).toHaveLength(15);
    });
  });

  describe("search and filters (own database)", () => {
    let authByTurn: Thread;
    let authByTitle: Thread;
    let cafe: Thread;
    let unrelated: Thread;
    let percent: Thread;

    beforeEach(async () => {
      await switchToFreshDatabase();
      authByTurn = await newThread({ toolName: "chat", title: "Alpha" });
      await newTurn(authByTurn.id, { role: "user", content: "Let us discuss things" });
      await newTurn(authByTurn.id, {
        role: "assistant",
        content: "The authentication token refresh is broken",
        toolName: "codereview",
        modelName: "gpt-5",
        modelProvider: "openai",
      });
      authByTitle = await newThread({ toolName: "debug", title: "OAuth login loop" });
      await newTurn(authByTitle.id, { role: "user", content: "nothing relevant here", modelName: "gemini-2.5-pro" });
      cafe = await newThread({ toolName: "chat" });
      await newTurn(cafe.id, { role: "user", content: "Meet at the Café Zoë tomorrow 50% off" });
      unrelated = await newThread({ toolName: "planner", title: "Gardening" });
      await newTurn(unrelated.id, { role: "user", content: "tomatoes and basil", modelName: "gpt-5" });
      percent = await newThread({ toolName: "chat", title: "100% done_now" });
    });

    const ids = async (query: Record<string, string>) => (await listPage(query)).items.map((t) => t.id).sort();

    it("matches titles and turn content by word prefix", async () => {
      expect(await ids({ q: "auth" })).toEqual([authByTurn.id, authByTitle.id].sort());
      expect(await ids({ q: "authentication" })).toEqual([authByTurn.id]);
      expect(await ids({ q: "thentication" })).toEqual([]); // not a word prefix, not in a title
      expect(await ids({ q: "token auth" })).toEqual([authByTurn.id]); // every term, any order
      expect(await ids({ q: "token tomatoes" })).toEqual([]);
      expect(await ids({ q: "GARDEN" })).toEqual([unrelated.id]);
      expect(await ids({ q: "cafe zoe" })).toEqual([cafe.id]); // diacritics folded
      expect(await ids({ q: "   " })).toHaveLength(5); // blank q lists everything
    });

    it.each([['"'], ["*"], ["NEAR("], ["OR"], ["auth OR"], ['"auth'], ["a AND"], ["NOT x"], ["^col:x"], ["-auth"], ["(auth"], ["'"], ["\\"], [";--"]])(
      "does not error on FTS syntax in q: %s",
      async (q) => {
        const response = await api.listThreads({ q });
        expect(response.status, await response.clone().text()).toBe(200);
        const body = await json<Page>(response);
        expect(Array.isArray(body.items)).toBe(true);
      },
    );

    it("reads FTS operators as words and quoted terms as terms", async () => {
      // Quotes are not syntax: the term is auth (word prefix); the title match takes q literally.
      expect(await ids({ q: '"auth"' })).toEqual([authByTurn.id]);
      expect(await ids({ q: "auth* OR" })).toEqual([]); // "or" is a term that no thread has
      expect(await ids({ q: "NEAR(authentication" })).toEqual([]);
    });

    it("treats LIKE wildcards in q literally", async () => {
      // cafe's title is its first user turn, "... 50% off"; unescaped, "%" would match all five.
      expect(await ids({ q: "%" })).toEqual([percent.id, cafe.id].sort());
      expect(await ids({ q: "_" })).toEqual([percent.id]);
      expect(await ids({ q: "0% d" })).toEqual([percent.id]);
    });

    it("filters by tool: the thread's tool or any turn's tool", async () => {
      expect(await ids({ tool: "codereview" })).toEqual([authByTurn.id]);
      expect(await ids({ tool: "chat" })).toEqual([authByTurn.id, cafe.id, percent.id].sort());
      expect(await ids({ tool: "debug" })).toEqual([authByTitle.id]);
      expect(await ids({ tool: "nothing" })).toEqual([]);
      expect(await ids({ tool: "codereview", q: "auth" })).toEqual([authByTurn.id]);
      expect(await ids({ tool: "debug", q: "authentication" })).toEqual([]);
    });

    it("filters by model: any turn's model", async () => {
      expect(await ids({ model: "gpt-5" })).toEqual([authByTurn.id, unrelated.id].sort());
      expect(await ids({ model: "gemini-2.5-pro" })).toEqual([authByTitle.id]);
      expect(await ids({ model: "gpt" })).toEqual([]); // exact, not prefix
      expect(await ids({ model: "gpt-5", tool: "planner" })).toEqual([unrelated.id]);
      expect(await ids({ model: "gpt-5", q: "tomatoes" })).toEqual([unrelated.id]);
      expect(await ids({ model: "gpt-5", q: "tomatoes", tool: "chat" })).toEqual([]);
    });

    it("lists expired threads, flagged expired", async () => {
      await expire(unrelated.id);
      const items = (await listPage({ q: "garden" })).items;
      expect(items.map((t) => [t.id, t.expired])).toEqual([[unrelated.id, true]]);
    });
  });

  it.each([["0"], ["1000"], ["101"], ["x"], ["-1"], ["2.5"]])("answers 400 naming limit for limit=%j", async (limit) => {
    const error = await expectError(await api.listThreads(`limit=${encodeURIComponent(limit)}`), 400, "validation_failed");
    expect(error.message.startsWith("limit:"), error.message).toBe(true);
    expect(error.details).toEqual([{ field: "limit", message: expect.any(String) }]);
  });

  it.each([
    ["garbage", "garbage!!"],
    ["base64 of nonsense", Buffer.from("hello").toString("base64url")],
    ["a cursor without an id", Buffer.from(`${new Date().toISOString()}|`).toString("base64url")],
    ["a cursor with a bad date", Buffer.from("2024-13-45T00:00:00.000Z|abc").toString("base64url")],
    ["a cursor with extra fields", Buffer.from(`${new Date().toISOString()}|a|b`).toString("base64url")],
  ])("answers 400 naming cursor for %s", async (_name, cursor) => {
    for (const query of [{ cursor }, { cursor, q: "auth" }] as Record<string, string>[]) {
      const error = await expectError(await api.listThreads(query), 400, "validation_failed");
      expect(error.message.startsWith("cursor:"), error.message).toBe(true);
      expect(error.details).toEqual([{ field: "cursor", message: expect.any(String) }]);
    }
  });

  it("answers 400 naming q for an over-long q", async () => {
    const error = await expectError(await api.listThreads({ q: "a".repeat(501) }), 400, "validation_failed");
    expect(error.message.startsWith("q:")).toBe(true);
  });
});

describe("GET /api/threads/:id/chain", () => {
  type ChainBody = { threads: (Thread & { turns: Turn[] })[] };

  async function chainOf(id: string): Promise<ChainBody["threads"]> {
    const response = await api.chain(id);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await json<ChainBody>(response)).threads;
  }

  async function buildChain(length: number): Promise<Thread[]> {
    const threads: Thread[] = [];
    for (let i = 0; i < length; i++) {
      const thread = await newThread({ toolName: "chat", parentThreadId: threads.at(-1)?.id });
      await newTurn(thread.id, { role: "user", content: `question ${i}` });
      await newTurn(thread.id, { role: "assistant", content: `answer ${i}`, modelName: "gpt-5" });
      threads.push(thread);
    }
    return threads;
  }

  it("returns the chain oldest first, each thread with its turns", async () => {
    const [root, middle, leaf] = await buildChain(3);
    const chain = await chainOf(leaf!.id);
    expect(chain.map((t) => t.id)).toEqual([root!.id, middle!.id, leaf!.id]);
    expect(chain.map((t) => t.parentThreadId)).toEqual([null, root!.id, middle!.id]);
    for (const [i, link] of chain.entries()) {
      const stored = await fetchThread(link.id);
      const { turns, ...thread } = link;
      expect(thread).toEqual(stored.thread);
      expect(turns).toEqual(stored.turns);
      expect(turns.map((t) => t.content)).toEqual([`question ${i}`, `answer ${i}`]);
    }
    // From the middle: only the part that ends there.
    expect((await chainOf(middle!.id)).map((t) => t.id)).toEqual([root!.id, middle!.id]);
    expect((await chainOf(root!.id)).map((t) => t.id)).toEqual([root!.id]);
  });

  it("caps a chain of 25 threads to the newest 20", async () => {
    const threads = await buildChain(25);
    const chain = await chainOf(threads[24]!.id);
    expect(chain).toHaveLength(20);
    expect(chain.map((t) => t.id)).toEqual(threads.slice(5).map((t) => t.id));
    expect(chain[0]!.parentThreadId).toBe(threads[4]!.id);
    expect(chain.every((t) => t.turns.length === 2)).toBe(true);
  });

  it("stops at an expired ancestor, and is not found from an expired thread", async () => {
    const [root, middle, leaf] = await buildChain(3);
    await expire(middle!.id);
    expect((await chainOf(leaf!.id)).map((t) => t.id)).toEqual([leaf!.id]);
    await expire(leaf!.id);
    await expectError(await api.chain(leaf!.id), 404, "expired");
    expect((await chainOf(root!.id)).map((t) => t.id)).toEqual([root!.id]);
  });

  it("answers 404 for malformed and unknown ids", async () => {
    await expectError(await api.chain("nope"), 404, "not_found");
    await expectError(await api.chain("7a000000-0000-4000-8000-000000000000"), 404, "not_found");
  });
});

describe("DELETE /api/threads/:id", () => {
  it("purges a thread and its turns (204), after which it is not found", async () => {
    const parent = await newThread();
    await newTurn(parent.id, { role: "user", content: "parent turn" });
    await newTurn(parent.id, { role: "assistant", content: "parent answer" });
    const child = await newThread({ toolName: "chat", parentThreadId: parent.id });
    await newTurn(child.id, { role: "user", content: "child turn" });
    const before = await rowCounts();

    const response = await api.deleteThread(parent.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    await expectError(await api.getThread(parent.id), 404, "not_found");
    await expectError(await api.deleteThread(parent.id), 404, "not_found");
    expect(await rowCounts()).toEqual({ threads: before.threads - 1, turns: before.turns - 2 });
    expect(await (await db()).turn.count({ where: { threadId: parent.id } })).toBe(0);

    // The child keeps its link; its chain stops at the purged parent.
    const { thread: orphan, turns } = await fetchThread(child.id);
    expect(orphan.parentThreadId).toBe(parent.id);
    expect(turns).toHaveLength(1);
    const chain = await json<{ threads: Thread[] }>(await api.chain(child.id));
    expect(chain.threads.map((t) => t.id)).toEqual([child.id]);
  });

  it("purges expired threads too, and answers 404 for malformed ids", async () => {
    const thread = await newThread();
    await expire(thread.id);
    expect((await api.deleteThread(thread.id.toUpperCase())).status).toBe(204);
    expect(await (await db()).thread.count({ where: { id: thread.id } })).toBe(0);
    await expectError(await api.deleteThread("not-an-id"), 404, "not_found");
  });
});

describe("unexpected failures", () => {
  it("answer 500 internal with a generic message; the details go to the server log only", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    setServerEnv({ DATABASE_URL: `file:${process.cwd()}/.tmp/no-such-directory/${crypto.randomUUID()}/x.db` });
    for (const response of [await api.createThread({ toolName: "chat" }), await api.listThreads(), await api.getThread(crypto.randomUUID())]) {
      const error = await expectError(response, 500, "internal");
      expect(error).toEqual({ code: "internal", message: "Internal error; see the server log." });
    }
    expect(logged).toHaveBeenCalled();
    expect(String(logged.mock.calls[0]![0])).toContain("unexpected error");
  });
});

describe("GET /api/threads/:id stays consistent with the list", () => {
  it("reports the same thread in the list and on its own", async () => {
    const thread = await newThread({ toolName: "consistency-check" });
    await newTurn(thread.id, { role: "user", content: "hello", modelName: "m1" });
    const listed = (await json<{ items: Thread[] }>(await api.listThreads({ tool: "consistency-check" }))).items;
    const single = (await fetchThread(thread.id)).thread;
    expect(single.usage).toEqual(ZERO_USAGE); // a user turn alone: no response yet
    expect(listed).toEqual([{ ...single, usage: null }]);
  });
});

describe("file snapshots on turns", () => {
  it("stores snapshots of the turn's files and returns them in order", async () => {
    const thread = await newThread();
    const response = await api.appendTurn(thread.id, {
      role: "user",
      content: "see files",
      files: ["b.py", "a.py"],
      fileSnapshots: [
        { path: "a.py", content: "print('a')\n" },
        { path: "b.py", content: "" },
      ],
    });
    expect(response.status).toBe(201);
    const { turns } = await fetchThread(thread.id);
    expect(turns[0]?.fileSnapshots).toEqual([
      { path: "a.py", content: "print('a')\n" },
      { path: "b.py", content: "" },
    ]);
  });

  it("refuses a snapshot of a file the turn does not name, or two of one file", async () => {
    const thread = await newThread();
    const stray = await api.appendTurn(thread.id, { role: "user", content: "x", files: ["a.py"], fileSnapshots: [{ path: "/etc/passwd", content: "" }] });
    const body = await expectError(stray, 400, "validation_failed");
    expect(body.message).toBe("fileSnapshots[0].path: must be one of this turn's files");
    const twice = await api.appendTurn(thread.id, {
      role: "user",
      content: "x",
      files: ["a.py"],
      fileSnapshots: [
        { path: "a.py", content: "1" },
        { path: "a.py", content: "2" },
      ],
    });
    expect((await expectError(twice, 400, "validation_failed")).message).toBe("fileSnapshots[1].path: has a snapshot already");
    expect((await fetchThread(thread.id)).turns).toHaveLength(0);
  });
});

describe("real token totals", () => {
  it("counts every turn with the default tokenizer, for appended and imported turns alike", async () => {
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    const thread = await newThread();
    const contents = ["Why do sessions drop after a refresh?", "Because `expiresAt` is never updated. 修正 ✅"];
    for (const [i, content] of contents.entries()) await newTurn(thread.id, { role: i ? "assistant" : "user", content });
    const expected = contents.reduce((sum, c) => sum + countTokens(c), 0);
    expect((await fetchThread(thread.id)).thread.tokens).toEqual({ tokenizer: "o200k_base", count: expected, estimated: false });

    const listed = await json<{ items: Thread[] }>(await api.listThreads({ limit: "100" }));
    expect(listed.items.find((t) => t.id === thread.id)?.tokens).toEqual({ tokenizer: "o200k_base", count: expected, estimated: false });

    const exported = await (await api.exportThread(thread.id)).text();
    const copy = await json<{ threadIds: string[] }>(await api.importDocuments(exported, "?mode=copy"));
    const copyId = copy.threadIds[0]!;
    // Imported turns are counted as they are imported: listed with their total before any read.
    const after = await json<{ items: Thread[] }>(await api.listThreads({ limit: "100" }));
    expect(after.items.find((t) => t.id === copyId)?.tokens).toEqual({ tokenizer: "o200k_base", count: expected, estimated: false });
    expect((await fetchThread(copyId)).thread.tokens).toEqual({ tokenizer: "o200k_base", count: expected, estimated: false });
  });
});
