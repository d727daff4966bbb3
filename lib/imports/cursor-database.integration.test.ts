/**
 * Cursor's state.vscdb through the real import service and a real database: a global database
 * built from the real Cursor 3.6 dump (fixtures/real/cursor) plus a sub-agent composer imports
 * every chat, ties the sub-agent to the task call, re-imports unchanged, and takes a bubble Cursor
 * writes in WAL mode (its writer still open) as an appended turn; a workspace database's old chat
 * tabs import; VS Code's own state.vscdb imports nothing; a newer schema and a file that is no
 * VS Code state database are refused, nothing stored.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { CURSOR_TABLES, dumpRows, putRows, readCursorDump, writeCursorState, type Row } from "@/lib/testing/cursor-state";
import { fetchThread, restoreServerEnv, rowCounts, switchToFreshDatabase } from "@/lib/testing/integration";
import { importPath } from "./import-file";

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-cursor-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => restoreServerEnv());

const dump = readCursorDump();
const PARENT = dump.data.composerId;
const task = dump.bubbles.find((b: any) => b.toolFormerData?.name === "task_v2")!.toolFormerData as any;
const CHILD = task.additionalData.subagentComposerId as string;

/** The sub-agent's composer, as Cursor names its parent (subagentInfo), with one prompt and one answer. */
function childRows(): Row[] {
  const bubbles = [
    { _v: 3, bubbleId: "c-user", type: 1, text: "Count the words in notes.md", createdAt: "2026-06-01T18:33:44.300Z" },
    {
      _v: 3,
      bubbleId: "c-answer",
      type: 2,
      text: "8 words.",
      createdAt: "2026-06-01T18:33:50.000Z",
      tokenCount: { inputTokens: 5120, outputTokens: 12 },
      modelInfo: { modelName: "composer-1" },
    },
  ];
  return [
    [
      `composerData:${CHILD}`,
      {
        _v: 16,
        composerId: CHILD,
        name: "Count words in notes.md",
        createdAt: 1780338824300,
        subagentInfo: { parentComposerId: PARENT, conversationLengthAtSpawn: 21 },
        fullConversationHeadersOnly: bubbles.map(({ bubbleId, type }) => ({ bubbleId, type })),
      },
    ],
    ...bubbles.map((b): Row => [`bubbleId:${CHILD}:${b.bubbleId}`, b]),
  ];
}

async function storedThread(id: string) {
  return (await db()).thread.findUnique({ where: { id } });
}

