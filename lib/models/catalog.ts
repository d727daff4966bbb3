import "server-only";
import { findProvider } from "@pydantic/genai-prices";
import * as openAiSpecs from "gpt-tokenizer/models";
import type { TokenizerId } from "@/lib/domain/tokens/tokenizer";
import { getTokenizer } from "@/lib/tokenizers";
import { CATALOG, PRICE_DATE, type CatalogEntry } from "./catalog-data";

export { CATALOG_REVIEWED } from "./catalog-data";

/**
 * The model catalog: context window, maximum output, list prices and tokenizer of the common
 * hosted and local models. The data lives in ./catalog-data.ts (one line per model, with its
 * sources); this module resolves it against the bundled packages and answers lookups.
 */

export type ModelInfo = {
  id: string;
  provider: string;
  displayName: string;
  contextWindow: number;
  maxOutputTokens: number;
  tokenizer: TokenizerId;
  exactTokenizer: boolean;
  /** USD per million input tokens (base tier); null when unknown or free (local models). */
  inputPricePerMTok: number | null;
  outputPricePerMTok: number | null;
  /**
   * "catalog": context window and prices come from the bundled packages (gpt-tokenizer's OpenAI
   * specs, @pydantic/genai-prices). "override": at least one of them comes from our own table in
   * catalog-data.ts. "custom": defined by the user.
   */
  source: "catalog" | "override" | "custom";
};

// ---------------------------------------------------------------------------------------------
// Building the catalog
// ---------------------------------------------------------------------------------------------

type OpenAiSpec = { context_window?: number; max_output_tokens?: number };
type GenaiModel = NonNullable<ReturnType<typeof findProvider>>["models"][number];
type GenaiPrice = number | { base: number } | undefined;

function openAiSpec(name: string): OpenAiSpec {
  const spec = (openAiSpecs as unknown as Record<string, OpenAiSpec | undefined>)[name];
  if (!spec) throw new Error(`gpt-tokenizer has no model spec "${name}"`);
  return spec;
}

function genaiModel(provider: string, id: string): GenaiModel {
  const model = findProvider({ providerId: provider })?.models.find((m) => m.id === id);
  if (!model) throw new Error(`@pydantic/genai-prices has no model "${provider}/${id}"`);
  return model;
}

function baseTier(price: GenaiPrice): number | null {
  if (typeof price === "number") return price;
  if (price && typeof price === "object" && typeof price.base === "number") return price.base;
  return null;
}

type PriceConstraint = { type?: string; start_date?: string; start_time?: string; end_time?: string };
type PriceEntry = { constraint?: PriceConstraint; prices: { input_mtok?: GenaiPrice; output_mtok?: GenaiPrice } };

/** Whether a conditional price applies at `at` (genai-prices: later entries that apply win). */
function applies(constraint: PriceConstraint | undefined, at: Date): boolean {
  if (!constraint) return true;
  if (constraint.start_date) return new Date(`${constraint.start_date}T00:00:00Z`) <= at;
  if (constraint.start_time && constraint.end_time) {
    const time = at.toISOString().slice(11, 19);
    const start = constraint.start_time.slice(0, 8);
    const end = constraint.end_time.slice(0, 8);
    return start <= end ? time >= start && time < end : time >= start || time < end;
  }
  return false;
}

function listPrices(model: GenaiModel, at: Date): { input: number | null; output: number | null } {
  const raw = model.prices as unknown as PriceEntry["prices"] | PriceEntry[];
  let prices: PriceEntry["prices"] | undefined;
  if (Array.isArray(raw)) {
    for (const entry of raw) if (applies(entry.constraint, at)) prices = entry.prices;
  } else {
    prices = raw;
  }
  const round = (n: number | null) => (n === null ? null : Math.round(n * 1e6) / 1e6);
  return { input: round(baseTier(prices?.input_mtok)), output: round(baseTier(prices?.output_mtok)) };
}

