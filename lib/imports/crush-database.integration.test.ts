/**
 * Crush's crush.db through the real import service and a real database: a database built with
 * Crush's schema (lib/testing/crush-database.ts) imports session by session, re-imports
 * unchanged, and takes a message Crush writes while it still runs (in the write-ahead log); a
 * sub-agent's session is tied to its parent's call; older schemas import, newer or foreign ones
 * are refused whole; the real database in fixtures/real/crush imports every message.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { createCrushDatabase, insertMessage, insertSession, markMigration } from "@/lib/testing/crush-database";
import { fetchThread, switchToFreshDatabase } from "@/lib/testing/integration";
import { importPath } from "./import-file";

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-crush-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const T0 = 1767225600; // 2026-01-01T00:00:00Z in Unix seconds, as Crush writes times
const PARENT = "0d2b6a8e-7c1f-4f3e-9a55-3b8d1c2e4f60";
const CALL = "toolu_01QmS7Agent";
const ASKING = "a7f3c0de-1111-4c4c-8d8d-000000000002";
const CHILD = `${ASKING}$$${CALL}`;

const text = (t: string) => ({ type: "text", data: { text: t } });
const stop = () => ({ type: "finish", data: { reason: "stop", time: 0 } });
const done = (reason: string, time: number) => ({ type: "finish", data: { reason, time } });

/** A parent session that ran the agent tool, its sub-agent's session, and a summary. */
function writeSessions(writer: Database.Database): void {
  insertSession(writer, {
    id: PARENT,
    title: "Where are retries configured?",
    prompt_tokens: 9120,
    completion_tokens: 210,
    cost: 0.0412,
    created_at: T0,
  });
  insertMessage(writer, {
    id: "a7f3c0de-1111-4c4c-8d8d-000000000001",
    session_id: PARENT,
    role: "user",
    parts: [text("Where are retries configured?"), stop()],
    created_at: T0,
  });
  insertMessage(writer, {
    id: ASKING,
    session_id: PARENT,
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    provider: "anthropic",
    parts: [
      text("I'll ask an agent to search."),
      { type: "tool_call", data: { id: CALL, name: "agent", input: '{"prompt":"Find the retry settings"}', finished: true } },
      done("tool_use", T0 + 2),
    ],
    created_at: T0 + 1,
    finished_at: T0 + 2,
  });
  // The sub-agent runs while the parent waits for the tool: its session is named by the call.
  insertSession(writer, { id: CHILD, parent_session_id: PARENT, title: "New Agent Session", cost: 0.0061, created_at: T0 + 2 });
  insertMessage(writer, {
    id: "c0000000-0000-4000-8000-000000000001",
    session_id: CHILD,
    role: "user",
    parts: [text("Find the retry settings"), stop()],
    created_at: T0 + 2,
  });
  insertMessage(writer, {
    id: "c0000000-0000-4000-8000-000000000002",
    session_id: CHILD,
    role: "assistant",
    model: "claude-haiku-4-5-20251001",
    provider: "anthropic",
    parts: [text("In config/retry.go: MaxAttempts = 5."), done("end_turn", T0 + 4)],
    created_at: T0 + 3,
    finished_at: T0 + 4,
  });
  insertMessage(writer, {
    id: "a7f3c0de-1111-4c4c-8d8d-000000000003",
    session_id: PARENT,
    role: "tool",
    parts: [
      {
        type: "tool_result",
        data: { tool_call_id: CALL, name: "agent", content: "In config/retry.go: MaxAttempts = 5.", metadata: "", is_error: false },
      },
      stop(),
    ],
    created_at: T0 + 4,
  });
  insertMessage(writer, {
    id: "a7f3c0de-1111-4c4c-8d8d-000000000004",
    session_id: PARENT,
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    provider: "anthropic",
    is_summary_message: 1,
    parts: [text("Summary: retries live in config/retry.go (MaxAttempts = 5)."), done("end_turn", T0 + 6)],
    created_at: T0 + 5,
    finished_at: T0 + 6,
  });
  writer.prepare("UPDATE sessions SET summary_message_id = ? WHERE id = ?").run("a7f3c0de-1111-4c4c-8d8d-000000000004", PARENT);
}

async function storedThread(id: string) {
  return (await db()).thread.findUnique({ where: { id } });
}

