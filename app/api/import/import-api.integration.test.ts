/**
 * Integration tests of export (GET /api/threads/:id/export) and import (POST /api/import): the
 * real route handlers against real SQLite files, including a lossless round trip into a second,
 * empty database.
 */
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Thread, Turn } from "@/lib/domain/types";
import { getTokenizer } from "@/lib/tokenizers/registry";
import { json, jsonRequest } from "@/lib/testing/api";
import {
  api,
  expectError,
  fetchThread,
  newThread,
  newTurn,
  restoreServerEnv,
  rowCounts,
  setServerEnv,
  switchToFreshDatabase,
  UUID_V4,
} from "@/lib/testing/integration";
import { POST as importRoute } from "./route";

type ImportResult = { threadIds: string[]; turnCount: number; warnings: string[] };
type NativeDoc = { format: string; threads: (Record<string, unknown> & { id: string; turns: Record<string, unknown>[] })[] };

afterEach(() => restoreServerEnv());

/** A chain of three threads using every stored field the API can write. */
async function buildRichChain(): Promise<Thread[]> {
  const root = await newThread({
    toolName: "consensus",
    initialContext: {
      prompt: "Décide: REST or gRPC? 🤔",
      models: [{ model: "gpt-5", stance: "for" }, { model: "gemini-2.5-pro", stance: "against" }],
      nested: { deep: { deeper: [1, 2.5, -3, true, null, "ß"] } },
      empty: {},
    },
  });
  await newTurn(root.id, {
    role: "user",
    content: "Compare REST and gRPC for our 内部 services 🚀\nLine two\twith a tab, \"quotes\" and \\backslashes\\.",
    files: ["/repo/api/server.ts", "/repo/docs/ADR-7 design (final).md"],
    images: ["/tmp/diagram 1.png"],
    toolName: "consensus",
    fileSnapshots: [{ path: "/repo/api/server.ts", content: "export const server = 1;\n// 内部 ✅\n" }],
  });
  await newTurn(root.id, {
    role: "assistant",
    content: "gRPC wins on latency. ✅",
    toolName: "consensus",
    modelProvider: "openai",
    modelName: "gpt-5",
    modelMetadata: { thinking_mode: "high", usage: { input_tokens: 1234, output_tokens: 567, details: { cached: [0, 12] } }, temperature: 0.2 },
    parts: [
      { type: "thinking", text: "Weigh HTTP/2 multiplexing…", signature: "sig==" },
      { type: "tool_call", id: "call_1", name: "read_file", arguments: { path: "/repo/api/server.ts", lines: [1, 40] } },
      { type: "tool_result", toolCallId: "call_1", content: { text: "export const server = …", truncated: false }, isError: false },
      { type: "text", text: "gRPC wins on latency. ✅" },
      { type: "image", path: "/tmp/diagram 1.png", mediaType: "image/png", alt: "diagram" },
    ],
  });
  const middle = await newThread({ toolName: "codereview", parentThreadId: root.id, title: "Follow-up: review the proto files" });
  await newTurn(middle.id, { role: "user", content: "Review these protos", files: ["/repo/proto/a.proto"] });
  await newTurn(middle.id, {
    role: "assistant",
    content: "Zoë says: 👩‍👩‍👧 family emoji, RTL مرحبا, combining é",
    modelProvider: "google",
    modelName: "gemini-2.5-pro",
    modelMetadata: { safety: [{ category: "HARM", probability: "LOW" }] },
    parts: [{ type: "tool_result", toolCallId: "x", content: ["a", 1, null], isError: true, extra: { kept: "yes" } }],
  });
  const leaf = await newThread({ toolName: "chat", parentThreadId: middle.id });
  await newTurn(leaf.id, { role: "system", content: "" });
  await newTurn(leaf.id, { role: "tool", content: "tool output\u0000with a NUL", toolName: "shell" });
  await newTurn(leaf.id, { role: "user", content: "Thanks! 🙏" });
  return [root, middle, leaf];
}

async function exportText(id: string, query = ""): Promise<string> {
  const response = await api.exportThread(id, query);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.text();
}