function resolve(entry: CatalogEntry): ModelInfo {
  const spec = entry.openai ? openAiSpec(entry.openai) : undefined;
  const genai = entry.prices ? genaiModel(...entry.prices) : undefined;
  const packagePrices = genai ? listPrices(genai, PRICE_DATE) : { input: null, output: null };

  const contextWindow = entry.contextWindow ?? spec?.context_window ?? genai?.context_window;
  const maxOutputTokens = entry.maxOutputTokens ?? spec?.max_output_tokens;
  if (!contextWindow || !maxOutputTokens) {
    throw new Error(`Model catalog: "${entry.id}" has no ${contextWindow ? "maximum output" : "context window"}`);
  }
  const overridden = entry.contextWindow !== undefined || entry.inputPricePerMTok !== undefined || entry.outputPricePerMTok !== undefined;

  return {
    id: entry.id,
    provider: entry.provider,
    displayName: entry.displayName,
    contextWindow,
    maxOutputTokens,
    tokenizer: entry.tokenizer,
    exactTokenizer: getTokenizer(entry.tokenizer).exact,
    inputPricePerMTok: entry.inputPricePerMTok !== undefined ? entry.inputPricePerMTok : packagePrices.input,
    outputPricePerMTok: entry.outputPricePerMTok !== undefined ? entry.outputPricePerMTok : packagePrices.output,
    source: overridden ? "override" : "catalog",
  };
}

type Index = { models: ModelInfo[]; byName: Map<string, ModelInfo> };

let catalog: Index | null = null;

function builtIn(): Index {
  if (!catalog) {
    const byName = new Map<string, ModelInfo>();
    const models = CATALOG.map((entry) => {
      const model = resolve(entry);
      for (const name of [entry.id, ...(entry.aliases ?? [])]) {
        const key = name.toLowerCase();
        if (byName.has(key)) throw new Error(`Model catalog: "${name}" is listed twice`);
        byName.set(key, model);
      }
      return model;
    });
    catalog = { models, byName };
  }
  return catalog;
}

/** The built-in names (ids and aliases) with the model each names, custom models first. */
function names(custom: ModelInfo[]): Array<[string, ModelInfo]> {
  return [...custom.map((m): [string, ModelInfo] => [m.id.toLowerCase(), m]), ...builtIn().byName];
}

// ---------------------------------------------------------------------------------------------
// Lookups
// ---------------------------------------------------------------------------------------------

/** Providers accepted before a ":" ("anthropic:claude-opus-4-7"). Any prefix is accepted before "/". */
const PROVIDER_PREFIXES = new Set([
  "openai",
  "azure",
  "anthropic",
  "claude",
  "google",
  "gemini",
  "vertex",
  "vertex_ai",
  "xai",
  "x-ai",
  "grok",
  "deepseek",
  "mistral",
  "mistralai",
  "ollama",
  "openrouter",
  "meta",
  "meta-llama",
  "qwen",
]);

/** The name and the names left after taking provider prefixes off it, longest first. */
function withoutProviders(name: string): string[] {
  const forms = [name];
  let rest = name;
  for (;;) {
    const slash = rest.indexOf("/");
    const colon = rest.indexOf(":");
    if (slash > 0 && (colon < 0 || slash < colon)) {
      rest = rest.slice(slash + 1);
    } else if (colon > 0 && PROVIDER_PREFIXES.has(rest.slice(0, colon))) {
      rest = rest.slice(colon + 1);
    } else {
      break;
    }
    if (rest) forms.push(rest);
  }
  return forms;
}

/**
 * "claude-sonnet-4.5" -> "claude-sonnet-4-5": Anthropic's ids write versions with dashes, while
 * OpenRouter and others use dots. Only for Claude: elsewhere the dot belongs to the id ("gpt-4.1").
 */
function dotsToDashes(name: string): string {
  return name.startsWith("claude") ? name.replace(/(\d)\.(\d)/g, "$1-$2") : name;
}

/**
 * The model a name refers to, or null. Case-insensitive. The rule, tried on each form of the
 * name (as given; without "provider:" / "provider/" prefixes, so "anthropic:claude-opus-4-7" and
 * "openrouter/anthropic/claude-sonnet-4.5" work; for Claude, with version dots as dashes, so
 * "claude-sonnet-4.5" works):
 *  1. an exact id or alias;
 *  2. otherwise the longest id or alias that the name starts with, followed by "-", ":" or "@".
 *     Dated snapshots and variants resolve to their family this way: "claude-sonnet-4-5-20250929"
 *     -> claude-sonnet-4-5, "gpt-4o-2024-08-06" -> gpt-4o, "claude-opus-4-1@20250805" ->
 *     claude-opus-4-1, "gemini-2.5-flash-preview-09-2025" -> gemini-2.5-flash, "qwen3:14b" ->
 *     qwen3, "mistral-large-latest" -> mistral-large.
 * Custom models take precedence over built-in ones with the same name (and win ties in step 2).
 */
