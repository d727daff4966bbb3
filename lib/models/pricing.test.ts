import { describe, expect, it } from "vitest";
import type { PricingRequest } from "@/lib/domain/usage/cost";
import type { UsageCounts, UsageDetails } from "@/lib/domain/types";
import type { ModelInfo } from "./catalog";
import { priceResponse } from "./pricing";

// Figures checked by hand against the providers' published prices, as in the package's data
// (USD per million tokens). Threadline's inputTokens are the uncached input only.

const AT = new Date("2026-01-15T12:00:00Z");

function request(
  model: string,
  provider: string | null,
  usage: Partial<UsageCounts> & UsageDetails,
  options: Partial<PricingRequest> = {},
): PricingRequest {
  return {
    provider,
    model,
    at: AT,
    usage: { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, ...usage },
    reasoningInOutput: true,
    ...options,
  };
}

/** Each share, and that they add up to the total. */
function expectCost(
  cost: ReturnType<typeof priceResponse>,
  expected: { input: number; cacheRead: number; cacheWrite: number; output: number },
) {
  expect(cost).not.toBeNull();
  expect(cost!.inputUsd).toBeCloseTo(expected.input, 12);
  expect(cost!.cacheReadUsd).toBeCloseTo(expected.cacheRead, 12);
  expect(cost!.cacheWriteUsd).toBeCloseTo(expected.cacheWrite, 12);
  expect(cost!.outputUsd).toBeCloseTo(expected.output, 12);
  const total = expected.input + expected.cacheRead + expected.cacheWrite + expected.output;
  expect(cost!.totalUsd).toBeCloseTo(total, 12);
  expect(cost!.inputUsd + cost!.cacheReadUsd + cost!.cacheWriteUsd + cost!.outputUsd).toBeCloseTo(cost!.totalUsd, 12);
}

describe("priceResponse: Claude", () => {
  // claude-sonnet-4: input $3, 5-minute cache write $3.75 (1.25x), 1-hour write $6 (2x), cache read $0.30 (0.1x), output $15.
  const usage = { inputTokens: 1_000, cacheReadTokens: 10_000, cacheWriteTokens: 3_000, outputTokens: 500 };

  it("prices 1-hour cache writes at 2x input and the rest at 1.25x", () => {
    const cost = priceResponse(
      request("claude-sonnet-4-20250514", "anthropic", { ...usage, cacheWrite5mTokens: 1_000, cacheWrite1hTokens: 2_000 }),
    );
    // 1,000 x $3 + 10,000 x $0.30 + (1,000 x $3.75 + 2,000 x $6) + 500 x $15, per million
    expectCost(cost, { input: 0.003, cacheRead: 0.003, cacheWrite: 0.00375 + 0.012, output: 0.0075 });
  });

  it("prices writes without a split as 5-minute writes", () => {
    expectCost(priceResponse(request("claude-sonnet-4-20250514", "anthropic", usage)), {
      input: 0.003,
      cacheRead: 0.003,
      cacheWrite: 0.01125,
      output: 0.0075,
    });
  });

  it("prices a request over 200k input tokens (cached included) at the long-context tier", () => {
    // claude-sonnet-4-5 above 200k: input $6, cache read $0.60, 1-hour write $12, output $22.50.
    const over = {
      inputTokens: 50_000,
      cacheReadTokens: 150_000,
      cacheWriteTokens: 10_000,
      cacheWrite1hTokens: 10_000,
      outputTokens: 2_000,
    };
    expectCost(priceResponse(request("claude-sonnet-4-5-20250929", "anthropic", over)), {
      input: 0.3,
      cacheRead: 0.09,
      cacheWrite: 0.12,
      output: 0.045,
    });
    // 190k in all: the base tier ($3, $0.30, $6, $15).
    const under = { ...over, cacheReadTokens: 130_000 };
    expectCost(priceResponse(request("claude-sonnet-4-5-20250929", "anthropic", under)), {
      input: 0.15,
      cacheRead: 0.039,
      cacheWrite: 0.06,
      output: 0.03,
    });
  });

  it("prices a response at the prices in force when it ran", () => {
    // claude-opus-4-6: long-context tier (input $10, cache read $1, output $37.50) until 2026-03-13, flat $5 / $0.50 / $25 after.
    const usage = { inputTokens: 10_000, cacheReadTokens: 290_000, outputTokens: 1_000 };
    expectCost(priceResponse(request("claude-opus-4-6", "anthropic", usage, { at: new Date("2026-03-01T12:00:00Z") })), {
      input: 0.1,
      cacheRead: 0.29,
      cacheWrite: 0,
      output: 0.0375,
    });
    expectCost(priceResponse(request("claude-opus-4-6", "anthropic", usage, { at: new Date("2026-04-01T12:00:00Z") })), {
      input: 0.05,
      cacheRead: 0.145,
      cacheWrite: 0,
      output: 0.025,
    });
  });
});

