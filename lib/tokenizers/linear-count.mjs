// Token counting in linear time, shared by lib/tokenizers/engines.ts (this thread) and
// lib/tokenizers/count-worker.mjs (the worker), so the two can never count differently. Plain
// JavaScript: the worker loads it from disk at run time and the app's bundler may bundle it too.
//
// Every tokenizer here splits text into pre-tokens with a regular expression and runs byte-pair
// merges inside each one. The merge is quadratic in the pre-token's length (gpt-tokenizer's
// splices an array per merge), and a run of one kind of character (100,000 "A", CJK without
// punctuation, emoji, spaces) is a single pre-token: 400,000 "A" took 73 s in o200k. Runs longer
// than MAX_RUN_BYTES of UTF-8 are cut into pieces of at most PIECE_BYTES before counting, and the
// pieces' counts are summed; a count that needed a cut says so (`estimated`). Text without such a
// run is counted in one call, exactly as the package counts it.
import { createRequire } from "node:module";

/**
 * The longest run counted whole, in UTF-8 bytes (merges work on bytes): 256 bytes is 256 letters,
 * 85 CJK characters or 64 emoji. Ordinary text has next to no run this long (3 of 10,854 texts
 * in the real transcripts of fixtures/real, all box-drawing table borders), and a pre-token
 * this long costs at most a few microseconds a byte.
 * @internal exported for its tests
 */
export const MAX_RUN_BYTES = 256;

/**
 * Longer runs are cut into pieces of at most this many bytes. Smaller than MAX_RUN_BYTES because
 * the merge is quadratic: a million random CJK characters took 0.5 s in o200k in 128-byte pieces,
 * 1.8 s in 256-byte ones. Each cut may move the count by a few tokens (at most 3 measured): 0.15%
 * on the real transcripts' cut texts; on long runs 0 to 0.8% for letters, CJK, emoji and digits
 * (Claude's vocabulary: 16% on digits), more where one token covers dozens of characters (o200k
 * on box drawing: +52%; Claude's vocabulary on spaces: 157 tokens for 20,000 instead of 21).
 * @internal exported for its tests
 */
export const PIECE_BYTES = 128;

/**
 * A run is a stretch of one kind of character, the kinds the pre-tokenizers keep together:
 * letters (with their combining marks), digits (likewise) and everything else (whitespace,
 * punctuation, symbols and emoji, which o200k's `[^\s\p{L}\p{N}]+[\r\n/]*` and
 * `\s*[\r\n]+` may join into one pre-token). A pre-token never spans more than one run plus a
 * character, so cutting the runs bounds every pre-token. Sticky, and matched with `test` so no
 * match arrays are made: lastIndex is the run's end.
 */
const RUN = /\p{L}[\p{L}\p{M}]*|\p{N}[\p{N}\p{M}]*|[^\p{L}\p{N}]+/uy;

/** UTF-8 bytes of the code point starting at `i` (a lone surrogate as 3, as TextEncoder writes U+FFFD). */
function utf8Bytes(text, i) {
  const unit = text.charCodeAt(i);
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 4;
  }
  return 3;
}

/** UTF-8 bytes of text[start, end). */
function runBytes(text, start, end) {
  let bytes = 0;
  for (let i = start; i < end; i += unitsAt(text, i)) bytes += utf8Bytes(text, i);
  return bytes;
}

/** UTF-16 units of the code point starting at `i`: 2 for a surrogate pair, else 1. */
function unitsAt(text, i) {
  return utf8Bytes(text, i) === 4 ? 2 : 1;
}

/**
 * The cuts inside each run longer than MAX_RUN_BYTES, run by run: every run's pieces are at most
 * PIECE_BYTES. Cuts fall between code points, never inside a surrogate pair. Linear: one
 * regular-expression pass over the runs, and one walk over each long run.
 * @internal exported for its tests
 */
export function runCuts(text, { maxRunBytes = MAX_RUN_BYTES, pieceBytes = PIECE_BYTES } = {}) {
  const runs = [];
  // A UTF-16 unit is at most 3 bytes of UTF-8: a text this short holds no long run.
  if (text.length * 3 <= maxRunBytes) return runs;
  let start = 0;
  while (start < text.length) {
    RUN.lastIndex = start;
    RUN.test(text);
    const end = RUN.lastIndex > start ? RUN.lastIndex : start + 1;
    if ((end - start) * 3 > maxRunBytes && runBytes(text, start, end) > maxRunBytes) {
      const cuts = [];
      let bytes = 0;
      for (let i = start; i < end; i += unitsAt(text, i)) {
        const size = utf8Bytes(text, i);
        if (bytes + size > pieceBytes) {
          cuts.push(i);
          bytes = 0;
        }
        bytes += size;
      }
      runs.push(cuts);
    }
    start = end;
  }
  return runs;
}

