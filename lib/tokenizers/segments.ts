import type { TokenizerId } from "@/lib/domain/tokens/tokenizer";

/**
 * Counting a long text in sections whose counts are remembered, so that a text that changed in
 * one place (a conversation history after an append: a new turn, a new turn number in the header
 * and the closing note) is counted again only there.
 *
 * A text is cut before every line that starts with "--- " or "=== " (the lines PAL's history
 * writes before each turn, each embedded file and each section). For the tokenizers below the
 * sum of the sections' counts is exactly the whole text's count: they split text into
 * pre-tokens with a regular expression and merge bytes only inside a pre-token, and no pattern of
 * theirs continues a pre-token from a line break into "-" or "=" (o200k's punctuation pattern
 * takes trailing "\n" and "/", cl100k's and Llama 3's trailing "\n"; the whitespace patterns end
 * at the last line break before a non-space), while the pre-token before the cut, which ends in
 * that line break, is the same whether or not the text goes on (cl100k's `\s+$` takes at the end
 * exactly the run its `\s*[\r\n]` takes in the middle). segments.test.ts checks it on real
 * transcripts and on texts built to break it. The one difference: a run of one kind of character
 * longer than MAX_RUN_BYTES across a cut is cut into pieces at other places (both counts are then
 * estimates; see linear-count.mjs).
 */
const SECTION_LINE = /\n(?=--- |=== )/g;

/** Counters whose counts add up over countingSegments (see above): the exact tokenizers, unscaled. */
const ADDITIVE_AT_SECTION_LINES: ReadonlySet<TokenizerId> = new Set(["o200k_base", "cl100k_base", "llama3"]);

export function addsUpOverSegments(tokenizerId: TokenizerId): boolean {
  return ADDITIVE_AT_SECTION_LINES.has(tokenizerId);
}

/** `text` cut before each section line (see above); the pieces joined are the text. Linear. */
export function countingSegments(text: string): string[] {
  const segments: string[] = [];
  let from = 0;
  SECTION_LINE.lastIndex = 0;
  for (let match = SECTION_LINE.exec(text); match; match = SECTION_LINE.exec(text)) {
    const cut = match.index + 1; // after the line break
    segments.push(text.slice(from, cut));
    from = cut;
  }
  segments.push(text.slice(from));
  return segments;
}
