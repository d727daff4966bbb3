/**
 * Goose's sessions.db through the real import service and a real database: a database built with
 * goose's own schema (lib/testing/goose-database.ts) imported, imported again unchanged, grown by
 * a message while goose still holds it open in WAL mode; a sub-agent tied to the delegate call
 * whichever session is stored first; an older schema without parent_session_id; the fixtures of
 * fixtures/real/goose; a schema newer than the reader knows refused whole.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { importedThreadId } from "@/lib/importers/stable-id";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { createGooseDatabase, insertGooseMessage, insertGooseSession } from "@/lib/testing/goose-database";
import { SYNTHETIC_COMPACTION_CALL } from "@/lib/testing/goose-fixtures";
import { fetchThread, restoreServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import { importPath } from "./import-file";

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-goose-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => restoreServerEnv());

const FIXTURES = path.join(process.cwd(), "fixtures/real/goose");
const T0 = 1_768_381_200;
const threadIdOf = (sessionId: string) => importedThreadId("goose", sessionId);

const text = (t: string) => ({ type: "text", text: t });
const delegate = (id: string) => ({
  type: "toolRequest",
  id,
  toolCall: { status: "success", value: { name: "summon__delegate", arguments: { instructions: "look" } } },
});
const delegated = (id: string, child: string) => ({
  type: "toolResponse",
  id,
  toolResult: { status: "success", value: { content: [text("found it")], isError: false, _meta: { subagent_session_id: child } } },
});

async function storedThread(id: string) {
  return (await db()).thread.findUnique({ where: { id } });
}

describe("Goose's sessions.db", () => {
  it("imports every session, re-imports unchanged, and appends a message goose writes while it holds the database open", async () => {
    await switchToFreshDatabase();
    const file = path.join(work, "live", "sessions", "sessions.db");
    const goose = createGooseDatabase(file);
    insertGooseSession(goose, {
      id: "20260201_1",
      name: "Parent",
      working_dir: "/work/app",
      provider_name: "anthropic",
      model_config: { model_name: "claude-sonnet-4-5" },
    });
    insertGooseMessage(goose, { sessionId: "20260201_1", messageId: "m1", role: "user", created: T0, content: [text("look into it")] });
    insertGooseMessage(goose, {
      sessionId: "20260201_1",
      messageId: "m2",
      role: "assistant",
      created: T0 + 1,
      content: [delegate("toolu_1")],
      metadata: { usage: { inputTokens: 1000, outputTokens: 20, cacheReadTokens: 600 } },
    });
    insertGooseMessage(goose, {
      sessionId: "20260201_1",
      messageId: "m3",
      role: "user",
      created: T0 + 9,
      content: [delegated("toolu_1", "20260201_2")],
    });
    insertGooseSession(goose, {
      id: "20260201_2",
      name: "Delegated task",
      session_type: "sub_agent",
      parent_session_id: "20260201_1",
      working_dir: "/work/app",
    });
    insertGooseMessage(goose, { sessionId: "20260201_2", messageId: "c1", role: "user", created: T0 + 2, content: [text("look")] });
    insertGooseMessage(goose, {
      sessionId: "20260201_2",
      messageId: "c2",
      role: "assistant",
      created: T0 + 8,
      content: [text("found it")],
    });

    const first = await importPath(file);
    expect(first).toMatchObject({ status: "imported", format: "goose", threads: { created: 2, updated: 0, unchanged: 0 }, skipped: [] });
    expect(first.threadIds.sort()).toEqual([threadIdOf("20260201_1"), threadIdOf("20260201_2")].sort());
    const child = await storedThread(threadIdOf("20260201_2"));
    expect(child!.parentThreadId).toBe(threadIdOf("20260201_1"));
    // The sub-agent is tied to the delegate call whose result named it.
    expect(JSON.parse(child!.metadata!).relation).toEqual({ kind: "subagent", toolCallId: "toolu_1", agentId: "20260201_2" });
    const parent = await fetchThread(threadIdOf("20260201_1"));
    expect(parent.turns.map((t) => t.role)).toEqual(["user", "assistant", "tool"]);
    expect(parent.turns[1]!.usage).toMatchObject({ inputTokens: 400, cacheReadTokens: 600, outputTokens: 20, source: "reported" });

    expect(await importPath(file)).toMatchObject({ status: "unchanged", threads: { unchanged: 2 } });

    // Goose goes on writing while Threadline reads: the new message sits in the write-ahead log.
    insertGooseMessage(goose, {
      sessionId: "20260201_1",
      messageId: "m4",
      role: "assistant",
      created: T0 + 12,
      content: [text("The sub-agent found it.")],
    });
    const grown = await importPath(file);
    expect(grown).toMatchObject({ status: "imported", threads: { updated: 1, unchanged: 1 } });
    expect(grown.threadResults.find((r) => r.id === threadIdOf("20260201_1"))).toMatchObject({ change: "appended", turnsAdded: 1 });
    goose.close();
  });

  it("ties a sub-agent stored before its parent to the delegate call once the parent comes", async () => {
    await switchToFreshDatabase();
    const childFile = path.join(work, "order", "child", "sessions.db");
    const childDb = createGooseDatabase(childFile);
    insertGooseSession(childDb, { id: "20260202_2", session_type: "sub_agent", parent_session_id: "20260202_1", working_dir: "/w" });
    insertGooseMessage(childDb, { sessionId: "20260202_2", messageId: "c1", role: "user", created: T0, content: [text("look")] });
    childDb.close();
    const parentFile = path.join(work, "order", "parent", "sessions.db");
    const parentDb = createGooseDatabase(parentFile);
    insertGooseSession(parentDb, { id: "20260202_1", working_dir: "/w" });
    insertGooseMessage(parentDb, {
      sessionId: "20260202_1",
      messageId: "p1",
      role: "assistant",
      created: T0,
      content: [delegate("toolu_7")],
    });
    insertGooseMessage(parentDb, {
      sessionId: "20260202_1",
      messageId: "p2",
      role: "user",
      created: T0 + 1,
      content: [delegated("toolu_7", "20260202_2")],
    });
    parentDb.close();

    await importPath(childFile);
    expect(JSON.parse((await storedThread(threadIdOf("20260202_2")))!.metadata!).relation).toMatchObject({
      toolCallId: null,
      agentId: "20260202_2",
    });
    await importPath(parentFile);
    expect(JSON.parse((await storedThread(threadIdOf("20260202_2")))!.metadata!).relation).toMatchObject({
      toolCallId: "toolu_7",
      agentId: "20260202_2",
    });
  });

  it("reads a schema-13 database (no parent_session_id, no message usage): the sub-agent found by the call that named it, the totals kept as session totals", async () => {
    await switchToFreshDatabase();
    const file = path.join(work, "v13", "sessions.db");
    const goose = createGooseDatabase(file, 13);
    insertGooseSession(goose, {
      id: "20251201_1",
      working_dir: "/w",
      provider_name: "openai",
      model_config: { model_name: "gpt-5" },
      accumulated_input_tokens: 5000,
      accumulated_output_tokens: 300,
      accumulated_total_tokens: 5300,
    });
    insertGooseMessage(goose, { sessionId: "20251201_1", role: "user", created: T0, content: [text("go")] });
    insertGooseMessage(goose, { sessionId: "20251201_1", role: "assistant", created: T0 + 1, content: [delegate("call_1")] });
    insertGooseMessage(goose, { sessionId: "20251201_1", role: "user", created: T0 + 5, content: [delegated("call_1", "20251201_2")] });
    insertGooseSession(goose, { id: "20251201_2", session_type: "sub_agent", working_dir: "/w" });
    insertGooseMessage(goose, { sessionId: "20251201_2", role: "user", created: T0 + 2, content: [text("look")] });
    goose.close();

    const report = await importPath(file);
    expect(report).toMatchObject({ status: "imported", format: "goose", threads: { created: 2 }, skipped: [] });
    const child = await storedThread(threadIdOf("20251201_2"));
    expect(child!.parentThreadId).toBe(threadIdOf("20251201_1"));
    expect(JSON.parse(child!.metadata!).relation).toEqual({ kind: "subagent", toolCallId: "call_1", agentId: "20251201_2" });
    const parent = await fetchThread(threadIdOf("20251201_1"));
    expect(sessionTotalsOf(parent.thread.metadata)!.models["gpt-5"]).toMatchObject({ inputTokens: 5000, outputTokens: 300 });
    // The reply the totals cover is not estimated: it has no usage of its own.
    expect(parent.turns.find((t) => t.role === "assistant")!.usage).toBeNull();
  });

  it("imports the fixtures: the real schema-5 database, the synthetic schema-17 one (with its compaction call in the session totals), the legacy file", async () => {
    await switchToFreshDatabase();
    const real = await importPath(path.join(FIXTURES, "jpresley/sessions/sessions.db"));
    expect(real).toMatchObject({ status: "imported", format: "goose", skipped: [] });
    expect(real.threadIds).toEqual([threadIdOf("20251202_1")]);
    expect((await fetchThread(real.threadIds[0]!)).thread).toMatchObject({
      title: "CLI Session",
      project: "/Users/jpresley/workspace/tmp/vsl",
      turnCount: 0,
    });

    const synthetic = await importPath(path.join(FIXTURES, "synthetic/sessions/sessions.db"));
    expect(synthetic).toMatchObject({ status: "imported", threads: { created: 3 }, skipped: [], warnings: [] });
    const parent = await fetchThread(threadIdOf("20260114_1"));
    expect(parent.turns.filter((t) => t.parts?.some((p) => p.type === "compaction"))).toHaveLength(1);
    expect(sessionTotalsOf(parent.thread.metadata)!.models["claude-sonnet-4-5"]).toMatchObject({
      inputTokens: SYNTHETIC_COMPACTION_CALL.input,
      outputTokens: SYNTHETIC_COMPACTION_CALL.output,
    });
    expect((await storedThread(threadIdOf("20260114_2")))!.parentThreadId).toBe(threadIdOf("20260114_1"));

    const legacy = await importPath(path.join(FIXTURES, "legacy/sessions/20250614_181442.jsonl"));
    expect(legacy).toMatchObject({ status: "imported", format: "goose", threads: { created: 1 }, skipped: [] });
    expect(legacy.threadIds).toEqual([threadIdOf("20250614_181442")]);

    // Beside a sessions.db (Goose copied it there at its first start with the database): left for the database's copy.
    const copied = path.join(work, "copied", "sessions");
    mkdirSync(copied, { recursive: true });
    copyFileSync(path.join(FIXTURES, "legacy/sessions/20250614_181442.jsonl"), path.join(copied, "20250614_181442.jsonl"));
    copyFileSync(path.join(FIXTURES, "synthetic/sessions/sessions.db"), path.join(copied, "sessions.db"));
    expect(await importPath(path.join(copied, "20250614_181442.jsonl"))).toMatchObject({
      status: "unchanged",
      threadIds: [],
      skipped: [{ reason: expect.stringContaining("Goose copied into the sessions.db beside it") }],
    });
  });

  it("refuses a database of a newer schema, or without goose's columns, whole, naming what it expected", async () => {
    await switchToFreshDatabase();
    const newer = path.join(work, "newer", "sessions.db");
    const goose = createGooseDatabase(newer);
    insertGooseSession(goose, { id: "20260301_1", working_dir: "/w" });
    goose.prepare("INSERT INTO schema_version (version) VALUES (18)").run();
    goose.close();
    expect(await importPath(newer)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("sessions.db: a Goose sessions.db of schema version 18; this reader knows versions up to 17"),
    });

    const broken = path.join(work, "broken", "sessions.db");
    mkdirSync(path.dirname(broken), { recursive: true });
    copyFileSync(path.join(FIXTURES, "jpresley/sessions/sessions.db"), broken);
    const Database = (await import("better-sqlite3")).default;
    const edit = new Database(broken);
    edit.exec("ALTER TABLE messages RENAME COLUMN content_json TO body");
    edit.close();
    expect(await importPath(broken)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("its messages table has no content_json column"),
    });

    const other = path.join(work, "other", "sessions.db");
    mkdirSync(path.dirname(other), { recursive: true });
    const express = new Database(other);
    express.exec("CREATE TABLE sessions (sid TEXT PRIMARY KEY, sess TEXT, expire INTEGER)");
    express.close();
    expect(await importPath(other)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("not a Goose sessions.db: no messages, schema_version table"),
    });
  });
});
