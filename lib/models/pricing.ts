/**
 * Prices one model response with @pydantic/genai-prices' calcPrice (its bundled data; never
 * updated at run time), for lib/domain/cost.ts. The model is found, in order:
 *  1. by its exact name in the catalog where our own prices apply (a custom model from Settings
 *     with prices, or an override in catalog-data.ts: DeepSeek's V3.2 prices);
 *  2. by the library itself, with the response's provider (its matching knows dated snapshots and
 *     variants the catalog does not: "gpt-5.1-codex-mini" is not priced as gpt-5.1);
 *  3. by the catalog's rule (aliases, prefixes: "claude-sonnet-4.5" -> claude-sonnet-4-5), as its
 *     package model or with its own prices.
 * None: null (the response is unpriced). The split by kind is calcPrice's too: the cache read and
 * cache write shares are priced again with every other price set to 0, so tiers (chosen by the
 * whole input) and the 5-minute / 1-hour split apply as in the total.
 */
import { calcPrice, findProvider, type ModelPrice, type Provider, type Usage } from "@pydantic/genai-prices";
import { libraryUsage, type Pricer, type PricingRequest } from "@/lib/domain/cost";
import type { CostBreakdown } from "@/lib/domain/types";
import { catalogPricing, type CatalogPricing, type ModelInfo } from "./catalog";

type Resolved = { modelId: string; options: { provider?: Provider; providerId?: string; timestamp: Date } };

const knownProviders = new Map<string, string | null>();

/** The library's id for a provider name ("xai" -> "x-ai", "gemini" -> "google"); null when it knows none. */
function libraryProvider(name: string | null): string | null {
  if (!name) return null;
  const key = name.trim().toLowerCase();
  if (!knownProviders.has(key)) knownProviders.set(key, findProvider({ providerId: key })?.id ?? null);
  return knownProviders.get(key)!;
}

const providers = new WeakMap<ModelPrice, Map<string, Provider>>();

/** A provider of one model with the given prices, for calcPrice. Kept per price object. */
function providerWith(modelId: string, prices: ModelPrice): Provider {
  let byModel = providers.get(prices);
  if (!byModel) providers.set(prices, (byModel = new Map()));
  let provider = byModel.get(modelId);
  if (!provider) {
    provider = { id: "threadline", name: "Threadline", api_pattern: "", models: [{ id: modelId, match: { equals: modelId }, prices }] };
    byModel.set(modelId, provider);
  }
  return provider;
}

const fixedPrices = new Map<string, ModelPrice>();

/** Our own input and output prices, over the package model's others (cache reads and writes) in force at `at`. */
function fixed(pricing: Extract<CatalogPricing, { kind: "fixed" }>, modelId: string, at: Date): Resolved {
  let prices: ModelPrice = {};
  if (pricing.library) {
    const [providerId, id] = pricing.library;
    const base = calcPrice({}, id, { providerId, timestamp: at });
    if (base) prices = { ...base.model_price };
  }
  prices = { ...prices, input_mtok: pricing.inputPerMTok, output_mtok: pricing.outputPerMTok };
  const key = `${modelId}\u0000${JSON.stringify(prices)}`;
  if (!fixedPrices.has(key)) fixedPrices.set(key, prices);
  prices = fixedPrices.get(key)!;
  return { modelId, options: { provider: providerWith(modelId, prices), timestamp: at } };
}

function resolve(request: PricingRequest, custom: ModelInfo[]): Resolved | null {
  const name = request.model?.trim();
  if (!name) return null;
  const at = Number.isNaN(request.at.getTime()) ? new Date() : request.at;
  const catalog = catalogPricing(name, custom);
  if (catalog?.kind === "fixed" && catalog.exact) return fixed(catalog, name, at);
  if (catalog?.kind === "none" && catalog.exact) return null;
  const providerId = libraryProvider(request.provider);
  if (providerId || !request.provider) {
    const options = { timestamp: at, ...(providerId ? { providerId } : {}) };
    if (calcPrice({}, name, options)) return { modelId: name, options };
  }
  if (catalog?.kind === "fixed") return fixed(catalog, name, at);
  if (catalog?.kind === "library") return { modelId: catalog.library[1], options: { providerId: catalog.library[0], timestamp: at } };
  return null;
}

const masks = new WeakMap<ModelPrice, Map<string, ModelPrice>>();

/** The prices with every key but those of one kind set to 0. */
function masked(prices: ModelPrice, kind: "cache_read" | "cache_write"): ModelPrice {
  let byKind = masks.get(prices);
  if (!byKind) masks.set(prices, (byKind = new Map()));
  let result = byKind.get(kind);
  if (!result) {
    const keep = kind === "cache_read" ? /^cache_(\w+_)?read_/ : /^cache_(\w+_)?write_/;
    result = Object.fromEntries(Object.entries(prices).map(([key, value]) => [key, keep.test(key) ? value : 0]));
    byKind.set(kind, result);
  }
  return result;
}

/** Below this a difference of sums is rounding, not money. */
const EPSILON = 1e-12;

/** One response's price and its split; null when no price is known for its model. */
export function priceResponse(request: PricingRequest, custom: ModelInfo[] = []): CostBreakdown | null {
  const resolved = resolve(request, custom);
  if (!resolved) return null;
  const usage = libraryUsage(request.usage, request.reasoningInOutput) as Usage;
  try {
    const result = calcPrice(usage, resolved.modelId, resolved.options);
    if (!result) return null;
    const share = (kind: "cache_read" | "cache_write") => {
      const provider = providerWith(result.model.id, masked(result.model_price, kind));
      return calcPrice(usage, result.model.id, { provider, timestamp: resolved.options.timestamp })?.input_price ?? 0;
    };
    const cacheReadUsd = usage.cache_read_tokens ? share("cache_read") : 0;
    const cacheWriteUsd = usage.cache_write_tokens ? share("cache_write") : 0;
    const inputUsd = result.input_price - cacheReadUsd - cacheWriteUsd;
    return {
      totalUsd: result.total_price,
      inputUsd: Math.abs(inputUsd) < EPSILON ? 0 : inputUsd,
      outputUsd: result.output_price,
      cacheReadUsd,
      cacheWriteUsd,
    };
  } catch {
    return null; // usage the library refuses (it checks that parts do not exceed their whole)
  }
}

/** A Pricer for lib/domain/cost.ts with the custom models of Settings. */
export function pricerWith(custom: ModelInfo[]): Pricer {
  return (request) => priceResponse(request, custom);
}
