import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, type LanguageModel } from "ai";
import { providerProblem, resolveLlmConfig, type LlmConfig, type Sourced } from "./config";
import { parseModelSpec, PROVIDER_LABELS, type LlmProvider, type ModelSpec } from "@/lib/domain/compaction/model-spec";
import type { LlmErrorKind } from "@/lib/domain/errors";

/**
 * One call to a configured model, shared by the summariser and the chat: which model, its
 * provider client, a deadline that can be pushed back while a reply streams, cancellation, and
 * errors classified into messages a user can act on. No key ever reaches a message.
 */

/** A failed model call. `message` is for the user and never holds a key. */
export class LlmCallError extends Error {
  readonly kind: LlmErrorKind;
  /** The provider's HTTP status, when it answered with one. */
  readonly status: number | null;
  /**
   * The failure in Threadline's words only (provider, status, the provider's error code), for what
   * is stored with a turn: the provider's own text, which can echo anything, never is.
   */
  readonly brief: string;
  constructor(kind: LlmErrorKind, message: string, status: number | null = null, brief = message) {
    super(message);
    this.name = "LlmCallError";
    this.kind = kind;
    this.status = status;
    this.brief = brief;
  }
}

/**
 * Provider requests never follow redirects: a base URL set in Settings must not be able to bounce
 * the conversation (and a key in its headers) on to another host.
 */
const noRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: "error" });

function createModel(spec: ModelSpec, config: LlmConfig): LanguageModel {
  const { apiKey, baseUrl } = config.providers[spec.provider];
  switch (spec.provider) {
    case "openai":
      // Chat Completions rather than the Responses API, so OPENAI_BASE_URL may point at any
      // OpenAI-compatible server too.
      return createOpenAI({ apiKey: apiKey?.value, baseURL: baseUrl?.value, fetch: noRedirects }).chat(spec.model);
    case "anthropic":
      return createAnthropic({ apiKey: apiKey?.value, baseURL: baseUrl?.value, fetch: noRedirects }).languageModel(spec.model);
    case "google":
      return createGoogleGenerativeAI({ apiKey: apiKey?.value, fetch: noRedirects }).languageModel(spec.model);
    case "openai-compatible":
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: baseUrl!.value,
        apiKey: apiKey?.value,
        fetch: noRedirects,
        // Streamed replies end with their token usage, as OpenAI's own API does.
        includeUsage: true,
      }).chatModel(spec.model);
  }
}

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * The most of a provider's error a message shows: the status, its error code and the start of its message.
 * @internal exported for its tests
 */
export const MAX_ERROR_MESSAGE = 300;

/**
 * Provider text for a message: one line, trimmed, with every configured secret blanked out and
 * any credentials written into a URL (user:password@) removed.
 */
function detail(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join("[redacted]");
  out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, "$1[redacted]@");
  return out.replace(/\s+/g, " ").trim();
}

/** `before` + the provider's words + `after`, the words cut so the whole stays within MAX_ERROR_MESSAGE. */
function fitted(before: string, said: string, after: string): string {
  const room = MAX_ERROR_MESSAGE - before.length - after.length;
  const words = said.length > room ? `${said.slice(0, Math.max(0, room - 1)).trimEnd()}…` : said;
  return `${before}${words}${after}`;
}

/**
 * The provider's own error code, from the error body the SDK parsed: OpenAI's error.code or
 * error.type, Anthropic's error.type, Google's error.status. Only a short identifier is kept.
 */
function providerErrorCode(data: unknown): string | null {
  const error = typeof data === "object" && data !== null && "error" in data ? (data as { error: unknown }).error : null;
  if (typeof error !== "object" || error === null) return null;
  const fields = error as Record<string, unknown>;
  for (const value of [fields.code, fields.type, fields.status]) {
    if (typeof value === "string" && /^[A-Za-z0-9_.-]{1,60}$/.test(value)) return value;
  }
  return null;
}

/** Keys, and what a base URL may carry: its user name, password and query values. */
function secretsOf(config: LlmConfig): string[] {
  const secrets: string[] = [];
  for (const { apiKey, baseUrl } of Object.values(config.providers)) {
    if (apiKey) secrets.push(apiKey.value);
    if (!baseUrl) continue;
    try {
      const url = new URL(baseUrl.value);
      secrets.push(
        decodeURIComponent(url.username),
        decodeURIComponent(url.password),
        url.username,
        url.password,
        ...url.searchParams.values(),
      );
    } catch {
      // not a URL: providerProblem refuses it before any request
    }
  }
  // Longest first, so a secret containing another is blanked whole.
  return [...new Set(secrets.filter((secret) => secret.length >= 3))].sort((a, b) => b.length - a.length);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "its base URL";
  }
}

