// Goose's token counts. Newer builds (sessions.db schema 15 on) attach each model response's usage
// to the last assistant message it wrote (metadata.usage: inputTokens, outputTokens, totalTokens,
// cacheReadTokens, cacheWriteTokens, cost, costSource, ...). Every build keeps the session's
// running totals (accumulated_input_tokens, accumulated_output_tokens, and from schema 14 the
// cache reads and writes, from 13 the cost), which also count what no message carries: older
// responses, compaction summaries, helper calls. Goose's input counts include cache reads and
// writes (Usage::from_cache_exclusive_input folds them in); Threadline's exclude them.
import type { JsonObject } from "@/lib/domain/types";
import type { ModelSessionTotal, SessionTotals } from "@/lib/domain/usage/session-totals";
import type { ImportedUsage } from "../types";
import { count, obj, str, type Json } from "./values";

const SESSION_TOTALS_SOURCE = "goose session totals";

/** The raw counts of one response or of the session, as Goose reports them (input with the cache). */
type RawUsage = { input: number; output: number; cacheRead: number; cacheWrite: number; cost: number };

export const noUsage = (): RawUsage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 });

/** A message's own usage (metadata.usage), as Threadline counts it and as reported; null when it has none. */
export function messageUsage(
  metadata: Json,
  warnings: string[],
  where: string,
): { usage: ImportedUsage; raw: RawUsage; details: JsonObject } | null {
  const usage = obj(metadata.usage);
  if (!usage) return null;
  const input = count(usage.inputTokens);
  const output = count(usage.outputTokens);
  if (input === null && output === null) return null;
  const cacheRead = count(usage.cacheReadTokens) ?? 0;
  const cacheWrite = count(usage.cacheWriteTokens) ?? 0;
  const uncached = (input ?? 0) - cacheRead - cacheWrite;
  if (uncached < 0)
    warnings.push(
      `${where}: inputTokens (${input ?? 0}) are fewer than its cache reads and writes (${cacheRead + cacheWrite}): uncached input counted as 0`,
    );
  const cost = typeof usage.cost === "number" && Number.isFinite(usage.cost) && usage.cost >= 0 ? usage.cost : null;
  const details: JsonObject = {};
  for (const field of ["totalTokens", "costSource", "elapsedMs", "timeToFirstTokenMs", "isCompaction"] as const)
    if (usage[field] !== undefined && usage[field] !== null) details[field] = usage[field]!;
  return {
    usage: {
      inputTokens: Math.max(0, uncached),
      ...(cacheRead > 0 ? { cacheReadTokens: cacheRead } : {}),
      ...(cacheWrite > 0 ? { cacheWriteTokens: cacheWrite } : {}),
      outputTokens: output ?? 0,
      ...(cost !== null ? { reportedCostUsd: cost } : {}),
    },
    raw: { input: input ?? 0, output: output ?? 0, cacheRead, cacheWrite, cost: cost ?? 0 },
    details,
  };
}

/** The session's accumulated totals (accumulated_* columns, or the legacy file's metadata line). */
function accumulatedOf(session: Json): RawUsage & { reported: boolean } {
  const fields = [
    session.accumulated_input_tokens,
    session.accumulated_output_tokens,
    session.accumulated_cache_read_tokens,
    session.accumulated_cache_write_tokens,
  ];
  return {
    input: count(session.accumulated_input_tokens) ?? 0,
    output: count(session.accumulated_output_tokens) ?? 0,
    cacheRead: count(session.accumulated_cache_read_tokens) ?? 0,
    cacheWrite: count(session.accumulated_cache_write_tokens) ?? 0,
    cost: count(session.accumulated_cost) ?? 0,
    reported: fields.some((value) => count(value) !== null),
  };
}

/**
 * What the session's totals count beyond its messages' own usage: each field's total minus the
 * sum of the messages', never below zero, so no response is counted twice. Goose does the same
 * when it opens its usage ledger on an older session (a 'carried_forward' row). Kept as session
 * totals of the session's model, priced apart from the responses; null when nothing is left.
 */
export function remainderTotals(
  session: Json,
  covered: RawUsage,
  model: string | null,
  reportedAt: string | null,
  warnings: string[],
): JsonObject | null {
  const total = accumulatedOf(session);
  if (!total.reported) return null;
  const left = {
    input: Math.max(0, total.input - covered.input),
    output: Math.max(0, total.output - covered.output),
    cacheRead: Math.max(0, total.cacheRead - covered.cacheRead),
    cacheWrite: Math.max(0, total.cacheWrite - covered.cacheWrite),
  };
  if (left.input + left.output + left.cacheRead + left.cacheWrite === 0) return null;
  const uncached = left.input - left.cacheRead - left.cacheWrite;
  if (uncached < 0)
    warnings.push(
      `session totals: input (${left.input}) is less than its cache reads and writes (${left.cacheRead + left.cacheWrite}): uncached input counted as 0`,
    );
  const entry: ModelSessionTotal = {
    // Goose counts no requests.
    requests: 0,
    premiumRequests: 0,
    inputTokens: Math.max(0, uncached),
    cacheReadTokens: left.cacheRead,
    cacheWriteTokens: left.cacheWrite,
    outputTokens: left.output,
    reasoningTokens: 0,
    reportedInputTokens: left.input,
  };
  const totals: SessionTotals = { source: SESSION_TOTALS_SOURCE, reports: 1, models: { [model ?? "unknown"]: entry }, reportedAt };
  return totals as unknown as JsonObject;
}

/** The session's last call's usage (input_tokens, output_tokens, total_tokens: the current context, not totals). */
export function lastUsageOf(session: Json): JsonObject | null {
  const out: JsonObject = {};
  for (const [field, key] of [
    ["input_tokens", "inputTokens"],
    ["output_tokens", "outputTokens"],
    ["total_tokens", "totalTokens"],
    ["cache_read_tokens", "cacheReadTokens"],
    ["cache_write_tokens", "cacheWriteTokens"],
  ] as const) {
    const value = count(session[field]);
    if (value !== null) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The accumulated figures as reported, for the thread's metadata. */
export function accumulatedMetadata(session: Json): JsonObject | null {
  const out: JsonObject = {};
  for (const [field, key] of [
    ["accumulated_input_tokens", "inputTokens"],
    ["accumulated_output_tokens", "outputTokens"],
    ["accumulated_total_tokens", "totalTokens"],
    ["accumulated_cache_read_tokens", "cacheReadTokens"],
    ["accumulated_cache_write_tokens", "cacheWriteTokens"],
    ["accumulated_cost", "costUsd"],
  ] as const) {
    const value = count(session[field]);
    if (value !== null) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The model a message's inference metadata names: the resolved model, else the requested one. */
export function inferenceOf(metadata: Json): { provider: string | null; model: string | null } | null {
  const inference = obj(metadata.inference);
  if (!inference) return null;
  return { provider: str(inference.provider), model: str(inference.resolvedModel) ?? str(inference.requestedModel) };
}
