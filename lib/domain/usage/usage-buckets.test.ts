import { describe, expect, it } from "vitest";
import type { PricedResponse } from "./cost";
import { usageBuckets } from "./usage-buckets";

const response = (
  at: string,
  model: string | null,
  costUsd: number | null,
  source: "reported" | "estimated" = "reported",
): PricedResponse => ({
  at: new Date(at),
  provider: model ? "anthropic" : null,
  model,
  usage: { inputTokens: 10, cacheReadTokens: 20, cacheWriteTokens: 30, outputTokens: 40, reasoningTokens: 5, source },
  cost: { totalUsd: costUsd ?? 0, inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, priced: costUsd !== null, model },
});

describe("usageBuckets", () => {
  it("sums responses of the same quarter-hour and model, and keeps other quarters and models apart", () => {
    const buckets = usageBuckets([
      response("2026-05-01T10:00:00Z", "claude-sonnet-4-5", 0.25),
      response("2026-05-01T10:14:59.999Z", "claude-sonnet-4-5", 0.5),
      response("2026-05-01T10:15:00Z", "claude-sonnet-4-5", 1),
      response("2026-05-01T10:05:00Z", "claude-haiku-4-5", 2),
    ]);
    const quarter = Date.parse("2026-05-01T10:00:00Z") / 900_000;
    expect(buckets).toEqual([
      {
        quarter,
        modelProvider: "anthropic",
        modelName: "claude-sonnet-4-5",
        inputTokens: 20,
        cacheReadTokens: 40,
        cacheWriteTokens: 60,
        outputTokens: 80,
        reasoningTokens: 10,
        costUsd: 0.75,
        responses: 2,
        unpricedResponses: 0,
        estimatedResponses: 0,
      },
      {
        quarter: quarter + 1,
        modelProvider: "anthropic",
        modelName: "claude-sonnet-4-5",
        inputTokens: 10,
        cacheReadTokens: 20,
        cacheWriteTokens: 30,
        outputTokens: 40,
        reasoningTokens: 5,
        costUsd: 1,
        responses: 1,
        unpricedResponses: 0,
        estimatedResponses: 0,
      },
      {
        quarter,
        modelProvider: "anthropic",
        modelName: "claude-haiku-4-5",
        inputTokens: 10,
        cacheReadTokens: 20,
        cacheWriteTokens: 30,
        outputTokens: 40,
        reasoningTokens: 5,
        costUsd: 2,
        responses: 1,
        unpricedResponses: 0,
        estimatedResponses: 0,
      },
    ]);
  });

  it("counts unpriced and estimated responses (their tokens, never a cost) and names a response without a model as empty", () => {
    const [bucket] = usageBuckets([
      response("2026-05-01T10:00:00Z", null, null, "estimated"),
      response("2026-05-01T10:01:00Z", null, null),
    ]);
    expect(bucket).toMatchObject({
      modelProvider: "",
      modelName: "",
      costUsd: 0,
      responses: 2,
      unpricedResponses: 2,
      estimatedResponses: 1,
      inputTokens: 20,
    });
  });

  it("counts a session total as the requests it stands for, priced or not", () => {
    const [priced] = usageBuckets([
      { ...response("2026-05-01T10:00:00Z", "m", 3), responses: 6 },
      response("2026-05-01T10:01:00Z", "m", 1),
    ]);
    expect(priced).toMatchObject({ responses: 7, unpricedResponses: 0, costUsd: 4, outputTokens: 80 });
    const [unpriced] = usageBuckets([{ ...response("2026-05-01T10:00:00Z", "x", null), responses: 4 }]);
    expect(unpriced).toMatchObject({ responses: 4, unpricedResponses: 4 });
  });

  it("leaves out a response without a valid time", () => {
    expect(usageBuckets([response("not a date", "m", 1)])).toEqual([]);
  });
});
