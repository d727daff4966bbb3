/**
 * What model responses cost. Each response is priced alone, with its provider, its model and the
 * time it ran (prices change over time and some have context-size tiers), and totals are sums of
 * those prices, never a price of summed tokens. The price itself comes from an injected function
 * (lib/models/pricing.ts calls @pydantic/genai-prices); this module maps Threadline's usage to the
 * library's fields and sums the results. Pure.
 */
import type { CompactionRunRecord } from "./session-usage";
import type { CostBreakdown, CostTotals, JsonObject, ReportedCost, ResponseCost, TurnUsage, UsageCounts, UsageDetails } from "../types";
import { reportedUsage } from "./usage";

/**
 * @pydantic/genai-prices' usage: `input_tokens` is all input, cached included; cache reads and
 * writes are parts of it, and 5-minute and 1-hour writes parts of the writes.
 */
export type LibraryUsage = {
  input_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cache_write_5m_tokens?: number;
  cache_write_1h_tokens?: number;
  output_tokens: number;
};

/** One response to price. */
export type PricingRequest = {
  provider: string | null;
  model: string | null;
  /** When the response ran: prices are the ones in force then. */
  at: Date;
  usage: UsageCounts & UsageDetails;
  /**
   * Whether the source's outputTokens already include the reasoning tokens (Anthropic, OpenAI,
   * pydantic-ai) or count them apart (Gemini's candidatesTokenCount excludes thoughtsTokenCount,
   * which are billed as output): see reasoningInOutput.
   */
  reasoningInOutput: boolean;
};

/** The library's answer for one response, split by kind; null when it knows no price for the model. */
export type Pricer = (request: PricingRequest) => CostBreakdown | null;

/**
 * Threadline's counts as the library's. Threadline's inputTokens are the uncached input only
 * (Anthropic's input_tokens; OpenAI's and Gemini's input minus cached), so the library's input is
 * input + cache reads + cache writes. Output adds the reasoning where the source counts it apart.
 */
export function libraryUsage(usage: UsageCounts & UsageDetails, reasoningInOutput: boolean): LibraryUsage {
  const mapped: LibraryUsage = {
    input_tokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
    cache_read_tokens: usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    output_tokens: usage.outputTokens + (reasoningInOutput ? 0 : usage.reasoningTokens),
  };
  if (usage.cacheWrite5mTokens !== undefined) mapped.cache_write_5m_tokens = usage.cacheWrite5mTokens;
  if (usage.cacheWrite1hTokens !== undefined) mapped.cache_write_1h_tokens = usage.cacheWrite1hTokens;
  return mapped;
}

/**
 * Whether a response's outputTokens include its reasoning. Gemini CLI's records keep Gemini's own
 * `tokens` {input, output, cached, thoughts, tool, total} beside the usage (modelMetadata.tokens),
 * and there `output` excludes `thoughts`; every other source Threadline reads folds reasoning into
 * output and reports it as a part of it.
 * @internal exported for its tests
 */
export function reasoningInOutput(metadata: JsonObject | null): boolean {
  const tokens = metadata?.tokens;
  return !(tokens && typeof tokens === "object" && !Array.isArray(tokens) && typeof tokens.thoughts === "number");
}

/** One model response with its usage and price, for sums over time (lib/domain/usage/usage-buckets.ts). */
export type PricedResponse = {
  /** How many model calls this stands for: 1 when absent; a session total stands for all of a model's requests. */
  responses?: number;
  at: Date;
  provider: string | null;
  model: string | null;
  usage: UsageCounts & { source?: "reported" | "estimated" };
  cost: ResponseCost;
};

/** What pricing needs of a response besides its usage. */
export type PricedTurn = {
  modelProvider: string | null;
  modelName: string | null;
  timestamp: string | Date;
  modelMetadata: JsonObject | null;
};

/** The cost of each turn that has a usage (null for the others), each priced alone. */
export function turnCosts(turns: readonly PricedTurn[], usages: readonly (TurnUsage | null)[], price: Pricer): (ResponseCost | null)[] {
  return turns.map((turn, i) => {
    const usage = usages[i];
    if (!usage) return null;
    const at = turn.timestamp instanceof Date ? turn.timestamp : new Date(turn.timestamp);
    return responseCost(
      { provider: turn.modelProvider, model: turn.modelName, at, usage, reasoningInOutput: reasoningInOutput(turn.modelMetadata) },
      usage,
      price,
    );
  });
}

