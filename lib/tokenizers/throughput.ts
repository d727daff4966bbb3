import "server-only";
import { performance } from "node:perf_hooks";
import type { TokenizerId } from "@/lib/domain/tokens/tokenizer";
import { getTokenizer } from "./registry";

export type TokenizerThroughput = {
  /** Megabytes (10^6 bytes of UTF-8) of `text` counted per second. */
  mbPerSecond: number;
  /** Tokens in `text`. */
  tokens: number;
};

/**
 * Counts `text` once with tokenizer `id` and reports how fast that was. The tokenizer is loaded
 * and warmed up on a different, short string first, so loading is not timed. Counting the same
 * text twice would flatter tokenizers that cache merges (gpt-tokenizer does), so it is timed
 * once: pass a large, realistic text (a megabyte or so) for a stable figure.
 */
export function measureTokenizerThroughput(id: TokenizerId, text: string): TokenizerThroughput {
  const counter = getTokenizer(id);
  counter.count("Warm-up: load the vocabulary before timing.");
  const start = performance.now();
  const tokens = counter.count(text);
  const seconds = Math.max((performance.now() - start) / 1000, 1e-9);
  const megabytes = Buffer.byteLength(text, "utf8") / 1e6;
  return { mbPerSecond: megabytes / seconds, tokens };
}
