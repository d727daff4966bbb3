import "server-only";
import { hash } from "node:crypto";

/**
 * Texts shorter than this are remembered by themselves (a Map keys them by their own hash, which
 * V8 caches on the string); longer ones by a SHA-1 of their content, so that a 100 KB file block
 * is not kept twice.
 */
const MIN_HASHED_LENGTH = 512;
const MAX_HASHED_ENTRIES = 20_000;
const MAX_SHORT_ENTRIES = 50_000;

/** Counts by tokenizer and content hash (long texts). */
const hashedCounts = new Map<string, number>();
/** Per tokenizer, counts by text (short texts: a preview's headers, notes and short turns). */
const shortCounts = new Map<string, Map<string, number>>();

function shortCountsOf(tokenizerId: string): Map<string, number> {
  let counts = shortCounts.get(tokenizerId);
  if (!counts) shortCounts.set(tokenizerId, (counts = new Map()));
  return counts;
}

function keyOf(tokenizerId: string, text: string): string {
  return `${tokenizerId}\u0000${hash("sha1", text, "base64")}`;
}

/** A remembered count of `text` by `tokenizerId`, if there is one. */
export function knownCount(tokenizerId: string, text: string): number | undefined {
  return text.length < MIN_HASHED_LENGTH ? shortCounts.get(tokenizerId)?.get(text) : hashedCounts.get(keyOf(tokenizerId, text));
}

/** Remembers counts (measured here or on the counting worker); the oldest go first past the bounds. */
export function rememberCounts(tokenizerId: string, texts: readonly string[], tokens: readonly number[]): void {
  texts.forEach((text, i) => {
    if (text.length < MIN_HASHED_LENGTH) {
      const counts = shortCountsOf(tokenizerId);
      if (counts.size >= MAX_SHORT_ENTRIES) counts.delete(counts.keys().next().value!);
      counts.set(text, tokens[i]!);
    } else {
      if (hashedCounts.size >= MAX_HASHED_ENTRIES) hashedCounts.delete(hashedCounts.keys().next().value!);
      hashedCounts.set(keyOf(tokenizerId, text), tokens[i]!);
    }
  });
}
