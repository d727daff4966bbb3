/**
 * Prices one model response with @pydantic/genai-prices' calcPrice (its bundled data; never
 * updated at run time), for lib/domain/usage/cost.ts. The model is found, in order:
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
import {
  calcPrice,
  findProvider,
  type ModelInfo as LibraryModel,
  type ModelPrice,
  type Provider,
  type Usage,
} from "@pydantic/genai-prices";
import { libraryUsage, type LibraryUsage, type Pricer, type PricingRequest } from "@/lib/domain/usage/cost";
import type { CostBreakdown } from "@/lib/domain/types";
import { catalogPricing, type CatalogPricing, type ModelInfo } from "./catalog";

/** A model resolved once: calcPrice on a provider of that one model, with its prices over time. */
type Resolved = { modelId: string; provider: Provider };

const knownProviders = new Map<string, string | null>();

/** The library's id for a provider name ("xai" -> "x-ai", "gemini" -> "google"); null when it knows none. */
function libraryProvider(name: string | null): string | null {
  if (!name) return null;
  const key = name.trim().toLowerCase();
  if (!knownProviders.has(key)) knownProviders.set(key, findProvider({ providerId: key })?.id ?? null);
  return knownProviders.get(key)!;
}

type Prices = LibraryModel["prices"];

const providers = new WeakMap<object, Map<string, Provider>>();

/** A provider of one model with the given prices (dated ones too), for calcPrice. Kept per price object. */
function providerWith(modelId: string, prices: Prices): Provider {
  let byModel = providers.get(prices);
  if (!byModel) providers.set(prices, (byModel = new Map()));
  let provider = byModel.get(modelId);
  if (!provider) {
    provider = { id: "threadline", name: "Threadline", api_pattern: "", models: [{ id: modelId, match: { equals: modelId }, prices }] };
    byModel.set(modelId, provider);
  }
  return provider;
}

/**
 * Price keys of units Threadline never reports (audio, images, searches, ...): they would price 0
 * tokens, and calcPrice checks every pair of keys on every call, so they are left out (a call on
 * Claude's prices takes about a third of the time without them).
 */
const UNREPORTED = /audio|image|video|searches|executions|pages|characters|pixels|seconds|hours|citation|tool|messages/;

function slim(prices: Prices): Prices {
  const keep = (price: ModelPrice): ModelPrice => Object.fromEntries(Object.entries(price).filter(([key]) => !UNREPORTED.test(key)));
  return Array.isArray(prices) ? prices.map((entry) => ({ ...entry, prices: keep(entry.prices) })) : keep(prices);
}

/** The library's model for a name (with the provider's id when given), or undefined. */
function libraryModel(name: string, providerId: string | null): LibraryModel | undefined {
  return calcPrice({}, name, providerId ? { providerId } : {})?.model;
}

/** Our own input and output prices, over each of the package model's dated prices (cache reads and writes stay its). */
function fixed(pricing: Extract<CatalogPricing, { kind: "fixed" }>, modelId: string): Resolved {
  const ours = { input_mtok: pricing.inputPerMTok, output_mtok: pricing.outputPerMTok };
  const found = pricing.library ? libraryModel(pricing.library[1], pricing.library[0])?.prices : undefined;
  const base = found ? slim(found) : undefined;
  const prices: Prices = Array.isArray(base)
    ? base.map((entry) => ({ ...entry, prices: { ...entry.prices, ...ours } }))
    : { ...(base ?? {}), ...ours };
  return { modelId, provider: providerWith(modelId, prices) };
}

function resolve(provider: string | null, name: string, custom: ModelInfo[]): Resolved | null {
  const catalog = catalogPricing(name, custom);
  if (catalog?.kind === "fixed" && catalog.exact) return fixed(catalog, name);
  if (catalog?.kind === "none" && catalog.exact) return null;
  const providerId = libraryProvider(provider);
  if (providerId || !provider) {
    const model = libraryModel(name, providerId);
    if (model) return { modelId: name, provider: providerWith(name, slim(model.prices)) };
  }
  if (catalog?.kind === "fixed") return fixed(catalog, name);
  if (catalog?.kind === "library") {
    const model = libraryModel(catalog.library[1], catalog.library[0]);
    if (model) return { modelId: catalog.library[1], provider: providerWith(catalog.library[1], slim(model.prices)) };
  }
  return null;
}

/** Resolutions by provider and model name, for one set of custom models. */
type Resolutions = Map<string, Resolved | null>;

function resolved(request: PricingRequest, custom: ModelInfo[], cache: Resolutions): Resolved | null {
  const name = request.model?.trim();
  if (!name) return null;
  const key = `${request.provider ?? ""}\u0000${name}`;
  if (!cache.has(key)) cache.set(key, resolve(request.provider, name, custom));
  return cache.get(key)!;
}

type Kind = "input" | "cache_read" | "cache_write";

/** The price keys of each kind: plain input (any modality), cache reads, cache writes (any lifetime). */
const KIND_KEYS: Record<Kind, RegExp> = { input: /^input_/, cache_read: /^cache_(\w+_)?read_/, cache_write: /^cache_(\w+_)?write_/ };

