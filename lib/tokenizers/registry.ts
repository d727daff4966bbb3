import "server-only";
import {
  palBudgetEstimate,
  palReportedEstimate,
  type TokenCount,
  type TokenCounter,
  type TokenizerId,
} from "@/lib/domain/tokens/tokenizer";
import { CALIBRATIONS, type Calibration } from "./calibration";
import { engine, type EngineId, type MeasureFn } from "./engines";
import { quoteInput } from "@/lib/domain/secrets/quote";

/**
 * The token counter registry. Real tokenizers where a package ships one that runs offline and
 * fast enough (OpenAI's o200k_base and cl100k_base, Llama 3); calibrated estimates for the rest
 * (see ./calibration.ts); and PAL's two character estimates. Each counter says whether it is
 * exact. Nothing is loaded until a counter counts for the first time. Every count takes time
 * linear in the text (see ./linear-count.mjs); ./background-counter.ts counts on a worker.
 */

export const DEFAULT_TOKENIZER_ID: TokenizerId = "o200k_base";

/**
 * A counter's definition: a real tokenizer (`engine`) times `factor`, rounded (1 for the exact
 * ones); or, for PAL's character estimates, a function of the text (`direct`).
 */
type Definition = Omit<TokenCounter, "count" | "measure"> & ({ engine: EngineId; factor: number } | { direct: (text: string) => number });

/** How a counter counts, for ./background-counter.ts: its engine and factor, or null to count on the caller's thread. */
export type EngineRecipe = { engine: EngineId; factor: number };

function scaled(tokens: number, factor: number): number {
  return factor === 1 ? tokens : Math.round(tokens * factor);
}

function estimate(id: keyof typeof CALIBRATIONS, label: string, models: string): Definition {
  const calibration: Calibration = CALIBRATIONS[id];
  return {
    id,
    label,
    exact: false,
    description: `Estimate for ${models}: ${calibration.source}.`,
    engine: calibration.base,
    factor: calibration.factor,
  };
}

const DEFINITIONS: Definition[] = [
  {
    id: "o200k_base",
    label: "OpenAI o200k_base",
    exact: true,
    description: "OpenAI's tokenizer for GPT-4o, GPT-4.1, GPT-5 and the o-series (and gpt-oss), through gpt-tokenizer.",
    engine: "o200k_base",
    factor: 1,
  },
  {
    id: "cl100k_base",
    label: "OpenAI cl100k_base",
    exact: true,
    description: "OpenAI's tokenizer for GPT-4, GPT-4 Turbo and GPT-3.5 Turbo, through gpt-tokenizer.",
    engine: "cl100k_base",
    factor: 1,
  },
  {
    id: "llama3",
    label: "Llama 3",
    exact: true,
    description: "Meta's Llama 3 tokenizer (Llama 3, 3.1, 3.2 and 3.3 share it), through llama3-tokenizer-js.",
    engine: "llama3",
    factor: 1,
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
    description: "PAL's budget estimate: Python len(text) // 3, counting Unicode code points (an emoji is one character, not two).",
    direct: palBudgetEstimate,
  },
  {
    id: "chars/4",
    label: "Characters / 4 (PAL total)",
    exact: false,
    description: "PAL's reported total: Python len(text) // 4, counting Unicode code points (an emoji is one character, not two).",
    direct: palReportedEstimate,
  },
];

function toCounter(definition: Definition): TokenCounter {
  if ("direct" in definition) {
    const { direct, ...meta } = definition;
    return { ...meta, count: direct, measure: (text) => ({ tokens: direct(text), estimated: false }) };
  }
  const { engine: engineId, factor, ...meta } = definition;
  let base: MeasureFn | null = null;
  const measure = (text: string): TokenCount => {
    const counted = (base ??= engine(engineId))(text);
    return { tokens: scaled(counted.tokens, factor), estimated: counted.estimated };
  };
  return { ...meta, count: (text) => measure(text).tokens, measure };
}

const COUNTERS: ReadonlyMap<TokenizerId, TokenCounter> = new Map(DEFINITIONS.map((d) => [d.id, toCounter(d)]));
const RECIPES: ReadonlyMap<TokenizerId, EngineRecipe> = new Map(
  DEFINITIONS.flatMap((d) => ("engine" in d ? [[d.id, { engine: d.engine, factor: d.factor }] as const] : [])),
);

/** The engine and factor behind counter `id`; null for PAL's estimates (cheap, counted in place). */
export function engineRecipe(id: TokenizerId): EngineRecipe | null {
  getTokenizer(id);
  return RECIPES.get(id) ?? null;
}

/** A count from `engineRecipe(id)`'s engine, scaled as counter `id` scales it. */
export function scaleEngineCount(recipe: EngineRecipe, counted: TokenCount): TokenCount {
  return { tokens: scaled(counted.tokens, recipe.factor), estimated: counted.estimated };
}

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
    throw new Error(`Unknown tokenizer ${quoteInput(id)}. Known tokenizers: ${[...COUNTERS.keys()].join(", ")}.`);
  }
  return counter;
}
