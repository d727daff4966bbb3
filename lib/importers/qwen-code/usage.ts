// Qwen Code's token counts as ImportedUsage, and the provider a model name says.
import type { JsonValue } from "@/lib/domain/types";
import { isObject, type ImportedUsage } from "../types";

const count = (value: JsonValue | undefined): number | null =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/**
 * A response's usage. Current records carry Gemini's `GenerateContentResponseUsageMetadata`
 * {promptTokenCount, cachedContentTokenCount, candidatesTokenCount, thoughtsTokenCount,
 * toolUsePromptTokenCount, totalTokenCount}; the first JSONL builds (Nov 2025) wrote the summary
 * {input, output, cached, thoughts, tool, total} instead. Qwen Code converts every provider's
 * usage into this shape: the prompt count includes the cached tokens (OpenAI's prompt_tokens,
 * Anthropic's input + cache reads), so inputTokens = prompt - cached (+ tool-use prompt).
 *
 * Whether `candidates` already holds the thoughts depends on the provider: OpenAI-compatible
 * APIs (Qwen OAuth, DashScope, OpenAI, ...) report completion_tokens with the reasoning in it,
 * Gemini's own API reports them apart. The total tells: when total = prompt + candidates +
 * thoughts (+ tool) the thoughts were apart and are added to outputTokens; otherwise (or with no
 * total, unless the model is a Gemini model) candidates is the whole output. Either way
 * outputTokens includes the reasoning and reasoningTokens reports it. All zeros: no usage.
 */
export function qwenUsage(value: JsonValue | undefined, modelName: string | null): ImportedUsage | null {
  if (!isObject(value)) return null;
  const summary = "input" in value || "output" in value;
  const prompt = count(summary ? value.input : value.promptTokenCount);
  const cached = count(summary ? value.cached : value.cachedContentTokenCount);
  const candidates = count(summary ? value.output : value.candidatesTokenCount);
  const thoughts = count(summary ? value.thoughts : value.thoughtsTokenCount);
  const tool = count(summary ? value.tool : value.toolUsePromptTokenCount);
  const total = count(summary ? value.total : value.totalTokenCount);
  if ([prompt, cached, candidates, thoughts, tool, total].every((n) => !n)) return null;

  const usage: ImportedUsage = {};
  if (prompt !== null || tool !== null) usage.inputTokens = Math.max(0, (prompt ?? 0) - (cached ?? 0)) + (tool ?? 0);
  if (cached) usage.cacheReadTokens = cached;
  if (candidates !== null || thoughts) {
    const apart =
      !!thoughts &&
      (total !== null ? total === (prompt ?? 0) + (candidates ?? 0) + thoughts + (tool ?? 0) : /^(models\/)?gemini/i.test(modelName ?? ""));
    usage.outputTokens = (candidates ?? 0) + (apart ? thoughts : 0);
  }
  if (thoughts) usage.reasoningTokens = thoughts;
  return usage;
}

/** The provider a model's name says (Qwen Code records only the model), or null. */
export function providerOfModel(model: string | null): string | null {
  if (!model) return null;
  const name = model.toLowerCase();
  if (name.startsWith("qwen") || name === "coder-model" || name === "vision-model") return "qwen";
  if (/^(gpt-|o\d|chatgpt-|codex)/.test(name)) return "openai";
  if (name.startsWith("claude")) return "anthropic";
  if (/^(models\/)?gemini/.test(name)) return "google";
  if (name.startsWith("deepseek")) return "deepseek";
  if (name.startsWith("glm")) return "zhipu";
  if (name.startsWith("kimi")) return "moonshot";
  // "provider/model" names of routers (OpenRouter and the like).
  const slash = name.indexOf("/");
  return slash > 0 ? name.slice(0, slash) : null;
}
