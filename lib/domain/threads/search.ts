/** Upper bound on terms in one search; more adds cost and no precision. */
const MAX_TERMS = 8;

/** Splits a search box query into terms: letters and digits of any script. */
export function searchTerms(query: string): string[] {
  const terms = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(terms)].slice(0, MAX_TERMS);
}

/** Shorter terms match whole words only: a one-letter prefix expands to most of the vocabulary. */
const MIN_PREFIX_LENGTH = 3;

/** Whether a term matches as a word prefix (every search does so alike); else it matches a whole word only. */
export function matchesAsPrefix(term: string): boolean {
  return Array.from(term).length >= MIN_PREFIX_LENGTH;
}

/**
 * An FTS5 MATCH expression in which every term must occur as a word prefix ("auth" finds
 * "authentication"), or as a whole word when short (matchesAsPrefix). Terms are quoted,
 * so no user input is read as FTS syntax.
 */
export function toFtsMatch(terms: string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"${matchesAsPrefix(term) ? "*" : ""}`).join(" AND ");
}

/** Only the parts search needs to read (lib/domain/types TurnPart), so any stored shape is taken. */
type SearchablePart = { type: string; [key: string]: unknown };

/** A tool result's or argument's text as words to find: a string as it is, anything else as JSON. */
function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  if (
    Array.isArray(value) &&
    value.every((block) => block !== null && typeof block === "object" && typeof (block as { text?: unknown }).text === "string")
  ) {
    return value.map((block) => (block as { text: string }).text).join("\n\n");
  }
  return JSON.stringify(value);
}

/**
 * What search reads of a turn: its content, then what its parts hold that the content does not
 * (tool calls' names and arguments, tool outputs, thinking, text the content leaves out), so a
 * word inside a collapsed tool output is found like any other. Masked for secrets by the caller
 * (lib/domain/secrets/detect.ts searchableTurnText).
 */
export function turnSearchDocument(content: string, parts: readonly SearchablePart[] | null | undefined): string {
  const extra: string[] = [];
  for (const part of parts ?? []) {
    let text = "";
    if (part.type === "tool_call")
      text = [typeof part.name === "string" ? part.name : "", valueText(part.arguments)].filter(Boolean).join(" ");
    else if (part.type === "tool_result")
      text = [valueText(part.content), typeof part.diff === "string" ? part.diff : ""].filter(Boolean).join("\n");
    else if (part.type === "text" || part.type === "thinking") text = typeof part.text === "string" ? part.text : "";
    if (text.trim() !== "" && !content.includes(text)) extra.push(text);
  }
  return extra.length === 0 ? content : [content, ...extra].filter((text) => text !== "").join("\n\n");
}
