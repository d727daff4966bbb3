// Small readers of Goose values, shared by the session, message and usage code.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isObject } from "../types";

export type Json = Record<string, JsonValue>;

export function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

/** A non-empty string, or null. */
export function text(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

export function obj(value: JsonValue | undefined): Json | null {
  return isObject(value) ? value : null;
}

/** A finite, non-negative number, or null (Goose's token columns are nullable). */
export function count(value: JsonValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** An object without its undefined and null fields (JsonObject has no undefined). */
export function defined(fields: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/**
 * Goose's message times are Unix seconds (`Message.created`); a value past 10^10 is milliseconds,
 * as Goose itself reads it (session_manager.rs, MILLISECOND_TIMESTAMP_THRESHOLD).
 */
export function isoFromSeconds(value: JsonValue | undefined): string | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return null;
  const ms = value > 10_000_000_000 ? value : value * 1000;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
