// Small readers of Amp thread values, shared by the thread and message code. Pure.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isObject } from "../types";

export type Json = Record<string, JsonValue>;

export const str = (value: JsonValue | undefined): string | null => (typeof value === "string" ? value : null);
export const num = (value: JsonValue | undefined): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
export const obj = (value: JsonValue | undefined): Json | null => (isObject(value) ? value : null);

/** Drops undefined and null values, so metadata stays small and the same for the same input. */
export function defined(values: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** Epoch milliseconds (Amp's `created`, `meta.sentAt`) as ISO-8601 UTC, or null. */
export function isoOfMs(value: JsonValue | undefined): string | null {
  const ms = num(value);
  if (ms === null || ms <= 0) return null;
  const date = new Date(ms);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
}

/** An ISO time string as ISO-8601 UTC, or null. */
export function isoOfString(value: JsonValue | undefined): string | null {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/**
 * A workspace URI as a path: `file:///home/me/repo` -> `/home/me/repo`, `file:///C:/x` -> `C:/x`,
 * percent-escapes decoded. A plain absolute path stays as it is; anything else is null.
 */
export function pathOfUri(value: JsonValue | undefined): string | null {
  if (typeof value !== "string" || value === "") return null;
  if (!value.startsWith("file://")) return value.startsWith("/") || /^[A-Za-z]:[\\/]/.test(value) ? value : null;
  let rest = value.slice("file://".length);
  if (rest.startsWith("localhost/")) rest = rest.slice("localhost".length);
  let path: string;
  try {
    path = decodeURIComponent(rest);
  } catch {
    path = rest;
  }
  return /^\/[A-Za-z]:[\\/]/.test(path) ? path.slice(1) : path || null;
}

/** Whose model a name is, where the name says so (Amp records the model, not its provider). */
export function providerOfModel(model: string | null): string | null {
  if (!model) return null;
  if (/^claude/i.test(model)) return "anthropic";
  if (/^(gpt-|o\d|chatgpt-|codex)/i.test(model)) return "openai";
  if (/^gemini/i.test(model)) return "google";
  if (/^grok/i.test(model)) return "xai";
  return null;
}
