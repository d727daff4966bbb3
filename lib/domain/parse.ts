import type { z } from "zod";
import { AppError } from "./errors";
import { quoteInput } from "./secrets/quote";

/** "threads[0].turns[3].role" from a zod issue path. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(body)";
}

export type FieldIssue = { field: string; message: string };

export function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ field: formatIssuePath(issue.path), message: messageOf(issue) }));
}

/** The issue's message; zod's for unknown keys repeats them as given, so they are quoted as every message quotes input. */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code !== "unrecognized_keys") return issue.message;
  return `Unrecognized key${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.map((key) => quoteInput(key)).join(", ")}`;
}

/**
 * The value `schema` makes of `value`, or an AppError("validation_failed") whose message names the
 * first failing field and whose details list them all. The one way input is checked: routes, server
 * actions, MCP tools and services alike.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw validationError(issuesOf(parsed.error));
}

/** The validation_failed error for some issues: the message names the first field, the details list them all. */
export function validationError(issues: FieldIssue[]): AppError {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return new AppError("validation_failed", first ? `${first.field}: ${first.message}${more}` : "Invalid input", issues);
}