describe("crush.db", () => {
  it("imports each session read-only, re-imports unchanged, and appends a message Crush writes while it runs", async () => {
    await switchToFreshDatabase();
    const project = path.join(work, "shop");
    const file = path.join(project, ".crush", "crush.db");
    const writer = createCrushDatabase(file);
    writeSessions(writer);

    const first = await importPath(file);
    expect(first).toMatchObject({ status: "imported", format: "crush", threads: { created: 2, updated: 0, unchanged: 0 }, skipped: [] });
    expect(first.threadIds).toHaveLength(2);
    const [parentId, childId] = first.threadIds;
    const parent = await fetchThread(parentId!);
    expect(parent.thread).toMatchObject({ title: "Where are retries configured?", toolName: "crush", project, source: "import:crush" });
    expect(parent.turns.map((t) => t.role)).toEqual(["user", "assistant", "tool", "system"]);
    expect(parent.turns[0]!.timestamp).toBe("2026-01-01T00:00:00.000Z");
    expect(parent.turns[1]).toMatchObject({ modelProvider: "anthropic", modelName: "claude-sonnet-4-5-20250929" });
    // No usage per response in Crush: Threadline's estimate, and Crush's own session figures in metadata.
    expect(parent.turns[1]!.usage?.source).toBe("estimated");
    expect(parent.thread.metadata).toMatchObject({ crushUsage: { promptTokens: 9120, completionTokens: 210, costUsd: 0.0412 } });
    expect(parent.turns[3]!.parts?.[0]).toMatchObject({ type: "compaction" });
    expect(parent.turns[3]!.content).toBe("Summary: retries live in config/retry.go (MaxAttempts = 5).");

    const child = await storedThread(childId!);
    expect(child!.parentThreadId).toBe(parentId);
    expect(JSON.parse(child!.metadata!).relation).toMatchObject({ kind: "subagent", toolCallId: CALL, agentId: CHILD });

    expect(await importPath(file)).toMatchObject({ status: "unchanged", threads: { created: 0, updated: 0, unchanged: 2 } });

    // Crush writes on: a new prompt lands in the write-ahead log, the writer still open.
    expect(writer.pragma("journal_mode", { simple: true })).toBe("wal");
    insertMessage(writer, {
      id: "a7f3c0de-1111-4c4c-8d8d-000000000005",
      session_id: PARENT,
      role: "user",
      parts: [text("Thanks, raise it to 7"), stop()],
      created_at: T0 + 60,
    });
    const grown = await importPath(file);
    expect(grown.status).toBe("imported");
    expect(grown.threadResults.map((r) => [r.id, r.change, r.turnsAdded])).toEqual([
      [parentId, "appended", 1],
      [childId, "unchanged", 0],
    ]);
    expect((await fetchThread(parentId!)).turns.at(-1)!.content).toBe("Thanks, raise it to 7");
    writer.close();
  });

  it("reads an older schema (before is_summary_message, todos and read_files: the real database's) by the session's summary_message_id", async () => {
    await switchToFreshDatabase();
    const file = path.join(work, "old", ".crush", "crush.db");
    const writer = createCrushDatabase(file, 20250627000000);
    insertSession(writer, { id: "s-old", title: "Old", created_at: T0 });
    insertMessage(writer, { id: "m1", session_id: "s-old", role: "user", parts: [text("hi"), stop()], created_at: T0 });
    insertMessage(writer, {
      id: "m2",
      session_id: "s-old",
      role: "assistant",
      model: "gpt-5",
      provider: "openai",
      parts: [text("A summary"), done("end_turn", T0 + 2)],
      created_at: T0 + 1,
    });
    writer.prepare("UPDATE sessions SET summary_message_id = 'm2' WHERE id = 's-old'").run();
    writer.close();
    const report = await importPath(file);
    expect(report).toMatchObject({ status: "imported", format: "crush", threads: { created: 1 }, skipped: [] });
    const { turns } = await fetchThread(report.threadIds[0]!);
    expect(turns.map((t) => [t.role, t.parts?.[0]?.type ?? null])).toEqual([
      ["user", null],
      ["system", "compaction"],
    ]);
  });

  it("refuses a database of a newer schema, or one without Crush's columns, naming what was expected", async () => {
    await switchToFreshDatabase();
    const newer = path.join(work, "newer", ".crush", "crush.db");
    const writer = createCrushDatabase(newer);
    insertSession(writer, { id: "s", title: "t", created_at: T0 });
    markMigration(writer, 20270101000000);
    writer.close();
    expect(await importPath(newer)).toMatchObject({
      status: "failed",
      error: expect.stringContaining(
        "a Crush database of schema version 20270101000000, newer than the newest Threadline reads (20260127000000)",
      ),
    });

    const foreign = path.join(work, "foreign", "crush.db");
    mkdirSync(path.dirname(foreign), { recursive: true });
    const other = new Database(foreign);
    other.exec("CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id TEXT); CREATE TABLE files (id TEXT)");
    other.close();
    expect(await importPath(foreign)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("not a Crush database of a known schema: its sessions table has no parent_session_id, title"),
    });

    const notCrush = path.join(work, "bad", "crush.db");
    mkdirSync(path.dirname(notCrush), { recursive: true });
    const bad = new Database(notCrush);
    bad.exec("CREATE TABLE sessions (id TEXT)");
    bad.close();
    expect(await importPath(notCrush)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("crush.db: not a Crush database: no messages, files table"),
    });
    expect(await (await db()).thread.count()).toBe(0);
  });

  it("imports the real database in fixtures/real/crush: a thread per session, a turn per message", async () => {
    await switchToFreshDatabase();
    // Copied: SQLite opens -wal and -shm files beside a WAL database, even read-only.
    const file = path.join(work, "real", "dbos-transact-golang", ".crush", "crush.db");
    mkdirSync(path.dirname(file), { recursive: true });
    copyFileSync(path.join(process.cwd(), "fixtures/real/crush/dbos-transact-golang/.crush/crush.db"), file);
    const raw = new Database(file, { readonly: true });
    const counts = raw.prepare("SELECT session_id AS id, COUNT(*) AS n FROM messages GROUP BY session_id").all() as {
      id: string;
      n: number;
    }[];
    raw.close();
    const report = await importPath(file);
    expect(report).toMatchObject({ status: "imported", format: "crush", threads: { created: counts.length }, skipped: [] });
    const stored = await (
      await db()
    ).thread.findMany({ where: { id: { in: report.threadIds } }, include: { _count: { select: { turns: true } } } });
    expect(stored.map((t) => t._count.turns).sort((a, b) => a - b)).toEqual(counts.map((c) => c.n).sort((a, b) => a - b));
    expect(new Set(stored.map((t) => t.project))).toEqual(new Set([path.dirname(path.dirname(file))]));
    expect(await importPath(file)).toMatchObject({ status: "unchanged" });
  });
});