async function importOk(body: unknown, query = ""): Promise<ImportResult> {
  const response = await api.importDocuments(body, query);
  expect(response.status, await response.clone().text()).toBe(201);
  return json<ImportResult>(response);
}

/** A small valid document; ids are fresh unless given. */
function document(threads: Partial<NativeDoc["threads"][number]>[]): NativeDoc {
  return {
    format: "threadline/v1",
    threads: threads.map((thread) => ({
      id: crypto.randomUUID(),
      toolName: "chat",
      createdAt: "2025-01-01T10:00:00.000Z",
      lastUpdatedAt: "2025-01-01T11:00:00.000Z",
      expiresAt: null,
      turns: [
        { id: crypto.randomUUID(), role: "user", content: "hello", timestamp: "2025-01-01T10:00:00.000Z" },
        { id: crypto.randomUUID(), role: "assistant", content: "hi there", timestamp: "2025-01-01T10:05:00.000Z", modelName: "m1" },
      ],
      ...thread,
    })),
  };
}

describe("GET /api/threads/:id/export", () => {
  it("downloads one thread as a threadline/v1 attachment with every stored field", async () => {
    const [, , leaf] = await buildRichChain();
    const response = await api.exportThread(leaf!.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="threadline-${leaf!.id}.json"`);
    const text = await response.text();
    expect(text.endsWith("}\n")).toBe(true);
    const doc = JSON.parse(text) as NativeDoc;
    expect(text).toBe(`${JSON.stringify(doc, null, 2)}\n`); // two-space indent, nothing else
    expect(Object.keys(doc)).toEqual(["format", "threads"]);
    expect(doc.format).toBe("threadline/v1");
    expect(doc.threads).toHaveLength(1);

    const stored = await fetchThread(leaf!.id);
    const [thread] = doc.threads;
    expect(Object.keys(thread!)).toEqual([
      "id", "parentThreadId", "title", "toolName", "source", "project", "initialContext", "metadata",
      "createdAt", "lastUpdatedAt", "expiresAt", "turns",
    ]);
    const { turns: exportedTurns, ...exportedThread } = thread!;
    expect(exportedThread).toEqual({
      id: stored.thread.id,
      parentThreadId: stored.thread.parentThreadId,
      title: stored.thread.title,
      toolName: stored.thread.toolName,
      source: stored.thread.source,
      project: stored.thread.project,
      initialContext: stored.thread.initialContext,
      metadata: stored.thread.metadata,
      createdAt: stored.thread.createdAt,
      lastUpdatedAt: stored.thread.lastUpdatedAt,
      expiresAt: stored.thread.expiresAt,
    });
    // fileSnapshots is written only when a turn has some.
    expect(exportedTurns).toEqual(
      stored.turns.map(({ threadId: _t, tokenEstimate: _e, tokens: _c, tokensEstimated: _ce, usage: _u, fileSnapshots, ...turn }) => (fileSnapshots.length > 0 ? { ...turn, fileSnapshots } : turn)),
    );
    expect(Object.keys(exportedTurns[0]!)).toEqual([
      "id", "index", "role", "content", "timestamp", "files", "images", "toolName", "modelProvider", "modelName", "modelMetadata", "parts",
    ]);
  });

  it("exports the whole chain, oldest first, with ?chain=1 (and chain=true)", async () => {
    const [root, middle, leaf] = await buildRichChain();
    const response = await api.exportThread(leaf!.id, "?chain=1");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="threadline-${leaf!.id}-chain.json"`);
    const doc = JSON.parse(await response.text()) as NativeDoc;
    expect(doc.threads.map((t) => t.id)).toEqual([root!.id, middle!.id, leaf!.id]);
    expect(doc.threads.map((t) => t.turns.length)).toEqual([2, 2, 3]);
    expect(await exportText(leaf!.id, "?chain=true")).toBe(JSON.stringify(doc, null, 2) + "\n");
    // chain=0 is a single thread.
    expect((JSON.parse(await exportText(leaf!.id, "?chain=0")) as NativeDoc).threads).toHaveLength(1);
  });

  it("treats an expired thread as not found unless includeExpired=1", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "soon gone" });
    await (await db()).thread.update({ where: { id: thread.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const error = await expectError(await api.exportThread(thread.id), 404, "expired");
    expect(error.message).toContain("expired");
    const doc = JSON.parse(await exportText(thread.id, "?includeExpired=1")) as NativeDoc;
    expect(doc.threads[0]!.id).toBe(thread.id);
  });

  it("answers 404 for malformed and unknown ids", async () => {
    await expectError(await api.exportThread("../etc"), 404, "not_found");
    await expectError(await api.exportThread("5b000000-0000-4000-8000-000000000000", "?chain=1"), 404, "not_found");
  });
});

