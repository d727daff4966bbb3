import "server-only";
import { readLlmSettings } from "@/lib/db/settings/llm-settings";
import { readEnv } from "@/lib/env";
import { formatModelSpec, LLM_PROVIDERS, PROVIDER_LABELS, parseModelSpec, type LlmProvider } from "@/lib/domain/compaction/model-spec";

/**
 * Where the LLM settings (providers, the default compaction and chat models) come from: the
 * environment (lib/env's readEnv(), at each call), overridden by settings saved on the Settings
 * page (lib/db/settings/llm-settings.ts).
 *
 * Keys stay on the server: resolveLlmConfig() is for the model calls (lib/llm/provider.ts) only;
 * anything shown to a user goes through describeLlmConfig() or describeChatAvailability(), which
 * say "set"/"not set" and never a key.
 * @internal exported for its tests
 */
export const LLM_ENV = {
  openaiApiKey: "OPENAI_API_KEY",
  openaiBaseUrl: "OPENAI_BASE_URL",
  anthropicApiKey: "ANTHROPIC_API_KEY",
  /** Not in the brief's list, but @ai-sdk/anthropic honours it on its own; read here so it shows. */
  anthropicBaseUrl: "ANTHROPIC_BASE_URL",
  googleApiKey: "GOOGLE_GENERATIVE_AI_API_KEY",
  openaiCompatibleBaseUrl: "OPENAI_COMPATIBLE_BASE_URL",
  openaiCompatibleApiKey: "OPENAI_COMPATIBLE_API_KEY",
  compactionModel: "THREADLINE_COMPACTION_MODEL",
  chatModel: "THREADLINE_CHAT_MODEL",
} as const;

type SettingSource = "env" | "settings";
/** A value and where it came from; `origin` names it for messages ("OPENAI_API_KEY", "the chat model saved in Settings → Models and providers"). */
export type Sourced = { value: string; source: SettingSource; origin: string };
type ProviderConfig = { apiKey: Sourced | null; baseUrl: Sourced | null };

export type LlmConfig = {
  providers: Record<LlmProvider, ProviderConfig>;
  /** The default compaction model, "<provider>:<model>" as given (it may be invalid: see describeLlmConfig). */
  compactionModel: Sourced | null;
  /** The default chat model of the thread page's composer, "<provider>:<model>" as given (it may be invalid too). */
  chatModel: Sourced | null;
};

/** The Settings page section these settings are saved from (app/settings/page.tsx), for messages. */
const SETTINGS_ORIGIN = "Settings → Models and providers";

function fromEnv(name: (typeof LLM_ENV)[keyof typeof LLM_ENV]): Sourced | null {
  const value = readEnv()[name];
  return value ? { value, source: "env", origin: name } : null;
}

function fromSettings(value: string | null, what: string): Sourced | null {
  const trimmed = value?.trim();
  return trimmed ? { value: trimmed, source: "settings", origin: `the ${what} saved in ${SETTINGS_ORIGIN}` } : null;
}

/**
 * The OpenAI-compatible endpoint: a base URL saved in Settings goes with the key saved there (or
 * none), never with OPENAI_COMPATIBLE_API_KEY: anyone who can open Settings could otherwise point
 * the server's key at a server of their own.
 */
function compatibleEndpoint(saved: Awaited<ReturnType<typeof readLlmSettings>>): ProviderConfig {
  const savedUrl = fromSettings(saved.openaiCompatibleBaseUrl, "base URL");
  const savedKey = fromSettings(saved.openaiCompatibleApiKey, "API key");
  if (savedUrl) return { baseUrl: savedUrl, apiKey: savedKey };
  return { baseUrl: fromEnv(LLM_ENV.openaiCompatibleBaseUrl), apiKey: savedKey ?? fromEnv(LLM_ENV.openaiCompatibleApiKey) };
}

export async function resolveLlmConfig(): Promise<LlmConfig> {
  const saved = await readLlmSettings();
  return {
    providers: {
      openai: { apiKey: fromEnv(LLM_ENV.openaiApiKey), baseUrl: fromEnv(LLM_ENV.openaiBaseUrl) },
      anthropic: { apiKey: fromEnv(LLM_ENV.anthropicApiKey), baseUrl: fromEnv(LLM_ENV.anthropicBaseUrl) },
      google: { apiKey: fromEnv(LLM_ENV.googleApiKey), baseUrl: null },
      "openai-compatible": compatibleEndpoint(saved),
    },
    compactionModel: fromSettings(saved.compactionModel, "compaction model") ?? fromEnv(LLM_ENV.compactionModel),
    chatModel: fromSettings(saved.chatModel, "chat model") ?? fromEnv(LLM_ENV.chatModel),
  };
}

/** What a provider needs to be usable (the key for hosted providers, the base URL for a local server). */
const REQUIRED: Record<LlmProvider, { field: keyof ProviderConfig; hint: string }> = {
  openai: { field: "apiKey", hint: `set ${LLM_ENV.openaiApiKey}` },
  anthropic: { field: "apiKey", hint: `set ${LLM_ENV.anthropicApiKey}` },
  google: { field: "apiKey", hint: `set ${LLM_ENV.googleApiKey}` },
  "openai-compatible": {
    field: "baseUrl",
    hint: `set ${LLM_ENV.openaiCompatibleBaseUrl} or the base URL in ${SETTINGS_ORIGIN}`,
  },
};

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** Why a provider cannot be used as configured, or null when it can. Never quotes a key. */
export function providerProblem(config: LlmConfig, provider: LlmProvider): string | null {
  const settings = config.providers[provider];
  const required = REQUIRED[provider];
  if (!settings[required.field]) return `${PROVIDER_LABELS[provider]} is not configured: ${required.hint}.`;
  if (settings.baseUrl && !isHttpUrl(settings.baseUrl.value)) {
    return `${PROVIDER_LABELS[provider]}: the base URL from ${settings.baseUrl.origin} is not an http(s) URL.`;
  }
  return null;
}

