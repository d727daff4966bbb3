import { describe, expect, it } from "vitest";
import type { ImportedTurn, SkippedEntry } from "../types";
import { TokenLedger } from "./usage";

const totals = (input: number, cached: number, output: number) => ({
  input_tokens: input,
  cached_input_tokens: cached,
  output_tokens: output,
  total_tokens: input + output,
});
const info = (total: ReturnType<typeof totals>, last = total) => ({ total_token_usage: total, last_token_usage: last });
const turn = (key: string): ImportedTurn => ({ key, role: "assistant", content: "" });

function ledger() {
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  return { ledger: new TokenLedger(skipped, warnings), skipped, warnings };
}

describe("TokenLedger", () => {
  it("trailing counts pay the request they follow; a repeated count adds nothing", () => {
    const { ledger: l } = ledger();
    const [a, b] = [turn("a"), turn("b")];
    l.startRequest(a);
    l.count(2, info(totals(100, 40, 10)));
    l.count(3, info(totals(100, 40, 10)));
    l.startRequest(b);
    l.count(5, info(totals(250, 140, 30), totals(150, 100, 20)));
    expect(a.usage).toEqual({ inputTokens: 60, cacheReadTokens: 40, outputTokens: 10, reasoningTokens: 0 });
    expect(b.usage).toEqual({ inputTokens: 50, cacheReadTokens: 100, outputTokens: 20, reasoningTokens: 0 });
    expect(l.pending).toBeNull();
  });

  it("leading counts (before any request) wait for the next request", () => {
    const { ledger: l } = ledger();
    l.count(1, info(totals(100, 0, 10)));
    expect(l.pending).toEqual({ inputTokens: 100, cacheReadTokens: 0, outputTokens: 10, reasoningTokens: 0 });
    const a = turn("a");
    l.startRequest(a);
    expect(a.usage).toEqual({ inputTokens: 100, cacheReadTokens: 0, outputTokens: 10, reasoningTokens: 0 });
  });

  it("does not attribute history from before the file, and restarts from zero when totals go down", () => {
    const { ledger: l, warnings } = ledger();
    const a = turn("a");
    l.startRequest(a);
    l.count(1, info(totals(1000, 0, 100), totals(200, 0, 10)));
    expect(a.usage).toBeUndefined();
    l.count(2, info(totals(50, 0, 5)));
    expect(a.usage).toEqual({ inputTokens: 50, cacheReadTokens: 0, outputTokens: 5, reasoningTokens: 0 });
    expect(warnings).toEqual([
      expect.stringContaining("line 1: the first token count is cumulative"),
      expect.stringContaining("line 2: cumulative token totals went down"),
    ]);
  });

  it("skips a count without totals, naming the line, and remembers what a rollback dropped", () => {
    const { ledger: l, skipped } = ledger();
    l.count(7, { total_token_usage: { output_tokens: 3 } });
    expect(skipped).toEqual([{ line: 7, reason: "token_count info.total_token_usage: missing input_tokens/output_tokens" }]);
    l.rollBack([{ ...turn("x"), usage: { inputTokens: 5, outputTokens: 1 } }]);
    expect(l.dropped).toEqual({ inputTokens: 5, outputTokens: 1 });
  });
});