describe("export -> import -> export round trip", () => {
  it("is byte-identical through a fresh, empty database (chain of 3, every field, unicode)", async () => {
    const [root, middle, leaf] = await buildRichChain();
    const first = await exportText(leaf!.id, "?chain=1");
    const originals = await Promise.all([root, middle, leaf].map((t) => fetchThread(t!.id)));
    // The fixture really carries what the round trip must keep.
    expect(first).toContain("tool_call");
    expect(first).toContain("\\u0000");
    expect(first).toContain("👩‍👩‍👧");
    expect(originals[1]!.thread.modelsUsed).toEqual(["gemini-2.5-pro"]);

    await switchToFreshDatabase();
    expect(await rowCounts()).toEqual({ threads: 0, turns: 0 });
    const result = await importOk(first); // the exact downloaded bytes as the body
    expect(result).toEqual({ threadIds: [root!.id, middle!.id, leaf!.id], turnCount: 7, warnings: [] });
    expect(await rowCounts()).toEqual({ threads: 3, turns: 7 });

    const second = await exportText(leaf!.id, "?chain=1");
    expect(second).toBe(first);
    // Derived values (counts, token estimates, models used) are recomputed to the same numbers.
    for (const original of originals) expect(await fetchThread(original.thread.id)).toEqual(original);
    // Single-thread exports agree too, and so does the chain view.
    expect(await exportText(middle!.id)).toBe(JSON.stringify({ format: "threadline/v1", threads: [JSON.parse(first).threads[1]] }, null, 2) + "\n");
    const chain = await json<{ threads: Thread[] }>(await api.chain(leaf!.id));
    expect(chain.threads.map((t) => t.id)).toEqual([root!.id, middle!.id, leaf!.id]);
  });

  it("keeps imported-only fields (metadata, source, system and tool roles) and normalises times once", async () => {
    const doc = document([
      {
        title: null,
        source: "codex",
        metadata: { cwd: "/home/me/project", git: { branch: "main", dirty: false }, cli: "0.42.0" },
        initialContext: { z: 1, a: 2 },
        createdAt: "2025-03-01T12:00:00+02:00",
        lastUpdatedAt: "2025-03-01T10:30:00.5Z",
        expiresAt: "2999-01-01T00:00:00Z",
        turns: [
          { id: crypto.randomUUID(), role: "system", content: "You are helpful.", timestamp: "2025-03-01T10:00:00Z" },
          {
            id: crypto.randomUUID(),
            index: 1,
            role: "tool",
            content: "exit 0",
            timestamp: "2025-03-01T10:00:01.123Z",
            toolName: "shell",
            parts: [{ type: "tool_result", toolCallId: "c9", content: "exit 0", vendor: { raw: [1] } }],
          },
        ],
      },
    ]);
    const id = doc.threads[0]!.id;
    await importOk(doc);
    const first = await exportText(id);
    const exported = JSON.parse(first) as NativeDoc;
    expect(exported.threads[0]).toMatchObject({
      title: null,
      source: "codex",
      metadata: { cwd: "/home/me/project", git: { branch: "main", dirty: false }, cli: "0.42.0" },
      createdAt: "2025-03-01T10:00:00.000Z",
      lastUpdatedAt: "2025-03-01T10:30:00.500Z",
      expiresAt: "2999-01-01T00:00:00.000Z",
    });
    expect(Object.keys(exported.threads[0]!.initialContext as object)).toEqual(["z", "a"]);
    expect(exported.threads[0]!.turns.map((t) => [t.index, t.role, t.files, t.parts])).toEqual([
      [0, "system", [], null],
      [1, "tool", [], [{ type: "tool_result", toolCallId: "c9", content: "exit 0", vendor: { raw: [1] } }]],
    ]);
    const stored = await fetchThread(id);
    expect(stored.thread).toMatchObject({ turnCount: 2, tokenEstimate: 4 + 1, modelsUsed: [], expired: false });

    await switchToFreshDatabase();
    await importOk(first);
    expect(await exportText(id)).toBe(first);
  });
});

