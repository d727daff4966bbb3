import { randomUUID } from "node:crypto";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/engine/client";
import { newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { engineLoaded } from "@/lib/tokenizers/engines";
import { getTokenizer } from "@/lib/tokenizers/registry";
import { buildContextPreview } from "./build-context";

/** A thread of `turns` turns, written at once (as an import writes them). */
async function threadOf(turns: number): Promise<string> {
  const thread = await newThread();
  const client = await db();
  const start = Date.now() - turns * 1_000;
  await client.turn.createMany({
    data: Array.from({ length: turns }, (_, index) => ({
      id: randomUUID(),
      threadId: thread.id,
      index,
      role: index % 2 === 0 ? "user" : "assistant",
      content: `Turn ${index}: the lease renewal fails when the fence token is older than the holder's.`,
      timestamp: new Date(start + index * 1_000),
    })),
  });
  await client.thread.update({ where: { id: thread.id }, data: { turnCount: turns, lastUpdatedAt: new Date() } });
  return thread.id;
}

/** Statements sent to the database while `work` runs, on either engine (every one is prepared, or queried, once). */
async function statementsDuring(work: () => Promise<unknown>): Promise<number> {
  const spies = [vi.spyOn(BetterSqlite3.prototype, "prepare"), vi.spyOn(pg.Client.prototype, "query")];
  try {
    await work();
    return spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

// A window that holds a few dozen of these turns: what a preview reads in full stays small.
const QUERY = { mode: "pal", contextWindow: 4_000 } as const;
const preview = (threadId: string) => statementsDuring(() => buildContextPreview(threadId, QUERY));

afterEach(() => {
  vi.restoreAllMocks();
  restoreServerEnv();
});

describe("buildContextPreview's reads", () => {
  it("do not grow with the thread's turns: outlines in one statement, then only the turns that fit", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "2000" });
    const short = await threadOf(10);
    const long = await threadOf(1_200);

    // The first preview measures every turn and stores the measures, in batches: at most one statement per 50 more turns.
    const [shortCold, longCold] = [await preview(short), await preview(long)];
    expect(longCold - shortCold).toBeLessThan((1_200 - 10) / 50);

    // Then the stored measures are read back with the outlines: as many statements for 1,200 turns as for 10.
    const [shortWarm, longWarm] = [await preview(short), await preview(long)];
    expect(shortWarm).toBeGreaterThan(0); // the counter sees this engine's statements
    expect(longWarm).toBe(shortWarm);
    expect(longWarm).toBeLessThan(shortCold);

    // After an append, the thread is read again from its last known turn on, not whole.
    await newTurn(short, { role: "user", content: "And after the append?" });
    await newTurn(long, { role: "user", content: "And after the append?" });
    const [shortAppended, longAppended] = [await preview(short), await preview(long)];
    expect(longAppended).toBe(shortAppended);
  });
});

describe("buildContextPreview with a tokenizer", () => {
  it("counts on the worker, never loading the vocabulary on the thread that answers, and counts right", async () => {
    const threadId = await threadOf(40);
    // A window that holds some of the turns, not all: the plan's budgeting counts turn shells and notes.
    const built = await buildContextPreview(threadId, { mode: "exact", tokenizer: "o200k_base", contextWindow: 1_500 });
    expect(engineLoaded("o200k_base")).toBe(false);
    expect(built.turns.includedCount).toBeGreaterThan(0);
    expect(built.turns.includedCount).toBeLessThan(40);
    // Counted here only now, to check the figures: o200k's counts add up over the text's sections.
    expect(built.totalTokens).toBe(getTokenizer("o200k_base").count(built.text));
    expect(built.sections.notes).toBeGreaterThan(0);
    // The same preview again, from remembered counts, agrees.
    expect(await buildContextPreview(threadId, { mode: "exact", tokenizer: "o200k_base", contextWindow: 1_500 })).toEqual(built);
  });
});