/**
 * A compaction run's responses with their usage and cost (each as reported, at its time; a
 * response without a time at `fallback`, the run's thread's last update).
 */
export function compactionRunResponses(run: CompactionRunRecord, price: Pricer, fallback: Date): PricedResponse[] {
  const responses: PricedResponse[] = [];
  for (const response of run.responses) {
    const usage = reportedUsage({ usage: response.usage });
    if (!usage) continue;
    const at = response.timestamp ? new Date(response.timestamp) : fallback;
    const request = { provider: run.modelProvider ?? null, model: run.modelName, at, usage, reasoningInOutput: true };
    responses.push({ at, provider: request.provider, model: run.modelName, usage, cost: responseCost(request, usage, price) });
  }
  return responses;
}

/** The costs of a compaction run's responses (compactionRunResponses). */
export function compactionRunCosts(run: CompactionRunRecord, price: Pricer, fallback: Date): ResponseCost[] {
  return compactionRunResponses(run, price, fallback).map((response) => response.cost);
}

const zero = (): CostBreakdown => ({ totalUsd: 0, inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0 });

/** A response's cost: its price from `price`, or unpriced (amounts 0) naming its model. */
export function responseCost(
  request: PricingRequest,
  usage: TurnUsage | (UsageCounts & UsageDetails & { source?: TurnUsage["source"] }),
  price: Pricer,
): ResponseCost {
  const found = price(request);
  const cost: ResponseCost = { ...(found ?? zero()), priced: found !== null, model: request.model };
  if (usage.source === "estimated") cost.estimated = true;
  if (usage.reportedCostUsd !== undefined) cost.reportedUsd = usage.reportedCostUsd;
  return cost;
}

/** Totals of some responses' costs: priced ones summed, the others counted and their models named. */
export function costTotals(costs: readonly (ResponseCost | null | undefined)[]): CostTotals {
  const totals: CostTotals = { ...zero(), unpricedResponses: 0, unpricedModels: [] };
  const unpriced = new Set<string>();
  for (const cost of costs) {
    if (!cost) continue;
    if (cost.reportedUsd !== undefined) addReported(totals, { usd: cost.reportedUsd, responses: 1 });
    if (!cost.priced) {
      totals.unpricedResponses++;
      unpriced.add(cost.model ?? "(no model)");
      continue;
    }
    totals.totalUsd += cost.totalUsd;
    totals.inputUsd += cost.inputUsd;
    totals.outputUsd += cost.outputUsd;
    totals.cacheReadUsd += cost.cacheReadUsd;
    totals.cacheWriteUsd += cost.cacheWriteUsd;
  }
  totals.unpricedModels = [...unpriced].sort();
  return totals;
}

/** The sum of some totals (a thread's own and its sub-agents' and compaction runs'). */
export function addCostTotals(...all: readonly CostTotals[]): CostTotals {
  const totals: CostTotals = { ...zero(), unpricedResponses: 0, unpricedModels: [] };
  const unpriced = new Set<string>();
  for (const t of all) {
    totals.totalUsd += t.totalUsd;
    totals.inputUsd += t.inputUsd;
    totals.outputUsd += t.outputUsd;
    totals.cacheReadUsd += t.cacheReadUsd;
    totals.cacheWriteUsd += t.cacheWriteUsd;
    totals.unpricedResponses += t.unpricedResponses;
    if (t.reported) addReported(totals, t.reported);
    for (const model of t.unpricedModels) unpriced.add(model);
  }
  totals.unpricedModels = [...unpriced].sort();
  return totals;
}

function addReported(totals: CostTotals, reported: ReportedCost): void {
  totals.reported = { usd: (totals.reported?.usd ?? 0) + reported.usd, responses: (totals.reported?.responses ?? 0) + reported.responses };
}

/**
 * A USD amount for display: "$0" for nothing, else 3 significant digits below $1 ("$0.0123",
 * "$0.000456"), cents from $1 ("$12.35", "$1,234.50"), and "<$0.000001" for dust.
 */
export function formatUsd(amount: number): string {
  if (amount === 0) return "$0";
  if (amount < 0.000001) return "<$0.000001";
  if (amount < 1) return `$${Number(amount.toPrecision(3)).toString()}`;
  return `$${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
