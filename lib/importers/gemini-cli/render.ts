// Gemini Part[] content to text and turn parts; tool arguments; token usage; times.
import type { JsonValue, TurnPart } from "@/lib/domain/types";
import { isObject, type ImportedUsage } from "../types";
import type { JsonRecord, ThreadState } from "./shapes";

type Rendered = { parts: TurnPart[]; texts: string[]; droppedDuplicates: boolean };

/**
 * A Gemini `PartListUnion` (string, Part, or a list of both) as parts and readable text.
 * `skipCallIds`: functionCall parts already given by the message's toolCalls (a rewritten
 * history carries both).
 */
export function renderParts(
  content: JsonValue | undefined,
  messageId: string,
  state: ThreadState,
  skipCallIds: ReadonlySet<string> = new Set(),
): Rendered {
  const rendered: Rendered = { parts: [], texts: [], droppedDuplicates: false };
  asPartList(content).forEach((part, index) => {
    if (typeof part === "string") {
      if (!part) return;
      rendered.parts.push({ type: "text", text: part });
      rendered.texts.push(part);
      return;
    }
    if (typeof part.text === "string") {
      if (part.thought === true) {
        rendered.parts.push({ type: "thinking", text: part.text });
      } else if (part.text) {
        rendered.parts.push({ type: "text", text: part.text });
        rendered.texts.push(part.text);
      }
      return;
    }
    if (isObject(part.functionCall)) {
      const call = part.functionCall;
      const id = typeof call.id === "string" && call.id ? call.id : `${messageId}:part-${index}`;
      if (skipCallIds.has(id)) return;
      const name = typeof call.name === "string" && call.name ? call.name : "tool";
      const args = parseArguments(call.args);
      rendered.parts.push({ type: "tool_call", id, name, ...(args !== undefined ? { arguments: args } : {}) });
      rendered.texts.push(callLine(name, args));
      return;
    }
    if (isObject(part.functionResponse)) {
      const response = part.functionResponse;
      const id = typeof response.id === "string" && response.id ? response.id : `${messageId}:part-${index}`;
      if (state.resultIds.has(id)) {
        rendered.droppedDuplicates = true;
        return;
      }
      state.resultIds.add(id);
      const name = typeof response.name === "string" && response.name ? response.name : "tool";
      const text = responseText(response.response);
      const isError = isObject(response.response) && response.response.error !== undefined;
      rendered.parts.push({ type: "tool_result", toolCallId: id, content: text, isError, name });
      rendered.texts.push(`[${name}] ${text}`);
      return;
    }
    if (isObject(part.executableCode) && typeof part.executableCode.code === "string") {
      const language = typeof part.executableCode.language === "string" ? part.executableCode.language.toLowerCase() : "";
      const text = `\`\`\`${language === "language_unspecified" ? "" : language}\n${part.executableCode.code}\n\`\`\``;
      rendered.parts.push({ type: "text", text });
      rendered.texts.push(text);
      return;
    }
    if (isObject(part.codeExecutionResult) && typeof part.codeExecutionResult.output === "string") {
      rendered.parts.push({ type: "text", text: part.codeExecutionResult.output });
      rendered.texts.push(part.codeExecutionResult.output);
      return;
    }
    const media = mediaPart(part, "attached to the message");
    if (media) {
      rendered.parts.push(media.part);
      rendered.texts.push(media.text);
    }
  });
  return rendered;
}

/**
 * inlineData / fileData as an image part (never the base64 data), or a text placeholder for other
 * media types (TurnPart has no generic attachment).
 */
export function mediaPart(part: JsonRecord, where: string): { part: TurnPart; text: string } | null {
  const inline = isObject(part.inlineData) ? part.inlineData : null;
  const file = isObject(part.fileData) ? part.fileData : null;
  const media = inline ?? file;
  if (!media) return null;
  const mediaType = typeof media.mimeType === "string" ? media.mimeType : undefined;
  const uri = file && typeof file.fileUri === "string" ? file.fileUri : undefined;
  if (mediaType?.startsWith("image/")) {
    return { part: { type: "image", ...(uri ? { path: uri } : {}), mediaType, alt: `image ${where}` }, text: "[image]" };
  }
  const label = `[attachment: ${[mediaType ?? "file", uri].filter(Boolean).join(" ")}]`;
  return { part: { type: "text", text: label }, text: label };
}

/** PartListUnion as a list: a string, one Part object, or an array of both. */
export function asPartList(content: JsonValue | undefined): (string | JsonRecord)[] {
  if (typeof content === "string") return [content];
  if (isObject(content)) return [content];
  if (!Array.isArray(content)) return [];
  return content.filter((part): part is string | JsonRecord => typeof part === "string" || isObject(part));
}

/** Arguments as parsed JSON when the source gives a JSON string that parses; else as given. */
export function parseArguments(args: JsonValue | undefined): JsonValue | undefined {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args) as JsonValue;
  } catch {
    return args;
  }
}

/** One line of a tool call for the readable text: name and compact arguments, cut short. */
export function callLine(name: string, args: JsonValue | undefined): string {
  const text = args === undefined ? "" : JSON.stringify(args);
  return `[${name}] ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/**
 * Gemini `tokens` {input, output, cached, thoughts, tool, total} as ImportedUsage. `input`
 * (promptTokenCount) includes `cached`; `tool` (toolUsePromptTokenCount) is prompt-side too and
 * not part of `input`; `output` (candidatesTokenCount) excludes `thoughts`. So total =
 * inputTokens + cacheReadTokens + outputTokens + reasoningTokens. All zeros means the CLI never
 * got a usage report for the message (seen in 2025 sessions): no usage.
 */
export function usageOf(tokens: JsonValue | undefined): ImportedUsage | null {
  if (!isObject(tokens)) return null;
  const count = (value: JsonValue | undefined) =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
  const input = count(tokens.input);
  const cached = count(tokens.cached);
  const output = count(tokens.output);
  const thoughts = count(tokens.thoughts);
  const tool = count(tokens.tool);
  if ([input, cached, output, thoughts, tool, count(tokens.total)].every((value) => !value)) return null;
  const usage: ImportedUsage = {};
  if (input !== null || tool !== null) usage.inputTokens = Math.max(0, (input ?? 0) - (cached ?? 0)) + (tool ?? 0);
  if (cached !== null) usage.cacheReadTokens = cached;
  if (output !== null) usage.outputTokens = output;
  if (thoughts !== null) usage.reasoningTokens = thoughts;
  return usage;
}

export function isoOrNull(value: JsonValue | undefined): string | null {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** Text of a functionResponse.response: its `output`, else its `error`, else the JSON. */
export function responseText(response: JsonValue | undefined): string {
  if (typeof response === "string") return response;
  if (isObject(response)) {
    if (typeof response.output === "string") return response.output;
    if (typeof response.error === "string") return response.error;
    if (isObject(response.error) && typeof response.error.message === "string") return response.error.message;
  }
  return response === undefined ? "" : JSON.stringify(response);
}
