/**
 * A bulk run's batch (import-batch.ts) on the test file's real database, SQLite or PostgreSQL:
 * many imports in one transaction, one failing half-way among them, one rewriting a thread
 * another import of the batch created; the search index holds exactly the committed turns, and on
 * SQLite its insert trigger, dropped for the batch, is back as it was for every connection.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ImportedThread, ThreadTurn } from "@/lib/importers/types";
import { importedThreadId } from "@/lib/importers/stable-id";
import { newThread, newTurn } from "@/lib/testing/integration";
import { db } from "../engine/client";
import { databaseKind } from "../engine/create-client";
import { searchTurns } from "../threads/search";
import { batchLimits, startBulkImports } from "./import-batch";
import { storeTurnStream } from "./turn-stream-import";

const limits = { ...batchLimits };
beforeEach(() => Object.assign(batchLimits, { firstBatchMs: 60_000, batchMs: 60_000, idleMs: 60_000 }));
afterEach(() => Object.assign(batchLimits, limits));

function session(key: string, words: string[]): ImportedThread {
  return {
    key,
    toolName: "claude-code",
    title: `Session ${key}`,
    turns: words.map((word, i) => ({
      key: `${key}-${i}-${word}`,
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: `${word} in a turn of ${key}`,
      timestamp: new Date(Date.UTC(2026, 0, 5, 9, 0, i)).toISOString(),
    })),
  };
}

async function* turnsOf(thread: ImportedThread, failAt?: number): AsyncGenerator<ThreadTurn> {
  for (const [i, turn] of thread.turns.entries()) {
    if (i === failAt) throw new Error("the source broke off");
    yield { threadIndex: 0, turn };
  }
}

function store(thread: ImportedThread, name: string, failAt?: number) {
  const outline = { format: "claude-code" as const, threads: [{ ...thread, turns: [] }], skipped: [], warnings: [] };
  return storeTurnStream(outline, turnsOf(thread, failAt), { name, sha256: name.padEnd(64, "0").slice(0, 64), size: 100 });
}

const hits = async (word: string) => (await searchTurns({ q: word, cursor: undefined, limit: 10 }, null)).items.map((hit) => hit.threadId);

const INSERT_TRIGGER = `SELECT "sql" FROM "sqlite_master" WHERE "type" = 'trigger' AND "name" = 'Turn_search_insert'`;

describe("a bulk run's batch", () => {
  it("keeps the imports that succeed beside one that fails, and indexes exactly the committed turns", async () => {
    const client = await db();
    const sqlite = databaseKind(client) === "sqlite";
    const triggerBefore = sqlite ? await client.$queryRawUnsafe(INSERT_TRIGGER) : null;
    const first = session("bulk-a", ["quokkaone", "quokkatwo", "quokkathree"]);
    // The same conversation later, its second turn edited: rewritten from there in the same batch.
    const edited = session("bulk-a", ["quokkaone", "platypustwo", "platypusthree"]);

    const run = startBulkImports();
    await run.run(async () => {
      expect((await store(first, "a.jsonl")).status).toBe("imported");
      await expect(store(session("bulk-b", ["wombatone", "wombattwo", "wombatthree"]), "b.jsonl", 2)).rejects.toThrow("broke off");
      expect((await store(session("bulk-c", ["numbatone", "numbattwo"]), "c.jsonl")).threadResults[0]).toMatchObject({ change: "created" });
      expect((await store(edited, "a2.jsonl")).threadResults[0]).toMatchObject({ change: "rewritten", fromTurn: 2 });
    });
    await run.finish();

    const a = importedThreadId("claude-code", "bulk-a");
    const c = importedThreadId("claude-code", "bulk-c");
    expect(await client.thread.findUnique({ where: { id: importedThreadId("claude-code", "bulk-b") } })).toBeNull();
    const stored = await client.turn.findMany({ where: { threadId: a }, orderBy: { index: "asc" }, select: { content: true } });
    expect(stored.map((turn) => turn.content.split(" ")[0])).toEqual(["quokkaone", "platypustwo", "platypusthree"]);
    expect(await hits("quokkaone")).toEqual([a]);
    expect(await hits("platypustwo")).toEqual([a]);
    expect(await hits("numbattwo")).toEqual([c]);
    expect(await hits("quokkatwo")).toEqual([]);
    expect(await hits("wombatone")).toEqual([]);
    if (sqlite) {
      // The index agrees with the turns it was filled from (the turns rewritten were indexed before they were deleted).
      await client.$executeRawUnsafe(`INSERT INTO "TurnSearch"("TurnSearch", rank) VALUES ('integrity-check', 1)`);
      expect(await client.$queryRawUnsafe(INSERT_TRIGGER)).toEqual(triggerBefore);
    }
    // Prisma's connection writes through the trigger as before.
    const chat = await newThread({ toolName: "chat" });
    await newTurn(chat.id, { role: "user", content: "echidnaone written after the batch" });
    expect(await hits("echidnaone")).toEqual([chat.id]);
  });
});
