import "server-only";
import { palBudgetEstimate, palReportedEstimate, type TokenCounter, type TokenizerId } from "@/lib/domain/tokenizer";
import { CALIBRATIONS, type Calibration, type EstimateBase } from "./calibration";
import { cl100kBase, claudeLegacy, llama3, o200kBase, type CountFn } from "./engines";

/**
 * The token counter registry. Real tokenizers where a package ships one that runs offline and
 * fast enough (OpenAI's o200k_base and cl100k_base, Llama 3); calibrated estimates for the rest
 * (see ./calibration.ts); and PAL's two character estimates. Each counter says whether it is
 * exact. Nothing is loaded until a counter counts for the first time.
 */

export const DEFAULT_TOKENIZER_ID: TokenizerId = "o200k_base";

type Definition = Omit<TokenCounter, "count"> & { load: () => CountFn };

const BASES: Record<EstimateBase, () => CountFn> = {
  o200k_base: o200kBase,
  cl100k_base: cl100kBase,
  "claude-legacy": claudeLegacy,
};

function calibrated(calibration: Calibration): () => CountFn {
  return () => {
    const base = BASES[calibration.base]();
    return (text) => Math.round(base(text) * calibration.factor);
  };
}

function estimate(id: keyof typeof CALIBRATIONS, label: string, models: string): Definition {
  const calibration = CALIBRATIONS[id];
  return {
    id,
    label,
    exact: false,
    description: `Estimate for ${models}: ${calibration.source}.`,
    load: calibrated(calibration),
  };
}

const DEFINITIONS: Definition[] = [
  {
    id: "o200k_base",
    label: "OpenAI o200k_base",
    exact: true,
    description: "OpenAI's tokenizer for GPT-4o, GPT-4.1, GPT-5 and the o-series (and gpt-oss), through gpt-tokenizer.",
    load: o200kBase,
  },
  {
    id: "cl100k_base",
    label: "OpenAI cl100k_base",
    exact: true,
    description: "OpenAI's tokenizer for GPT-4, GPT-4 Turbo and GPT-3.5 Turbo, through gpt-tokenizer.",
    load: cl100kBase,
  },
  {
    id: "llama3",
    label: "Llama 3",
    exact: true,
    description: "Meta's Llama 3 tokenizer (Llama 3, 3.1, 3.2 and 3.3 share it), through llama3-tokenizer-js.",
    load: llama3,
  },
  estimate("claude", "Claude (estimate)", "Claude 3 to Claude Opus 4.6, Sonnet 4.6 and Haiku 4.5"),
  estimate("claude-4.7", "Claude 4.7+ (estimate)", "Claude Opus 4.7 and later, Claude 5"),
  estimate("gemini", "Gemini (estimate)", "Gemini 2 and 3"),
  estimate("qwen", "Qwen (estimate)", "Qwen2.5 and Qwen3"),
  estimate("deepseek", "DeepSeek (estimate)", "DeepSeek V3 and R1"),
  estimate("mistral", "Mistral (estimate)", "Mistral's current models (Tekken tokenizer)"),
  estimate("grok", "Grok (estimate)", "xAI Grok 3 and 4"),
  {
    id: "chars/3",
    label: "Characters / 3 (PAL budget)",
    exact: false,
    description:
      "PAL's budget estimate: Python len(text) // 3, counting Unicode code points (an emoji is one character, not two).",
    load: () => palBudgetEstimate,
  },
  {
    id: "chars/4",
    label: "Characters / 4 (PAL total)",
    exact: false,
    description:
      "PAL's reported total: Python len(text) // 4, counting Unicode code points (an emoji is one character, not two).",
    load: () => palReportedEstimate,
  },
];

function toCounter(definition: Definition): TokenCounter {
  const { load, ...meta } = definition;
  let count: CountFn | null = null;
  return {
    ...meta,
    count(text: string): number {
      count ??= load();
      return count(text);
    },
  };
}

const COUNTERS: ReadonlyMap<TokenizerId, TokenCounter> = new Map(DEFINITIONS.map((d) => [d.id, toCounter(d)]));

/** Every counter, in a fixed order: exact tokenizers, estimates, PAL's character estimates. */
export function listTokenizers(): TokenCounter[] {
  return [...COUNTERS.values()];
}

export function hasTokenizer(id: TokenizerId): boolean {
  return COUNTERS.has(id);
}

/** The counter for `id`; throws an Error naming the known ids when there is none. */
export function getTokenizer(id: TokenizerId): TokenCounter {
  const counter = COUNTERS.get(id);
  if (!counter) {
    throw new Error(`Unknown tokenizer "${id}". Known tokenizers: ${[...COUNTERS.keys()].join(", ")}.`);
  }
  return counter;
}
