/**
 * Usage buckets: a thread's priced responses summed per UTC quarter-hour and model, the rows
 * usage reports read instead of every turn. Each response is priced alone before it is summed
 * (lib/domain/usage/cost.ts), so a bucket's cost is a sum of prices, never a price of summed tokens. Pure.
 */
import { quarterOf } from "./usage-period";
import type { PricedResponse } from "./cost";
import type { UsageCounts } from "../types";

export type UsageBucketRow = UsageCounts & {
  quarter: number;
  /** "" when the response names none. */
  modelProvider: string;
  modelName: string;
  costUsd: number;
  responses: number;
  unpricedResponses: number;
  estimatedResponses: number;
};

/** The responses summed per quarter-hour, provider and model, in order of first appearance. */
export function usageBuckets(responses: readonly PricedResponse[]): UsageBucketRow[] {
  const buckets = new Map<string, UsageBucketRow>();
  for (const { at, provider, model, usage, cost, responses: count = 1 } of responses) {
    const quarter = quarterOf(at);
    if (!Number.isFinite(quarter)) continue;
    const modelProvider = provider ?? "";
    const modelName = model ?? "";
    const key = JSON.stringify([quarter, modelProvider, modelName]);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = {
        quarter,
        modelProvider,
        modelName,
        inputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: 0,
        reasoningTokens: 0,
        costUsd: 0,
        responses: 0,
        unpricedResponses: 0,
        estimatedResponses: 0,
      };
      buckets.set(key, bucket);
    }
    bucket.inputTokens += usage.inputTokens;
    bucket.cacheReadTokens += usage.cacheReadTokens;
    bucket.cacheWriteTokens += usage.cacheWriteTokens;
    bucket.outputTokens += usage.outputTokens;
    bucket.reasoningTokens += usage.reasoningTokens;
    bucket.responses += count;
    if (cost.priced) bucket.costUsd += cost.totalUsd;
    else bucket.unpricedResponses += count;
    if (usage.source === "estimated") bucket.estimatedResponses += count;
  }
  return [...buckets.values()];
}
