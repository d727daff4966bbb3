/** Small text helpers the parsers share. Pure. */
import { cutTitle } from "@/lib/domain/threads/title";
import type { JsonValue } from "@/lib/domain/types";

/** Whitespace collapsed to single spaces, cut at a word boundary to `max` characters with "…" (cutTitle): titles from prompts. */
export function collapse(text: string, max = 100): string {
  return cutTitle(text, max);
}

/** One line of a tool call for a turn's readable text: the name and its arguments, cut at 300 characters. */
export function callLine(name: string, args: JsonValue | undefined): string {
  const text = args === undefined ? "" : typeof args === "string" ? args : JSON.stringify(args);
  return `[${name}] ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`.trimEnd();
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * ISO-8601 UTC, or null. Python's isoformat() (+00:00) and the like; a string without a zone is
 * read as UTC, never as local time (that would depend on the machine).
 */
export function isoUtc(value: JsonValue | undefined): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim().replace(" ", "T");
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const time = Date.parse(match[1] || !text.includes(":") ? text : `${text}Z`);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
