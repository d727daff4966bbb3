import { z } from "zod";
import { maskSecrets } from "../secrets/detect";
import { quoteInput } from "../secrets/quote";

/**
 * A summariser model named as "<provider>:<model>", e.g. "openai:gpt-4o-mini" or
 * "openai-compatible:llama3.1:8b". Only the first colon splits: model ids may hold colons.
 * Pure: no keys, no env; lib/llm/config.ts says whether a provider is configured.
 */
export const LLM_PROVIDERS = ["openai", "anthropic", "google", "openai-compatible"] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

export const PROVIDER_LABELS: Record<LlmProvider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  "openai-compatible": "OpenAI-compatible server",
};

export type ModelSpec = { provider: LlmProvider; model: string };

const MAX_SPEC_LENGTH = 300;

function isProvider(value: string): value is LlmProvider {
  return (LLM_PROVIDERS as readonly string[]).includes(value);
}

/** The problem with a spec, or null when it is valid. Messages name the part that is wrong. */
function specProblem(value: string): string | null {
  if (value === "") return 'must not be empty; use "<provider>:<model>", e.g. "openai:gpt-4o-mini"';
  if (value.length > MAX_SPEC_LENGTH) return `must be at most ${MAX_SPEC_LENGTH} characters`;
  const colon = value.indexOf(":");
  if (colon < 0) return `must be "<provider>:<model>" (e.g. "openai:gpt-4o-mini"); got ${quoteInput(value)}`;
  const provider = value.slice(0, colon);
  const model = value.slice(colon + 1);
  // The parts quoted are the masked value's: a secret split at its colon is no longer recognizable.
  const [shownProvider, shownModel] = splitAtColon(maskSecrets(value));
  if (!isProvider(provider)) return `provider must be one of ${LLM_PROVIDERS.join(", ")}; got ${quoteInput(shownProvider)}`;
  if (model.trim() === "") return `model name must not be empty (after "${provider}:")`;
  if (/\s/.test(model)) return `model name must not contain spaces; got ${quoteInput(shownModel)}`;
  return null;
}

function splitAtColon(text: string): [string, string] {
  const colon = text.indexOf(":");
  return colon < 0 ? [text, ""] : [text.slice(0, colon), text.slice(colon + 1)];
}

/** "<provider>:<model>" (surrounding spaces trimmed) to { provider, model }; formatModelSpec joins it back. */
export const modelSpecSchema = z
  .string({ error: 'must be a string "<provider>:<model>"' })
  .trim()
  .superRefine((value, ctx) => {
    const problem = specProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: value });
  })
  .transform((value): ModelSpec => {
    const colon = value.indexOf(":");
    return { provider: value.slice(0, colon) as LlmProvider, model: value.slice(colon + 1) };
  });

export type ParsedModelSpec = { ok: true; spec: ModelSpec } | { ok: false; error: string };

/** Parses a spec; the error reads 'model: provider must be one of ...; got "foo"'. */
export function parseModelSpec(input: string): ParsedModelSpec {
  const parsed = modelSpecSchema.safeParse(input);
  if (parsed.success) return { ok: true, spec: parsed.data };
  return { ok: false, error: `model: ${parsed.error.issues[0]?.message ?? "invalid"}` };
}

export function formatModelSpec(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}
