/**
 * Integration tests of import (POST /api/import): conflicts, copies, parent links, limits and every
 * refusal writing nothing. The real route handlers against this test file's own database.
 */
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
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
  UUID_V4,
} from "@/lib/testing/integration";
import { buildRichChain, exportText, importOk, nativeDocument, type NativeDoc } from "@/lib/testing/native-documents";
import { POST as importRoute } from "./route";

afterEach(() => restoreServerEnv());

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
    const fresh = nativeDocument([{}]).threads[0]!;
    mixed.threads.unshift(fresh);
    await expectError(await api.importDocuments(mixed), 409, "conflict");
    expect(await rowCounts()).toEqual(before);
    await expectError(await api.getThread(fresh.id), 404, "not_found");
    expect((await fetchThread(thread.id)).turns.map((t) => t.content)).toEqual(["original"]);
  });

  it("answers 409 conflict for a turn id that exists under another thread id", async () => {
    const thread = await newThread();
    const turn = await newTurn(thread.id, { role: "user", content: "mine" });
    const doc = nativeDocument([{}]);
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
    const result = await importOk(nativeDocument([{}]));
    const stored = await (
      await db()
    ).turnTokenCount.findMany({ where: { threadId: result.threadIds[0], tokenizer: "o200k_base" }, orderBy: { turnSeq: "asc" } });
    const o200k = getTokenizer("o200k_base");
    const expected = ["hello", "hi there"].map((text) => o200k.count(text));
    expect(stored.map((row) => row.tokens)).toEqual(expected);
    const { thread } = await fetchThread(result.threadIds[0]!);
    expect(thread.tokens).toEqual({ tokenizer: "o200k_base", count: expected[0]! + expected[1]!, estimated: false });
  });

  it("keeps a parent link that points outside the document, with a warning when it is not here", async () => {
    const parent = await newThread();
    const known = nativeDocument([{ parentThreadId: parent.id }]);
    expect((await importOk(known)).warnings).toEqual([]);
    const missingParent = "0a000000-0000-4000-8000-00000000abcd";
    const orphan = nativeDocument([{ parentThreadId: missingParent }]);
    const result = await importOk(orphan, "?mode=copy");
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain(missingParent);
    expect((await fetchThread(result.threadIds[0]!)).thread.parentThreadId).toBe(missingParent);
  });

  it("imports an array of documents in one go, children before or after their parents", async () => {
    const parentDoc = nativeDocument([{}]);
    const childDoc = nativeDocument([{ parentThreadId: parentDoc.threads[0]!.id }]);
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
    const doc = nativeDocument([{}]);
    doc.threads[0]!.turns.push({ id: crypto.randomUUID(), role: "user", content: "third", timestamp: "2025-01-01T10:06:00.000Z" });
    await importOk(doc);
    const id = doc.threads[0]!.id;
    expect((await fetchThread(id)).turns).toHaveLength(3);
    await expectError(await api.appendTurn(id, { role: "user", content: "fourth" }), 409, "turn_limit");
  });

  it("stores an imported expired thread, which then reads as expired", async () => {
    const doc = nativeDocument([{ expiresAt: "2025-01-01T12:00:00.000Z" }]);
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
    [
      "a bad part",
      (d) => ((d.threads[0]!.turns[0]!.parts = [{ type: "tool_call", id: "", name: "x" }]), d),
      "threads[0].turns[0].parts[0].id",
    ],
    ["no threads", (d) => ((d.threads = []), d), "threads"],
    [
      "the second document of an array",
      (d) => [nativeDocument([{}]), ((d.threads[0]!.turns[1]!.role = "robot"), d)],
      "[1].threads[0].turns[1].role",
    ],
  ];

  it.each(invalid)("answers 400 naming the field for %s, and writes nothing", async (_name, corrupt, field) => {
    const valid = nativeDocument([{}, {}]);
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments(corrupt(valid)), 400, "validation_failed");
    expect(error.message.startsWith(`${field}:`), error.message).toBe(true);
    expect(error.details).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
    expect(await rowCounts()).toEqual(before);
  });

  const unreadable: [string, unknown, RegExp][] = [
    [
      "a document in an unknown format",
      { ...nativeDocument([{}]), format: "pal/v1" },
      /no format Threadline reads\. Supported formats: .*Claude Code/,
    ],
    ["an empty array", [], /an empty JSON list: nothing to import/],
  ];

  it.each(unreadable)("answers 400 unsupported_format for %s, and writes nothing", async (_name, body, message) => {
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments(body), 400, "unsupported_format");
    expect(error.message).toMatch(message);
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 400, not 500, for the same turn id in two documents, and writes nothing", async () => {
    const first = nativeDocument([{}]);
    const second = nativeDocument([{}]);
    second.threads[0]!.turns[0]!.id = first.threads[0]!.turns[0]!.id;
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments([first, second]), 400, "validation_failed");
    expect(error.message).toContain(first.threads[0]!.turns[0]!.id);
    expect(await rowCounts()).toEqual(before);
    await expectError(await api.getThread(first.threads[0]!.id), 404, "not_found");
  });

  it("answers 400 for the same thread in two documents, and writes nothing", async () => {
    const doc = nativeDocument([{}]);
    const before = await rowCounts();
    const error = await expectError(await api.importDocuments([doc, doc]), 400, "validation_failed");
    expect(error.message).toContain(doc.threads[0]!.id);
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 400 for an unknown mode, malformed JSON and an empty body", async () => {
    const before = await rowCounts();
    const mode = await expectError(await api.importDocuments(nativeDocument([{}]), "?mode=merge"), 400, "validation_failed");
    expect(mode.message).toContain("mode");
    await expectError(
      await importRoute(jsonRequest("POST", "/api/import", '{"format": "threadline/v1", "threads": [')),
      400,
      "invalid_json",
    );
    await expectError(await importRoute(jsonRequest("POST", "/api/import", "")), 400, "invalid_json");
    await expectError(
      await importRoute(jsonRequest("POST", "/api/import", JSON.stringify(nativeDocument([{}])).replace('"hello"', '"he\\udc00llo"'))),
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
      const doc = nativeDocument([{}, {}]);
      doc.threads[1]!.parentThreadId = doc.threads[1]!.id;
      for (const query of ["", "?mode=copy"]) {
        expect(await expectLoopRefused(doc, "threads[1].parentThreadId", query)).toBe(
          "threads[1].parentThreadId: must not be the thread's own id",
        );
      }
    });

    it("refuses A -> B -> A inside a document, and across documents", async () => {
      const doc = nativeDocument([{}, {}, {}]);
      const [a, , c] = doc.threads.map((t) => t.id);
      doc.threads[0]!.parentThreadId = c!;
      doc.threads[2]!.parentThreadId = a!;
      doc.threads[1]!.parentThreadId = a!; // a branch hanging off the loop
      const message = await expectLoopRefused(doc, "threads[2].parentThreadId");
      expect(message).toContain(`${c} -> ${a} -> ${c}`);
      await expectLoopRefused(doc, "threads[2].parentThreadId", "?mode=copy");

      const first = nativeDocument([{}]);
      const second = nativeDocument([{ parentThreadId: first.threads[0]!.id }]);
      first.threads[0]!.parentThreadId = second.threads[0]!.id;
      await expectLoopRefused([first, second], "[1].threads[0].parentThreadId");
    });

    it("refuses a loop closed through threads already in the database", async () => {
      // Stored: child -> middle -> (absent) parent. Importing that parent as a child of `child` closes the loop.
      const parentId = crypto.randomUUID();
      const stored = nativeDocument([{ parentThreadId: parentId }, {}]);
      stored.threads[1]!.parentThreadId = stored.threads[0]!.id;
      await importOk(stored);
      const [middle, child] = stored.threads.map((t) => t.id);
      const closing = nativeDocument([{ id: parentId, parentThreadId: child! }]);
      const message = await expectLoopRefused(closing, "threads[0].parentThreadId");
      expect(message).toContain(`${parentId} -> ${child} -> ${middle} -> ${parentId}`);
      // As copies it gets a new id, which no stored thread names: no loop, and the link is kept.
      const copied = await importOk(closing, "?mode=copy");
      expect((await fetchThread(copied.threadIds[0]!)).thread.parentThreadId).toBe(child);
      // Without the closing link, the same id imports fine and completes the chain.
      await importOk(nativeDocument([{ id: parentId }]));
      const chain = await json<{ threads: Thread[] }>(await api.chain(child!));
      expect(chain.threads.map((t) => t.id)).toEqual([parentId, middle, child]);
    });
  });

  it("answers 400 invalid_json naming the limit for JSON nested deeper than 64 levels (was a 500)", async () => {
    const doc = nativeDocument([{}]);
    const text = JSON.stringify(doc).replace(
      '"toolName":"chat"',
      `"toolName":"chat","initialContext":{"deep":${"[".repeat(2000)}${"]".repeat(2000)}}`,
    );
    const before = await rowCounts();
    for (const body of [text, `[${text}]`]) {
      const error = await expectError(await importRoute(jsonRequest("POST", "/api/import", body)), 400, "invalid_json");
      expect(error.message).toContain("64 levels");
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a __proto__ key with 400 naming the field, instead of dropping it", async () => {
    const doc = nativeDocument([{}]);
    const text = JSON.stringify(doc).replace('"toolName":"chat"', '"toolName":"chat","metadata":{"ok":1,"__proto__":{"polluted":true}}');
    const before = await rowCounts();
    for (const [body, field] of [
      [text, "threads[0].metadata.__proto__"],
      [`[${text}]`, "[0].threads[0].metadata.__proto__"],
    ] as const) {
      const error = await expectError(await importRoute(jsonRequest("POST", "/api/import", body)), 400, "validation_failed");
      expect(error.details).toEqual([{ field, message: '"__proto__" is not allowed as a key' }]);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 413 payload_too_large over THREADLINE_MAX_BODY_BYTES, and writes nothing", async () => {
    setServerEnv({ THREADLINE_MAX_BODY_BYTES: "2048" });
    const doc = nativeDocument([{}]);
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
