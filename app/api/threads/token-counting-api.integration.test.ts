/**
 * Token counting on the request paths (lib/tokenizers/linear-count.mjs, background-counter.ts):
 * a turn holding a run too long to tokenize whole is counted in pieces and stored as an estimate,
 * and a turn the thread cannot take is refused before anything is counted.
 */
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/engine/client";
import type { Turn } from "@/lib/domain/types";
import { json } from "@/lib/testing/api";
import { api, expectError, fetchThread, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { countingStats } from "@/lib/tokenizers/background-counter";
import { runCuts } from "@/lib/tokenizers/linear-count.mjs";
import { getTokenizer } from "@/lib/tokenizers/registry";

afterEach(() => {
  vi.restoreAllMocks();
  restoreServerEnv();
});

const o200k = createRequire(import.meta.url)("gpt-tokenizer/encoding/o200k_base") as typeof import("gpt-tokenizer/encoding/o200k_base");
const packageCount = (text: string) => o200k.countTokens(text, { disallowedSpecial: new Set() });

/** Watches every way a turn could be counted: the registry's counter here, and the shared worker. */
function watchCounting(): () => number {
  const counter = getTokenizer("o200k_base");
  const count = vi.spyOn(counter, "count");
  const measure = vi.spyOn(counter, "measure");
  const before = countingStats.inline + countingStats.offThread;
  return () => count.mock.calls.length + measure.mock.calls.length + countingStats.inline + countingStats.offThread - before;
}

describe("a turn with a run too long to tokenize whole", () => {
  it("is counted in pieces on the worker and stored as an estimate, within two tokens a cut", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "Paste the log, please." });
    const content = `Log follows: ${"A".repeat(20_000)} then ${"🎉🚀".repeat(2_000)} end.`;
    const offThread = countingStats.offThread;
    const turn = await newTurn(thread.id, { role: "tool", content });
    expect(countingStats.offThread).toBe(offThread + 1);

    const exact = packageCount(content);
    const bound = 2 * runCuts(content).flat().length;
    expect(turn.tokensEstimated).toBe(true);
    expect(Math.abs(turn.tokens! - exact)).toBeLessThanOrEqual(bound);

    const stored = await (await db()).turnTokenCount.findMany({ where: { threadId: thread.id }, orderBy: { turnSeq: "asc" } });
    expect(stored.map((row) => [row.tokenizer, row.estimated])).toEqual([
      ["o200k_base", false],
      ["o200k_base", true],
    ]);
    expect(stored[1]!.tokens).toBe(turn.tokens);

    const read = await fetchThread(thread.id);
    expect(read.turns.map((t) => t.tokensEstimated)).toEqual([false, true]);
    expect(read.thread.tokens).toEqual({ tokenizer: "o200k_base", count: stored[0]!.tokens + stored[1]!.tokens, estimated: true });
    const listed = await json<{ items: { id: string; tokens: unknown }[] }>(await api.listThreads({ limit: "100" }));
    expect(listed.items.find((t) => t.id === thread.id)?.tokens).toMatchObject({ estimated: true });
  });

  it("counts ordinary text exactly and says so", async () => {
    const thread = await newThread();
    const content = "Why do sessions drop after a refresh? 修正 ✅\n".repeat(200);
    const turn = await newTurn(thread.id, { role: "user", content });
    expect({ tokens: turn.tokens, estimated: turn.tokensEstimated }).toEqual({ tokens: packageCount(content), estimated: false });
  });
});

describe("refused before counting", () => {
  it("answers 404 for a missing thread without counting the turn", async () => {
    const counted = watchCounting();
    const response = await api.appendTurn("8a4f7a52-3c1e-4b3a-9a53-0d2f1f7c9e10", { role: "user", content: "語".repeat(3_000) });
    await expectError(response, 404, "not_found");
    expect(counted()).toBe(0);
  });

  it("answers turn_limit for a full thread without counting the turn", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "1" });
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "first" });
    const counted = watchCounting();
    await expectError(await api.appendTurn(thread.id, { role: "assistant", content: "語".repeat(3_000) }), 409, "turn_limit");
    expect(counted()).toBe(0);
    const turns: Turn[] = (await fetchThread(thread.id)).turns;
    expect(turns).toHaveLength(1);
  });
});
