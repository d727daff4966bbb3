/**
 * The sessions.db fixtures of fixtures/real/goose (a real one of schema 5, a synthetic one of
 * schema 17; see fixtures/real/SOURCES.md), read by the reader and parsed, checked against an
 * independent reading of the raw database done here with SQL and JSON.parse: the sessions, every
 * message row accounted for, the tool calls and results, each reply's usage, and the session
 * totals as what the accumulated columns count beyond the messages. And the synthetic fixtures
 * are what lib/testing/goose-fixtures.ts writes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import type { ImportedThread } from "@/lib/importers/types";
import { writeSyntheticGooseFixtures } from "@/lib/testing/goose-fixtures";
import { someFixtures } from "@/lib/testing/real-fixtures";
import { gooseDatabaseReader } from "./goose-database";
import { RowBudget } from "./session-documents";

const ROOT = path.join(process.cwd(), "fixtures/real/goose");
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) =>
    statSync(path.join(dir, name)).isDirectory() ? filesUnder(path.join(dir, name)) : [path.join(dir, name)],
  );
const DATABASES = someFixtures(
  filesUnder(ROOT).filter((f) => f.endsWith("sessions.db")),
  ROOT,
);
const LIMITS = { maxLineBytes: 64 * 1024 * 1024, maxDocumentBytes: 512 * 1024 * 1024 } as ConstructorParameters<typeof RowBudget>[1];

type Raw = any;

function readThreads(file: string): Map<string, ImportedThread> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
    );
    expect(gooseDatabaseReader.unknownVersion!(db, tables)).toBeNull();
    const threads = new Map<string, ImportedThread>();
    for (const id of gooseDatabaseReader.sessionIds(db, tables)) {
      const rows = new RowBudget(id, LIMITS, "a session's rows together");
      const parsed = gooseDatabaseReader.parse(gooseDatabaseReader.readSession(db, id, rows, tables), {
        name: `${path.basename(file)}#${id}`,
      });
      expect(parsed.skipped).toEqual([]);
      expect(parsed.threads).toHaveLength(1);
      threads.set(id, parsed.threads[0]!);
    }
    return threads;
  } finally {
    db.close();
  }
}

/** The raw reading of one session: its row and its messages in goose's order, JSON columns parsed here. */
function rawSessions(file: string): { session: Raw; messages: Raw[] }[] {
  const db = new Database(file, { readonly: true });
  try {
    const sessions = db.prepare("SELECT * FROM sessions ORDER BY id").all() as Raw[];
    return sessions.map((session) => ({
      session,
      messages: (db.prepare("SELECT * FROM messages WHERE session_id = ? ORDER BY created_timestamp, id").all(session.id) as Raw[]).map(
        (m) => ({
          ...m,
          content: JSON.parse(m.content_json),
          metadata: m.metadata_json ? JSON.parse(m.metadata_json) : {},
        }),
      ),
    }));
  } finally {
    db.close();
  }
}

const blocksOf = (messages: Raw[], type: string) => messages.flatMap((m) => m.content.filter((b: Raw) => b.type === type));
const threadParts = (thread: ImportedThread, type: string) =>
  thread.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === type)) as Raw[];

