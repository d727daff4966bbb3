// Usage as Claude Code records it: per API message, repeated on every line of a streamed response.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isObject, type ImportedUsage } from "../types";

const count = (v: JsonValue | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** A message's `usage` in Threadline's names; null when it has none. */
export function usageOf(message: Record<string, JsonValue>): ImportedUsage | null {
  const u = isObject(message.usage) ? message.usage : null;
  if (!u) return null;
  const usage: ImportedUsage = {
    inputTokens: count(u.input_tokens),
    cacheWriteTokens: count(u.cache_creation_input_tokens),
    cacheReadTokens: count(u.cache_read_input_tokens),
    outputTokens: count(u.output_tokens),
  };
  if (!Object.values(usage).some((v) => v !== undefined)) return null;
  // The writes by cache lifetime (1-hour writes cost 2x input, 5-minute ones 1.25x), kept only when given.
  const creation = isObject(u.cache_creation) ? u.cache_creation : null;
  const fiveMinutes = count(creation?.ephemeral_5m_input_tokens);
  const oneHour = count(creation?.ephemeral_1h_input_tokens);
  if (fiveMinutes !== undefined) usage.cacheWrite5mTokens = fiveMinutes;
  if (oneHour !== undefined) usage.cacheWrite1hTokens = oneHour;
  return usage;
}

/** Field by field, the larger count: a later copy of a streamed response's usage supersedes an earlier one. */
export function latestUsage(earlier: ImportedUsage, later: ImportedUsage | null): ImportedUsage {
  if (!later) return earlier;
  const max = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
  const latest: ImportedUsage = {
    inputTokens: max(earlier.inputTokens, later.inputTokens),
    cacheWriteTokens: max(earlier.cacheWriteTokens, later.cacheWriteTokens),
    cacheReadTokens: max(earlier.cacheReadTokens, later.cacheReadTokens),
    outputTokens: max(earlier.outputTokens, later.outputTokens),
  };
  const fiveMinutes = max(earlier.cacheWrite5mTokens, later.cacheWrite5mTokens);
  const oneHour = max(earlier.cacheWrite1hTokens, later.cacheWrite1hTokens);
  if (fiveMinutes !== undefined) latest.cacheWrite5mTokens = fiveMinutes;
  if (oneHour !== undefined) latest.cacheWrite1hTokens = oneHour;
  return latest;
}

/** The key a response's usage is counted once under: its message id and request id. */
export function responseKey(message: Record<string, JsonValue>, entry: Record<string, JsonValue>, fallback: string): string {
  return `${typeof message.id === "string" ? message.id : fallback}|${typeof entry.requestId === "string" ? entry.requestId : ""}`;
}

const REPORTED_FIELDS = ["inputTokens", "cacheWriteTokens", "cacheReadTokens", "outputTokens"] as const;

/**
 * What a Task call's result says its sub-agent used (toolUseResult: `usage` of the agent's final
 * request, `totalTokens`, `totalToolUseCount`, `totalDurationMs`), kept beside the sub-agent's own
 * transcript because the transcript can record less (a final response written while it streamed).
 * Null when the result carries none of it.
 */
export function agentReport(toolUseResult: Record<string, JsonValue> | null): JsonObject | null {
  if (!toolUseResult) return null;
  const usage = isObject(toolUseResult.usage) ? usageOf({ usage: toolUseResult.usage }) : null;
  const report: JsonObject = {};
  // The counts only (as lib/domain/usage/session-usage.ts compares them), not the cache-lifetime split; in
  // usageOf's order, as stored before (the stored parts are part of a turn's id).
  if (usage) for (const field of REPORTED_FIELDS) if (usage[field] !== undefined) report[field] = usage[field];
  const totals = {
    totalTokens: toolUseResult.totalTokens,
    toolUses: toolUseResult.totalToolUseCount,
    durationMs: toolUseResult.totalDurationMs,
  };
  for (const [field, value] of Object.entries(totals)) if (count(value) !== undefined) report[field] = value as number;
  return Object.keys(report).length > 0 ? report : null;
}
