import type { TokenizerId } from "@/lib/domain/tokens/tokenizer";

/**
 * The models Threadline knows, one line each. Reviewed 2026-11-22 (CATALOG_REVIEWED).
 *
 * Where the numbers come from, in order of precedence:
 *  1. A value written on the line below (contextWindow, maxOutputTokens, prices): our override,
 *     with its source in the comment. An entry with an overridden context window or price is
 *     reported with `source: "override"`.
 *  2. OpenAI models (`openai: "<model>"`): context window and maximum output from gpt-tokenizer's
 *     model specs (`gpt-tokenizer/models`, taken from OpenAI's model pages).
 *  3. `prices: ["<provider>", "<model>"]`: context window and list prices from
 *     @pydantic/genai-prices' bundled data (maintained by Pydantic; never fetched at run time:
 *     we do not call its updatePrices). Prices are the ones in force on PRICE_DATE, base tier
 *     (prompts under any long-context threshold), without batch or off-peak discounts.
 *
 * Neither package has a maximum output for non-OpenAI models, so `maxOutputTokens` is written
 * here for those, from the providers' model pages:
 *  - Anthropic: platform.claude.com/docs/en/models/<model>/overview (Opus 4/4.1: 32K; Opus 4.5,
 *    Sonnet 4/4.5, Haiku 4.5, Sonnet 3.7: 64K; Opus 4.6+, Sonnet 4.6+, Fable 5: 128K; 3.5: 8K).
 *  - Google: ai.google.dev/gemini-api/docs/models (2.5 and 3 previews: 65,536; 2.0 Flash: 8,192;
 *    input limit 1,048,576, which genai-prices rounds to 1,000,000 or leaves out).
 *  - xAI, Mistral and Ollama publish no output cap separate from the context window (output
 *    shares it), so maxOutputTokens is the context window there.
 *
 * To add a model: add a line; `npm run test:unit -- lib/models` checks that every line resolves
 * to a context window, a maximum output and a registered tokenizer.
 */

export const CATALOG_REVIEWED = "2026-11-22";
/** Prices are read as of this day (genai-prices keeps dated price changes). */
export const PRICE_DATE = new Date("2026-11-22T12:00:00Z");

type ProviderId = "openai" | "anthropic" | "google" | "xai" | "deepseek" | "mistral" | "ollama";

export type CatalogEntry = {
  id: string;
  provider: ProviderId;
  displayName: string;
  tokenizer: TokenizerId;
  /** Other names that resolve to this entry (case-insensitive). */
  aliases?: string[];
  /** gpt-tokenizer model spec for context window and maximum output (OpenAI only). */
  openai?: string;
  /** genai-prices provider id and model id for context window and prices. */
  prices?: [provider: string, model: string];
  contextWindow?: number;
  maxOutputTokens?: number;
  inputPricePerMTok?: number | null;
  outputPricePerMTok?: number | null;
};

const GEMINI_INPUT_LIMIT = 1_048_576; // ai.google.dev model pages: "Input token limit 1,048,576"