/** Distinct pieces of one text whose counts are remembered: a run of one character repeats its piece. */
const PIECE_MEMO_ENTRIES = 256;

/**
 * Inner pieces of long runs counted per text, at most (plus one per run): past that, evenly
 * spaced pieces are counted and each run's inner pieces are estimated from them by length. A
 * piece of random CJK costs about 0.1 ms in o200k, so 10 MB of it (80,000 pieces) took 8 s
 * counted whole; a run of one kind of character tokenizes alike throughout, so a sample of 2,048
 * pieces (256 KB) estimates it to well under 1%.
 * @internal exported for its tests
 */
export const COUNTED_PIECES = 2_048;

/**
 * `count` applied in linear time: the text whole when it has no long run (exact), else the sum
 * over the pieces between the cuts, inner pieces of very long runs sampled (`estimated`: a few
 * tokens per cut may differ, see PIECE_BYTES).
 * @internal exported for its tests
 */
export function countLinear(text, count, limits) {
  const runs = runCuts(text, limits);
  if (runs.length === 0) return { tokens: count(text), estimated: false };
  const memo = new Map();
  const countPiece = (piece) => {
    let tokens = memo.get(piece);
    if (tokens === undefined) {
      tokens = count(piece);
      if (memo.size < PIECE_MEMO_ENTRIES) memo.set(piece, tokens);
    }
    return tokens;
  };
  let inner = 0;
  for (const cuts of runs) inner += cuts.length - 1;
  // Every `step`-th inner piece is counted; 1 counts them all.
  const step = Math.max(1, inner / COUNTED_PIECES);
  let tokens = 0;
  let from = 0;
  for (const cuts of runs) {
    // Ordinary text up to the run, with the run's first piece.
    tokens += countPiece(text.slice(from, cuts[0]));
    let sampledTokens = 0;
    let sampledLength = 0;
    for (let next = 0; next < cuts.length - 1; next += step) {
      const piece = Math.floor(next);
      const start = cuts[piece];
      const end = cuts[piece + 1];
      sampledTokens += countPiece(text.slice(start, end));
      sampledLength += end - start;
    }
    const innerLength = cuts[cuts.length - 1] - cuts[0];
    tokens += sampledLength === innerLength ? sampledTokens : Math.round((sampledTokens * innerLength) / sampledLength);
    from = cuts[cuts.length - 1];
  }
  // The last run's last piece, with the ordinary text after it.
  tokens += countPiece(text.slice(from));
  return { tokens, estimated: true };
}

// Named require so that knip sees the packages it loads.
const require = createRequire(import.meta.url);

// Special-token strings such as "<|endoftext|>" in the text are counted as ordinary text: the
// packages throw on them by default, and a transcript that quotes one is still just text.
const PLAIN_TEXT = { disallowedSpecial: new Set() };

/** Each engine's package, loaded on first use (a vocabulary is several MB and 100-500 ms to parse). */
const LOADERS = {
  o200k_base: () => {
    const encoding = require("gpt-tokenizer/encoding/o200k_base");
    return (text) => encoding.countTokens(text, PLAIN_TEXT);
  },
  cl100k_base: () => {
    const encoding = require("gpt-tokenizer/encoding/cl100k_base");
    return (text) => encoding.countTokens(text, PLAIN_TEXT);
  },
  "claude-legacy": () => {
    const { Tokenizer } = require("ai-tokenizer");
    const tokenizer = new Tokenizer(require("ai-tokenizer/encoding/claude"));
    // Empty allowed and disallowed lists: special-token strings are encoded as plain text.
    return (text) => tokenizer.encode(text, [], []).length;
  },
  llama3: () => {
    const { llama3Tokenizer } = require("llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs");
    const options = { bos: false, eos: false };
    return (text) => llama3Tokenizer.encode(text, options).length;
  },
};

/** The engines this module counts with: the real tokenizers every registry counter is built on. */
export const ENGINE_IDS = Object.freeze(Object.keys(LOADERS));

const engines = new Map();

/** Whether engine `id`'s vocabulary is loaded on this thread already (`engine(id)` then costs nothing). */
export function engineLoaded(id) {
  return engines.has(id);
}

/**
 * The linear counter of engine `id` (one of ENGINE_IDS): text to `{ tokens, estimated }`.
 * Loaded on first use.
 */
export function engine(id) {
  let counter = engines.get(id);
  if (!counter) {
    const loader = LOADERS[id];
    if (!loader) throw new Error(`Unknown tokenizer engine "${id}". Known engines: ${ENGINE_IDS.join(", ")}.`);
    const count = loader();
    counter = (text) => (text === "" ? { tokens: 0, estimated: false } : countLinear(text, count));
    engines.set(id, counter);
  }
  return counter;
}