export function findModel(name: string, custom: ModelInfo[] = []): ModelInfo | null {
  return lookup(name, custom)?.model ?? null;
}

/** findModel's answer, and whether it named the model exactly (step 1) or by a prefix (step 2). */
function lookup(name: string, custom: ModelInfo[]): { model: ModelInfo; exact: boolean } | null {
  const given = name.trim().toLowerCase();
  if (!given) return null;
  const forms = withoutProviders(given).flatMap((form) => {
    const dashed = dotsToDashes(form);
    return dashed === form ? [form] : [form, dashed];
  });
  const all = names(custom);
  const exact = new Map<string, ModelInfo>();
  for (const [key, model] of all) if (!exact.has(key)) exact.set(key, model);

  for (const form of forms) {
    const hit = exact.get(form);
    if (hit) return { model: hit, exact: true };
  }
  for (const form of forms) {
    let best: { length: number; model: ModelInfo } | null = null;
    for (const [key, model] of all) {
      if (form.length > key.length && form.startsWith(key) && "-:@".includes(form[key.length]!)) {
        if (!best || key.length > best.length) best = { length: key.length, model };
      }
    }
    if (best) return { model: best.model, exact: false };
  }
  return null;
}

/**
 * How the catalog prices a model name, for lib/models/pricing.ts: "fixed" USD per million tokens
 * (a custom model's, or our override of the package's, with the package model whose other prices,
 * cache reads and writes, still apply), "library" (the package's model, priced at the response's
 * time), "none" (a model the catalog knows has no price: local ones), or null when the catalog
 * does not know the name. `exact`: named by its id or an alias, not by the prefix rule.
 */
export type CatalogPricing =
  | { kind: "fixed"; inputPerMTok: number; outputPerMTok: number; library: [provider: string, model: string] | null; exact: boolean }
  | { kind: "library"; library: [provider: string, model: string]; exact: boolean }
  | { kind: "none"; exact: boolean };

export function catalogPricing(name: string, custom: ModelInfo[] = []): CatalogPricing | null {
  const found = lookup(name, custom);
  if (!found) return null;
  const { model, exact } = found;
  // A custom model without prices (one defined for its window) leaves pricing to the built-in ones.
  if (model.source === "custom" && (model.inputPricePerMTok === null || model.outputPricePerMTok === null))
    return custom.length > 0 ? catalogPricing(name) : null;
  const entry = model.source === "custom" ? undefined : CATALOG.find((e) => e.id === model.id);
  const library = entry?.prices ?? null;
  // Our own prices: a custom model's, or an entry that overrides the package's (not only its window).
  const overridden = model.source === "custom" || entry?.inputPricePerMTok !== undefined || entry?.outputPricePerMTok !== undefined;
  if (overridden) {
    if (model.inputPricePerMTok === null || model.outputPricePerMTok === null) return { kind: "none", exact };
    return { kind: "fixed", inputPerMTok: model.inputPricePerMTok, outputPerMTok: model.outputPricePerMTok, library, exact };
  }
  return library ? { kind: "library", library, exact } : { kind: "none", exact };
}

/**
 * The model previews assume when a thread names none the catalog knows.
 * @internal exported for its tests
 */
export const DEFAULT_PREVIEW_MODEL = "gpt-5";

/**
 * Which model a preview of a thread assumes: the catalog's model for the last model the thread
 * used (a dated id such as claude-haiku-4-5-20251001 is its family's), else the default.
 * `lastModel`: the name the thread recorded (placeholders such as Claude Code's "<synthetic>" are
 * not models); `known`: whether the catalog knows it, so a page can say when it fell back.
 */
export type PreviewModelChoice = { id: string; lastModel: string | null; known: boolean };

export function previewModelChoice(modelsUsed: string[], custom: ModelInfo[] = []): PreviewModelChoice {
  const lastModel = modelsUsed.filter((name) => name.trim() !== "" && !/^<.*>$/.test(name.trim())).at(-1) ?? null;
  const found = lastModel ? findModel(lastModel, custom) : null;
  return { id: found?.id ?? DEFAULT_PREVIEW_MODEL, lastModel, known: found !== null };
}