export const CATALOG: CatalogEntry[] = [
  // OpenAI. Tokenizer: o200k_base for GPT-4o and later (gpt-oss uses o200k_harmony, the same
  // vocabulary plus chat special tokens); cl100k_base for GPT-4 and GPT-3.5.
  { id: "gpt-5.5", provider: "openai", displayName: "GPT-5.5", tokenizer: "o200k_base", openai: "gpt-5.5", prices: ["openai", "gpt-5.5"] },
  { id: "gpt-5.4", provider: "openai", displayName: "GPT-5.4", tokenizer: "o200k_base", openai: "gpt-5.4", prices: ["openai", "gpt-5.4"] },
  {
    id: "gpt-5.4-mini",
    provider: "openai",
    displayName: "GPT-5.4 mini",
    tokenizer: "o200k_base",
    openai: "gpt-5.4-mini",
    prices: ["openai", "gpt-5.4-mini"],
  },
  {
    id: "gpt-5.4-nano",
    provider: "openai",
    displayName: "GPT-5.4 nano",
    tokenizer: "o200k_base",
    openai: "gpt-5.4-nano",
    prices: ["openai", "gpt-5.4-nano"],
  },
  { id: "gpt-5.2", provider: "openai", displayName: "GPT-5.2", tokenizer: "o200k_base", openai: "gpt-5.2", prices: ["openai", "gpt-5.2"] },
  { id: "gpt-5.1", provider: "openai", displayName: "GPT-5.1", tokenizer: "o200k_base", openai: "gpt-5.1", prices: ["openai", "gpt-5.1"] },
  { id: "gpt-5", provider: "openai", displayName: "GPT-5", tokenizer: "o200k_base", openai: "gpt-5", prices: ["openai", "gpt-5"] },
  {
    id: "gpt-5-pro",
    provider: "openai",
    displayName: "GPT-5 pro",
    tokenizer: "o200k_base",
    openai: "gpt-5-pro",
    prices: ["openai", "gpt-5-pro"],
  },
  {
    id: "gpt-5-mini",
    provider: "openai",
    displayName: "GPT-5 mini",
    tokenizer: "o200k_base",
    openai: "gpt-5-mini",
    prices: ["openai", "gpt-5-mini"],
  },
  {
    id: "gpt-5-nano",
    provider: "openai",
    displayName: "GPT-5 nano",
    tokenizer: "o200k_base",
    openai: "gpt-5-nano",
    prices: ["openai", "gpt-5-nano"],
  },
  { id: "gpt-4.1", provider: "openai", displayName: "GPT-4.1", tokenizer: "o200k_base", openai: "gpt-4.1", prices: ["openai", "gpt-4.1"] },
  {
    id: "gpt-4.1-mini",
    provider: "openai",
    displayName: "GPT-4.1 mini",
    tokenizer: "o200k_base",
    openai: "gpt-4.1-mini",
    prices: ["openai", "gpt-4.1-mini"],
  },
  {
    id: "gpt-4.1-nano",
    provider: "openai",
    displayName: "GPT-4.1 nano",
    tokenizer: "o200k_base",
    openai: "gpt-4.1-nano",
    prices: ["openai", "gpt-4.1-nano"],
  },
  { id: "gpt-4o", provider: "openai", displayName: "GPT-4o", tokenizer: "o200k_base", openai: "gpt-4o", prices: ["openai", "gpt-4o"] },
  {
    id: "gpt-4o-mini",
    provider: "openai",
    displayName: "GPT-4o mini",
    tokenizer: "o200k_base",
    openai: "gpt-4o-mini",
    prices: ["openai", "gpt-4o-mini"],
  },
  { id: "o4-mini", provider: "openai", displayName: "o4-mini", tokenizer: "o200k_base", openai: "o4-mini", prices: ["openai", "o4-mini"] },
  { id: "o3", provider: "openai", displayName: "o3", tokenizer: "o200k_base", openai: "o3", prices: ["openai", "o3"] },
  { id: "o3-pro", provider: "openai", displayName: "o3-pro", tokenizer: "o200k_base", openai: "o3-pro", prices: ["openai", "o3-pro"] },
  { id: "o3-mini", provider: "openai", displayName: "o3-mini", tokenizer: "o200k_base", openai: "o3-mini", prices: ["openai", "o3-mini"] },
  { id: "o1", provider: "openai", displayName: "o1", tokenizer: "o200k_base", openai: "o1", prices: ["openai", "o1"] },
  {
    id: "gpt-oss-120b",
    provider: "openai",
    displayName: "gpt-oss-120b",
    tokenizer: "o200k_base",
    openai: "gpt-oss-120b",
    prices: ["openai", "gpt-oss-120b"],
  },
  {
    id: "gpt-oss-20b",
    provider: "openai",
    displayName: "gpt-oss-20b",
    tokenizer: "o200k_base",
    openai: "gpt-oss-20b",
    prices: ["openai", "gpt-oss-20b"],
  },
  {
    id: "gpt-4-turbo",
    provider: "openai",
    displayName: "GPT-4 Turbo",
    tokenizer: "cl100k_base",
    openai: "gpt-4-turbo",
    prices: ["openai", "gpt-4-turbo"],
  },
  { id: "gpt-4", provider: "openai", displayName: "GPT-4", tokenizer: "cl100k_base", openai: "gpt-4", prices: ["openai", "gpt-4"] },
  {
    id: "gpt-3.5-turbo",
    provider: "openai",
    displayName: "GPT-3.5 Turbo",
    tokenizer: "cl100k_base",
    openai: "gpt-3.5-turbo",
    prices: ["openai", "gpt-3.5-turbo"],
  },

  // Anthropic. Tokenizer: "claude" up to Opus 4.6 / Sonnet 4.6 / Haiku 4.5; "claude-4.7" from
  // Opus 4.7 on (Anthropic: "Opus 4.7 uses an updated tokenizer"; Claude 5 keeps it).
  {
    id: "claude-fable-5-1",
    provider: "anthropic",
    displayName: "Claude Fable 5.1",
    tokenizer: "claude-4.7",
    prices: ["anthropic", "claude-fable-5-1"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-fable-5",
    provider: "anthropic",
    displayName: "Claude Fable 5",
    tokenizer: "claude-4.7",
    prices: ["anthropic", "claude-fable-5"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-opus-5-5",
    provider: "anthropic",
    displayName: "Claude Opus 5.5",
    tokenizer: "claude-4.7",
    prices: ["anthropic", "claude-opus-5-5"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-opus-5",
    provider: "anthropic",
    displayName: "Claude Opus 5",
    tokenizer: "claude-4.7",
    prices: ["anthropic", "claude-opus-5"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-sonnet-5",
    provider: "anthropic",
    displayName: "Claude Sonnet 5",
    tokenizer: "claude-4.7",
    prices: ["anthropic", "claude-sonnet-5"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-opus-4-8",
    provider: "anthropic",
    displayName: "Claude Opus 4.8",
    tokenizer: "claude-4.7",
    prices: ["anthropic", "claude-opus-4-8"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-opus-4-7",
    provider: "anthropic",
    displayName: "Claude Opus 4.7",
    tokenizer: "claude-4.7",
    prices: ["anthropic", "claude-opus-4-7"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-opus-4-6",
    provider: "anthropic",
    displayName: "Claude Opus 4.6",
    tokenizer: "claude",
    prices: ["anthropic", "claude-opus-4-6"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-sonnet-4-6",
    provider: "anthropic",
    displayName: "Claude Sonnet 4.6",
    tokenizer: "claude",
    prices: ["anthropic", "claude-sonnet-4-6"],
    maxOutputTokens: 128_000,
  },
  {
    id: "claude-opus-4-5",
    provider: "anthropic",
    displayName: "Claude Opus 4.5",
    tokenizer: "claude",
    prices: ["anthropic", "claude-opus-4-5"],
    maxOutputTokens: 64_000,
  },
  {
    id: "claude-sonnet-4-5",
    provider: "anthropic",
    displayName: "Claude Sonnet 4.5",
    tokenizer: "claude",
    prices: ["anthropic", "claude-sonnet-4-5"],
    maxOutputTokens: 64_000,
  },
  {
    id: "claude-haiku-4-5",
    provider: "anthropic",
    displayName: "Claude Haiku 4.5",
    tokenizer: "claude",
    prices: ["anthropic", "claude-haiku-4-5"],
    maxOutputTokens: 64_000,
  },
  {
    id: "claude-opus-4-1",
    provider: "anthropic",
    displayName: "Claude Opus 4.1",
    tokenizer: "claude",
    prices: ["anthropic", "claude-opus-4-1"],
    maxOutputTokens: 32_000,
  },
  {
    id: "claude-opus-4",
    provider: "anthropic",
    displayName: "Claude Opus 4",
    tokenizer: "claude",
    aliases: ["claude-opus-4-0", "claude-4-opus"],
    prices: ["anthropic", "claude-opus-4-0"],
    maxOutputTokens: 32_000,
  },
  {
    id: "claude-sonnet-4",
    provider: "anthropic",
    displayName: "Claude Sonnet 4",
    tokenizer: "claude",
    aliases: ["claude-sonnet-4-0", "claude-4-sonnet"],
    prices: ["anthropic", "claude-sonnet-4-0"],
    maxOutputTokens: 64_000,
  },
  {
    id: "claude-3-7-sonnet",
    provider: "anthropic",
    displayName: "Claude Sonnet 3.7",
    tokenizer: "claude",
    prices: ["anthropic", "claude-3-7-sonnet-latest"],
    maxOutputTokens: 64_000,
  },
  {
    id: "claude-3-5-sonnet",
    provider: "anthropic",
    displayName: "Claude Sonnet 3.5",
    tokenizer: "claude",
    prices: ["anthropic", "claude-3-5-sonnet"],
    maxOutputTokens: 8_192,
  },
  {
    id: "claude-3-5-haiku",
    provider: "anthropic",
    displayName: "Claude Haiku 3.5",
    tokenizer: "claude",
    prices: ["anthropic", "claude-3-5-haiku-latest"],
    maxOutputTokens: 8_192,
  },

  // Google. Tokenizer: the Gemini estimate.
  {
    id: "gemini-3-pro-preview",
    provider: "google",
    displayName: "Gemini 3 Pro Preview",
    tokenizer: "gemini",
    prices: ["google", "gemini-3-pro-preview"],
    contextWindow: GEMINI_INPUT_LIMIT,
    maxOutputTokens: 65_536,
  },
  {
    id: "gemini-3-flash-preview",
    provider: "google",
    displayName: "Gemini 3 Flash Preview",
    tokenizer: "gemini",
    prices: ["google", "gemini-3-flash-preview"],
    contextWindow: GEMINI_INPUT_LIMIT,
    maxOutputTokens: 65_536,
  },
  {
    id: "gemini-2.5-pro",
    provider: "google",
    displayName: "Gemini 2.5 Pro",
    tokenizer: "gemini",
    prices: ["google", "gemini-2.5-pro"],
    contextWindow: GEMINI_INPUT_LIMIT,
    maxOutputTokens: 65_536,
  },
  {
    id: "gemini-2.5-flash",
    provider: "google",
    displayName: "Gemini 2.5 Flash",
    tokenizer: "gemini",
    prices: ["google", "gemini-2.5-flash"],
    maxOutputTokens: 65_536,
  },
  {
    id: "gemini-2.5-flash-lite",
    provider: "google",
    displayName: "Gemini 2.5 Flash-Lite",
    tokenizer: "gemini",
    prices: ["google", "gemini-2.5-flash-lite"],
    contextWindow: GEMINI_INPUT_LIMIT,
    maxOutputTokens: 65_536,
  },
  {
    id: "gemini-2.0-flash",
    provider: "google",
    displayName: "Gemini 2.0 Flash",
    tokenizer: "gemini",
    prices: ["google", "gemini-2.0-flash"],
    contextWindow: GEMINI_INPUT_LIMIT,
    maxOutputTokens: 8_192,
  },

  // xAI. Tokenizer: the Grok estimate. No separate output cap is published.
  {
    id: "grok-4",
    provider: "xai",
    displayName: "Grok 4",
    tokenizer: "grok",
    aliases: ["grok-4-0709", "grok-4-latest"],
    prices: ["x-ai", "grok-4-0709"],
    maxOutputTokens: 256_000,
  },
  {
    id: "grok-4-1-fast",
    provider: "xai",
    displayName: "Grok 4.1 Fast",
    tokenizer: "grok",
    aliases: ["grok-4-1-fast-reasoning", "grok-4-1-fast-non-reasoning", "grok-4.1-fast"],
    prices: ["x-ai", "grok-4-1-fast-reasoning"],
    maxOutputTokens: 2_000_000,
  },
  {
    id: "grok-4-fast",
    provider: "xai",
    displayName: "Grok 4 Fast",
    tokenizer: "grok",
    aliases: ["grok-4-fast-reasoning", "grok-4-fast-non-reasoning"],
    prices: ["x-ai", "grok-4-fast-reasoning"],
    maxOutputTokens: 2_000_000,
  },
  {
    id: "grok-code-fast-1",
    provider: "xai",
    displayName: "Grok Code Fast 1",
    tokenizer: "grok",
    prices: ["x-ai", "grok-code-fast-1"],
    maxOutputTokens: 256_000,
  },
  { id: "grok-3", provider: "xai", displayName: "Grok 3", tokenizer: "grok", prices: ["x-ai", "grok-3"], maxOutputTokens: 131_072 },
  {
    id: "grok-3-mini",
    provider: "xai",
    displayName: "Grok 3 Mini",
    tokenizer: "grok",
    prices: ["x-ai", "grok-3-mini"],
    maxOutputTokens: 131_072,
  },

  // DeepSeek. genai-prices still has the V3 figures (64K context, $0.27/$1.10); DeepSeek's
  // api-docs.deepseek.com/quick_start/pricing for V3.2 (in force since late 2025) gives 128K
  // context, 8K maximum output (chat) or 64K (reasoner), $0.28 in (cache miss) / $0.42 out.
  {
    id: "deepseek-chat",
    provider: "deepseek",
    displayName: "DeepSeek Chat (V3.2)",
    tokenizer: "deepseek",
    prices: ["deepseek", "deepseek-chat"],
    contextWindow: 128_000,
    maxOutputTokens: 8_192,
    inputPricePerMTok: 0.28,
    outputPricePerMTok: 0.42,
  },
  {
    id: "deepseek-reasoner",
    provider: "deepseek",
    displayName: "DeepSeek Reasoner (V3.2)",
    tokenizer: "deepseek",
    prices: ["deepseek", "deepseek-reasoner"],
    contextWindow: 128_000,
    maxOutputTokens: 65_536,
    inputPricePerMTok: 0.28,
    outputPricePerMTok: 0.42,
  },

  // Mistral. Tokenizer: the Mistral estimate. "mistral-large-latest" and the like resolve here by
  // the prefix rule (see findModel).
  {
    id: "mistral-large",
    provider: "mistral",
    displayName: "Mistral Large 3",
    tokenizer: "mistral",
    aliases: ["mistral-large-2512"],
    prices: ["mistral", "mistral-large-2512"],
    maxOutputTokens: 262_144,
  },
  {
    id: "mistral-medium",
    provider: "mistral",
    displayName: "Mistral Medium 3.5",
    tokenizer: "mistral",
    aliases: ["mistral-medium-3-5"],
    prices: ["mistral", "mistral-medium-3-5"],
    maxOutputTokens: 262_144,
  },
  {
    id: "mistral-small",
    provider: "mistral",
    displayName: "Mistral Small 4",
    tokenizer: "mistral",
    aliases: ["mistral-small-2603"],
    prices: ["mistral", "mistral-small-2603"],
    maxOutputTokens: 262_144,
  },
  {
    id: "codestral",
    provider: "mistral",
    displayName: "Codestral",
    tokenizer: "mistral",
    aliases: ["codestral-latest", "codestral-2508"],
    prices: ["mistral", "codestral"],
    maxOutputTokens: 256_000,
  },
  {
    id: "devstral",
    provider: "mistral",
    displayName: "Devstral 2",
    tokenizer: "mistral",
    aliases: ["devstral-2512"],
    prices: ["mistral", "devstral-2512"],
    maxOutputTokens: 262_144,
  },

  // Local models through Ollama (no price). contextWindow is the model's own limit from its
  // ollama.com/library page; Ollama serves only its num_ctx setting (a few thousand tokens unless raised),
  // so a user who runs a smaller num_ctx should define a custom model with it. Size tags resolve
  // by prefix: "qwen3:14b" -> qwen3, "llama3.1:8b-instruct-q4_K_M" -> llama3.1:8b.
  {
    id: "llama3.1:8b",
    provider: "ollama",
    displayName: "Llama 3.1 8B (Ollama)",
    tokenizer: "llama3",
    aliases: ["llama3.1", "llama3.1:latest"],
    contextWindow: 131_072,
    maxOutputTokens: 131_072,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
  {
    id: "llama3.1:70b",
    provider: "ollama",
    displayName: "Llama 3.1 70B (Ollama)",
    tokenizer: "llama3",
    contextWindow: 131_072,
    maxOutputTokens: 131_072,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
  {
    id: "llama3.3:70b",
    provider: "ollama",
    displayName: "Llama 3.3 70B (Ollama)",
    tokenizer: "llama3",
    aliases: ["llama3.3", "llama3.3:latest"],
    contextWindow: 131_072,
    maxOutputTokens: 131_072,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
  {
    id: "llama3.2",
    provider: "ollama",
    displayName: "Llama 3.2 (Ollama)",
    tokenizer: "llama3",
    contextWindow: 131_072,
    maxOutputTokens: 131_072,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
  {
    id: "qwen2.5-coder",
    provider: "ollama",
    displayName: "Qwen2.5-Coder (Ollama)",
    tokenizer: "qwen",
    contextWindow: 32_768,
    maxOutputTokens: 32_768,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
  {
    id: "qwen3",
    provider: "ollama",
    displayName: "Qwen3 (Ollama)",
    tokenizer: "qwen",
    contextWindow: 40_960,
    maxOutputTokens: 40_960,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
  {
    id: "qwen3-coder",
    provider: "ollama",
    displayName: "Qwen3-Coder (Ollama)",
    tokenizer: "qwen",
    contextWindow: 262_144,
    maxOutputTokens: 262_144,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
  {
    id: "gpt-oss:20b",
    provider: "ollama",
    displayName: "gpt-oss 20B (Ollama)",
    tokenizer: "o200k_base",
    aliases: ["gpt-oss", "gpt-oss:latest"],
    contextWindow: 131_072,
    maxOutputTokens: 131_072,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
  {
    id: "gpt-oss:120b",
    provider: "ollama",
    displayName: "gpt-oss 120B (Ollama)",
    tokenizer: "o200k_base",
    contextWindow: 131_072,
    maxOutputTokens: 131_072,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  },
];