/** A URL for display: credentials in it (user:password@, a ?api-key= query) removed. */
function displayUrl(value: string): string {
  try {
    const url = new URL(value);
    if (!url.username && !url.password && !url.search) return value;
    url.username = "";
    url.password = "";
    url.search = "";
    return url.toString();
  } catch {
    return "(not a valid URL)";
  }
}

type ProviderDescription = {
  provider: LlmProvider;
  label: string;
  configured: boolean;
  /** Why it is not usable ("Anthropic is not configured: set ANTHROPIC_API_KEY."), or null. */
  problem: string | null;
  /** Whether a key is set and where from; never the key. */
  apiKey: { set: boolean; source: SettingSource | null; envVar: string };
  baseUrl: { value: string; source: SettingSource } | null;
  baseUrlEnvVar: string | null;
};

/** A default model as configured; `error` says why it is not a valid spec. */
export type ModelSettingDescription = { value: string; source: SettingSource; error: string | null };

export type LlmConfigDescription = {
  providers: ProviderDescription[];
  compactionModel: ModelSettingDescription | null;
  compactionModelEnvVar: string;
  chatModel: ModelSettingDescription | null;
  chatModelEnvVar: string;
  /** What is saved in the database (form defaults); the key only as set or not. */
  saved: {
    compactionModel: string | null;
    chatModel: string | null;
    openaiCompatibleBaseUrl: string | null;
    openaiCompatibleApiKeySet: boolean;
  };
};

const KEY_ENV: Record<LlmProvider, string> = {
  openai: LLM_ENV.openaiApiKey,
  anthropic: LLM_ENV.anthropicApiKey,
  google: LLM_ENV.googleApiKey,
  "openai-compatible": LLM_ENV.openaiCompatibleApiKey,
};
const BASE_URL_ENV: Record<LlmProvider, string | null> = {
  openai: LLM_ENV.openaiBaseUrl,
  anthropic: LLM_ENV.anthropicBaseUrl,
  google: null,
  "openai-compatible": LLM_ENV.openaiCompatibleBaseUrl,
};

function describeModel(model: Sourced | null): ModelSettingDescription | null {
  if (!model) return null;
  const parsed = parseModelSpec(model.value);
  return { value: model.value, source: model.source, error: parsed.ok ? null : parsed.error };
}

/** What the Settings page may show. Safe to render: it holds no key, not even part of one. */
export async function describeLlmConfig(): Promise<LlmConfigDescription> {
  const [config, saved] = await Promise.all([resolveLlmConfig(), readLlmSettings()]);
  return {
    providers: LLM_PROVIDERS.map((provider) => {
      const { apiKey, baseUrl } = config.providers[provider];
      const problem = providerProblem(config, provider);
      return {
        provider,
        label: PROVIDER_LABELS[provider],
        configured: problem === null,
        problem,
        apiKey: { set: apiKey !== null, source: apiKey?.source ?? null, envVar: KEY_ENV[provider] },
        baseUrl: baseUrl ? { value: displayUrl(baseUrl.value), source: baseUrl.source } : null,
        baseUrlEnvVar: BASE_URL_ENV[provider],
      };
    }),
    compactionModel: describeModel(config.compactionModel),
    compactionModelEnvVar: LLM_ENV.compactionModel,
    chatModel: describeModel(config.chatModel),
    chatModelEnvVar: LLM_ENV.chatModel,
    saved: {
      compactionModel: saved.compactionModel,
      chatModel: saved.chatModel,
      openaiCompatibleBaseUrl: saved.openaiCompatibleBaseUrl === null ? null : displayUrl(saved.openaiCompatibleBaseUrl),
      openaiCompatibleApiKeySet: saved.openaiCompatibleApiKey !== null,
    },
  };
}

export type ChatAvailability = {
  /** The default chat model, "<provider>:<model>", when one is set and valid; otherwise null. */
  defaultModel: string | null;
  /** The providers that can be used as configured (providerProblem() is null), in LLM_PROVIDERS order. */
  configuredProviders: LlmProvider[];
  /** A sentence for the user when no provider at all can be used; otherwise null. */
  problem: string | null;
};

/**
 * What the thread page's chat composer needs to know. Safe to send to the browser: it names
 * providers and environment variables, never a key. Whether the default model's provider is
 * configured is left to the caller (it is in configuredProviders or not).
 */
export async function describeChatAvailability(): Promise<ChatAvailability> {
  const config = await resolveLlmConfig();
  const parsed = config.chatModel ? parseModelSpec(config.chatModel.value) : null;
  const configuredProviders = LLM_PROVIDERS.filter((provider) => providerProblem(config, provider) === null);
  return {
    defaultModel: parsed?.ok ? formatModelSpec(parsed.spec) : null,
    configuredProviders,
    problem:
      configuredProviders.length > 0
        ? null
        : `No LLM provider is configured: set ${LLM_ENV.openaiApiKey}, ${LLM_ENV.anthropicApiKey}, ${LLM_ENV.googleApiKey} or ${LLM_ENV.openaiCompatibleBaseUrl}, or save an OpenAI-compatible base URL in ${SETTINGS_ORIGIN}.`,
  };
}
