import "server-only";
import { createHash } from "node:crypto";

/** Texts shorter than this are counted each time: hashing would cost about as much. */
const MIN_MEMO_LENGTH = 512;
const MAX_ENTRIES = 20_000;

const counts = new Map<string, number>();

/**
 * `count`, remembering the result for long texts (file blocks, which previews count again and
 * again) by tokenizer and content hash. Oldest entries go first past MAX_ENTRIES.
 */
export function rememberingLongTexts(tokenizerId: string, count: (text: string) => number): (text: string) => number {
  return (text) => {
    if (text.length < MIN_MEMO_LENGTH) return count(text);
    const key = keyOf(tokenizerId, text);
    const known = counts.get(key);
    if (known !== undefined) return known;
    const tokens = count(text);
    remember(key, tokens);
    return tokens;
  };
}

/**
 * Remembers counts measured elsewhere (on the counting worker, before a preview plans), so that
 * rememberingLongTexts answers them without counting on the request's thread.
 */
export function rememberCounts(tokenizerId: string, texts: readonly string[], tokens: readonly number[]): void {
  texts.forEach((text, i) => {
    if (text.length >= MIN_MEMO_LENGTH) remember(keyOf(tokenizerId, text), tokens[i]!);
  });
}

/** A remembered count of a long text, if there is one. */
export function knownCount(tokenizerId: string, text: string): number | undefined {
  return text.length < MIN_MEMO_LENGTH ? undefined : counts.get(keyOf(tokenizerId, text));
}

function keyOf(tokenizerId: string, text: string): string {
  return `${tokenizerId}\u0000${createHash("sha1").update(text).digest("base64")}`;
}

function remember(key: string, tokens: number): void {
  if (counts.size >= MAX_ENTRIES) counts.delete(counts.keys().next().value!);
  counts.set(key, tokens);
}
