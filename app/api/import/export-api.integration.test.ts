/**
 * Integration tests of export (GET /api/threads/:id/export), and of the lossless export -> import
 * -> export round trip into a second, empty database: the real route handlers against real files.
 */
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import type { Thread } from "@/lib/domain/types";
import { json } from "@/lib/testing/api";
import {
  api,
  expectError,
  fetchThread,
  newThread,
  newTurn,
  restoreServerEnv,
  rowCounts,
  switchToFreshDatabase,
} from "@/lib/testing/integration";
import { buildRichChain, exportText, importOk, nativeDocument, type NativeDoc } from "@/lib/testing/native-documents";

afterEach(() => restoreServerEnv());

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
      "id",
      "parentThreadId",
      "title",
      "toolName",
      "source",
      "project",
      "initialContext",
      "metadata",
      "createdAt",
      "lastUpdatedAt",
      "expiresAt",
      "turns",
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
      stored.turns.map(
        ({ threadId: _t, tokenEstimate: _e, tokens: _c, tokensEstimated: _ce, usage: _u, cost: _cost, fileSnapshots, ...turn }) =>
          fileSnapshots.length > 0 ? { ...turn, fileSnapshots } : turn,
      ),
    );
    expect(Object.keys(exportedTurns[0]!)).toEqual([
      "id",
      "index",
      "role",
      "content",
      "timestamp",
      "files",
      "images",
      "toolName",
      "modelProvider",
      "modelName",
      "modelMetadata",
      "parts",
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
    expect(await exportText(middle!.id)).toBe(
      JSON.stringify({ format: "threadline/v1", threads: [JSON.parse(first).threads[1]] }, null, 2) + "\n",
    );
    const chain = await json<{ threads: Thread[] }>(await api.chain(leaf!.id));
    expect(chain.threads.map((t) => t.id)).toEqual([root!.id, middle!.id, leaf!.id]);
  });

  it("keeps imported-only fields (metadata, source, system and tool roles) and normalises times once", async () => {
    const doc = nativeDocument([
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
