// A ModelResponse as turns: one assistant turn (text, thinking, tool calls, usage counted once),
// after a system turn for each compaction part.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { isObject, type ImportedTurn, type ImportedUsage, type SkippedEntry } from "../types";
import { callLine, isoUtc } from "../text";
import { nonEmptyString, renderAttachment, toolNameKey, withoutBinaryData, type JsonRecord } from "./content";

export function responseTurns(message: JsonRecord, parts: JsonValue[], index: number, skipped: SkippedEntry[]): ImportedTurn[] {
  const timestamp = isoUtc(message.timestamp);
  const modelName = nonEmptyString(message.model_name);
  const modelProvider = providerOf(message.provider_name, modelName);
  const turnParts: TurnPart[] = [];
  const texts: string[] = [];
  const compactions: ImportedTurn[] = [];

  parts.forEach((part, partIndex) => {
    const path = `[${index}].parts[${partIndex}]`;
    if (!isObject(part)) {
      skipped.push({ path, reason: "must be a part object with a part_kind" });
      return;
    }
    switch (part.part_kind) {
      case "text":
        if (typeof part.content === "string") {
          turnParts.push({ type: "text", text: part.content });
          texts.push(part.content);
        }
        break;
      case "thinking":
        // Only readable thinking: `signature` is the provider's opaque/encrypted copy, never shown.
        if (typeof part.content === "string" && part.content) turnParts.push({ type: "thinking", text: part.content });
        break;
      case "tool-call":
      case "builtin-tool-call": {
        const id = nonEmptyString(part.tool_call_id);
        if (!id) {
          skipped.push({ path, reason: "tool_call_id: must be a non-empty string" });
          break;
        }
        const name = nonEmptyString(part.tool_name) ?? "tool";
        const args = parseArguments(part.args);
        turnParts.push({
          type: "tool_call",
          id,
          name,
          ...(args !== undefined ? { arguments: args } : {}),
          ...(part.part_kind === "builtin-tool-call" ? { builtin: true } : {}),
        });
        texts.push(callLine(name, args));
        break;
      }
      case "builtin-tool-return": {
        // The provider ran the tool itself (web search, code execution): the result is in the response.
        const toolCallId = nonEmptyString(part.tool_call_id);
        if (!toolCallId) {
          skipped.push({ path, reason: "tool_call_id: must be a non-empty string" });
          break;
        }
        turnParts.push({
          type: "tool_result",
          toolCallId,
          content: withoutBinaryData(part.content ?? null),
          builtin: true,
          ...toolNameKey(part),
        });
        break;
      }
      case "file": {
        const file = isObject(part.content) ? part.content : null;
        const rendered = file ? renderAttachment({ ...file, kind: "binary" }) : null;
        if (rendered) {
          turnParts.push(rendered.part);
          texts.push(rendered.text);
        }
        break;
      }
      case "compaction": {
        // Anthropic gives a readable summary; OpenAI's is encrypted (content null) and never shown.
        const summary = typeof part.content === "string" && part.content.trim() ? part.content : null;
        const compactionProvider = nonEmptyString(part.provider_name);
        compactions.push({
          key: `${index}:${partIndex}`,
          role: "system",
          content: summary ?? "Conversation compacted",
          timestamp,
          compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
          ...(compactionProvider ? { metadata: { providerName: compactionProvider } } : {}),
        });
        break;
      }
      default:
        break; // newer part kinds (speech, ...): nothing to show
    }
  });

  const usage = usageOf(message.usage);
  const metadata: JsonObject = {};
  const extras = {
    providerName: message.provider_name,
    finishReason: message.finish_reason,
    providerResponseId: message.provider_response_id,
  };
  for (const [name, value] of Object.entries(extras)) {
    const text = nonEmptyString(value);
    if (text) metadata[name] = text;
  }
  // A response that only compacted, with no usage to count, needs no assistant turn of its own.
  if (turnParts.length === 0 && !usage && compactions.length > 0) return compactions;
  const assistant: ImportedTurn = {
    key: String(index),
    role: "assistant",
    content: texts.join("\n\n"),
    parts: turnParts,
    timestamp,
    modelProvider,
    modelName,
    usage,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
  return [...compactions, assistant];
}

/** Tool arguments as JSON when the source gives a JSON string that parses, else as given. */
function parseArguments(args: JsonValue | undefined): JsonValue | undefined {
  if (args === undefined || args === null) return undefined;
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args) as JsonValue;
  } catch {
    return args;
  }
}

/**
 * RequestUsage -> ImportedUsage. pydantic-ai's input_tokens include cache reads and writes
 * (docs/formats.md §10, "pydantic-ai"), so both are taken out to get the uncached input the shared type means.
 * Old dumps say request_tokens/response_tokens and have no cache counters.
 */
function usageOf(value: JsonValue | undefined): ImportedUsage | null {
  if (!isObject(value)) return null;
  const count = (v: JsonValue | undefined) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);
  const input = count(value.input_tokens) ?? count(value.request_tokens);
  const cacheRead = count(value.cache_read_tokens);
  const cacheWrite = count(value.cache_write_tokens);
  const output = count(value.output_tokens) ?? count(value.response_tokens);
  const reasoning = isObject(value.details) ? count(value.details.reasoning_tokens) : undefined;
  const usage: ImportedUsage = {};
  if (input !== undefined) usage.inputTokens = Math.max(0, input - (cacheRead ?? 0) - (cacheWrite ?? 0));
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  if (output !== undefined) usage.outputTokens = output;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return Object.keys(usage).length > 0 ? usage : null;
}

/** provider_name as pydantic-ai writes it ("openai", "anthropic", "google-gla", "google-vertex", ...). */
function providerOf(providerName: JsonValue | undefined, modelName: string | null): string | null {
  const name = nonEmptyString(providerName);
  if (name) return name.startsWith("google") ? "google" : name;
  // Old dumps have no provider_name; the model's name usually says whose it is.
  if (!modelName) return null;
  if (/^(gpt-|o\d|chatgpt-)/i.test(modelName)) return "openai";
  if (/^claude/i.test(modelName)) return "anthropic";
  if (/^gemini/i.test(modelName)) return "google";
  return null;
}