const masks = new WeakMap<ModelPrice, Map<Kind, ModelPrice>>();

/** The prices with every key but those of one kind set to 0. */
function masked(prices: ModelPrice, kind: Kind): ModelPrice {
  let byKind = masks.get(prices);
  if (!byKind) masks.set(prices, (byKind = new Map()));
  let result = byKind.get(kind);
  if (!result) {
    result = Object.fromEntries(Object.entries(prices).map(([key, value]) => [key, KIND_KEYS[kind].test(key) ? value : 0]));
    byKind.set(kind, result);
  }
  return result;
}

/** A price (per million tokens, or tiered by the request's whole input) applied to some tokens. */
function amount(price: ModelPrice[string], tokens: number, wholeInput: number): number {
  if (price === undefined || tokens <= 0) return 0;
  if (typeof price === "number") return (price * tokens) / 1e6;
  let rate = price.base;
  for (const tier of [...price.tiers].sort((a, b) => a.start - b.start)) if (wholeInput > tier.start) rate = tier.price;
  return (rate * tokens) / 1e6;
}

/**
 * The input price split by kind, from the prices calcPrice applied (its model_price): each kind's
 * tokens (the library's leaves: writes less their 1-hour and 5-minute parts, input less reads and
 * writes) at its rate, tiers chosen by the whole input as the library does. Null for prices it does
 * not read this way; the caller checks the shares against calcPrice's input price.
 */
function inputShares(prices: ModelPrice, usage: LibraryUsage): { inputUsd: number; cacheReadUsd: number; cacheWriteUsd: number } | null {
  const known = new Set(["input_mtok", "output_mtok", "cache_read_mtok", "cache_write_mtok", "cache_write_5m_mtok", "cache_write_1h_mtok"]);
  for (const key of Object.keys(prices)) if (!known.has(key)) return null;
  const whole = usage.input_tokens;
  const reads = prices.cache_read_mtok !== undefined ? usage.cache_read_tokens : 0;
  const oneHour = prices.cache_write_1h_mtok !== undefined ? (usage.cache_write_1h_tokens ?? 0) : 0;
  const fiveMinutes = prices.cache_write_5m_mtok !== undefined ? (usage.cache_write_5m_tokens ?? 0) : 0;
  const writes = prices.cache_write_mtok !== undefined ? usage.cache_write_tokens : 0;
  return {
    inputUsd: amount(prices.input_mtok, whole - reads - writes, whole),
    cacheReadUsd: amount(prices.cache_read_mtok, reads, whole),
    cacheWriteUsd:
      amount(prices.cache_write_mtok, writes - oneHour - fiveMinutes, whole) +
      amount(prices.cache_write_1h_mtok, oneHour, whole) +
      amount(prices.cache_write_5m_mtok, fiveMinutes, whole),
  };
}

/**
 * One response's price and its split; null when no price is known for its model. The total, the
 * input and the output are calcPrice's. The input's split by kind is read from the prices it
 * applied (inputShares) and kept when it adds up to calcPrice's input price; otherwise each share
 * is calcPrice's with the other prices at 0 (three more calls: a tenth of a millisecond).
 * @internal exported for its tests
 */
export function priceResponse(request: PricingRequest, custom: ModelInfo[] = [], cache: Resolutions = new Map()): CostBreakdown | null {
  const model = resolved(request, custom, cache);
  if (!model) return null;
  const mapped = libraryUsage(request.usage, request.reasoningInOutput);
  const usage = mapped as Usage;
  const timestamp = Number.isNaN(request.at.getTime()) ? new Date() : request.at;
  try {
    const result = calcPrice(usage, model.modelId, { provider: model.provider, timestamp });
    if (!result) return null;
    const breakdown = { totalUsd: result.total_price, outputUsd: result.output_price };
    if (!mapped.cache_read_tokens && !mapped.cache_write_tokens)
      return { ...breakdown, inputUsd: result.input_price, cacheReadUsd: 0, cacheWriteUsd: 0 };
    const shares = inputShares(result.model_price, mapped);
    if (
      shares &&
      Math.abs(shares.inputUsd + shares.cacheReadUsd + shares.cacheWriteUsd - result.input_price) <= 1e-9 * Math.max(1, result.input_price)
    )
      return { ...breakdown, ...shares };
    const share = (kind: Kind) => {
      const provider = providerWith(model.modelId, masked(result.model_price, kind));
      return calcPrice(usage, model.modelId, { provider, timestamp })?.input_price ?? 0;
    };
    return { ...breakdown, inputUsd: share("input"), cacheReadUsd: share("cache_read"), cacheWriteUsd: share("cache_write") };
  } catch {
    return null; // usage the library refuses (it checks that parts do not exceed their whole)
  }
}

/** A Pricer for lib/domain/usage/cost.ts with the custom models of Settings. */
export function pricerWith(custom: ModelInfo[]): Pricer {
  const cache: Resolutions = new Map();
  return (request) => priceResponse(request, custom, cache);
}
