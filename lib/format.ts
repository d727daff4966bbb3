import type { JsonValue, UsageCounts, UsageField } from "@/lib/domain/types";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "22 Nov 2026, 03:25 UTC". Deterministic (UTC, no locale), so server and client render the
 * same text and hydration never disagrees.
 */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** 1234 -> "1.2k", 1234567 -> "1.2M". */
export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** "1 turn", "2 turns". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The start of a long text, for a preview: at most `maxChars`, cut at the last line break within
 * them; when that would keep less than half (a very long line), cut at `maxChars` instead, never
 * inside a surrogate pair.
 */
export function contentPreview(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const lineBreak = text.lastIndexOf("\n", maxChars - 1);
  if (lineBreak >= maxChars / 2) return text.slice(0, lineBreak);
  const code = text.charCodeAt(maxChars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars);
}

/** 142431 -> "142,431". Deterministic (no locale), like formatDateTime. */
export function formatInteger(n: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A share as a percentage with one decimal ("12.5%"); "-" when there is nothing to share (0 of 0). */
export function formatPercent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "-";
}

/** A span of time, its two largest units: "45 s", "12 min", "3 h 05 min", "2 d 4 h". */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.round(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/**
 * Tool-call arguments as indented JSON. Arguments some sources keep as a JSON string (OpenAI
 * function calls) are parsed first; any other string is shown as it is.
 */
export function formatJson(value: JsonValue | undefined): string {
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
      try {
        return JSON.stringify(JSON.parse(trimmed), null, 2);
      } catch {
        return value;
      }
    }
    return value;
  }
  return JSON.stringify(value ?? null, null, 2);
}

/**
 * A tool result's content as text: a string as it is, content blocks ([{type: "text", text}, ...])
 * joined (an image block as "[image]", never its data), anything else as indented JSON.
 */
export function toolResultText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (
    Array.isArray(content) &&
    content.every((block) => block !== null && typeof block === "object" && !Array.isArray(block) && typeof block.type === "string")
  ) {
    return content
      .map((block) => {
        const b = block as { [key: string]: JsonValue };
        if (typeof b.text === "string") return b.text;
        if (b.type === "image" || b.type === "image_url" || b.type === "input_image") return "[image]";
        return JSON.stringify(b, null, 2);
      })
      .join("\n\n");
  }
  return JSON.stringify(content ?? null, null, 2);
}

/** "Compacted (auto) · 155,000 → 12,000 tokens"; missing figures are left out or named. */
export function compactionLabel(part: { trigger?: string | null; tokensBefore?: number | null; tokensAfter?: number | null }): string {
  const trigger = part.trigger ? ` (${part.trigger})` : "";
  const before = typeof part.tokensBefore === "number" ? formatInteger(part.tokensBefore) : null;
  const after = typeof part.tokensAfter === "number" ? formatInteger(part.tokensAfter) : null;
  const figures =
    before !== null && after !== null
      ? `${before} → ${after} tokens`
      : before !== null
        ? `${before} tokens before`
        : after !== null
          ? `${after} tokens after`
          : null;
  return `Compacted${trigger}${figures ? ` · ${figures}` : ""}`;
}

const USAGE_LABELS = [
  ["inputTokens", "in"],
  ["cacheReadTokens", "cache read"],
  ["cacheWriteTokens", "cache write"],
  ["outputTokens", "out"],
  ["reasoningTokens", "reasoning"],
] as const;

/** "in", "cache read", ...: a usage field as usageSummary names it. */
export function usageFieldLabel(field: UsageField): string {
  return USAGE_LABELS.find(([name]) => name === field)![1];
}

/** "in 3 · cache read 17,842 · out 9": token usage with the zero fields left out. */
export function usageSummary(usage: UsageCounts): string {
  const fields = USAGE_LABELS.filter(([field]) => usage[field] > 0).map(([field, label]) => `${label} ${formatInteger(usage[field])}`);
  return fields.length > 0 ? fields.join(" · ") : "no tokens";
}
