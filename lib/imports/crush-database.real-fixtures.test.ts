// Every real Crush database in fixtures/real/crush, read twice: here with plain SQL and JSON.parse
// (never with the importer), and through the importer's reader and parser; the two must agree.
// Each database is copied to a temporary `.crush` folder first: SQLite opens a WAL database's
// -wal and -shm files beside it, even read-only, and the fixtures stay as they were copied.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_LIMITS } from "@/lib/importers/long-lines";
import { expectPaired } from "@/lib/importers/test-helpers";
import type { ImportedThread } from "@/lib/importers/types";
import { someFixtures } from "@/lib/testing/real-fixtures";
import { crushDatabaseReader } from "./crush-database";
import { RowBudget } from "./session-documents";

const ROOT = path.join(process.cwd(), "fixtures/real/crush");
const DATABASES = someFixtures(
  readdirSync(ROOT, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && statSync(path.join(ROOT, entry.name, ".crush", "crush.db"), { throwIfNoEntry: false })?.isFile(),
    )
    .map((entry) => entry.name),
  ROOT,
);

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-crush-real-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type RawSession = {
  id: string;
  parent: string | null;
  title: string;
  created: number;
  updated: number;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  messages: { id: string; role: string; model: string | null; provider: string | null; created: number; summary: boolean; parts: any[] }[];
};

/** The sessions and their messages, read with SQL alone. */
function rawSessions(file: string): RawSession[] {
  const db = new Database(file, { readonly: true });
  try {
    const sessions = db.prepare("SELECT * FROM sessions").all() as any[];
    return sessions.map((s) => ({
      id: s.id,
      parent: s.parent_session_id,
      title: s.title,
      created: s.created_at,
      updated: s.updated_at,
      promptTokens: s.prompt_tokens,
      completionTokens: s.completion_tokens,
      cost: s.cost,
      messages: (db.prepare("SELECT * FROM messages WHERE session_id = ? ORDER BY created_at, rowid").all(s.id) as any[]).map((m) => ({
        id: m.id,
        role: m.role,
        model: m.model,
        provider: m.provider,
        created: m.created_at,
        summary: m.role === "assistant" && (m.is_summary_message === 1 || m.id === s.summary_message_id),
        parts: JSON.parse(m.parts),
      })),
    }));
  } finally {
    db.close();
  }
}

/** The threads the importer makes of the database: its reader's documents, parsed. */
function importedThreads(file: string): { threads: ImportedThread[]; skipped: unknown[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
    );
    expect(crushDatabaseReader.unknownVersion?.(db, tables) ?? null).toBeNull();
    const threads: ImportedThread[] = [];
    const skipped: unknown[] = [];
    for (const id of crushDatabaseReader.sessionIds(db, tables)) {
      const rows = new RowBudget(id, DEFAULT_IMPORT_LIMITS, "a session's rows together");
      const doc = db.transaction(() => crushDatabaseReader.readSession(db, id, rows, tables))();
      const parsed = crushDatabaseReader.parse(doc, { name: `crush.db#${id}` });
      threads.push(...parsed.threads);
      skipped.push(...rows.skipped, ...parsed.skipped);
    }
    return { threads, skipped };
  } finally {
    db.close();
  }
}

