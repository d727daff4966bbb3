// One JSONL entry: parsed, timed, and classified (prompt, tool result, assistant output, compaction...).
import type { JsonValue } from "@/lib/domain/types";
import { isObject } from "../types";
import { EntryKind } from "./shapes";

export function parseLine(text: string): unknown {
  return JSON.parse(text) as unknown;
}

export function timeOf(entry: Record<string, JsonValue>): number {
  const t = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : NaN;
  return Number.isFinite(t) ? t : 0;
}

export function messageOf(entry: Record<string, JsonValue>): Record<string, JsonValue> | null {
  return isObject(entry.message) ? entry.message : null;
}

/** Wrappers Claude Code puts around what is not a typed prompt. */
const NOT_A_PROMPT =
  /^\s*<(command-name|command-message|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|task-notification|system-reminder)>/;

export function userText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isObject(part) && part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n\n");
}

export function classify(entry: Record<string, JsonValue>): EntryKind | null {
  switch (entry.type) {
    case "user": {
      const message = messageOf(entry);
      if (!message) return null;
      if (entry.isCompactSummary === true) return "compact-summary";
      if (entry.isMeta === true) return "meta";
      const content = message.content;
      if (Array.isArray(content) && content.some((p) => isObject(p) && p.type === "tool_result")) return "tool-result";
      const text = userText(content);
      return text.trim() && !NOT_A_PROMPT.test(text) ? "prompt" : "user";
    }
    case "assistant":
      return messageOf(entry) ? "assistant" : null;
    case "system":
      if (entry.subtype === "compact_boundary") return "compact-boundary";
      return entry.subtype === "local_command" || entry.subtype === "api_error" ? "system" : "chain-only";
    case "progress":
    case "attachment":
      return "chain-only";
    default:
      return null;
  }
}

/**
 * Entries that become turns. Meta entries (command expansions, caveats) are hidden in Claude
 * Code's UI but were sent to the model, so they are kept, marked meta.
 */
export const CONVERSATIONAL: ReadonlySet<EntryKind> = new Set([
  "prompt",
  "user",
  "meta",
  "tool-result",
  "assistant",
  "compact-boundary",
  "compact-summary",
  "system",
]);

/** First pass: skeletons, titles, metadata, and which line goes to which thread. */