function classify(error: unknown, provider: LlmProvider, config: LlmConfig): LlmCallError {
  const label = PROVIDER_LABELS[provider];
  const secrets = secretsOf(config);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const said = detail(error.message, secrets).replace(/[.\s]+$/, "");
    if (status === undefined) {
      const cause = error.cause instanceof Error ? detail(error.cause.message, secrets) : said;
      const where = `Could not reach ${label} at ${hostOf(error.url)}`;
      return new LlmCallError("network", fitted(`${where}: `, cause, ""), null, where);
    }
    const code = providerErrorCode(error.data);
    const http = `HTTP ${status}${code ? `, ${code}` : ""}`;
    if (status === 429) {
      return new LlmCallError(
        "rate-limit",
        fitted(`${label} is rate limiting requests (${http}): `, said, ". Wait a moment and retry."),
        status,
        `${label} is rate limiting requests (${http})`,
      );
    }
    if (status === 401 || status === 403) {
      const key = config.providers[provider].apiKey;
      const where = key ? ` Check the API key from ${key.origin}.` : "";
      return new LlmCallError(
        "auth",
        fitted(`${label} refused the request (${http}): `, said, `.${where}`),
        status,
        `${label} refused the request (${http})`,
      );
    }
    return new LlmCallError("provider", fitted(`${label} answered ${http}: `, said, "."), status, `${label} answered ${http}`);
  }
  if (error instanceof Error) {
    if (error.name === "AI_LoadAPIKeyError" || error.name === "AI_LoadSettingError") {
      return new LlmCallError("config", fitted(`${label} is not configured: `, detail(error.message, secrets), ""));
    }
    if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
      const cause = error.cause instanceof Error ? error.cause.message : error.message;
      return new LlmCallError(
        "network",
        fitted(`Could not reach ${label}: `, detail(cause, secrets), ""),
        null,
        `Could not reach ${label}`,
      );
    }
    return new LlmCallError("provider", fitted(`${label} failed: `, detail(error.message, secrets), ""), null, `${label} failed`);
  }
  return new LlmCallError("provider", fitted(`${label} failed: `, detail(String(error), secrets), ""), null, `${label} failed`);
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

// ---------------------------------------------------------------------------------------------

export type ModelChoice = {
  /** "<provider>:<model>" as asked; blank takes `fallback`. */
  model: string | undefined;
  /** The configured default for this use (config.chatModel, config.compactionModel). */
  fallback: (config: LlmConfig) => Sourced | null;
  /** The whole message when neither names a model. */
  noModel: string;
};

/** A model ready to call: its spec, its provider's client, and the configuration it came from. */
export type ResolvedModel = { spec: ModelSpec; model: LanguageModel; config: LlmConfig };

/**
 * The model to call and its provider, or a "config" LlmCallError, before any request, when
 * either is missing or invalid.
 */
export async function resolveModel(choice: ModelChoice): Promise<ResolvedModel> {
  const config = await resolveLlmConfig();
  const fallback = choice.fallback(config);
  const asked = choice.model?.trim();
  const wanted = asked || fallback?.value;
  if (!wanted) throw new LlmCallError("config", choice.noModel);
  const parsed = parseModelSpec(wanted);
  if (!parsed.ok) throw new LlmCallError("config", asked ? parsed.error : `${parsed.error} (the default from ${fallback!.origin})`);
  const problem = providerProblem(config, parsed.spec.provider);
  if (problem) throw new LlmCallError("config", problem);
  return { spec: parsed.spec, model: createModel(parsed.spec, config), config };
}

export type CallOptions = {
  /** What was cancelled, for its message: "Summarising", "The reply". */
  activity: string;
  signal?: AbortSignal;
  /** How long the provider may stay silent: the whole call, or between chunks of a stream (see `touch`). */
  timeoutMs: number;
};

export type LlmCall = {
  abortSignal: AbortSignal;
  /** Pushes the deadline back by the timeout: a stream calls it on every chunk. */
  touch(): void;
  /** Any error the call raised, as an LlmCallError (cancelled and timed out decided by the signals). */
  failure(error: unknown): LlmCallError;
  /** Stops the deadline. */
  close(): void;
};

/** Starts a call's deadline; `close` it when the call ends. */
export function startCall(resolved: ResolvedModel, options: CallOptions): LlmCall {
  const { signal, timeoutMs, activity } = options;
  const timeout = new AbortController();
  let timer = setTimeout(() => timeout.abort(), timeoutMs);
  const abortSignal = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  const label = PROVIDER_LABELS[resolved.spec.provider];
  return {
    abortSignal,
    touch() {
      if (timeout.signal.aborted) return;
      clearTimeout(timer);
      timer = setTimeout(() => timeout.abort(), timeoutMs);
    },
    failure(error) {
      if (error instanceof LlmCallError) return error;
      // Which signal fired decides, whatever shape the abort took on its way up.
      if (signal?.aborted) return new LlmCallError("cancelled", `${activity} was cancelled.`);
      if (timeout.signal.aborted) return new LlmCallError("timeout", `${label} did not answer within ${formatSeconds(timeoutMs)}.`);
      return classify(error, resolved.spec.provider, resolved.config);
    },
    close() {
      clearTimeout(timer);
    },
  };
}
