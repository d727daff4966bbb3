import { engine, engineLoaded, type Counted, type EngineId } from "./linear-count.mjs";

/**
 * The real tokenizers, each loaded on its first use. The packages, and the cutting of runs too
 * long to tokenize whole, live in ./linear-count.mjs, which the counting worker
 * (./count-worker.mjs) runs too: both count the same way. `measure` is synchronous, so the
 * packages are loaded with `require` (their CommonJS builds) when first used; a static import
 * would parse every vocabulary (several MB each, 100-500 ms) when this module loads.
 *
 * Special-token strings such as "<|endoftext|>" in the text are counted as ordinary text: the
 * packages throw on them by default, and a transcript that quotes one is still just text.
 */

export type { EngineId };
export { engine, engineLoaded };

/** Text to its token count, in time linear in the text. */
export type MeasureFn = (text: string) => Counted;

/** OpenAI o200k_base (GPT-4o, GPT-4.1, GPT-5, o-series), exact, via gpt-tokenizer. */
export const o200kBase = (): MeasureFn => engine("o200k_base");
