import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readLlmSettings, saveLlmSettings } from "@/lib/db/settings/llm-settings";
import { describeChatAvailability, describeLlmConfig, LLM_ENV, resolveLlmConfig } from "./config";

const KEYS = {
  OPENAI_API_KEY: "sk-env-openai-0123456789abcdef",
  ANTHROPIC_API_KEY: "sk-ant-env-0123456789abcdef",
  GOOGLE_GENERATIVE_AI_API_KEY: "AIza-env-google-0123456789",
  OPENAI_COMPATIBLE_API_KEY: "env-compatible-0123456789",
};
const SAVED_KEY = "saved-compatible-key-9876543210";

const original = Object.fromEntries(Object.values(LLM_ENV).map((name) => [name, process.env[name]]));

beforeEach(async () => {
  for (const name of Object.values(LLM_ENV)) delete process.env[name];
  await saveLlmSettings({ compactionModel: null, chatModel: null, openaiCompatibleBaseUrl: null, openaiCompatibleApiKey: null });
});

afterEach(() => {
  for (const [name, value] of Object.entries(original)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("resolveLlmConfig", () => {
  it("reads the environment at call time", async () => {
    Object.assign(process.env, {
      ...KEYS,
      OPENAI_BASE_URL: "http://127.0.0.1:4000/v1",
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
      THREADLINE_COMPACTION_MODEL: "openai:gpt-4o-mini",
    });
    const config = await resolveLlmConfig();
    expect(config.providers.openai).toEqual({
      apiKey: { value: KEYS.OPENAI_API_KEY, source: "env", origin: "OPENAI_API_KEY" },
      baseUrl: { value: "http://127.0.0.1:4000/v1", source: "env", origin: "OPENAI_BASE_URL" },
    });
    expect(config.providers.anthropic.apiKey?.value).toBe(KEYS.ANTHROPIC_API_KEY);
    expect(config.providers.google.apiKey?.value).toBe(KEYS.GOOGLE_GENERATIVE_AI_API_KEY);
    expect(config.providers["openai-compatible"].apiKey?.source).toBe("env");
    expect(config.compactionModel).toEqual({ value: "openai:gpt-4o-mini", source: "env", origin: "THREADLINE_COMPACTION_MODEL" });

    process.env.THREADLINE_COMPACTION_MODEL = "google:gemini-2.0-flash";
    expect((await resolveLlmConfig()).compactionModel?.value).toBe("google:gemini-2.0-flash");
  });

  it("treats blank variables as unset", async () => {
    Object.assign(process.env, { OPENAI_API_KEY: "  ", THREADLINE_COMPACTION_MODEL: "" });
    const config = await resolveLlmConfig();
    expect(config.providers.openai.apiKey).toBeNull();
    expect(config.compactionModel).toBeNull();
  });

  it("saved settings override the environment, and removing them brings the environment back", async () => {
    Object.assign(process.env, {
      OPENAI_COMPATIBLE_API_KEY: KEYS.OPENAI_COMPATIBLE_API_KEY,
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
      THREADLINE_COMPACTION_MODEL: "openai:gpt-4o-mini",
    });
    await saveLlmSettings({
      compactionModel: "openai-compatible:llama3.1:8b",
      openaiCompatibleBaseUrl: "http://10.0.0.5:8000/v1",
      openaiCompatibleApiKey: SAVED_KEY,
    });
    let config = await resolveLlmConfig();
    expect(config.compactionModel).toMatchObject({ value: "openai-compatible:llama3.1:8b", source: "settings" });
    expect(config.providers["openai-compatible"].baseUrl).toMatchObject({ value: "http://10.0.0.5:8000/v1", source: "settings" });
    expect(config.providers["openai-compatible"].apiKey).toMatchObject({ value: SAVED_KEY, source: "settings" });

    // Leaving a setting out keeps it; null removes it.
    await saveLlmSettings({ openaiCompatibleApiKey: null });
    expect(await readLlmSettings()).toEqual({
      compactionModel: "openai-compatible:llama3.1:8b",
      chatModel: null,
      openaiCompatibleBaseUrl: "http://10.0.0.5:8000/v1",
      openaiCompatibleApiKey: null,
    });
    config = await resolveLlmConfig();
    // A base URL saved in Settings never gets the environment's key: whoever can open Settings
    // could point it at their own server and collect OPENAI_COMPATIBLE_API_KEY.
    expect(config.providers["openai-compatible"].apiKey).toBeNull();

    await saveLlmSettings({ compactionModel: null, openaiCompatibleBaseUrl: null });
    config = await resolveLlmConfig();
    expect(config.providers["openai-compatible"].apiKey).toMatchObject({ value: KEYS.OPENAI_COMPATIBLE_API_KEY, source: "env" });
    expect(config.compactionModel).toMatchObject({ value: "openai:gpt-4o-mini", source: "env" });
    expect(config.providers["openai-compatible"].baseUrl).toMatchObject({ value: "http://127.0.0.1:11434/v1", source: "env" });
  });
});

describe("the default chat model", () => {
  it("comes from THREADLINE_CHAT_MODEL, independently of the compaction model", async () => {
    Object.assign(process.env, {
      THREADLINE_CHAT_MODEL: " anthropic:claude-3-5-haiku-latest ",
      THREADLINE_COMPACTION_MODEL: "openai:gpt-4o-mini",
    });
    const config = await resolveLlmConfig();
    expect(config.chatModel).toEqual({ value: "anthropic:claude-3-5-haiku-latest", source: "env", origin: "THREADLINE_CHAT_MODEL" });
    expect(config.compactionModel?.value).toBe("openai:gpt-4o-mini");

    process.env.THREADLINE_CHAT_MODEL = "";
    expect((await resolveLlmConfig()).chatModel).toBeNull();
  });

  it("a saved chat model overrides the environment; removing it brings the environment back", async () => {
    process.env.THREADLINE_CHAT_MODEL = "openai:gpt-4o-mini";
    await saveLlmSettings({ chatModel: "google:gemini-2.0-flash" });
    expect((await resolveLlmConfig()).chatModel).toEqual({
      value: "google:gemini-2.0-flash",
      source: "settings",
      origin: "the chat model saved in Settings → Models and providers",
    });
    expect((await readLlmSettings()).chatModel).toBe("google:gemini-2.0-flash");
    expect((await describeLlmConfig()).saved.chatModel).toBe("google:gemini-2.0-flash");

    // Saving other settings leaves it alone; null removes it.
    await saveLlmSettings({ compactionModel: "openai:gpt-4o-mini" });
    expect((await resolveLlmConfig()).chatModel?.source).toBe("settings");
    await saveLlmSettings({ chatModel: null });
    expect((await resolveLlmConfig()).chatModel).toMatchObject({ value: "openai:gpt-4o-mini", source: "env" });
    expect((await describeLlmConfig()).saved.chatModel).toBeNull();
  });

  it("describeLlmConfig shows it with its source, and says why an invalid one is invalid", async () => {
    process.env.THREADLINE_CHAT_MODEL = "openai-compatible:llama3.1:8b";
    let description = await describeLlmConfig();
    expect(description.chatModelEnvVar).toBe("THREADLINE_CHAT_MODEL");
    expect(description.chatModel).toEqual({ value: "openai-compatible:llama3.1:8b", source: "env", error: null });
    expect(description.compactionModel).toBeNull();

    await saveLlmSettings({ chatModel: "mistral:large" });
    description = await describeLlmConfig();
    expect(description.chatModel).toEqual({
      value: "mistral:large",
      source: "settings",
      error: 'model: provider must be one of openai, anthropic, google, openai-compatible; got "mistral"',
    });
    expect((await describeChatAvailability()).defaultModel).toBeNull();
  });
});

describe("describeChatAvailability", () => {
  it("with no provider configured: no providers, and a sentence saying what to set", async () => {
    process.env.THREADLINE_CHAT_MODEL = "openai:gpt-4o-mini";
    expect(await describeChatAvailability()).toEqual({
      defaultModel: "openai:gpt-4o-mini",
      configuredProviders: [],
      problem:
        "No LLM provider is configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY or OPENAI_COMPATIBLE_BASE_URL, or save an OpenAI-compatible base URL in Settings → Models and providers.",
    });
  });

  it("an unusable base URL does not count as configured", async () => {
    process.env.OPENAI_COMPATIBLE_BASE_URL = "ftp://127.0.0.1/v1";
    const availability = await describeChatAvailability();
    expect(availability.configuredProviders).toEqual([]);
    expect(availability.problem).toMatch(/^No LLM provider is configured/);
  });

  it("lists the configured providers, and holds no key", async () => {
    Object.assign(process.env, {
      ANTHROPIC_API_KEY: KEYS.ANTHROPIC_API_KEY,
      OPENAI_COMPATIBLE_API_KEY: KEYS.OPENAI_COMPATIBLE_API_KEY,
      THREADLINE_CHAT_MODEL: "anthropic:claude-3-5-haiku-latest",
    });
    await saveLlmSettings({ openaiCompatibleBaseUrl: "http://127.0.0.1:11434/v1", openaiCompatibleApiKey: SAVED_KEY });
    let availability = await describeChatAvailability();
    expect(availability).toEqual({
      defaultModel: "anthropic:claude-3-5-haiku-latest",
      configuredProviders: ["anthropic", "openai-compatible"],
      problem: null,
    });

    Object.assign(process.env, KEYS);
    availability = await describeChatAvailability();
    expect(availability.configuredProviders).toEqual(["openai", "anthropic", "google", "openai-compatible"]);
    const text = JSON.stringify(availability);
    for (const key of [...Object.values(KEYS), SAVED_KEY]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(-6));
    }
  });

  it("no default model when none is set", async () => {
    process.env.OPENAI_API_KEY = KEYS.OPENAI_API_KEY;
    expect(await describeChatAvailability()).toEqual({ defaultModel: null, configuredProviders: ["openai"], problem: null });
  });
});

describe("describeLlmConfig", () => {
  it("says which providers are configured and from where, and holds no key", async () => {
    Object.assign(process.env, { ...KEYS, OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1" });
    await saveLlmSettings({ openaiCompatibleApiKey: SAVED_KEY, compactionModel: "anthropic:claude-3-5-haiku-latest" });
    const description = await describeLlmConfig();

    const text = JSON.stringify(description);
    for (const key of [...Object.values(KEYS), SAVED_KEY]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(-6)); // not even a tail of one
    }

    expect(description.providers.map((p) => [p.provider, p.configured, p.apiKey.set, p.apiKey.source])).toEqual([
      ["openai", true, true, "env"],
      ["anthropic", true, true, "env"],
      ["google", true, true, "env"],
      ["openai-compatible", true, true, "settings"],
    ]);
    expect(description.providers[3]!.baseUrl).toEqual({ value: "http://127.0.0.1:11434/v1", source: "env" });
    expect(description.compactionModel).toEqual({ value: "anthropic:claude-3-5-haiku-latest", source: "settings", error: null });
    expect(description.saved).toEqual({
      compactionModel: "anthropic:claude-3-5-haiku-latest",
      chatModel: null,
      openaiCompatibleBaseUrl: null,
      openaiCompatibleApiKeySet: true,
    });
  });

  it("names what is missing, and flags an invalid default model", async () => {
    process.env.THREADLINE_COMPACTION_MODEL = "gpt-4o";
    const description = await describeLlmConfig();
    expect(description.providers.every((p) => !p.configured && !p.apiKey.set)).toBe(true);
    expect(description.providers.map((p) => p.problem)).toEqual([
      "OpenAI is not configured: set OPENAI_API_KEY.",
      "Anthropic is not configured: set ANTHROPIC_API_KEY.",
      "Google is not configured: set GOOGLE_GENERATIVE_AI_API_KEY.",
      "OpenAI-compatible server is not configured: set OPENAI_COMPATIBLE_BASE_URL or the base URL in Settings → Models and providers.",
    ]);
    expect(description.compactionModel).toEqual({
      value: "gpt-4o",
      source: "env",
      error: 'model: must be "<provider>:<model>" (e.g. "openai:gpt-4o-mini"); got "gpt-4o"',
    });
  });

  it("hides credentials written into a base URL", async () => {
    process.env.OPENAI_COMPATIBLE_BASE_URL = "http://user:hunter2-secret@127.0.0.1:8000/v1";
    const description = await describeLlmConfig();
    expect(JSON.stringify(description)).not.toContain("hunter2-secret");
    expect(description.providers[3]!.baseUrl?.value).toBe("http://127.0.0.1:8000/v1");
  });
});
