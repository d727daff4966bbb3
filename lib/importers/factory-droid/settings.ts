// A Droid session's `<id>.settings.json` (read beside the transcript by lib/imports/droid-settings.ts):
// what of it the thread keeps, and its token totals as session totals. Pure.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import type { SessionTotals } from "@/lib/domain/usage/session-totals";
import { isObject } from "../types";

/** Where the totals come from, as the thread page names them. */
const DROID_TOTALS_SOURCE = "factory-droid settings.json tokenUsage";

/** A whole, non-negative count, or 0. */
function count(value: JsonValue | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** The settings fields kept in the thread's metadata (nothing else is read: unknown fields stay in the file). */
const KEPT = [
  "model",
  "reasoningEffort",
  "specModeReasoningEffort",
  "interactionMode",
  "autonomyMode",
  "autonomyLevel",
  "providerLock",
  "providerLockTimestamp",
  "apiProviderLock",
  "assistantActiveTimeMs",
  "tokenUsage",
  "inclusiveTokenUsage",
  "tags",
] as const;

export function settingsMetadata(settings: unknown): JsonObject | null {
  if (!isObject(settings)) return null;
  const out: JsonObject = {};
  for (const key of KEPT) if (settings[key] !== undefined && settings[key] !== null) out[key] = settings[key];
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * The session's own running total (`tokenUsage`, rewritten in place as the session goes on) as
 * session totals: one entry for the model the settings name (the one the session is on now).
 * inputTokens exclude the cache; outputTokens include the thinking (thinkingTokens is their part,
 * kept as reasoning, never added again). Null when there is no count above zero. `replies`: the
 * session's own assistant messages, the requests the total stands for; `reportedAt`: the time of
 * the transcript's last record (the settings carry no time of their own for the totals).
 */
export function droidSessionTotals(settings: unknown, replies: number, reportedAt: string | null): SessionTotals | null {
  if (!isObject(settings) || !isObject(settings.tokenUsage)) return null;
  const usage = settings.tokenUsage;
  const inputTokens = count(usage.inputTokens);
  const outputTokens = count(usage.outputTokens);
  const cacheWriteTokens = count(usage.cacheCreationTokens);
  const cacheReadTokens = count(usage.cacheReadTokens);
  const reasoningTokens = count(usage.thinkingTokens);
  if (inputTokens + outputTokens + cacheWriteTokens + cacheReadTokens + reasoningTokens === 0) return null;
  const model = typeof settings.model === "string" && settings.model.trim() ? settings.model : "unknown";
  return {
    source: DROID_TOTALS_SOURCE,
    reports: 1,
    models: {
      [model]: {
        requests: replies,
        premiumRequests: 0,
        inputTokens,
        cacheReadTokens,
        cacheWriteTokens,
        outputTokens,
        reasoningTokens,
        reportedInputTokens: inputTokens,
      },
    },
    reportedAt,
  };
}
