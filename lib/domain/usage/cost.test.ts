import { describe, expect, it } from "vitest";
import {
  addCostTotals,
  costTotals,
  formatUsd,
  libraryUsage,
  reasoningInOutput,
  responseCost,
  type Pricer,
  type PricingRequest,
} from "./cost";
import type { ResponseCost } from "../types";

const counts = { inputTokens: 3, cacheReadTokens: 12_000, cacheWriteTokens: 900, outputTokens: 40, reasoningTokens: 0 };

describe("libraryUsage", () => {
  it("gives the library all input, cached included, with reads and writes as parts of it", () => {
    expect(libraryUsage(counts, true)).toEqual({
      input_tokens: 12_903,
      cache_read_tokens: 12_000,
      cache_write_tokens: 900,
      output_tokens: 40,
    });
  });

  it("splits the writes by lifetime where the source does", () => {
    expect(libraryUsage({ ...counts, cacheWrite5mTokens: 100, cacheWrite1hTokens: 800 }, true)).toMatchObject({
      cache_write_tokens: 900,
      cache_write_5m_tokens: 100,
      cache_write_1h_tokens: 800,
    });
  });

  it("adds reasoning to output only where the source counts it apart", () => {
    const usage = { ...counts, outputTokens: 100, reasoningTokens: 60 };
    expect(libraryUsage(usage, true).output_tokens).toBe(100);
    expect(libraryUsage(usage, false).output_tokens).toBe(160);
  });
});

describe("reasoningInOutput", () => {
  it("is false for Gemini CLI's records (output excludes thoughts), true otherwise", () => {
    expect(reasoningInOutput({ tokens: { input: 10, output: 5, cached: 0, thoughts: 7, tool: 0, total: 22 } })).toBe(false);
    expect(reasoningInOutput({ usage: { output_tokens: 5 } })).toBe(true);
    expect(reasoningInOutput(null)).toBe(true);
  });
});

const request: PricingRequest = { provider: "anthropic", model: "m", at: new Date(0), usage: counts, reasoningInOutput: true };
const fixed: Pricer = () => ({ totalUsd: 0.5, inputUsd: 0.1, outputUsd: 0.2, cacheReadUsd: 0.15, cacheWriteUsd: 0.05 });

describe("responseCost and costTotals", () => {
  it("marks a response the pricer cannot price as unpriced, naming its model, and keeps a reported cost beside ours", () => {
    expect(responseCost(request, { ...counts, source: "reported" }, () => null)).toEqual({
      totalUsd: 0,
      inputUsd: 0,
      outputUsd: 0,
      cacheReadUsd: 0,
      cacheWriteUsd: 0,
      priced: false,
      model: "m",
    });
    expect(responseCost(request, { ...counts, reportedCostUsd: 0.4, source: "estimated" }, fixed)).toMatchObject({
      totalUsd: 0.5,
      priced: true,
      estimated: true,
      reportedUsd: 0.4,
    });
  });

  it("sums priced responses and counts the others, never as zero silently", () => {
    const priced = responseCost(request, { ...counts, source: "reported" }, fixed);
    const unpriced = (model: string | null): ResponseCost =>
      responseCost({ ...request, model }, { ...counts, source: "reported" }, () => null);
    const totals = costTotals([priced, null, priced, unpriced("b-model"), unpriced("a-model"), unpriced("b-model"), unpriced(null)]);
    expect(totals).toEqual({
      totalUsd: 1,
      inputUsd: 0.2,
      outputUsd: 0.4,
      cacheReadUsd: 0.3,
      cacheWriteUsd: 0.1,
      unpricedResponses: 4,
      unpricedModels: ["(no model)", "a-model", "b-model"],
    });
    expect(addCostTotals(totals, costTotals([priced, unpriced("c")]))).toMatchObject({
      totalUsd: 1.5,
      unpricedResponses: 5,
      unpricedModels: ["(no model)", "a-model", "b-model", "c"],
    });
  });

  it("sums the agents' own figures apart from ours, over the responses that carry one, priced by us or not", () => {
    const withReport = (reportedCostUsd: number, pricer: Pricer): ResponseCost =>
      responseCost(request, { ...counts, reportedCostUsd, source: "reported" }, pricer);
    const plain = responseCost(request, { ...counts, source: "reported" }, fixed);
    expect(costTotals([plain]).reported).toBeUndefined();
    const totals = costTotals([withReport(0.25, fixed), plain, withReport(0, () => null), withReport(0.5, fixed)]);
    expect(totals).toMatchObject({ totalUsd: 1.5, unpricedResponses: 1, reported: { usd: 0.75, responses: 3 } });
    expect(addCostTotals(totals, costTotals([plain]), costTotals([withReport(0.125, fixed)])).reported).toEqual({
      usd: 0.875,
      responses: 4,
    });
    expect(addCostTotals(costTotals([plain])).reported).toBeUndefined();
  });
});

describe("formatUsd", () => {
  it("shows three significant digits below a dollar and cents above", () => {
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(0.012345)).toBe("$0.0123");
    expect(formatUsd(0.00045678)).toBe("$0.000457");
    expect(formatUsd(0.5)).toBe("$0.5");
    expect(formatUsd(12.345)).toBe("$12.35");
    expect(formatUsd(1234.5)).toBe("$1,234.50");
    expect(formatUsd(1e-9)).toBe("<$0.000001");
  });
});
