/** Upper bound on terms in one search; more adds cost and no precision. */
const MAX_TERMS = 8;

/** Splits a search box query into terms: letters and digits of any script. */
export function searchTerms(query: string): string[] {
  const terms = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(terms)].slice(0, MAX_TERMS);
}

/** Shorter terms match whole words only: a one-letter prefix expands to most of the vocabulary. */
export const MIN_PREFIX_LENGTH = 3;

/**
 * An FTS5 MATCH expression in which every term must occur as a word prefix ("auth" finds
 * "authentication"), or as a whole word when shorter than MIN_PREFIX_LENGTH. Terms are quoted,
 * so no user input is read as FTS syntax.
 */
export function toFtsMatch(terms: string[]): string {
  return terms
    .map((term) => `"${term.replaceAll('"', '""')}"${Array.from(term).length >= MIN_PREFIX_LENGTH ? "*" : ""}`)
    .join(" AND ");
}