describe.each(DATABASES.map((file) => ({ name: path.relative(ROOT, file), file })))("$name", ({ file }) => {
  const threads = readThreads(file);
  const raws = rawSessions(file);

  it("has one thread per sessions row, keyed by its id, its working_dir the project", () => {
    expect([...threads.keys()]).toEqual(raws.map((r) => r.session.id));
    for (const { session } of raws)
      expect(threads.get(session.id)).toMatchObject({ key: session.id, project: session.working_dir, toolName: "goose" });
  });

  it("accounts for every message row: a turn of its id, or the continuation folded into a compaction marker", () => {
    for (const { session, messages } of raws) {
      const thread = threads.get(session.id)!;
      const named = new Set(thread.turns.flatMap((t) => [t.metadata?.messageId, t.metadata?.continuationMessageId]).filter(Boolean));
      expect([...named].sort()).toEqual(messages.map((m) => m.message_id).sort());
      // A compaction: the summary the agent sees and the user does not, right after the history hidden from the agent.
      const summaries = messages.filter(
        (m, i) => m.metadata.userVisible === false && m.role === "user" && messages[i - 1]?.metadata.agentVisible === false,
      );
      expect(thread.turns.filter((t) => t.compaction).map((t) => t.metadata?.messageId)).toEqual(summaries.map((m) => m.message_id));
    }
  });

  it("pairs every tool request with its response, by goose's id", () => {
    for (const { session, messages } of raws) {
      const thread = threads.get(session.id)!;
      expect(threadParts(thread, "tool_call").map((p) => p.id)).toEqual(blocksOf(messages, "toolRequest").map((b) => b.id));
      expect(threadParts(thread, "tool_result").map((p) => p.toolCallId)).toEqual(blocksOf(messages, "toolResponse").map((b) => b.id));
      const delegated = blocksOf(messages, "toolResponse").filter((b) => b.toolResult.value?._meta?.subagent_session_id);
      expect(
        threadParts(thread, "tool_result")
          .filter((p) => p.agentId)
          .map((p) => [p.toolCallId, p.agentId]),
      ).toEqual(delegated.map((b) => [b.id, b.toolResult.value._meta.subagent_session_id]));
      if (session.parent_session_id)
        expect(thread).toMatchObject({ parentKey: session.parent_session_id, relation: { kind: "subagent", agentId: session.id } });
    }
  });

  it("gives each reply its own usage once, input without the cache, and keeps the rest of the session's totals apart", () => {
    for (const { session, messages } of raws) {
      const thread = threads.get(session.id)!;
      const reported = messages.filter((m) => m.metadata.usage).map((m) => m.metadata.usage);
      const replies = thread.turns.filter((t) => t.usage);
      expect(replies.map((t) => t.metadata?.messageId)).toEqual(messages.filter((m) => m.metadata.usage).map((m) => m.message_id));
      const sum = (pick: (u: Raw) => number) => reported.reduce((n, u) => n + (pick(u) ?? 0), 0);
      const usage = (pick: (u: Raw) => number | undefined) => replies.reduce((n, t) => n + (pick(t.usage) ?? 0), 0);
      expect(usage((u) => u.inputTokens! + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0))).toBe(sum((u) => u.inputTokens));
      expect(usage((u) => u.outputTokens)).toBe(sum((u) => u.outputTokens));
      expect(usage((u) => u.cacheReadTokens)).toBe(sum((u) => u.cacheReadTokens));
      expect(usage((u) => u.reportedCostUsd)).toBeCloseTo(
        sum((u) => u.cost),
        10,
      );
      const left = {
        input: (session.accumulated_input_tokens ?? 0) - sum((u) => u.inputTokens),
        output: (session.accumulated_output_tokens ?? 0) - sum((u) => u.outputTokens),
      };
      const totals = sessionTotalsOf(thread.metadata);
      if (left.input <= 0 && left.output <= 0) expect(totals).toBeNull();
      else {
        const model = JSON.parse(session.model_config_json ?? "{}").model_name ?? "unknown";
        expect(totals!.models[model]).toMatchObject({ reportedInputTokens: left.input, outputTokens: left.output });
      }
    }
  });
});

