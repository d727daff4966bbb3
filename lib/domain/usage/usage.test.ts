import { describe, expect, it } from "vitest";
import { reportedUsage, threadUsage, turnUsages, USAGE_IN_SESSION_TOTALS, type UsageInput } from "./usage";

const turn = (role: UsageInput["role"], tokens: number, usage?: Record<string, number>, compaction = false): UsageInput => ({
  role,
  tokens,
  tokenEstimate: tokens * 2,
  modelMetadata: usage ? { usage } : null,
  parts: compaction ? [{ type: "compaction" }] : null,
});

describe("usage", () => {
  it("reads reported usage under our names or the providers' own, and nothing else", () => {
    expect(reportedUsage({ usage: { inputTokens: 5, outputTokens: 7, source: "reported" } })).toEqual({
      inputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 7,
      reasoningTokens: 0,
    });
    expect(
      reportedUsage({ usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 9 } }),
    ).toEqual({
      inputTokens: 3,
      cacheReadTokens: 100,
      cacheWriteTokens: 20,
      outputTokens: 9,
      reasoningTokens: 0,
    });
    expect(reportedUsage({ usage: { note: "none" } })).toBeNull();
    expect(reportedUsage({ usage: [1, 2] })).toBeNull();
    expect(reportedUsage({ usage: { inputTokens: -4 } })).toBeNull();
    expect(reportedUsage(null)).toBeNull();
  });

  it("reads the cache writes' split by lifetime and a reported cost, and drops a split larger than the writes", () => {
    const counts = { inputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 900, outputTokens: 40, reasoningTokens: 0 };
    const anthropic = {
      input_tokens: 3,
      cache_creation_input_tokens: 900,
      output_tokens: 40,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 800 },
    };
    expect(reportedUsage({ usage: anthropic })).toEqual({ ...counts, cacheWrite5mTokens: 100, cacheWrite1hTokens: 800 });
    expect(reportedUsage({ usage: { ...counts, cacheWrite1hTokens: 900, reportedCostUsd: 0.0123 } })).toEqual({
      ...counts,
      cacheWrite1hTokens: 900,
      reportedCostUsd: 0.0123,
    });
    expect(reportedUsage({ usage: { ...counts, cacheWrite1hTokens: 901 } })).toEqual(counts);
  });

  it("estimates an assistant turn without reported usage from the turns before it, since the last compaction", () => {
    const usages = turnUsages([
      turn("user", 10),
      turn("assistant", 20),
      turn("user", 5),
      turn("assistant", 8),
      turn("system", 3, undefined, true),
      turn("user", 4),
      turn("assistant", 6),
    ]);
    expect(usages.map((u) => u && [u.inputTokens, u.outputTokens, u.source])).toEqual([
      null,
      [10, 20, "estimated"],
      null,
      [35, 8, "estimated"],
      null,
      null,
      [7, 6, "estimated"],
    ]);
    expect(threadUsage(usages)).toMatchObject({ inputTokens: 52, outputTokens: 34, source: "estimated" });
  });

  it("estimates nothing for a response whose source reports usage only in the session's totals", () => {
    const inTotals = { ...turn("assistant", 20), modelMetadata: { ...USAGE_IN_SESSION_TOTALS, outputTokens: 7 } };
    expect(turnUsages([turn("user", 10), inTotals, turn("assistant", 5)])).toEqual([
      null,
      null,
      { inputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 5, reasoningTokens: 0, source: "estimated" },
    ]);
  });

  it("uses reported usage where present, and says mixed when some responses were estimated", () => {
    const reportedOnly = turnUsages([
      turn("user", 10),
      turn("assistant", 20, { inputTokens: 1000, cacheReadTokens: 50, outputTokens: 30, reasoningTokens: 4 }),
    ]);
    expect(threadUsage(reportedOnly)).toEqual({
      inputTokens: 1000,
      cacheReadTokens: 50,
      cacheWriteTokens: 0,
      outputTokens: 30,
      reasoningTokens: 4,
      source: "reported",
    });
    const mixed = turnUsages([
      turn("user", 10),
      turn("assistant", 20, { inputTokens: 1000, outputTokens: 30 }),
      turn("user", 1),
      turn("assistant", 2),
    ]);
    expect(threadUsage(mixed)).toMatchObject({ inputTokens: 1031, outputTokens: 32, source: "mixed" });
  });

  it("falls back to the character estimate for a turn not counted, and totals an empty thread as zero estimated", () => {
    const [, usage] = turnUsages([
      { ...turn("user", 0), tokens: null, tokenEstimate: 12 },
      { ...turn("assistant", 0), tokens: null, tokenEstimate: 4 },
    ]);
    expect(usage).toMatchObject({ inputTokens: 12, outputTokens: 4 });
    expect(threadUsage([])).toEqual({
      inputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 0,
      reasoningTokens: 0,
      source: "estimated",
    });
  });
});
