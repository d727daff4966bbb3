// Copilot session totals priced with the real pricer, checked against the library called directly.
import { calcPrice } from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import { priceSessionTotals, sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { pricerWith } from "./pricing";

const totals = {
  source: "copilot session.shutdown",
  reports: 1,
  models: {
    "claude-sonnet-4.6": {
      requests: 6,
      premiumRequests: 2,
      reportedInputTokens: 186809,
      inputTokens: 35071,
      cacheReadTokens: 151738,
      cacheWriteTokens: 0,
      outputTokens: 2848,
      reasoningTokens: 0,
    },
    "made-up-model": {
      requests: 1,
      premiumRequests: 0,
      reportedInputTokens: 10,
      inputTokens: 10,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 1,
      reasoningTokens: 0,
    },
  },
  reportedAt: "2026-04-23T17:18:20.178Z",
};

describe("session totals", () => {
  it("are read from thread metadata, and nothing else is", () => {
    expect(sessionTotalsOf({ sessionTotals: totals })).toEqual(totals);
    expect(sessionTotalsOf({ sessionTotals: { ...totals, models: { m: { requests: -1 } } } })).toBeNull();
    expect(sessionTotalsOf(null)).toBeNull();
  });

  it("price each model's totals as one request at the last report's time; an unknown model is unpriced", () => {
    const [claude, unknown] = priceSessionTotals(sessionTotalsOf({ sessionTotals: totals })!, pricerWith([]));
    expect(unknown).toMatchObject({ model: "made-up-model", cost: { priced: false, totalUsd: 0 } });
    // Independently: the library's own usage (input includes cache reads) for Anthropic's name of the model.
    const expected = calcPrice({ input_tokens: 186809, cache_read_tokens: 151738, output_tokens: 2848 }, "claude-sonnet-4-6", {
      providerId: "anthropic",
      timestamp: new Date(totals.reportedAt),
    });
    expect(expected).not.toBeNull();
    expect(claude).toMatchObject({ model: "claude-sonnet-4.6", cost: { priced: true } });
    expect(claude!.cost.totalUsd).toBeCloseTo(expected!.total_price, 9);
    expect(claude!.cost.cacheReadUsd).toBeGreaterThan(0);
  });
});
