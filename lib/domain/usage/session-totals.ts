/**
 * Session totals: token counts a source reports only for a whole session, per model, never per
 * response (GitHub Copilot CLI's `session.shutdown` events). Importers keep them in the thread's
 * metadata as `sessionTotals`; the thread page shows them apart from the per-response usage, priced
 * per model the way a response is priced (lib/domain/usage/cost.ts), because they are not responses and
 * must not be summed with them. Pure.
 */
import { z } from "zod";
import { costTotals, responseCost, type Pricer, type PricedResponse } from "./cost";
import type { CostTotals, JsonObject, ResponseCost } from "../types";

const count = z.number().finite().nonnegative();

/** One model's totals. inputTokens exclude cache reads and writes, as everywhere in Threadline. */
const modelSessionTotalSchema = z.object({
  requests: count,
  /** Copilot's premium-request units charged for those requests (requests.cost). */
  premiumRequests: count,
  inputTokens: count,
  cacheReadTokens: count,
  cacheWriteTokens: count,
  outputTokens: count,
  reasoningTokens: count,
  /** The input as the source reported it (Copilot: cache reads and writes included). */
  reportedInputTokens: count,
});
export type ModelSessionTotal = z.infer<typeof modelSessionTotalSchema>;

const sessionTotalsSchema = z.object({
  /** Where the figures come from, e.g. "copilot session.shutdown". */
  source: z.string(),
  /** How many reports were summed (one per process: a resumed session has several). */
  reports: count,
  models: z.record(z.string(), modelSessionTotalSchema),
  premiumRequests: count.optional(),
  apiDurationMs: count.optional(),
  codeChanges: z.object({ linesAdded: count, linesRemoved: count, filesModified: z.array(z.string()) }).optional(),
  /** When the last report was written (ISO): the time the totals are priced at. */
  reportedAt: z.string().nullable().optional(),
});
export type SessionTotals = z.infer<typeof sessionTotalsSchema>;

/** A thread's session totals from its metadata, or null when it has none (or they do not parse). */
export function sessionTotalsOf(metadata: JsonObject | null | undefined): SessionTotals | null {
  const parsed = sessionTotalsSchema.safeParse(metadata?.sessionTotals);
  return parsed.success ? parsed.data : null;
}

export type PricedModelTotal = { model: string; totals: ModelSessionTotal; cost: ResponseCost };

/**
 * Each model's totals priced as one response of that model at the time of the last report. A
 * context-size tier would be chosen by the whole session's input here, so such a price is an upper
 * bound; the page says these are totals.
 */
export function priceSessionTotals(totals: SessionTotals, price: Pricer): PricedModelTotal[] {
  const at = totals.reportedAt ? new Date(totals.reportedAt) : new Date(Number.NaN);
  return Object.entries(totals.models)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, t]) => {
      const usage = {
        inputTokens: t.inputTokens,
        cacheReadTokens: t.cacheReadTokens,
        cacheWriteTokens: t.cacheWriteTokens,
        outputTokens: t.outputTokens,
        reasoningTokens: t.reasoningTokens,
      };
      return { model, totals: t, cost: responseCost({ provider: null, model, at, usage, reasoningInOutput: true }, usage, price) };
    });
}

/**
 * The totals as what usage over time sums: each model's as its requests, at the time of the last
 * report (the only time the source gives them).
 */
export function sessionTotalResponses(totals: SessionTotals, price: Pricer): PricedResponse[] {
  const at = totals.reportedAt ? new Date(totals.reportedAt) : new Date(Number.NaN);
  return priceSessionTotals(totals, price).map(({ model, totals: t, cost }) => ({
    responses: Math.max(1, t.requests),
    at,
    provider: null,
    model,
    usage: {
      inputTokens: t.inputTokens,
      cacheReadTokens: t.cacheReadTokens,
      cacheWriteTokens: t.cacheWriteTokens,
      outputTokens: t.outputTokens,
      reasoningTokens: t.reasoningTokens,
      source: "reported",
    },
    cost,
  }));
}

/** What a thread's session totals cost, to add to its responses' (null when it has none). */
export function sessionTotalsCost(metadata: JsonObject | null | undefined, price: Pricer): CostTotals | null {
  const totals = sessionTotalsOf(metadata);
  return totals ? costTotals(priceSessionTotals(totals, price).map((t) => t.cost)) : null;
}
