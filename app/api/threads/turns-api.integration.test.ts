/**
 * Integration tests of appending turns (POST /api/threads/:id/turns): their fields, expiry, file
 * snapshots and token totals. The real route handlers, called with real Request objects, against
 * this test file's own database (lib/testing/setup-database.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/engine/client";
import type { Thread, Turn } from "@/lib/domain/types";
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
  sleep,
  UUID_V4,
} from "@/lib/testing/integration";
import { POST as turnsRoute } from "./[id]/turns/route";

const HOUR_MS = 3_600_000;

afterEach(() => {
  vi.restoreAllMocks();
  restoreServerEnv();
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
    expect(first).toMatchObject({
      files: [],
      images: [],
      toolName: null,
      modelProvider: null,
      modelName: null,
      modelMetadata: null,
      parts: null,
    });

    const stored = await fetchThread(thread.id);
    expect(stored.turns.map(({ usage: _usage, cost: _cost, ...turn }) => ({ ...turn, usage: null }))).toEqual([first, second, third]);
    // The response is priced from its estimated usage (gpt-5 had no reported counts), the others are no responses.
    expect(stored.turns.map((t) => t.cost?.estimated ?? null)).toEqual([null, true, null]);
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
    await expireThread(thread.id);
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
    const unknown = await expectError(
      await api.appendTurn(thread.id, { role: "user", content: "x", mood: "happy" }),
      400,
      "validation_failed",
    );
    expect(unknown.message).toContain("mood");
    await expectError(
      await turnsRoute(jsonRequest("POST", "/x", '{"role": "user", "content": }'), params({ id: thread.id })),
      400,
      "invalid_json",
    );
    expect((await fetchThread(thread.id)).turns).toEqual([]);
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
    const stray = await api.appendTurn(thread.id, {
      role: "user",
      content: "x",
      files: ["a.py"],
      fileSnapshots: [{ path: "/etc/passwd", content: "" }],
    });
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