describe("Cursor's state.vscdb", () => {
  it("imports every chat of the global database, ties the sub-agent, re-imports unchanged, and appends a bubble written in WAL mode", async () => {
    await switchToFreshDatabase();
    const file = path.join(work, "User", "globalStorage", "state.vscdb");
    const rows = dumpRows(dump);
    const writer = writeCursorState(
      file,
      { items: [["cursorAuth/accessToken", "not-read"], ...rows.items], kv: [...rows.kv, ...childRows()] },
      { wal: true },
    );

    const first = await importPath(file);
    expect(first).toMatchObject({ status: "imported", format: "cursor", threads: { created: 2, updated: 0, unchanged: 0 }, skipped: [] });
    const parentId = first.threadResults.find((r) => r.title === dump.data.name)!.id;
    const childId = first.threadResults.find((r) => r.title === "Count words in notes.md")!.id;
    const parent = await fetchThread(parentId!);
    expect(parent.thread).toMatchObject({
      title: dump.data.name,
      project: "/Users/ben/projects/temp/cursortest2",
      toolName: "cursor",
      source: "import:cursor",
    });
    const bubblesWithTools = dump.bubbles.filter((b: any) => b.toolFormerData).length;
    expect(parent.turns).toHaveLength(dump.bubbles.length + bubblesWithTools);
    // The sub-agent: its parent, and the task call that started it (tied by the agentId its result names).
    const child = await storedThread(childId!);
    expect(child!.parentThreadId).toBe(parentId);
    expect(JSON.parse(child!.metadata!).relation).toMatchObject({ kind: "subagent", toolCallId: task.toolCallId, agentId: CHILD });
    const childTurns = (await fetchThread(childId!)).turns;
    expect(childTurns.find((t) => t.role === "assistant")).toMatchObject({
      modelName: "composer-1",
      usage: { inputTokens: 5120, outputTokens: 12 },
    });

    expect(await importPath(file)).toMatchObject({ status: "unchanged", threads: { unchanged: 2 } });

    // Cursor answers again while we read: a bubble and its header land in the write-ahead log.
    const answer = { _v: 3, bubbleId: "late-answer", type: 2, text: "One more thing.", createdAt: "2026-06-01T18:34:10.000Z" };
    const data = {
      ...dump.data,
      fullConversationHeadersOnly: [...(dump.data.fullConversationHeadersOnly as object[]), { bubbleId: "late-answer", type: 2 }],
    };
    putRows(writer, {
      kv: [
        [`composerData:${PARENT}`, data],
        [`bubbleId:${PARENT}:late-answer`, answer],
      ],
    });
    const grown = await importPath(file);
    expect(grown.status).toBe("imported");
    expect(grown.threadResults.find((r) => r.id === parentId)).toMatchObject({ change: "appended", turnsAdded: 1 });
    expect(grown.threadResults.find((r) => r.id === childId)).toMatchObject({ change: "unchanged" });

    // Cursor rewrites its database every few seconds: a chat whose stamp (record size and last update, its bubbles'
    // count and sizes) is as the last import saw it is not read again. Shown by a bubble changed in place to the same
    // length: unread, the thread keeps its turn; once the chat's lastUpdatedAt moves, it is read and the change taken.
    const edited = { ...answer, text: "One more THING." };
    putRows(writer, { kv: [[`bubbleId:${PARENT}:late-answer`, edited]] });
    expect(await importPath(file)).toMatchObject({ status: "unchanged", threads: { unchanged: 2 } });
    expect((await fetchThread(parentId!)).turns.at(-1)!.content).toBe("One more thing.");
    putRows(writer, { kv: [[`composerData:${PARENT}`, { ...data, lastUpdatedAt: 1780338900000 }]] });
    const reread = await importPath(file);
    expect(reread.threadResults.find((r) => r.id === parentId)).toMatchObject({ change: "rewritten", turnsAdded: 1, turnsRemoved: 1 });
    expect((await fetchThread(parentId!)).turns.at(-1)!.content).toBe("One more THING.");
    writer.close();
  });

  it("imports a workspace database's old chat tabs, and nothing, without an error, from VS Code's own state.vscdb", async () => {
    await switchToFreshDatabase();
    const workspace = path.join(work, "User", "workspaceStorage", "0f3a9c", "state.vscdb");
    const tabs = {
      tabs: [
        {
          tabId: "5b3c7a51-5c5f-4f70-a1a0-6a3b3f1b2c11",
          chatTitle: "Regex help",
          lastSendTime: 1716200000000,
          bubbles: [
            { type: "user", id: "q1", text: "What does /a+b/ match?" },
            { type: "ai", id: "r1", rawText: "One or more a, then b.", modelType: "gpt-4" },
          ],
        },
      ],
    };
    writeCursorState(workspace, {
      items: [
        ["workbench.panel.aichat.view.aichat.chatdata", tabs],
        ["composer.composerData", { allComposers: [{ composerId: PARENT }] }],
      ],
    }).close();
    const report = await importPath(workspace);
    expect(report).toMatchObject({ status: "imported", format: "cursor", threads: { created: 1 } });
    const { thread, turns } = await fetchThread(report.threadIds[0]!);
    expect(thread).toMatchObject({ title: "Regex help", project: null });
    expect(turns.map((t) => [t.role, t.content, t.modelName])).toEqual([
      ["user", "What does /a+b/ match?", null],
      ["assistant", "One or more a, then b.", "gpt-4"],
    ]);

    const vscode = path.join(work, "Code", "User", "globalStorage", "state.vscdb");
    writeCursorState(
      vscode,
      {
        items: [
          ["workbench.explorer.treeViewState", "{}"],
          ["memento/workbench.parts.editor", "{}"],
        ],
      },
      { tables: [CURSOR_TABLES[0]!] },
    ).close();
    expect(await importPath(vscode)).toMatchObject({ status: "unchanged", format: "cursor", threadIds: [], skipped: [] });
  });

  it("refuses a newer composer version and a state.vscdb with no ItemTable, storing nothing", async () => {
    await switchToFreshDatabase();
    const newer = path.join(work, "newer", "state.vscdb");
    const rows = dumpRows(dump);
    writeCursorState(newer, {
      items: rows.items,
      kv: [...childRows(), [`composerData:${PARENT}`, { ...dump.data, _v: 19 }], ...rows.kv.slice(1)],
    }).close();
    expect(await importPath(newer)).toMatchObject({
      status: "failed",
      error: expect.stringContaining(
        "state.vscdb: Cursor composerData of version _v 19: this importer reads composerData up to _v 18 and bubbles up to _v 3",
      ),
    });
    const other = path.join(work, "other", "state.vscdb");
    writeCursorState(other, {}, { tables: ["CREATE TABLE notes (id TEXT)"] }).close();
    expect(await importPath(other)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("state.vscdb: not a Cursor state.vscdb: no ItemTable table"),
    });
    expect(await rowCounts()).toEqual({ threads: 0, turns: 0 });
  });
});
