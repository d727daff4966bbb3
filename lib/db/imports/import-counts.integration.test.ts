/**
 * Token counts that follow an import's commit in a bulk run (lib/db/imports/import-counts.ts): every turn
 * of many small imports ends up with its count, a failed import among them writes nothing and
 * loses no other import's counts, and a late count is written only for the turn it was counted
 * for. (Outside a bulk run the counts commit with the turns: import-writer.integration.test.ts.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverSettings } from "@/lib/env";
import type { ImportedThread, ThreadTurn } from "@/lib/importers/types";
import { importedThreadId } from "@/lib/importers/stable-id";
import { importPath } from "@/lib/imports/import-file";
import { writeRealShapedSessions } from "@/lib/testing/real-shaped-sessions";
import { getTokenizer } from "@/lib/tokenizers/registry";
import { newThread, newTurn, rowCounts } from "@/lib/testing/integration";
import { db } from "../engine/client";
import { startBulkImports } from "./import-batch";
import { lateCountsWritten, withEarlierCounts, writeCountsLater } from "./import-counts";
import type { TokenCountRow } from "./import-rows";
import { withImportWriter } from "./import-writer";
import { storeTurnStream } from "./turn-stream-import";

function session(key: string, turnCount: number): ImportedThread {
  return {
    key,
    toolName: "claude-code",
    title: `Session ${key}`,
    turns: Array.from({ length: turnCount }, (_, i) => ({
      key: `t${i}`,
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: `${key} turn ${i}: ${"a few words of the session ".repeat(i + 1)}`,
      timestamp: new Date(Date.UTC(2026, 0, 5, 9, 0, i)).toISOString(),
    })),
  };
}

const sourceFile = (name: string) => ({ name, sha256: name.padEnd(64, "0").slice(0, 64), size: 1 });

async function* failingAt(thread: ImportedThread, at: number): AsyncGenerator<ThreadTurn> {
  for (const [i, turn] of thread.turns.entries()) {
    if (i === at) throw new Error("the source broke off");
    yield { threadIndex: 0, turn };
  }
}

/** Each stored turn of these threads with its o200k counts (none, one or more). */
async function countsOf(threadIds: string[]): Promise<{ content: string; tokens: number[] }[]> {
  const turns = await (
    await db()
  ).turn.findMany({
    where: { threadId: { in: threadIds } },
    select: { content: true, tokenCounts: { where: { tokenizer: "o200k_base" }, select: { tokens: true } } },
  });
  return turns.map((turn) => ({ content: turn.content, tokens: turn.tokenCounts.map((count) => count.tokens) }));
}

describe("token counts written after an import's commit", () => {
  it("in a bulk run, reach every turn of many small imports, one each and the registry's; a failed import among them writes nothing", async () => {
    const before = await rowCounts();
    const dir = mkdtempSync(path.join(os.tmpdir(), "threadline-small-"));
    const { files } = writeRealShapedSessions(dir, 30);
    let ticks = 0;
    let importing = true;
    const tick = () => {
      ticks += 1;
      if (importing) setImmediate(tick);
    };
    tick();
    const imported: string[] = [];
    const bulk = startBulkImports();
    try {
      for (const [i, file] of files.entries()) {
        if (i === 15) {
          const thread = session("broken", 7);
          const outline = { format: "claude-code" as const, threads: [thread], skipped: [], warnings: [] };
          await expect(bulk.run(() => storeTurnStream(outline, failingAt(thread, 5), sourceFile(thread.key)))).rejects.toThrow(
            "the source broke off",
          );
        }
        const report = await bulk.run(() => importPath(file));
        expect(report.status).toBe("imported");
        imported.push(...report.threadIds);
      }
    } finally {
      importing = false;
      rmSync(dir, { recursive: true, force: true });
    }
    // Each file lets the event loop in, though neither it nor its small import waits for anything.
    expect(ticks).toBeGreaterThanOrEqual(files.length);
    await bulk.finish();
    await lateCountsWritten();
    const o200k = getTokenizer("o200k_base");
    const counted = await countsOf(imported);
    expect(counted.length).toBe((await rowCounts()).turns - before.turns);
    for (const turn of counted) expect(turn.tokens).toEqual([o200k.count(turn.content)]);
    expect(await countsOf([importedThreadId("claude-code", "broken")])).toEqual([]);
  });

  it("go back to wait for the next transaction when the one that took them rolls back", async () => {
    const thread = await newThread({ toolName: "chat" });
    const turn = await newTurn(thread.id, { role: "user", content: "counted late" });
    const { seq } = await (await db()).turn.findUniqueOrThrow({ where: { id: turn.id }, select: { seq: true } });
    const url = serverSettings().databaseUrl;
    const row: TokenCountRow = { turnSeq: seq, turnId: turn.id, threadId: thread.id, tokenizer: "late-test", tokens: 3, estimated: false };
    writeCountsLater(url, [Promise.resolve([row])]);
    // An import takes them along (the idle write leaves them to it), then fails before its commit.
    await expect(
      withEarlierCounts(url, (writeEarlier) =>
        withImportWriter(url, async (writer, end) => {
          await writeEarlier(writer, end);
          throw new Error("failed after taking the earlier counts");
        }),
      ),
    ).rejects.toThrow("after taking");
    await lateCountsWritten();
    expect(
      await (await db()).turnTokenCount.findMany({ where: { tokenizer: "late-test" }, select: { turnSeq: true, tokens: true } }),
    ).toEqual([{ turnSeq: seq, tokens: 3 }]);
  });

  it("are written only for the turn they were counted for, and never over a count stored meanwhile", async () => {
    const thread = await newThread({ toolName: "chat" });
    const turn = await newTurn(thread.id, { role: "user", content: "counted twice" });
    const client = await db();
    const { seq } = await client.turn.findUniqueOrThrow({ where: { id: turn.id }, select: { seq: true } });
    const count = (turnId: string, tokens: number): TokenCountRow => ({
      turnSeq: seq,
      turnId,
      threadId: thread.id,
      tokenizer: "guard-test",
      tokens,
      estimated: false,
    });
    const url = serverSettings().databaseUrl;
    // Another turn's id under this seq: the turn counted is gone (its seq is never reused, but a database can be replaced).
    await withImportWriter(url, (writer) => writer.insertTokenCounts([count("another-turn", 1)]));
    expect(await client.turnTokenCount.count({ where: { tokenizer: "guard-test" } })).toBe(0);
    await withImportWriter(url, (writer) => writer.insertTokenCounts([count(turn.id, 2)]));
    await withImportWriter(url, (writer) => writer.insertTokenCounts([count(turn.id, 5)]));
    expect(await client.turnTokenCount.findMany({ where: { tokenizer: "guard-test" }, select: { tokens: true } })).toEqual([{ tokens: 2 }]);
  });
});
