// Small readers of Droid record values. Pure.
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { isObject } from "../types";

export type Json = Record<string, JsonValue>;

export const str = (value: JsonValue | undefined): string | null => (typeof value === "string" ? value : null);
export const obj = (value: JsonValue | undefined): Json | null => (isObject(value) ? value : null);

/** Drops undefined and null values, so metadata stays small and the same for the same input. */
export function defined(values: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}
