/**
 * Token usage of model responses: as the source reported it (imports keep it in a turn's
 * modelMetadata.usage, counted once per response), or estimated with our tokenizer where the
 * source reported none. Pure.
 */
import {
  USAGE_FIELDS,
  type JsonObject,
  type JsonValue,
  type ThreadUsage,
  type TurnRole,
  type TurnUsage,
  type UsageCounts,
  type UsageDetails,
} from "../types";

/** What usage needs of a turn. */
export type UsageInput = {
  role: TurnRole;
  modelMetadata: JsonObject | null;
  tokens: number | null;
  tokenEstimate: number;
  parts?: readonly { type: string }[] | null;
};

function count(value: JsonValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/**
 * Reported usage in a turn's metadata: `usage` with at least one count under our names
 * (inputTokens, ...) or the providers' own (input_tokens, cache_read_input_tokens, ...), as
 * callers of the API may send them. Null when there is none. With the details pricing needs
 * where given (see usageDetails).
 */
export function reportedUsage(metadata: JsonObject | null): (UsageCounts & UsageDetails) | null {
  const usage = metadata?.usage;
  if (!usage || typeof usage !== "object" || Array.isArray(usage)) return null;
  const pick = (...names: string[]) => {
    for (const name of names) {
      const value = count(usage[name]);
      if (value !== null) return value;
    }
    return null;
  };
  const found = {
    inputTokens: pick("inputTokens", "input_tokens", "prompt_tokens"),
    cacheReadTokens: pick("cacheReadTokens", "cache_read_input_tokens", "cached_input_tokens"),
    cacheWriteTokens: pick("cacheWriteTokens", "cache_creation_input_tokens"),
    outputTokens: pick("outputTokens", "output_tokens", "completion_tokens"),
    reasoningTokens: pick("reasoningTokens", "reasoning_tokens", "reasoning_output_tokens"),
  };
  if (Object.values(found).every((v) => v === null)) return null;
  const counts = {
    inputTokens: found.inputTokens ?? 0,
    cacheReadTokens: found.cacheReadTokens ?? 0,
    cacheWriteTokens: found.cacheWriteTokens ?? 0,
    outputTokens: found.outputTokens ?? 0,
    reasoningTokens: found.reasoningTokens ?? 0,
  };
  return { ...counts, ...usageDetails(usage, counts.cacheWriteTokens) };
}

/**
 * The cache writes' split by lifetime (`cacheWrite5mTokens` / `cacheWrite1hTokens`, or
 * Anthropic's `cache_creation.ephemeral_5m_input_tokens` / `ephemeral_1h_input_tokens`) and the
 * source's own cost (`reportedCostUsd`), where the usage gives them. A split larger than the
 * writes it splits is not trusted (left out).
 */
function usageDetails(usage: JsonObject, cacheWriteTokens: number): UsageDetails {
  const creation = usage.cache_creation;
  const nested = creation && typeof creation === "object" && !Array.isArray(creation) ? creation : {};
  const fiveMinutes = count(usage.cacheWrite5mTokens) ?? count(nested.ephemeral_5m_input_tokens);
  const oneHour = count(usage.cacheWrite1hTokens) ?? count(nested.ephemeral_1h_input_tokens);
  const details: UsageDetails = {};
  if ((fiveMinutes ?? 0) + (oneHour ?? 0) <= cacheWriteTokens) {
    if (fiveMinutes !== null) details.cacheWrite5mTokens = fiveMinutes;
    if (oneHour !== null) details.cacheWrite1hTokens = oneHour;
  }
  const cost = usage.reportedCostUsd;
  if (typeof cost === "number" && Number.isFinite(cost) && cost >= 0) details.reportedCostUsd = cost;
  return details;
}

function zero(): UsageCounts {
  return { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}

/**
 * The turn-metadata mark of a response whose usage its source reports only in the session's
 * totals (Copilot CLI's shutdown reports, lib/domain/usage/session-totals.ts): no usage of its own, and
 * none estimated for it, so the session's tokens are never counted twice or guessed.
 */
export const USAGE_IN_SESSION_TOTALS = { usageIn: "sessionTotals" } as const;

function usageInSessionTotals(metadata: JsonObject | null | undefined): boolean {
  return metadata?.usageIn === USAGE_IN_SESSION_TOTALS.usageIn;
}

/**
 * Usage per turn, in order: reported where the turn carries it; for an assistant turn without
 * it, estimated as input = the tokens of the thread's turns before it since the last compaction
 * (system prompts and tool definitions are not stored, so this is a lower bound) and output = its
 * own tokens, unless the source reports it only in the session's totals (USAGE_IN_SESSION_TOTALS).
 * Other turns without reported usage were no model response: null. `context`: the
 * tokens before the first of `turns` since the last compaction, for a page that starts mid-thread.
 */
export function turnUsages(turns: readonly UsageInput[], context = 0): (TurnUsage | null)[] {
  return turns.map((turn) => {
    const tokens = turn.tokens ?? turn.tokenEstimate;
    if (turn.parts?.some((p) => p.type === "compaction")) context = 0;
    const reported = reportedUsage(turn.modelMetadata);
    let usage: TurnUsage | null = null;
    if (reported) usage = { ...reported, source: "reported" };
    else if (turn.role === "assistant" && !usageInSessionTotals(turn.modelMetadata))
      usage = { ...zero(), inputTokens: context, outputTokens: tokens, source: "estimated" };
    context += tokens;
    return usage;
  });
}

/** The totals of a thread's turn usages (each response once). */
export function threadUsage(usages: readonly (TurnUsage | null)[]): ThreadUsage {
  const total: UsageCounts = zero();
  let reported = 0;
  let estimated = 0;
  for (const usage of usages) {
    if (!usage) continue;
    for (const field of USAGE_FIELDS) total[field] += usage[field];
    if (usage.source === "reported") reported++;
    else estimated++;
  }
  const source = reported > 0 && estimated > 0 ? "mixed" : reported > 0 ? "reported" : "estimated";
  return { ...total, source };
}
