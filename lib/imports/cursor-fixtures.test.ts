/**
 * The synthetic Cursor databases of fixtures/real/cursor/User (SOURCES.md: the real dump's rows
 * plus made-up ones), written by lib/testing/cursor-state.ts (`THREADLINE_WRITE_CURSOR_FIXTURES=1
 * npx vitest run lib/imports/cursor-fixtures.test.ts` writes them again): they hold exactly those
 * rows, and read as the chats they were made of.
 */
import { statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_LIMITS } from "@/lib/importers/long-lines";
import {
  readCursorDump,
  SYNTHETIC_CURSOR_USER,
  SYNTHETIC_WORKSPACE_ID,
  syntheticCursorRows,
  writeSyntheticCursorUser,
  type Row,
} from "@/lib/testing/cursor-state";
import { cursorDatabaseReader as reader } from "./cursor-database";
import { RowBudget } from "./session-documents";

if (process.env.THREADLINE_WRITE_CURSOR_FIXTURES === "1") writeSyntheticCursorUser();

const GLOBAL = path.join(SYNTHETIC_CURSOR_USER, "globalStorage", "state.vscdb");
const WORKSPACE = path.join(SYNTHETIC_CURSOR_USER, "workspaceStorage", SYNTHETIC_WORKSPACE_ID, "state.vscdb");

function rowsOf(db: Database.Database, table: string): Row[] {
  return (db.prepare(`SELECT key, value FROM ${table} ORDER BY key`).all() as { key: string; value: unknown }[]).map((r) => [
    r.key,
    r.value,
  ]);
}

const stored = (rows: readonly Row[]): Row[] =>
  rows
    .map(([key, value]): Row => [key, typeof value === "string" ? value : JSON.stringify(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

function threadsOf(file: string) {
  const db = new Database(file, { readonly: true });
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
  );
  expect(reader.unknownVersion!(db, tables)).toBeNull();
  const ids = reader.sessionIds(db, tables);
  const threads = ids.flatMap((id) => {
    const doc = reader.readSession(db, id, new RowBudget(id, DEFAULT_IMPORT_LIMITS, "rows"), tables);
    return doc ? reader.parse(doc, { name: `${file}#${id}` }).threads : [];
  });
  db.close();
  return { ids, threads };
}

describe("the synthetic Cursor databases", () => {
  const rows = syntheticCursorRows();

  it("hold exactly the rows they are written from, in Cursor's schema, under 300 KB", () => {
    for (const [file, tables] of [
      [GLOBAL, { ItemTable: rows.global.items, cursorDiskKV: rows.global.kv }],
      [WORKSPACE, { ItemTable: rows.workspace.items, cursorDiskKV: [] }],
    ] as const) {
      expect(statSync(file).size).toBeLessThan(300 * 1024);
      const db = new Database(file, { readonly: true });
      for (const [table, expected] of Object.entries(tables)) expect(rowsOf(db, table)).toEqual(stored(expected));
      db.close();
    }
  });

  it("read as the chats they were made of: the real session, its sub-agent, a Cursor 0.4x composer; a chat-panel tab", () => {
    const dump = readCursorDump();
    const global = threadsOf(GLOBAL);
    // Four composers, one of them a draft with no message.
    expect(global.ids).toHaveLength(4);
    expect(global.threads.map((t) => [t.title, t.parentKey ?? null])).toEqual([
      ["Rename the config loader", null],
      ["Count words in notes.md", dump.data.composerId],
      [dump.data.name, null],
    ]);
    const [legacy, child, real] = global.threads;
    expect(real!.turns).toHaveLength(dump.bubbles.length + dump.bubbles.filter((b) => b.toolFormerData).length);
    expect(child!.metadata).toMatchObject({ orphanBubbles: 1 });
    expect(child!.turns.filter((t) => t.usage).map((t) => t.usage)).toEqual([{ inputTokens: 9816, outputTokens: 41 }]);
    expect(legacy!.turns.map((t) => [t.role, t.timestamp ?? null])).toEqual([
      ["user", null],
      ["assistant", "2024-11-30T20:53:50.000Z"],
    ]);
    expect(legacy!.turns[0]!.files).toEqual(["/home/dev/shop/src/config.ts"]);

    const workspace = threadsOf(WORKSPACE);
    expect(workspace.ids).toEqual(["aichat:5b3c7a51-5c5f-4f70-a1a0-6a3b3f1b2c11"]);
    expect(workspace.threads[0]!.turns.map((t) => t.modelName ?? null)).toEqual([null, "gpt-4", null, "claude-3.5-sonnet"]);
  });
});