describe.each(DATABASES.map((file) => ({ name: path.relative(ROOT, file), file })))("$name", ({ file }) => {
  const threads = readThreads(file);
  const raws = rawSessions(file);

  it("has one thread per sessions row, keyed by its id, its working_dir the project", () => {
    expect([...threads.keys()]).toEqual(raws.map((r) => r.session.id));
    for (const { session } of raws)
      expect(threads.get(session.id)).toMatchObject({ key: session.id, project: session.working_dir, toolName: "goose" });
  });

  it("accounts for every message row: a turn of its id, or the continuation folded into a compaction marker", () => {
    for (const { session, messages } of raws) {
      const thread = threads.get(session.id)!;
      const named = new Set(thread.turns.flatMap((t) => [t.metadata?.messageId, t.metadata?.continuationMessageId]).filter(Boolean));
      expect([...named].sort()).toEqual(messages.map((m) => m.message_id).sort());
      // A compaction: the summary the agent sees and the user does not, right after the history hidden from the agent.
      const summaries = messages.filter(
        (m, i) => m.metadata.userVisible === false && m.role === "user" && messages[i - 1]?.metadata.agentVisible === false,
      );
      expect(thread.turns.filter((t) => t.compaction).map((t) => t.metadata?.messageId)).toEqual(summaries.map((m) => m.message_id));
    }
  });

  it("pairs every tool request with its response, by goose's id", () => {
    for (const { session, messages } of raws) {
      const thread = threads.get(session.id)!;
      expect(threadParts(thread, "tool_call").map((p) => p.id)).toEqual(blocksOf(messages, "toolRequest").map((b) => b.id));
      expect(threadParts(thread, "tool_result").map((p) => p.toolCallId)).toEqual(blocksOf(messages, "toolResponse").map((b) => b.id));
      const delegated = blocksOf(messages, "toolResponse").filter((b) => b.toolResult.value?._meta?.subagent_session_id);
      expect(
        threadParts(thread, "tool_result")
          .filter((p) => p.agentId)
          .map((p) => [p.toolCallId, p.agentId]),
      ).toEqual(delegated.map((b) => [b.id, b.toolResult.value._meta.subagent_session_id]));
      if (session.parent_session_id)
        expect(thread).toMatchObject({ parentKey: session.parent_session_id, relation: { kind: "subagent", agentId: session.id } });
    }
  });

  it("gives each reply its own usage once, input without the cache, and keeps the rest of the session's totals apart", () => {
    for (const { session, messages } of raws) {
      const thread = threads.get(session.id)!;
      const reported = messages.filter((m) => m.metadata.usage).map((m) => m.metadata.usage);
      const replies = thread.turns.filter((t) => t.usage);
      expect(replies.map((t) => t.metadata?.messageId)).toEqual(messages.filter((m) => m.metadata.usage).map((m) => m.message_id));
      const sum = (pick: (u: Raw) => number) => reported.reduce((n, u) => n + (pick(u) ?? 0), 0);
      const usage = (pick: (u: Raw) => number | undefined) => replies.reduce((n, t) => n + (pick(t.usage) ?? 0), 0);
      expect(usage((u) => u.inputTokens! + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0))).toBe(sum((u) => u.inputTokens));
      expect(usage((u) => u.outputTokens)).toBe(sum((u) => u.outputTokens));
      expect(usage((u) => u.cacheReadTokens)).toBe(sum((u) => u.cacheReadTokens));
      expect(usage((u) => u.reportedCostUsd)).toBeCloseTo(
        sum((u) => u.cost),
        10,
      );
      const left = {
        input: (session.accumulated_input_tokens ?? 0) - sum((u) => u.inputTokens),
        output: (session.accumulated_output_tokens ?? 0) - sum((u) => u.outputTokens),
      };
      const totals = sessionTotalsOf(thread.metadata);
      if (left.input <= 0 && left.output <= 0) expect(totals).toBeNull();
      else {
        const model = JSON.parse(session.model_config_json ?? "{}").model_name ?? "unknown";
        expect(totals!.models[model]).toMatchObject({ reportedInputTokens: left.input, outputTokens: left.output });
      }
    }
  });
});

describe("the synthetic fixtures", () => {
  const work = mkdtempSync(path.join(os.tmpdir(), "threadline-goose-fixtures-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const committed = path.join(ROOT, "synthetic/sessions");

  it("are what lib/testing/goose-fixtures.ts writes: the legacy file byte for byte, the database row for row", () => {
    writeSyntheticGooseFixtures(work);
    expect(readFileSync(path.join(work, "20250614_181442.jsonl"), "utf8")).toBe(
      // In a folder of its own: beside a sessions.db, Goose's copy in the database is read instead.
      readFileSync(path.join(ROOT, "legacy/sessions/20250614_181442.jsonl"), "utf8"),
    );
    const dump = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        const tables = db.prepare("SELECT name, sql FROM sqlite_master ORDER BY name").all() as { name: string; sql: string | null }[];
        const rows = tables
          .filter((t) => t.sql?.startsWith("CREATE TABLE"))
          .map((t) => [t.name, db.prepare(`SELECT * FROM "${t.name}"`).all()]);
        return { tables, rows };
      } finally {
        db.close();
      }
    };
    const written = dump(path.join(work, "sessions.db"));
    const stored = dump(path.join(committed, "sessions.db"));
    // Message ids are goose's own where a test gives none; here every message has one.
    expect(written).toEqual(stored);
  });
});