describe.each(DATABASES)("real Crush database of %s", (project) => {
  const copy = path.join(work, project, ".crush", "crush.db");
  mkdirSync(path.dirname(copy), { recursive: true });
  copyFileSync(path.join(ROOT, project, ".crush", "crush.db"), copy);
  const raw = rawSessions(copy);
  const { threads, skipped } = importedThreads(copy);
  const byKey = new Map(threads.map((t) => [t.key, t]));

  it("gives one thread per session row, keyed by its id, nothing skipped, the project from the .crush folder", () => {
    expect(threads.map((t) => t.key).sort()).toEqual(raw.map((s) => s.id).sort());
    expect(skipped).toEqual([]);
    for (const session of raw) {
      const thread = byKey.get(session.id)!;
      expect(thread.title).toBe(session.title);
      expect(thread.toolName).toBe("crush");
      expect(thread.project).toBe(path.join(work, project));
      // Unix seconds.
      expect(thread.createdAt).toBe(new Date(session.created * 1000).toISOString());
      expect(thread.lastUpdatedAt).toBe(new Date(session.updated * 1000).toISOString());
      expect(thread.parentKey ?? null).toBe(session.parent);
      expect(thread.metadata?.crushUsage).toEqual({
        promptTokens: session.promptTokens,
        completionTokens: session.completionTokens,
        costUsd: session.cost,
      });
    }
  });

  it("has a turn per message, in Crush's order, with the message's role and time", () => {
    for (const session of raw) {
      const thread = byKey.get(session.id)!;
      expect(thread.turns.map((t) => t.key)).toEqual(session.messages.map((m) => m.id));
      // A summary (is_summary_message, or the session's summary_message_id) is a compaction marker.
      expect(thread.turns.map((t) => t.role)).toEqual(session.messages.map((m) => (m.summary ? "system" : m.role)));
      expect(thread.turns.filter((t) => t.compaction).map((t) => t.key)).toEqual(
        session.messages.filter((m) => m.summary).map((m) => m.id),
      );
      expect(thread.turns.map((t) => t.timestamp)).toEqual(session.messages.map((m) => new Date(m.created * 1000).toISOString()));
    }
  });

  it("pairs every tool call with its result, and keeps each call's input and each result's text", () => {
    for (const session of raw) {
      const thread = byKey.get(session.id)!;
      const calls = session.messages.flatMap((m) => m.parts.filter((p) => p.type === "tool_call").map((p) => p.data));
      const results = session.messages.flatMap((m) => m.parts.filter((p) => p.type === "tool_result").map((p) => p.data));
      expect(expectPaired(thread)).toBe(calls.length);
      const importedCalls = thread.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === "tool_call"));
      expect(importedCalls.map((p) => [p.id, p.name, p.arguments])).toEqual(calls.map((c) => [c.id, c.name, JSON.parse(c.input)]));
      const importedResults = thread.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === "tool_result"));
      expect(importedResults.map((p) => [p.toolCallId, p.content, p.isError])).toEqual(
        results.map((r) => [r.tool_call_id, r.content, r.is_error]),
      );
    }
  });

  it("names each response's model and provider, keeps its text, and adds no usage of its own", () => {
    for (const session of raw) {
      const thread = byKey.get(session.id)!;
      const assistants = session.messages.filter((m) => m.role === "assistant" && !m.summary);
      const turns = thread.turns.filter((t) => t.role === "assistant");
      expect(turns.map((t) => [t.modelProvider, t.modelName])).toEqual(assistants.map((m) => [m.provider, m.model]));
      expect(turns.every((t) => t.usage === undefined)).toBe(true);
      const texts = (m: RawSession["messages"][number]) => m.parts.filter((p) => p.type === "text").map((p) => p.data.text);
      expect(turns.map((t) => (t.parts ?? []).flatMap((p) => (p.type === "text" ? [p.text] : [])))).toEqual(assistants.map(texts));
      // Each response's finish reason as Crush recorded it; one that failed says so in its text.
      const reason = (m: RawSession["messages"][number]) => m.parts.find((p) => p.type === "finish")?.data.reason ?? null;
      expect(turns.map((t) => (t.metadata?.finish as { reason?: string } | undefined)?.reason ?? null)).toEqual(assistants.map(reason));
      const failed = assistants.filter((m) => m.parts.some((p) => p.type === "finish" && p.data.reason === "error"));
      expect(turns.filter((t) => t.content.includes("[error]"))).toHaveLength(failed.length);
      const users = session.messages.filter((m) => m.role === "user");
      expect(thread.turns.filter((t) => t.role === "user").map((t) => t.content)).toEqual(users.map((m) => texts(m).join("\n\n")));
    }
  });

  it("the figures this database holds", () => {
    // What was read from this file by hand (sqlite3), so a change to either reading shows here too.
    if (project !== "dbos-transact-golang") return;
    expect(raw.map((s) => s.messages.length).sort((a, b) => a - b)).toEqual([4, 78]);
    const models = new Set(
      threads.flatMap((t) => t.turns.flatMap((turn) => (turn.modelName ? [`${turn.modelProvider}/${turn.modelName}`] : []))),
    );
    expect([...models]).toEqual(["openai/gpt-5"]);
    expect(threads.reduce((n, t) => n + t.turns.filter((turn) => turn.role === "tool").length, 0)).toBe(30);
    expect(threads.reduce((n, t) => n + expectPaired(t), 0)).toBe(41);
  });
});
