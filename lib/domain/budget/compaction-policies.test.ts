import { describe, expect, it } from "vitest";
import { compactionPolicies, cumulativeTokens, firstTurnOver } from "./compaction-policies";

describe("compactionPolicies", () => {
  it("places each agent's threshold for a 200k window with 64k max output", () => {
    const byAgent = Object.fromEntries(compactionPolicies(200_000, 64_000).map((p) => [p.agent, p.threshold]));
    expect(byAgent).toEqual({
      "Claude Code": 167_000,
      Codex: 180_000,
      "Gemini CLI": 100_000,
      OpenCode: 180_000,
      Pi: 183_616,
      Aider: 8_000,
    });
  });

  it("uses the smaller of 20k and max output for OpenCode and clamps Aider to 1k..8k", () => {
    const byAgent = Object.fromEntries(compactionPolicies(8_192, 4_096).map((p) => [p.agent, p.threshold]));
    expect(byAgent.OpenCode).toBe(4_096);
    expect(byAgent.Aider).toBe(1_000);
    expect(byAgent["Claude Code"]).toBeUndefined(); // 8,192 - 33k is below zero: it never fires
  });
});

describe("cumulative tokens", () => {
  it("finds the first turn over a threshold", () => {
    const cumulative = cumulativeTokens([100, 200, 300, 400]);
    expect(cumulative).toEqual([100, 300, 600, 1000]);
    expect(firstTurnOver(cumulative, 299)).toBe(2);
    expect(firstTurnOver(cumulative, 300)).toBe(3);
    expect(firstTurnOver(cumulative, 1000)).toBeNull();
  });
});
