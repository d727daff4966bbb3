// Small readers of Copilot CLI values, shared by the event-stream and legacy parsers.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isObject } from "../types";

export type Json = Record<string, JsonValue>;

export function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

/** A whole, non-negative count, or 0. */
export function count(value: JsonValue | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

export function obj(value: JsonValue | undefined): Json | null {
  return isObject(value) ? value : null;
}

/** An object without its undefined and null fields (JsonObject has no undefined). */
export function defined(fields: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** The fields of `data` not named in `used`: what a mapping keeps as metadata so nothing is lost. */
export function rest(data: Json, used: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(data)) if (!used.includes(key)) out[key] = value;
  return out;
}

/** Tool arguments given as a JSON string (OpenAI chat format): parsed when they parse, else the raw string. */
export function parsedArguments(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

/**
 * Whether a tool's detailed output is a unified diff that changes something. Copilot also renders
 * plain file and folder views as diffs made only of context lines; those repeat the result and are
 * not shown twice. One pass over the lines, no regular expression over the whole text.
 */
export function isChangingDiff(text: string): boolean {
  let hunk = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("@@ ")) hunk = true;
    else if (hunk && (line.startsWith("+") || line.startsWith("-")) && !line.startsWith("+++ ") && !line.startsWith("--- ")) return true;
  }
  return false;
}
