import { createRequire } from "node:module";

/**
 * The real tokenizers, each loaded on its first use. `TokenCounter.count` is synchronous, so the
 * packages are loaded with `require` (their CommonJS builds) rather than `await import()`; a
 * static import would parse every vocabulary (several MB each, 100-500 ms) when this module
 * loads, whether or not it is used.
 *
 * Special-token strings such as "<|endoftext|>" in the text are counted as ordinary text: the
 * packages throw on them by default, and a transcript that quotes one is still just text.
 */

const load = createRequire(import.meta.url);

export type CountFn = (text: string) => number;

type GptEncodingModule = typeof import("gpt-tokenizer/encoding/o200k_base");
type AiTokenizerModule = typeof import("ai-tokenizer");
type AiEncoding = ConstructorParameters<AiTokenizerModule["Tokenizer"]>[0];
type Llama3Tokenizer = (typeof import("llama3-tokenizer-js"))["default"];

const cache = new Map<string, CountFn>();

function memo(key: string, create: () => CountFn): CountFn {
  let fn = cache.get(key);
  if (!fn) {
    fn = create();
    cache.set(key, fn);
  }
  return fn;
}

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

function gptTokenizer(encoding: GptEncodingModule): CountFn {
  return (text) => (text === "" ? 0 : encoding.countTokens(text, PLAIN_TEXT));
}

/** OpenAI o200k_base (GPT-4o, GPT-4.1, GPT-5, o-series), exact, via gpt-tokenizer. */
export function o200kBase(): CountFn {
  return memo("o200k_base", () => gptTokenizer(load("gpt-tokenizer/encoding/o200k_base") as GptEncodingModule));
}

/** OpenAI cl100k_base (GPT-4, GPT-3.5), exact, via gpt-tokenizer. */
export function cl100kBase(): CountFn {
  return memo("cl100k_base", () => gptTokenizer(load("gpt-tokenizer/encoding/cl100k_base") as GptEncodingModule));
}

/** Anthropic's legacy (Claude 2) vocabulary, exact for that vocabulary, via ai-tokenizer. */
export function claudeLegacy(): CountFn {
  return memo("claude-legacy", () => {
    const { Tokenizer } = load("ai-tokenizer") as AiTokenizerModule;
    const tokenizer = new Tokenizer(load("ai-tokenizer/encoding/claude") as AiEncoding);
    // Empty allowed and disallowed lists: special-token strings are encoded as plain text.
    return (text) => (text === "" ? 0 : tokenizer.encode(text, [], []).length);
  });
}

/** Meta Llama 3 / 3.1 / 3.2 / 3.3 (one vocabulary), exact, via llama3-tokenizer-js. */
export function llama3(): CountFn {
  return memo("llama3", () => {
    const { llama3Tokenizer } = load("llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs") as {
      llama3Tokenizer: Llama3Tokenizer;
    };
    const options = { bos: false, eos: false };
    return (text) => (text === "" ? 0 : llama3Tokenizer.encode(text, options).length);
  });
}