describe("priceResponse: OpenAI", () => {
  it("prices cached input at half the input price for GPT-4o", () => {
    // gpt-4o: input $2.50, cached input $1.25, output $10. Codex's 1,000 input with 400 cached is stored as 600 + 400.
    expectCost(
      priceResponse(request("gpt-4o", "openai", { inputTokens: 600, cacheReadTokens: 400, outputTokens: 100, reasoningTokens: 50 })),
      { input: 0.0015, cacheRead: 0.0005, cacheWrite: 0, output: 0.001 },
    );
  });

  it("asks the package before the catalog's prefix rule: a Codex variant is priced as itself", () => {
    // gpt-5.1-codex-mini: $0.25 / $2 (the catalog would read it as gpt-5.1 by prefix: $1.25 / $10).
    expectCost(priceResponse(request("gpt-5.1-codex-mini", "openai", { inputTokens: 1_000, outputTokens: 1_000 })), {
      input: 0.00025,
      cacheRead: 0,
      cacheWrite: 0,
      output: 0.002,
    });
  });
});

describe("priceResponse: Gemini", () => {
  it("prices Gemini 2.5 Pro above 200k tokens at its higher tier, thoughts as output where the source counts them apart", () => {
    // gemini-2.5-pro: input $1.25 / output $10 up to 200k prompt tokens; $2.50 / $15 above.
    const gemini = (inputTokens: number, reasoningInOutput: boolean) =>
      priceResponse(request("gemini-2.5-pro", "google", { inputTokens, outputTokens: 1_000, reasoningTokens: 500 }, { reasoningInOutput }));
    expectCost(gemini(250_000, false), { input: 0.625, cacheRead: 0, cacheWrite: 0, output: 0.0225 });
    expectCost(gemini(100_000, false), { input: 0.125, cacheRead: 0, cacheWrite: 0, output: 0.015 });
    expectCost(gemini(100_000, true), { input: 0.125, cacheRead: 0, cacheWrite: 0, output: 0.01 });
  });

  it("prices cached input of Gemini 2.5 Flash at its cache price", () => {
    // gemini-2.5-flash: input $0.30, cached $0.03, output $2.50.
    expectCost(priceResponse(request("gemini-2.5-flash", "google", { inputTokens: 2_000, cacheReadTokens: 8_000, outputTokens: 400 })), {
      input: 0.0006,
      cacheRead: 0.00024,
      cacheWrite: 0,
      output: 0.001,
    });
  });
});

describe("priceResponse: which price", () => {
  it("finds a model by the catalog's names when the package does not know the name", () => {
    // "grok-4.1-fast" is a catalog alias of grok-4-1-fast-reasoning: input $0.20, output $0.50.
    expectCost(priceResponse(request("grok-4.1-fast", "xai", { inputTokens: 100_000, outputTokens: 10_000 })), {
      input: 0.02,
      cacheRead: 0,
      cacheWrite: 0,
      output: 0.005,
    });
  });

  it("uses the catalog's own prices where it overrides the package's (DeepSeek V3.2: $0.28 / $0.42)", () => {
    expectCost(priceResponse(request("deepseek-chat", "deepseek", { inputTokens: 1_000_000, outputTokens: 1_000_000 })), {
      input: 0.28,
      cacheRead: 0,
      cacheWrite: 0,
      output: 0.42,
    });
  });

  it("has no price for unknown and local models", () => {
    expect(priceResponse(request("my-own-model", null, { inputTokens: 1_000 }))).toBeNull();
    expect(priceResponse(request("my-own-model", "custom", { inputTokens: 1_000 }))).toBeNull();
    expect(priceResponse(request("llama3.1:8b", "ollama", { inputTokens: 1_000 }))).toBeNull();
    expect(priceResponse({ ...request("x", null, {}), model: null })).toBeNull();
  });

  it("prices a custom model from Settings that carries prices; one without leaves the built-in price", () => {
    const model: ModelInfo = {
      id: "my-own-model",
      provider: "custom",
      displayName: "Mine",
      contextWindow: 8_192,
      maxOutputTokens: 2_048,
      tokenizer: "o200k_base",
      exactTokenizer: true,
      inputPricePerMTok: 1,
      outputPricePerMTok: 2,
      source: "custom",
    };
    expectCost(priceResponse(request("my-own-model", null, { inputTokens: 1_000, outputTokens: 1_000 }), [model]), {
      input: 0.001,
      cacheRead: 0,
      cacheWrite: 0,
      output: 0.002,
    });
    const window = { ...model, id: "gpt-4o", inputPricePerMTok: null, outputPricePerMTok: null };
    expectCost(priceResponse(request("gpt-4o", "openai", { inputTokens: 1_000 }), [window]), {
      input: 0.0025,
      cacheRead: 0,
      cacheWrite: 0,
      output: 0,
    });
  });
});
