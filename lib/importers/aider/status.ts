/**
 * What Aider's status messages say, read from their text (aider/coders/base_coder.py
 * `get_announcements`, `calculate_and_show_tokens_and_cost`; aider/io.py `confirm_ask`). Pure; every
 * reader answers null for a message it does not recognise, which is then kept as it is.
 */
import type { ImportedUsage } from "../types";

export type ModelBanner = { role: "main" | "weak" | "editor"; name: string; editFormat: string | null; options: string[] };

/** `Main model: gpt-4o with diff edit format, prompt cache` / `Model: …` / `Weak model: …` / `Editor model: … with … edit format`. */
export function readModelBanner(text: string): ModelBanner | null {
  const prefixes = [
    ["Main model: ", "main"],
    ["Model: ", "main"],
    ["Weak model: ", "weak"],
    ["Editor model: ", "editor"],
  ] as const;
  const found = prefixes.find(([prefix]) => text.startsWith(prefix));
  if (!found) return null;
  const rest = text.slice(found[0].length);
  const withAt = rest.indexOf(" with ");
  if (withAt < 0) return rest.trim() && !rest.includes(" ") ? { role: found[1], name: rest.trim(), editFormat: null, options: [] } : null;
  const name = rest.slice(0, withAt).trim();
  const [format, ...options] = rest.slice(withAt + " with ".length).split(", ");
  if (!name || !format?.endsWith(" edit format")) return null;
  return { role: found[1], name, editFormat: format.slice(0, -" edit format".length), options };
}

/**
 * Providers litellm routes by a `provider/` prefix of the model name, as Aider passes names on.
 * Only these prefixes name a provider for certain; a bare name (`gpt-4o`) leaves it unknown.
 */
const LITELLM_PROVIDERS = new Set([
  "anthropic",
  "azure",
  "azure_ai",
  "bedrock",
  "cohere",
  "deepseek",
  "fireworks_ai",
  "gemini",
  "groq",
  "lm_studio",
  "mistral",
  "ollama",
  "ollama_chat",
  "openai",
  "openrouter",
  "perplexity",
  "together_ai",
  "vertex_ai",
  "xai",
  "github_copilot",
]);

/** `anthropic/claude-sonnet-4` -> provider anthropic, model claude-sonnet-4; an unknown prefix stays part of the name. */
export function modelOf(name: string): { modelProvider: string | null; modelName: string } {
  const slash = name.indexOf("/");
  const prefix = slash > 0 ? name.slice(0, slash) : "";
  if (LITELLM_PROVIDERS.has(prefix) && slash < name.length - 1) return { modelProvider: prefix, modelName: name.slice(slash + 1) };
  return { modelProvider: null, modelName: name };
}

export type TokensReport = {
  usage: ImportedUsage;
  sentTokens: number;
  sessionCostUsd: number | null;
};

const COUNT = /^(\d+(?:\.\d+)?)([kM]?)$/;
const DOLLARS = /^\$(\d+(?:\.\d+)?)$/;

/**
 * `3.2k` -> 3200, `12k` -> 12000, `1.5M` -> 1500000, `104` -> 104; null when not such a figure.
 * @internal exported for its tests
 */
export function readCount(text: string): number | null {
  const match = COUNT.exec(text.trim());
  if (!match) return null;
  const scale = match[2] === "k" ? 1000 : match[2] === "M" ? 1_000_000 : 1;
  return Math.round(Number(match[1]) * scale);
}

function readDollars(text: string): number | null {
  const match = DOLLARS.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/**
 * `Tokens: 12k sent, 1.2k cache write, 8.5k cache hit, 300 received. Cost: $0.01 message, $0.05 session.`
 * (the cost on the next line when both cache figures are given; absent when the model has no
 * price). "sent" is everything sent, cache reads and writes included, so the input without cache
 * is what remains of it; the figures are rounded (3.2k), the input therefore approximate.
 */
export function readTokensReport(text: string): TokensReport | null {
  if (!text.startsWith("Tokens: ")) return null;
  const costAt = text.indexOf("Cost: ");
  const tokensText = (costAt < 0 ? text : text.slice(0, costAt)).slice("Tokens: ".length).trim().replace(/\.$/, "");
  const counts: Record<string, number> = {};
  for (const item of tokensText.split(", ")) {
    const space = item.indexOf(" ");
    const value = space > 0 ? readCount(item.slice(0, space)) : null;
    const label = item.slice(space + 1);
    if (value === null || !["sent", "received", "cache write", "cache hit"].includes(label)) return null;
    counts[label] = value;
  }
  if (counts.sent === undefined || counts.received === undefined) return null;
  let messageCost: number | null = null;
  let sessionCost: number | null = null;
  if (costAt >= 0) {
    for (const item of text
      .slice(costAt + "Cost: ".length)
      .trim()
      .replace(/\.$/, "")
      .split(", ")) {
      if (item.endsWith(" message")) messageCost = readDollars(item.slice(0, -" message".length));
      else if (item.endsWith(" session")) sessionCost = readDollars(item.slice(0, -" session".length));
      else return null;
    }
    if (messageCost === null) return null;
  }
  const cacheRead = counts["cache hit"] ?? 0;
  const cacheWrite = counts["cache write"] ?? 0;
  const usage: ImportedUsage = { inputTokens: Math.max(0, counts.sent - cacheRead - cacheWrite), outputTokens: counts.received };
  if (cacheRead) usage.cacheReadTokens = cacheRead;
  if (cacheWrite) usage.cacheWriteTokens = cacheWrite;
  if (messageCost !== null) usage.reportedCostUsd = messageCost;
  return { usage, sentTokens: counts.sent, sessionCostUsd: sessionCost };
}

/** `Commit dde0244 feat: add …` -> sha and message. */
export function readCommit(text: string): { sha: string; message: string } | null {
  if (!text.startsWith("Commit ")) return null;
  const rest = text.slice("Commit ".length);
  const space = rest.indexOf(" ");
  const sha = space < 0 ? rest : rest.slice(0, space);
  if (!/^[0-9a-f]{7,40}$/.test(sha)) return null;
  return { sha, message: space < 0 ? "" : rest.slice(space + 1) };
}

/** `Create new file? (Y)es/(N)o [Yes]: y` -> the question and the answer given. */
export function readConfirm(text: string): { question: string; answer: string } | null {
  const options = text.indexOf(" (Y)es/(N)o");
  const answerAt = text.lastIndexOf("]: ");
  if (options < 0 || answerAt < options) return null;
  return { question: text.slice(0, options), answer: text.slice(answerAt + 3).trim() };
}

/** Aider's Ctrl-C notices (io.py / base_coder.py `keyboard_interrupt`). */
export function isInterrupt(text: string): boolean {
  return text === "^C again to exit" || text === "^C KeyboardInterrupt";
}
