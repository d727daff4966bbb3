/**
 * The Cursor state.vscdb reader on SQLite files with Cursor's schema (no Threadline database):
 * which chats it lists, which rows a chat's document takes (only its own keys; bubbles no header
 * lists counted, never read), the byte limits, and the version gate.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { ImportLimits } from "@/lib/importers/long-lines";
import { CURSOR_TABLES, writeCursorState, type Row } from "@/lib/testing/cursor-state";
import { BUBBLES_SQL, COMPOSER_IDS_SQL, COMPOSER_STAMP_SQL, cursorDatabaseReader as reader } from "./cursor-database";
import { RowBudget } from "./session-documents";

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-cursor-reader-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const LIMITS: ImportLimits = { maxLineBytes: 4096, maxDocumentBytes: 64 * 1024 };
let count = 0;

function open(rows: { items?: Row[]; kv?: Row[] }, tables?: string[]) {
  const file = path.join(work, `${++count}`, "state.vscdb");
  writeCursorState(file, rows, { tables }).close();
  const db = new Database(file, { readonly: true });
  const names = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
  return { db, tables: names };
}

function read(db: Database.Database, tables: ReadonlySet<string>, id: string, limits = LIMITS) {
  const rows = new RowBudget(id, limits, "a session's rows together");
  return { doc: reader.readSession(db, id, rows, tables) as any, skipped: rows.skipped };
}

const composerData = (id: string, bubbles: string[], extra: object = {}) => ({
  _v: 16,
  composerId: id,
  name: `chat ${id}`,
  createdAt: 1780338796904,
  fullConversationHeadersOnly: bubbles.map((b) => ({ bubbleId: b, type: 1 })),
  ...extra,
});
const bubble = (id: string, text = "hello", extra: object = {}) => ({ _v: 3, bubbleId: id, type: 1, text, ...extra });

describe("the Cursor state.vscdb reader", () => {
  it("lists the global composers by their keys, and reads only a composer's own rows", () => {
    // c1 is a prefix of c10: the key ranges must not mix their bubbles.
    const { db, tables } = open({
      items: [
        ["cursorAuth/accessToken", "secret"],
        [
          "composer.composerHeaders",
          { allComposers: [{ type: "head", composerId: "c1", workspaceIdentifier: { id: "w1", uri: { fsPath: "/p/one" } } }] },
        ],
      ],
      kv: [
        ["composerData:c1", composerData("c1", ["b1", "b2"])],
        ["composerData:c10", composerData("c10", ["b1"])],
        ["composerData:draft", composerData("draft", [])],
        ["bubbleId:c1:b1", bubble("b1", "one")],
        ["bubbleId:c1:b2", Buffer.from(JSON.stringify(bubble("b2", "two as a BLOB")))],
        ["bubbleId:c1:edited-away", bubble("edited-away", "x".repeat(10_000))],
        ["bubbleId:c10:b1", bubble("b1", "ten")],
        ["agentKv:blob:abc", "{}"],
      ],
    });
    expect(reader.sessionIds(db, tables)).toEqual(["c1", "c10", "draft"]);
    const { doc, skipped } = read(db, tables, "c1");
    expect(Object.keys(doc.bubbles)).toEqual(["b1", "b2"]);
    expect(doc.bubbles.b2.text).toBe("two as a BLOB");
    // The orphan is larger than a row may be: counted, but never read (nothing skipped for it).
    expect(doc.orphanBubbles).toBe(1);
    expect(skipped).toEqual([]);
    expect(doc.head).toEqual({ workspaceIdentifier: { id: "w1", uri: { fsPath: "/p/one" } } });
    expect(read(db, tables, "c10").doc.bubbles).toEqual({ b1: bubble("b1", "ten") });
    // A draft (no message) and a composer deleted since it was listed give nothing.
    expect(read(db, tables, "draft").doc).toBeNull();
    expect(read(db, tables, "gone").doc).toBeNull();
    const parsed = reader.parse(doc, { name: "state.vscdb#c1" });
    expect(parsed.threads[0]).toMatchObject({ project: "/p/one", turns: [{ content: "one" }, { content: "two as a BLOB" }] });
    db.close();
  });

  it("leaves a bubble over the row limit in the database and a composer over the document limit out, saying so", () => {
    const many = Array.from({ length: 30 }, (_, i) => `b${String(i).padStart(2, "0")}`);
    const { db, tables } = open({
      kv: [
        ["composerData:big", composerData("big", ["b-huge", "b-ok"])],
        ["bubbleId:big:b-huge", bubble("b-huge", "y".repeat(5000))],
        ["bubbleId:big:b-ok", bubble("b-ok")],
        ["composerData:long", composerData("long", many)],
        ...many.map((b): Row => [`bubbleId:long:${b}`, bubble(b, "z".repeat(3000))]),
      ],
    });
    const big = read(db, tables, "big");
    expect(Object.keys(big.doc.bubbles)).toEqual(["b-ok"]);
    expect(big.skipped).toEqual([expect.objectContaining({ path: "big/bubbleId:b-huge", bytes: expect.any(Number) })]);
    const long = read(db, tables, "long");
    expect(long.doc).toBeNull();
    expect(long.skipped).toEqual([expect.objectContaining({ path: "long", reason: expect.stringMatching(/^session too large/) })]);
    db.close();
  });

  it("lists a workspace's old chat tabs that hold a message and its Cursor 0.4x composers kept whole; a VS Code database has none", () => {
    const { db, tables } = open({
      items: [
        [
          "workbench.panel.aichat.view.aichat.chatdata",
          {
            tabs: [
              { tabId: "t1", chatTitle: "one", bubbles: [{ type: "user", text: "hi" }] },
              { tabId: "t-empty", bubbles: [] },
            ],
          },
        ],
        [
          "composer.composerData",
          {
            allComposers: [
              { composerId: "old", name: "inline", conversation: [bubble("x", "kept whole")] },
              { composerId: "head-only", name: "just a head" },
            ],
          },
        ],
        ["aiService.prompts", [{ text: "hi", commandType: 4 }]],
      ],
    });
    expect(reader.sessionIds(db, tables)).toEqual(["workspace:old", "aichat:t1"]);
    expect(read(db, tables, "aichat:t1").doc).toEqual({
      cursor: "chat-tab",
      tab: { tabId: "t1", chatTitle: "one", bubbles: [{ type: "user", text: "hi" }] },
    });
    expect(read(db, tables, "workspace:old").doc).toMatchObject({
      cursor: "composer",
      composerId: "old",
      bubbles: {},
      composer: { name: "inline" },
    });
    expect(read(db, tables, "aichat:gone").doc).toBeNull();
    db.close();

    const vscode = open(
      {
        items: [
          ["workbench.explorer.treeViewState", "{}"],
          ["workbench.panel.aichat.view.aichat.chatdata", "{ not json"],
        ],
      },
      [CURSOR_TABLES[0]!],
    );
    expect(reader.sessionIds(vscode.db, vscode.tables)).toEqual([]);
    expect(reader.unknownVersion!(vscode.db, vscode.tables)).toBeNull();
    vscode.db.close();
  });

  it("refuses composers, or the newest composer's bubbles, of a newer version than it reads", () => {
    const newer = open({
      kv: [
        ["composerData:a", composerData("a", [], { _v: 19 })],
        ["composerData:b", "{ broken"],
      ],
    });
    expect(reader.unknownVersion!(newer.db, newer.tables)).toBe(
      "Cursor composerData of version _v 19: this importer reads composerData up to _v 18 and bubbles up to _v 3",
    );
    newer.db.close();
    const bubbles = open({
      kv: [
        ["composerData:old", composerData("old", ["b"], { lastUpdatedAt: 1 })],
        ["composerData:new", composerData("new", ["b"], { lastUpdatedAt: 2 })],
        ["bubbleId:new:b", bubble("b", "hi", { _v: 4 })],
      ],
    });
    expect(reader.unknownVersion!(bubbles.db, bubbles.tables)).toBe(
      "Cursor bubbles of version _v 4: this importer reads composerData up to _v 18 and bubbles up to _v 3",
    );
    bubbles.db.close();
    const known = open({
      kv: [
        ["composerData:a", composerData("a", ["b"], { _v: 18, lastUpdatedAt: 5 })],
        ["bubbleId:a:b", bubble("b")],
      ],
    });
    expect(reader.unknownVersion!(known.db, known.tables)).toBeNull();
    known.db.close();
  });

  it("reads a chat's bubbles by a range of the key index, not by scanning the table", () => {
    const { db } = open({ kv: [["composerData:c1", composerData("c1", ["b1"])]] });
    const plan = (sql: string, params: object) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail).join("; ");
    const index = /SEARCH cursorDiskKV USING (COVERING )?INDEX sqlite_autoindex_cursorDiskKV_1 \(key>\? AND key<\?\)/;
    const bubbles = plan(BUBBLES_SQL, { ids: '["b1"]', start: 13, max: 100, lo: "bubbleId:c1:", hi: "bubbleId:c1;" });
    expect(bubbles).toMatch(index);
    expect(bubbles).not.toMatch(/SCAN cursorDiskKV/);
    expect(plan(COMPOSER_IDS_SQL, { start: 14, lo: "composerData:", hi: "composerData;" })).toMatch(index);
    const stamp = plan(COMPOSER_STAMP_SQL, { key: "composerData:c1", lo: "bubbleId:c1:", hi: "bubbleId:c1;" });
    expect(stamp).toMatch(index);
    expect(stamp).not.toMatch(/SCAN cursorDiskKV/);
    // What the public readers do, for contrast: LIKE reads every row of a table that can hold gigabytes.
    expect(plan("SELECT key FROM cursorDiskKV WHERE key LIKE @p", { p: "bubbleId:c1:%" })).toMatch(/SCAN cursorDiskKV/);
    db.close();
  });
});