describe("POST /api/import", () => {
  it("answers 409 conflict for a thread id that exists, and writes nothing", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "original" });
    const text = await exportText(thread.id);
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments(text), 409, "conflict");
    expect(error.message).toContain(thread.id);
    expect(error.message).toContain("mode=copy");
    expect(error.details).toMatchObject({ existingThreadIds: [thread.id] });

    // One new thread beside an existing one: still all or nothing.
    const mixed = JSON.parse(text) as NativeDoc;
    const fresh = document([{}]).threads[0]!;
    mixed.threads.unshift(fresh);
    await expectError(await api.importDocuments(mixed), 409, "conflict");
    expect(await rowCounts()).toEqual(before);
    await expectError(await api.getThread(fresh.id), 404, "not_found");
    expect((await fetchThread(thread.id)).turns.map((t) => t.content)).toEqual(["original"]);
  });

  it("answers 409 conflict for a turn id that exists under another thread id", async () => {
    const thread = await newThread();
    const turn = await newTurn(thread.id, { role: "user", content: "mine" });
    const doc = document([{}]);
    doc.threads[0]!.turns[0]!.id = turn.id;
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments(doc), 409, "conflict");
    expect(error.message).toContain(turn.id);
    expect(await rowCounts()).toEqual(before);
  });

  it("imports under new ids with ?mode=copy, remapping parent links inside the document", async () => {
    const [root, middle, leaf] = await buildRichChain();
    const text = await exportText(leaf!.id, "?chain=1");
    const before = await rowCounts();
    const result = await importOk(text, "?mode=copy");
    expect(result.threadIds).toHaveLength(3);
    expect(result.turnCount).toBe(7);
    expect(result.warnings).toEqual([]);
    const originalIds = [root!.id, middle!.id, leaf!.id];
    for (const id of result.threadIds) {
      expect(id).toMatch(UUID_V4);
      expect(originalIds).not.toContain(id);
    }
    expect(await rowCounts()).toEqual({ threads: before.threads + 3, turns: before.turns + 7 });

    const [newRoot, newMiddle, newLeaf] = result.threadIds;
    const copies = await Promise.all(result.threadIds.map((id) => fetchThread(id)));
    expect(copies.map((c) => c.thread.parentThreadId)).toEqual([null, newRoot, newMiddle]);
    const chain = await json<{ threads: (Thread & { turns: Turn[] })[] }>(await api.chain(newLeaf!));
    expect(chain.threads.map((t) => t.id)).toEqual([newRoot, newMiddle, newLeaf]);

    // Same content, new turn ids; the originals are untouched.
    const original = JSON.parse(text) as NativeDoc;
    const copied = JSON.parse(await exportText(newLeaf!, "?chain=1")) as NativeDoc;
    const strip = (doc: NativeDoc) =>
      doc.threads.map(({ id: _i, parentThreadId: _p, turns, ...rest }) => ({ ...rest, turns: turns.map(({ id: _t, ...turn }) => turn) }));
    expect(strip(copied)).toEqual(strip(original));
    const oldTurnIds = new Set(original.threads.flatMap((t) => t.turns.map((u) => u.id)));
    expect(copied.threads.flatMap((t) => t.turns.map((u) => u.id)).filter((id) => oldTurnIds.has(id))).toEqual([]);
    expect(await exportText(leaf!.id, "?chain=1")).toBe(text);

    // Copying twice is fine too.
    expect((await importOk(text, "?mode=copy")).threadIds).toHaveLength(3);
  });

  it("stores each imported turn's real token count, so the thread's total is known at once", async () => {
    const result = await importOk(document([{}]));
    const stored = await (await db()).turnTokenCount.findMany({ where: { threadId: result.threadIds[0], tokenizer: "o200k_base" }, orderBy: { turnSeq: "asc" } });
    const o200k = getTokenizer("o200k_base");
    const expected = ["hello", "hi there"].map((text) => o200k.count(text));
    expect(stored.map((row) => row.tokens)).toEqual(expected);
    const { thread } = await fetchThread(result.threadIds[0]!);
    expect(thread.tokens).toEqual({ tokenizer: "o200k_base", count: expected[0]! + expected[1]!, estimated: false });
  });

  it("keeps a parent link that points outside the document, with a warning when it is not here", async () => {
    const parent = await newThread();
    const known = document([{ parentThreadId: parent.id }]);
    expect((await importOk(known)).warnings).toEqual([]);
    const missingParent = "0a000000-0000-4000-8000-00000000abcd";
    const orphan = document([{ parentThreadId: missingParent }]);
    const result = await importOk(orphan, "?mode=copy");
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain(missingParent);
    expect((await fetchThread(result.threadIds[0]!)).thread.parentThreadId).toBe(missingParent);
  });

  it("imports an array of documents in one go, children before or after their parents", async () => {
    const parentDoc = document([{}]);
    const childDoc = document([{ parentThreadId: parentDoc.threads[0]!.id }]);
    const result = await importOk([childDoc, parentDoc]);
    expect(result.threadIds.sort()).toEqual([parentDoc.threads[0]!.id, childDoc.threads[0]!.id].sort());
    expect(result.turnCount).toBe(4);
    expect(result.warnings).toEqual([]);
    const chain = await json<{ threads: Thread[] }>(await api.chain(childDoc.threads[0]!.id));
    // expiresAt null: these never expire, so the chain is whole.
    expect(chain.threads.map((t) => t.id)).toEqual([parentDoc.threads[0]!.id, childDoc.threads[0]!.id]);
    const { thread } = await fetchThread(childDoc.threads[0]!.id);
    expect(thread).toMatchObject({ turnCount: 2, modelsUsed: ["m1"], tokenEstimate: 1 + 2, expired: false });
  });

  it("ignores MAX_CONVERSATION_TURNS for archives, but appends stay limited", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "2" });
    const doc = document([{}]);
    doc.threads[0]!.turns.push({ id: crypto.randomUUID(), role: "user", content: "third", timestamp: "2025-01-01T10:06:00.000Z" });
    await importOk(doc);
    const id = doc.threads[0]!.id;
    expect((await fetchThread(id)).turns).toHaveLength(3);
    await expectError(await api.appendTurn(id, { role: "user", content: "fourth" }), 409, "turn_limit");
  });

  it("stores an imported expired thread, which then reads as expired", async () => {
    const doc = document([{ expiresAt: "2025-01-01T12:00:00.000Z" }]);
    await importOk(doc);
    await expectError(await api.getThread(doc.threads[0]!.id), 404, "expired");
  });

  const invalid: [string, (doc: NativeDoc) => unknown, string][] = [
    ["a bad turn role", (d) => ((d.threads[0]!.turns[1]!.role = "robot"), d), "threads[0].turns[1].role"],
    ["a missing turn content", (d) => (delete d.threads[0]!.turns[1]!.content, d), "threads[0].turns[1].content"],
    ["a bad timestamp", (d) => ((d.threads[0]!.turns[0]!.timestamp = "yesterday"), d), "threads[0].turns[0].timestamp"],
    ["a wrong turn index", (d) => ((d.threads[0]!.turns[1]!.index = 5), d), "threads[0].turns[1].index"],
    ["a duplicate turn id", (d) => ((d.threads[0]!.turns[1]!.id = d.threads[0]!.turns[0]!.id), d), "threads[0].turns[1].id"],
    ["a thread id that is no UUID", (d) => ((d.threads[0]!.id = "thread-1"), d), "threads[0].id"],
    ["a bad parentThreadId", (d) => ((d.threads[0]!.parentThreadId = 7), d), "threads[0].parentThreadId"],
    ["a missing toolName", (d) => (delete d.threads[0]!.toolName, d), "threads[0].toolName"],
    ["an unknown thread key", (d) => ((d.threads[0]!.colour = "red"), d), "threads[0]"],
    ["a bad part", (d) => ((d.threads[0]!.turns[0]!.parts = [{ type: "tool_call", id: "" , name: "x" }]), d), "threads[0].turns[0].parts[0].id"],
    ["no threads", (d) => ((d.threads = []), d), "threads"],
    ["the second document of an array", (d) => [document([{}]), ((d.threads[0]!.turns[1]!.role = "robot"), d)], "[1].threads[0].turns[1].role"],
  ];

  it.each(invalid)("answers 400 naming the field for %s, and writes nothing", async (_name, corrupt, field) => {
    const valid = document([{}, {}]);
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments(corrupt(valid)), 400, "validation_failed");
    expect(error.message.startsWith(`${field}:`), error.message).toBe(true);
    expect(error.details).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
    expect(await rowCounts()).toEqual(before);
  });

  const unreadable: [string, unknown, RegExp][] = [
    ["a document in an unknown format", { ...document([{}]), format: "pal/v1" }, /no format Threadline reads\. Supported formats: .*Claude Code/],
    ["an empty array", [], /an empty JSON list: nothing to import/],
  ];

  it.each(unreadable)("answers 400 unsupported_format for %s, and writes nothing", async (_name, body, message) => {
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments(body), 400, "unsupported_format");
    expect(error.message).toMatch(message);
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 400, not 500, for the same turn id in two documents, and writes nothing", async () => {
    const first = document([{}]);
    const second = document([{}]);
    second.threads[0]!.turns[0]!.id = first.threads[0]!.turns[0]!.id;
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments([first, second]), 400, "validation_failed");
    expect(error.message).toContain(first.threads[0]!.turns[0]!.id);
    expect(await rowCounts()).toEqual(before);
    await expectError(await api.getThread(first.threads[0]!.id), 404, "not_found");
  });

  it("answers 400 for the same thread in two documents, and writes nothing", async () => {
    const doc = document([{}]);
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments([doc, doc]), 400, "validation_failed");
    expect(error.message).toContain(doc.threads[0]!.id);
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 400 for an unknown mode, malformed JSON and an empty body", async () => {
    const before = await rowCounts();
    const mode = await expectError(await api.importDocuments(document([{}]), "?mode=merge"), 400, "validation_failed");
    expect(mode.message).toContain("mode");
    await expectError(await importRoute(jsonRequest("POST", "/api/import", '{"format": "threadline/v1", "threads": [')), 400, "invalid_json");
    await expectError(await importRoute(jsonRequest("POST", "/api/import", "")), 400, "invalid_json");
    await expectError(
      await importRoute(jsonRequest("POST", "/api/import", JSON.stringify(document([{}])).replace('"hello"', '"he\\udc00llo"'))),
      400,
      "invalid_json",
    );
    expect(await rowCounts()).toEqual(before);
  });

  describe("parent links that loop", () => {
    async function expectLoopRefused(body: unknown, field: string, query = ""): Promise<string> {
      const before = await rowCounts();
      const error = await expectError(await api.importDocuments(body, query), 400, "validation_failed");
      expect(error.message.startsWith(`${field}:`), error.message).toBe(true);
      expect(error.details).toEqual([{ field, message: expect.any(String) }]);
      expect(await rowCounts()).toEqual(before);
      return error.message;
    }

    it("refuses a thread that is its own parent, in strict and copy mode", async () => {
      const doc = document([{}, {}]);
      doc.threads[1]!.parentThreadId = doc.threads[1]!.id;
      for (const query of ["", "?mode=copy"]) {
        expect(await expectLoopRefused(doc, "threads[1].parentThreadId", query)).toBe("threads[1].parentThreadId: must not be the thread's own id");
      }
    });

    it("refuses A -> B -> A inside a document, and across documents", async () => {
      const doc = document([{}, {}, {}]);
      const [a, , c] = doc.threads.map((t) => t.id);
      doc.threads[0]!.parentThreadId = c!;
      doc.threads[2]!.parentThreadId = a!;
      doc.threads[1]!.parentThreadId = a!; // a branch hanging off the loop
      const message = await expectLoopRefused(doc, "threads[2].parentThreadId");
      expect(message).toContain(`${c} -> ${a} -> ${c}`);
      await expectLoopRefused(doc, "threads[2].parentThreadId", "?mode=copy");

      const first = document([{}]);
      const second = document([{ parentThreadId: first.threads[0]!.id }]);
      first.threads[0]!.parentThreadId = second.threads[0]!.id;
      await expectLoopRefused([first, second], "[1].threads[0].parentThreadId");
    });

    it("refuses a loop closed through threads already in the database", async () => {
      // Stored: child -> middle -> (absent) parent. Importing that parent as a child of `child` closes the loop.
      const parentId = crypto.randomUUID();
      const stored = document([{ parentThreadId: parentId }, {}]);
      stored.threads[1]!.parentThreadId = stored.threads[0]!.id;
      await importOk(stored);
      const [middle, child] = stored.threads.map((t) => t.id);
      const closing = document([{ id: parentId, parentThreadId: child! }]);
      const message = await expectLoopRefused(closing, "threads[0].parentThreadId");
      expect(message).toContain(`${parentId} -> ${child} -> ${middle} -> ${parentId}`);
      // As copies it gets a new id, which no stored thread names: no loop, and the link is kept.
      const copied = await importOk(closing, "?mode=copy");
      expect((await fetchThread(copied.threadIds[0]!)).thread.parentThreadId).toBe(child);
      // Without the closing link, the same id imports fine and completes the chain.
      await importOk(document([{ id: parentId }]));
      const chain = await json<{ threads: Thread[] }>(await api.chain(child!));
      expect(chain.threads.map((t) => t.id)).toEqual([parentId, middle, child]);
    });
  });

  it("answers 400 invalid_json naming the limit for JSON nested deeper than 64 levels (was a 500)", async () => {
    const doc = document([{}]);
    const text = JSON.stringify(doc).replace('"toolName":"chat"', `"toolName":"chat","initialContext":{"deep":${"[".repeat(2000)}${"]".repeat(2000)}}`);
    const before = await rowCounts();
    for (const body of [text, `[${text}]`]) {
      const error = await expectError(await importRoute(jsonRequest("POST", "/api/import", body)), 400, "invalid_json");
      expect(error.message).toContain("64 levels");
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a __proto__ key with 400 naming the field, instead of dropping it", async () => {
    const doc = document([{}]);
    const text = JSON.stringify(doc).replace('"toolName":"chat"', '"toolName":"chat","metadata":{"ok":1,"__proto__":{"polluted":true}}');
    const before = await rowCounts();
    for (const [body, field] of [[text, "threads[0].metadata.__proto__"], [`[${text}]`, "[0].threads[0].metadata.__proto__"]] as const) {
      const error = await expectError(await importRoute(jsonRequest("POST", "/api/import", body)), 400, "validation_failed");
      expect(error.details).toEqual([{ field, message: '"__proto__" is not allowed as a key' }]);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 413 payload_too_large over THREADLINE_MAX_BODY_BYTES, and writes nothing", async () => {
    setServerEnv({ THREADLINE_MAX_BODY_BYTES: "2048" });
    const doc = document([{}]);
    doc.threads[0]!.turns[0]!.content = "x".repeat(4096);
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments(doc), 413, "payload_too_large");
    expect(error.message).toContain("2048");
    expect(error.message).toContain("THREADLINE_MAX_BODY_BYTES");
    expect(await rowCounts()).toEqual(before);
    doc.threads[0]!.turns[0]!.content = "x".repeat(1000);
    await importOk(doc);
  });
});
