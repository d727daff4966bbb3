import { z } from "zod";
import { validationError, type FieldIssue } from "@/lib/domain/parse";

/**
 * A query string as the object a query schema reads: each parameter's value. A parameter given
 * more than once is refused by name: every parameter of this API is one value, and which of two
 * counts depends on the reader (URLSearchParams.get takes the first, Object.fromEntries the last).
 */
export function queryObject(params: URLSearchParams): Record<string, string> {
  const counts = new Map<string, number>();
  for (const key of params.keys()) counts.set(key, (counts.get(key) ?? 0) + 1);
  const issues: FieldIssue[] = [...counts]
    .filter(([, count]) => count > 1)
    .map(([key, count]) => ({ field: key, message: `is given ${count} times: give it once` }));
  if (issues.length > 0) throw validationError(issues);
  // fromEntries, not assignment: a "__proto__" parameter stays an own key.
  return Object.fromEntries(params);
}

/** A yes/no query parameter: 1 or true, 0 or false; `fallback` when it is absent (null: absent stays null, for a default that depends on another parameter). */
export function queryFlag<F extends boolean | null = false>(fallback: F = false as F) {
  return z
    .enum(["1", "true", "0", "false"], { error: "must be 1, true, 0 or false" })
    .optional()
    .transform((value): boolean | F => (value === undefined ? fallback : value === "1" || value === "true"));
}
