/**
 * Token counting, the pure part: the counter type every tokenizer in `lib/tokenizers` implements,
 * and the code point arithmetic behind PAL's character estimates. No package imports here, so the
 * browser can use these too.
 */

/** A tokenizer's stable id, e.g. "o200k_base", "claude", "chars/4". */
export type TokenizerId = string;

/**
 * A text's token count. `estimated` is true when the text held a run of one kind of character too
 * long to tokenize whole (lib/tokenizers/linear-count.mjs): it was counted in pieces, so the count
 * may be off by a token or so per piece.
 */
export type TokenCount = { tokens: number; estimated: boolean };

export type TokenCounter = {
  id: TokenizerId;
  /** Short name for the UI, e.g. "OpenAI o200k_base". */
  label: string;
  /** True when `count` runs the model's real tokenizer; false for calibrated estimates. */
  exact: boolean;
  /** What the count is and, for estimates, where the calibration comes from. */
  description: string;
  /** Tokens in `text` as plain text (no chat template, no special tokens), in linear time. */
  count(text: string): number;
  /** `count`, and whether it is estimated (see TokenCount). */
  measure(text: string): TokenCount;
};

/**
 * Python's `len(str)`: the number of Unicode code points. JavaScript's `length` counts UTF-16
 * code units, where an emoji outside the Basic Multilingual Plane is two units (a surrogate pair)
 * but one code point. Computed as the UTF-16 length minus every low surrogate that directly
 * follows a high surrogate; a lone surrogate counts as one, as it does in Python.
 */
export function codePointLength(text: string): number {
  let pairs = 0;
  const last = text.length - 1;
  for (let i = 0; i < last; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

/** PAL's budget estimate: `len(text) // 3` in Python, code points divided by 3, rounded down. */
export function palBudgetEstimate(text: string): number {
  return Math.floor(codePointLength(text) / 3);
}

/** PAL's reported total: `len(text) // 4` in Python, code points divided by 4, rounded down. */
export function palReportedEstimate(text: string): number {
  return Math.floor(codePointLength(text) / 4);
}