/** The catalog id to preview a thread for: of the last model it used when known, else the default. */
export function previewModelFor(modelsUsed: string[], custom: ModelInfo[] = []): string {
  return previewModelChoice(modelsUsed, custom).id;
}

/** The sentence a preview shows about its default model, or null when it is the thread's own model under its own name. */
export function previewModelNote(choice: PreviewModelChoice): string | null {
  if (choice.lastModel === null) return `This thread names no model, so the preview assumes ${choice.id}.`;
  if (!choice.known)
    return `This thread last used ${choice.lastModel}, which the model catalog does not know, so the preview assumes ${choice.id} instead. Add it as a custom model in Settings to preview for it.`;
  if (choice.lastModel.toLowerCase() !== choice.id.toLowerCase())
    return `This thread last used ${choice.lastModel}, previewed as ${choice.id}.`;
  return null;
}

/** Every model, custom ones replacing built-in ones with the same id, sorted by provider then id. */
export function listModels(custom: ModelInfo[] = []): ModelInfo[] {
  const byId = new Map<string, ModelInfo>();
  for (const model of builtIn().models) byId.set(model.id.toLowerCase(), model);
  for (const model of custom) byId.set(model.id.toLowerCase(), model);
  return [...byId.values()].sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id));
}

// ---------------------------------------------------------------------------------------------
// Suggestions
// ---------------------------------------------------------------------------------------------

/** A trailing snapshot date: "-20250929", "@20250805", "-2024-08-06". */
const SNAPSHOT_DATE = /[-@](\d{8}|\d{4}-\d{2}-\d{2})$/;

/** Lowercase letters and digits only: "Claude-Sonnet-4.5" -> "claudesonnet45". */
function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The fewest edits turning `needle` into some substring of `haystack` (Sellers' algorithm). */
function substringDistance(needle: string, haystack: string): number {
  let previous: number[] = new Array(haystack.length + 1).fill(0);
  for (let i = 1; i <= needle.length; i++) {
    const current = [i];
    for (let j = 1; j <= haystack.length; j++) {
      const cost = needle[i - 1] === haystack[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return Math.min(...previous);
}

/**
 * Close matches for a name that `findModel` does not know, best first, as model ids (for an
 * "unknown model" error: `Did you mean gpt-5?`). Names are compared as lowercase letters and
 * digits only ("gpt5" = "gpt-5", "sonet-4.5" ~ "sonnet45"). A model qualifies when the name is
 * within a few edits of its id or an alias, or of part of one ("sonet45" is one edit from a part
 * of "claudesonnet45"): one edit per four characters of the name, at least one (none below three
 * characters). A name that contains an id whole ("my-gpt-4o-proxy") counts as one edit away. A
 * trailing snapshot date is ignored ("claude-3-opus-20240229" is compared as "claude-3-opus").
 * Ranked by that distance, then by the distance to the whole id.
 */
export function suggestModels(name: string, limit = 5, custom: ModelInfo[] = []): string[] {
  const forms = withoutProviders(name.trim().toLowerCase());
  const query = squash((forms[forms.length - 1] ?? "").replace(SNAPSHOT_DATE, ""));
  if (!query || limit <= 0) return [];
  const allowance = query.length < 3 ? 0 : Math.max(1, Math.floor(query.length / 4));

  const best = new Map<string, { distance: number; whole: number }>();
  for (const [key, model] of names(custom)) {
    const candidate = squash(key);
    if (!candidate) continue;
    const whole = levenshtein(query, candidate);
    const contained = candidate.length >= 4 && query.includes(candidate);
    const distance = Math.min(whole, substringDistance(query, candidate), contained ? 1 : Infinity);
    if (distance > allowance) continue;
    const seen = best.get(model.id);
    if (!seen || distance < seen.distance || (distance === seen.distance && whole < seen.whole)) {
      best.set(model.id, { distance, whole });
    }
  }
  return [...best.entries()]
    .sort(([a, x], [b, y]) => x.distance - y.distance || x.whole - y.whole || a.localeCompare(b))
    .slice(0, limit)
    .map(([id]) => id);
}
