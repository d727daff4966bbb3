/**
 * Integration tests of creating threads (POST /api/threads), and of the JSON the create and append
 * routes refuse: the real route handlers, called with real Request objects, against this test
 * file's own database (lib/testing/setup-database.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Thread, Turn } from "@/lib/domain/types";
import { emptyPart } from "@/lib/domain/usage/thread-figures";
import { json, jsonRequest, params } from "@/lib/testing/api";
import {
  api,
  expectError,
  expireThread,
  fetchThread,
  newThread,
  newTurn,
  restoreServerEnv,
  rowCounts,
  setServerEnv,
  UUID_V4,
  ZERO_USAGE,
  ZERO_COST,
} from "@/lib/testing/integration";
import { POST as turnsRoute } from "./[id]/turns/route";
import { POST as createRoute } from "./route";

const ZERO_PART = emptyPart();
const HOUR_MS = 3_600_000;

afterEach(() => {
  vi.restoreAllMocks();
  restoreServerEnv();
});

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
    expect((await fetchThread(thread.id)).thread).toEqual({
      ...thread,
      usage: ZERO_USAGE,
      usageWithSubagents: { ...ZERO_USAGE, subagentThreads: 0, compactionRuns: 0, subagents: [] },
      cost: ZERO_COST,
      costWithSubagents: ZERO_COST,
      figures: {
        total: ZERO_PART,
        parts: { thread: ZERO_PART, subagents: ZERO_PART, compactionRuns: ZERO_PART },
        subagentThreads: 0,
        compactionRuns: 0,
        unpricedModels: [],
      },
    });
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
    // Whole words would keep less than half of the 100 characters ("Please review the
    // authentication module"), so the long word is cut inside, with an ellipsis.
    const expected = `${words.replace(/\s+/g, " ").slice(0, 99)}…`;
    expect(titled).toBe(expected);
    expect(titled).toHaveLength(100);

    await newTurn(thread.id, { role: "user", content: "a later user turn" });
    expect((await fetchThread(thread.id)).thread.title).toBe(expected);
  });

  it("cuts an emoji title by code point, never splitting a surrogate pair", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "😀".repeat(120) });
    const { title } = (await fetchThread(thread.id)).thread;
    // 99 emoji and the ellipsis: 100 code points, no half of a pair.
    expect(Array.from(title!)).toHaveLength(100);
    expect(title).toBe(`${"😀".repeat(99)}…`);
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
    await expireThread(parent.id);
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
    await expectError(
      await createRoute(jsonRequest("POST", "/api/threads", `{"toolName": "chat", "initialContext": {"a": ${nested(63)}}}`)),
      400,
      "invalid_json",
    );
  });

  it("refuses a __proto__ key in JSON objects with 400 naming the field, instead of dropping it", async () => {
    const thread = await newThread();
    const before = await rowCounts();
    const cases = [
      [
        await createRoute(jsonRequest("POST", "/api/threads", '{"toolName": "chat", "initialContext": {"a": 1, "__proto__": {"x": 1}}}')),
        "initialContext.__proto__",
      ],
      [
        await createRoute(jsonRequest("POST", "/api/threads", '{"toolName": "chat", "initialContext": {"a": [0, {"__proto__": 1}]}}')),
        "initialContext.a[1].__proto__",
      ],
      [
        await turnsRoute(
          jsonRequest("POST", "/x", '{"role": "assistant", "content": "x", "modelMetadata": {"__proto__": null}}'),
          params({ id: thread.id }),
        ),
        "modelMetadata.__proto__",
      ],
      [
        await turnsRoute(
          jsonRequest("POST", "/x", '{"role": "assistant", "content": "x", "parts": [{"type": "text", "text": "x", "__proto__": "y"}]}'),
          params({ id: thread.id }),
        ),
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
    expect(turn).toMatchObject({
      files: [],
      images: [],
      toolName: null,
      modelProvider: null,
      modelName: null,
      modelMetadata: null,
      parts: null,
      fileSnapshots: [],
    });
    // Required fields still are.
    await expectError(await api.createThread({ toolName: null }), 400, "validation_failed");
    await expectError(await api.appendTurn(thread.id, { role: "user", content: null }), 400, "validation_failed");
  });
});
