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
  return Object.values(usage).some((v) => v !== undefined) ? usage : null;
}

/** Field by field, the larger count: a later copy of a streamed response's usage supersedes an earlier one. */
export function latestUsage(earlier: ImportedUsage, later: ImportedUsage | null): ImportedUsage {
  if (!later) return earlier;
  const max = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
  return {
    inputTokens: max(earlier.inputTokens, later.inputTokens),
    cacheWriteTokens: max(earlier.cacheWriteTokens, later.cacheWriteTokens),
    cacheReadTokens: max(earlier.cacheReadTokens, later.cacheReadTokens),
    outputTokens: max(earlier.outputTokens, later.outputTokens),
  };
}

/** The key a response's usage is counted once under: its message id and request id. */
export function responseKey(message: Record<string, JsonValue>, entry: Record<string, JsonValue>, fallback: string): string {
  return `${typeof message.id === "string" ? message.id : fallback}|${typeof entry.requestId === "string" ? entry.requestId : ""}`;
}

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
  if (usage) for (const [field, value] of Object.entries(usage)) if (value !== undefined) report[field] = value;
  const totals = { totalTokens: toolUseResult.totalTokens, toolUses: toolUseResult.totalToolUseCount, durationMs: toolUseResult.totalDurationMs };
  for (const [field, value] of Object.entries(totals)) if (count(value) !== undefined) report[field] = value as number;
  return Object.keys(report).length > 0 ? report : null;
}
