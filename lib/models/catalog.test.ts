import { afterEach, describe, expect, it, vi } from "vitest";
import { getTokenizer, hasTokenizer } from "@/lib/tokenizers";
import {
  CATALOG_REVIEWED,
  findModel,
  listModels,
  suggestModels,
  type ModelInfo,
  DEFAULT_PREVIEW_MODEL,
  previewModelFor,
  previewModelChoice,
  previewModelNote,
} from "./catalog";
import { CATALOG } from "./catalog-data";

function custom(overrides: Partial<ModelInfo> & { id: string }): ModelInfo {
  return {
    provider: "custom",
    displayName: overrides.id,
    contextWindow: 8_192,
    maxOutputTokens: 2_048,
    tokenizer: "o200k_base",
    exactTokenizer: true,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
    source: "custom",
    ...overrides,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("model catalog data", () => {
  it("builds from the bundled packages without touching the network", async () => {
    vi.resetModules();
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockRejectedValue(new Error("no network in tests"));
    const fresh = await import("./catalog");
    expect(fresh.listModels().length).toBe(CATALOG.length);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("says when it was reviewed", () => {
    expect(CATALOG_REVIEWED).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("gives every model a context window, a maximum output and a registered tokenizer", () => {
    for (const model of listModels()) {
      expect(hasTokenizer(model.tokenizer), `${model.id}: tokenizer ${model.tokenizer}`).toBe(true);
      expect(model.exactTokenizer, model.id).toBe(getTokenizer(model.tokenizer).exact);
      expect(model.contextWindow, model.id).toBeGreaterThanOrEqual(8_192);
      expect(model.maxOutputTokens, model.id).toBeGreaterThan(0);
      expect(model.maxOutputTokens, model.id).toBeLessThanOrEqual(model.contextWindow);
      for (const price of [model.inputPricePerMTok, model.outputPricePerMTok]) {
        if (price !== null) expect(price, model.id).toBeGreaterThanOrEqual(0);
      }
      expect(["catalog", "override"]).toContain(model.source);
    }
  });

  it("covers the common providers", () => {
    const providers = new Set(listModels().map((m) => m.provider));
    expect([...providers].sort()).toEqual(["anthropic", "deepseek", "google", "mistral", "ollama", "openai", "xai"]);
    for (const id of [
      "gpt-5",
      "gpt-5-mini",
      "gpt-5-nano",
      "gpt-4.1",
      "gpt-4.1-mini",
      "gpt-4.1-nano",
      "gpt-4o",
      "gpt-4o-mini",
      "o3",
      "o3-mini",
      "o4-mini",
      "claude-opus-4-1",
      "claude-sonnet-4-5",
      "claude-sonnet-4",
      "claude-haiku-4-5",
      "claude-3-7-sonnet",
      "claude-3-5-haiku",
      "gemini-2.5-pro",
      "gemini-2.5-flash",
      "gemini-2.5-flash-lite",
      "gemini-3-pro-preview",
      "grok-4",
      "grok-3",
      "deepseek-chat",
      "deepseek-reasoner",
      "mistral-large",
      "codestral",
      "llama3.1:8b",
      "llama3.3:70b",
      "qwen2.5-coder",
      "qwen3",
    ]) {
      expect(findModel(id)?.id, id).toBe(id);
    }
  });

  it("takes values from the packages, and our overrides where they are missing or stale", () => {
    expect(findModel("gpt-4o")).toMatchObject({
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      inputPricePerMTok: 2.5,
      outputPricePerMTok: 10,
      tokenizer: "o200k_base",
      exactTokenizer: true,
      source: "catalog",
    });
    expect(findModel("gpt-4.1")).toMatchObject({ contextWindow: 1_047_576, maxOutputTokens: 32_768 });
    expect(findModel("gpt-4")).toMatchObject({ tokenizer: "cl100k_base", contextWindow: 8_192 });
    // o3's price was cut on 2025-06-10; the dated price is the one in force.
    expect(findModel("o3")).toMatchObject({ inputPricePerMTok: 2, outputPricePerMTok: 8 });
    // Gemini 2.5 Pro's base tier (prompts up to 200k tokens); genai-prices has no context window.
    expect(findModel("gemini-2.5-pro")).toMatchObject({
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
      inputPricePerMTok: 1.25,
      outputPricePerMTok: 10,
      tokenizer: "gemini",
      exactTokenizer: false,
      source: "override",
    });
    expect(findModel("claude-sonnet-4-5")).toMatchObject({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPricePerMTok: 3,
      outputPricePerMTok: 15,
      tokenizer: "claude",
      source: "catalog",
    });
    expect(findModel("claude-opus-4-7")).toMatchObject({ contextWindow: 1_000_000, tokenizer: "claude-4.7" });
    expect(findModel("deepseek-chat")).toMatchObject({
      contextWindow: 128_000,
      inputPricePerMTok: 0.28,
      outputPricePerMTok: 0.42,
      source: "override",
    });
    expect(findModel("llama3.1:8b")).toMatchObject({
      provider: "ollama",
      tokenizer: "llama3",
      exactTokenizer: true,
      inputPricePerMTok: null,
      source: "override",
    });
  });
});

describe("findModel", () => {
  it.each([
    ["GPT-4o", "gpt-4o"],
    ["  gpt-5  ", "gpt-5"],
    ["openai:gpt-4o", "gpt-4o"],
    ["openai/gpt-4o", "gpt-4o"],
    ["anthropic:claude-opus-4-7", "claude-opus-4-7"],
    ["anthropic/claude-sonnet-4.5", "claude-sonnet-4-5"],
    ["openrouter/anthropic/claude-3.7-sonnet:thinking", "claude-3-7-sonnet"],
    ["openrouter/anthropic/claude-opus-4.1", "claude-opus-4-1"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
    ["claude-haiku-4-5-20251001", "claude-haiku-4-5"],
    ["claude-opus-4-20250514", "claude-opus-4"],
    ["claude-opus-4-0", "claude-opus-4"],
    ["claude-opus-4-1@20250805", "claude-opus-4-1"],
    ["claude-3-7-sonnet-latest", "claude-3-7-sonnet"],
    ["gpt-4o-2024-08-06", "gpt-4o"],
    ["gpt-4o-mini-2024-07-18", "gpt-4o-mini"],
    ["openai:gpt-4.1-mini-2025-04-14", "gpt-4.1-mini"],
    ["o3-2025-04-16", "o3"],
    ["gemini-2.5-flash-lite-preview-09-2025", "gemini-2.5-flash-lite"],
    ["google/gemini-2.5-pro", "gemini-2.5-pro"],
    ["grok-4-0709", "grok-4"],
    ["grok-4-fast-reasoning", "grok-4-fast"],
    ["x-ai/grok-code-fast-1", "grok-code-fast-1"],
    ["deepseek/deepseek-reasoner", "deepseek-reasoner"],
    ["mistral-large-latest", "mistral-large"],
    ["codestral-2508", "codestral"],
    ["qwen3:14b", "qwen3"],
    ["qwen2.5-coder:32b", "qwen2.5-coder"],
    ["llama3.1", "llama3.1:8b"],
    ["llama3.1:8b-instruct-q4_K_M", "llama3.1:8b"],
    ["ollama:llama3.3:70b", "llama3.3:70b"],
    ["gpt-oss:120b", "gpt-oss:120b"],
    ["gpt-oss-120b", "gpt-oss-120b"],
  ])("%s -> %s", (name, id) => {
    expect(findModel(name)?.id).toBe(id);
  });

  it.each(["", "   ", "gpt5", "claude-3-opus-20240229", "gpt-4.5-preview", "llama2", "sonet-4.5"])("knows no model %j", (name) => {
    expect(findModel(name)).toBeNull();
  });

  it("prefers a custom model over a built-in one with the same name", () => {
    const mine = custom({ id: "GPT-4o", contextWindow: 32_000 });
    expect(findModel("gpt-4o", [mine])).toBe(mine);
    expect(findModel("openai/gpt-4o-2024-08-06", [mine])).toBe(mine);
    expect(findModel("gpt-4o-mini", [mine])?.id).toBe("gpt-4o-mini");
  });

  it("finds custom models the catalog does not have, by the same rules", () => {
    const local = custom({ id: "my-llama:13b", provider: "ollama", tokenizer: "llama3" });
    expect(findModel("MY-LLAMA:13b", [local])).toBe(local);
    expect(findModel("ollama:my-llama:13b-q8_0", [local])).toBe(local);
    expect(findModel("my-llama:13b")).toBeNull();
  });
});

describe("listModels", () => {
  it("sorts by provider, then id", () => {
    const models = listModels();
    const keys = models.map((m) => [m.provider, m.id]);
    const sorted = [...keys].sort(([p1, i1], [p2, i2]) => p1!.localeCompare(p2!) || i1!.localeCompare(i2!));
    expect(keys).toEqual(sorted);
    expect(new Set(models.map((m) => m.id)).size).toBe(models.length);
  });

  it("lets custom models replace built-in ones and adds new ones", () => {
    const replaced = custom({ id: "gpt-4o", provider: "openai", contextWindow: 32_000 });
    const added = custom({ id: "team-model", provider: "acme" });
    const models = listModels([replaced, added]);
    expect(models).toHaveLength(listModels().length + 1);
    expect(models.filter((m) => m.id === "gpt-4o")).toEqual([replaced]);
    expect(models[0]).toBe(added); // "acme" sorts first
  });
});

describe("suggestModels", () => {
  it('suggests "gpt-5" first for "gpt5"', () => {
    const suggestions = suggestModels("gpt5");
    expect(suggestions[0]).toBe("gpt-5");
    expect(suggestions.length).toBeLessThanOrEqual(5);
  });

  it('suggests claude-sonnet-4-5 for "sonet-4.5"', () => {
    expect(suggestModels("sonet-4.5")[0]).toBe("claude-sonnet-4-5");
    expect(suggestModels("anthropic:sonet-4.5")[0]).toBe("claude-sonnet-4-5");
  });

  it("suggests the nearest spelling first", () => {
    expect(suggestModels("gpt-4o-mni")[0]).toBe("gpt-4o-mini");
    expect(suggestModels("gemni-2.5-flash")[0]).toBe("gemini-2.5-flash");
    expect(suggestModels("deepsek")).toEqual(["deepseek-chat", "deepseek-reasoner"]);
    expect(suggestModels("my-gpt-4o-proxy")[0]).toBe("gpt-4o");
    expect(suggestModels("claude-3-opus-20240229")[0]).toBe("claude-opus-4");
  });

  it("honours the limit and suggests nothing for unrelated names", () => {
    expect(suggestModels("claude", 2)).toHaveLength(2);
    expect(suggestModels("gpt5", 0)).toEqual([]);
    expect(suggestModels("totally-unknown-xyz")).toEqual([]);
    expect(suggestModels("x")).toEqual([]);
    expect(suggestModels("")).toEqual([]);
  });

  it("includes custom models", () => {
    expect(suggestModels("team-modle", 5, [custom({ id: "team-model" })])).toEqual(["team-model"]);
  });
});

describe("previewModelFor", () => {
  it("answers the catalog id of the thread's last model, else the default", () => {
    expect(previewModelFor(["gpt-4o", "claude-sonnet-4-5-20250929"])).toBe("claude-sonnet-4-5");
    expect(previewModelFor(["gpt-4o", "my-local-model"])).toBe(DEFAULT_PREVIEW_MODEL);
    expect(previewModelFor([])).toBe(DEFAULT_PREVIEW_MODEL);
  });
});

describe("previewModelChoice: the budget page's default model", () => {
  it("matches date-suffixed ids to their catalog entry", () => {
    expect(previewModelChoice(["claude-haiku-4-5-20251001"])).toEqual({
      id: "claude-haiku-4-5",
      lastModel: "claude-haiku-4-5-20251001",
      known: true,
    });
    expect(previewModelChoice(["gpt-4o-2024-08-06"]).id).toBe("gpt-4o");
    expect(previewModelChoice(["claude-opus-4-1@20250805"]).id).toBe("claude-opus-4-1");
    // Claude Code's placeholder for responses it wrote itself is not a model.
    expect(previewModelChoice(["claude-sonnet-4-5-20250929", "<synthetic>"])).toEqual({
      id: "claude-sonnet-4-5",
      lastModel: "claude-sonnet-4-5-20250929",
      known: true,
    });
  });

  it("says in a sentence when it falls back, and names what it fell back to", () => {
    const unknown = previewModelChoice(["my-local-model-7b"]);
    expect(unknown).toEqual({ id: DEFAULT_PREVIEW_MODEL, lastModel: "my-local-model-7b", known: false });
    expect(previewModelNote(unknown)).toBe(
      `This thread last used my-local-model-7b, which the model catalog does not know, so the preview assumes ${DEFAULT_PREVIEW_MODEL} instead. Add it as a custom model in Settings to preview for it.`,
    );
    expect(previewModelNote(previewModelChoice([]))).toBe(`This thread names no model, so the preview assumes ${DEFAULT_PREVIEW_MODEL}.`);
    expect(previewModelNote(previewModelChoice(["claude-haiku-4-5-20251001"]))).toBe(
      "This thread last used claude-haiku-4-5-20251001, previewed as claude-haiku-4-5.",
    );
    expect(previewModelNote(previewModelChoice(["gpt-4o"]))).toBeNull();
  });

  it("prefers a custom model with the name", () => {
    const custom: ModelInfo = { ...findModel("gpt-4o")!, id: "my-local-model-7b", source: "custom" };
    expect(previewModelChoice(["my-local-model-7b"], [custom])).toEqual({
      id: "my-local-model-7b",
      lastModel: "my-local-model-7b",
      known: true,
    });
  });
});
