/**
 * pydantic-ai message history (docs/formats.md §10, "pydantic-ai"): the JSON list that
 * `ModelMessagesTypeAdapter.dump_json(...)` / `result.all_messages_json()` write, which is how
 * co-cli plans to save its sessions (co-cli's conversation-memory design, "Session Persistence").
 *
 * The list is linear, discriminated by `kind`:
 * - `request`  (ModelRequest):  parts system-prompt, user-prompt, tool-return, retry-prompt
 *                               (+ newer kinds, ignored), and `instructions`.
 * - `response` (ModelResponse): parts text, tool-call, thinking (+ builtin-tool-call/-return, file,
 *                               compaction), model_name, provider_name, usage, timestamp.
 *
 * Turns, in list order:
 * - user-prompt -> user turn; system-prompt -> system turn;
 * - a request's `instructions` -> a system turn when they first appear or change (pydantic-ai sends
 *   them with every request but does not keep them as parts);
 * - a response -> one assistant turn (text, thinking and tool_call parts; usage counted once);
 *   a compaction part -> a system turn marking the compaction, just before it;
 * - tool-return -> a tool turn with a tool_result part (toolCallId = tool_call_id);
 * - retry-prompt with a tool_name -> a tool turn whose result is an error; without one it is
 *   output-validation feedback that pydantic-ai sends as a user message -> a user turn.
 *
 * Keys. Messages have no ids. A history whose messages name one `conversation_id` is that
 * conversation (identity "source", whatever the file is called). Without one (or with several) the
 * format has no thread id: one file is one thread whose key is the file name without its extension
 * (identity "name"): re-importing the same file, or a longer save of the same session under the same
 * name, updates the same thread; a renamed file becomes a new thread, and a history imported without
 * a name is a new thread every time (lib/imports/import-file.ts). A turn's key is its message's index in the
 * list, plus `:<partIndex>` when the message yields several turns; an instructions turn is
 * `<index>:instructions`. Turn ids also hold what the turn holds, so an edited message is a
 * difference and the thread is rewritten from there.
 */
import type { JsonObject, JsonValue, TurnPart, TurnRole } from "@/lib/domain/types";
import {
  fileStem,
  ImportFormatError,
  isObject,
  type ImportedThread,
  type ImportedTurn,
  type ImportedUsage,
  type ParsedSource,
  type SkippedEntry,
} from "./types";
import { callLine, collapse, isoUtc } from "./text";
import { isRealPrompt } from "@/lib/domain/title";

type JsonRecord = Record<string, JsonValue>;

function isMessageLike(value: unknown): value is JsonRecord {
  return isObject(value) && (value.kind === "request" || value.kind === "response");
}

/**
 * A cheap check on the parsed document: a list whose first element is a ModelRequest or
 * ModelResponse (`kind` + `parts`). Exclusive with the other JSON formats: plain lists have
 * `role`/`content` and no `kind`, ChatGPT conversations `mapping`, PAL threads `thread_id`, a
 * Threadline export is an object.
 */
export function looksLikePydanticAiMessages(doc: unknown, fileName: string): boolean {
  if (/\.jsonl$/i.test(fileName) || !Array.isArray(doc)) return false;
  const first: unknown = doc[0];
  return isMessageLike(first) && Array.isArray(first.parts) && !("role" in first);
}

export function parsePydanticAiMessages(doc: unknown, source: { name: string }): ParsedSource {
  if (!Array.isArray(doc)) {
    throw new ImportFormatError(
      `${source.name}: not a pydantic-ai message history (expected a JSON list of messages with kind "request" or "response")`,
    );
  }
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  if (doc.length === 0) {
    warnings.push(`${source.name}: the message list is empty, nothing to import`);
    return { format: "pydantic-ai", threads: [], skipped, warnings };
  }
  if (!doc.some(isMessageLike)) {
    throw new ImportFormatError(`${source.name}: not a pydantic-ai message history (no element has kind "request" or "response")`);
  }

  const turns: ImportedTurn[] = [];
  const runIds = new Set<string>();
  const conversationIds = new Set<string>();
  let currentInstructions: string | null = null;

  doc.forEach((message: JsonValue, index) => {
    const path = `[${index}]`;
    if (!isObject(message)) {
      skipped.push({ path, reason: 'must be a message object with kind "request" or "response"' });
      return;
    }
    if (typeof message.kind !== "string") {
      skipped.push({ path, reason: 'kind: must be "request" or "response"' });
      return;
    }
    if (message.kind !== "request" && message.kind !== "response") return; // a newer message kind: not ours to read
    if (!Array.isArray(message.parts)) {
      skipped.push({ path, reason: "parts: must be a list" });
      return;
    }
    if (typeof message.run_id === "string" && message.run_id) runIds.add(message.run_id);
    if (typeof message.conversation_id === "string" && message.conversation_id) conversationIds.add(message.conversation_id);

    if (message.kind === "request") {
      const instructions = typeof message.instructions === "string" && message.instructions.trim() ? message.instructions : null;
      if (instructions && instructions !== currentInstructions) {
        turns.push({
          key: `${index}:instructions`,
          role: "system",
          content: instructions,
          timestamp: isoUtc(message.timestamp),
          metadata: { instructions: true },
        });
      }
      if (instructions) currentInstructions = instructions;
      turns.push(...requestTurns(message, message.parts, index, skipped));
    } else {
      turns.push(...responseTurns(message, message.parts, index, skipped));
    }
  });

  const conversationId = conversationIds.size === 1 ? [...conversationIds][0]! : null;
  const thread: ImportedThread = {
    ...(conversationId
      ? ({ key: `conversation:${conversationId}`, identity: "source" } as const)
      : ({ key: fileStem(source.name, "pydantic-ai"), identity: "name" } as const)),
    title: titleOf(turns),
    toolName: "pydantic-ai",
    createdAt: earliest(turns),
    lastUpdatedAt: latest(turns),
    ...(runIds.size > 0 || conversationIds.size > 0
      ? {
          metadata: {
            ...(runIds.size > 0 ? { runIds: [...runIds] } : {}),
            ...(conversationIds.size > 0 ? { conversationIds: [...conversationIds] } : {}),
          },
        }
      : {}),
    turns,
  };
  if (turns.length === 0) warnings.push(`${source.name}: no message with readable content, nothing to import`);
  return { format: "pydantic-ai", threads: turns.length > 0 ? [thread] : [], skipped, warnings };
}

// --- requests ----------------------------------------------------------------------------------

type Keyless = Omit<ImportedTurn, "key"> & { partIndex: number };

function requestTurns(message: JsonRecord, parts: JsonValue[], index: number, skipped: SkippedEntry[]): ImportedTurn[] {
  const made: Keyless[] = [];
  const fallbackTime = isoUtc(message.timestamp);
  parts.forEach((part, partIndex) => {
    const path = `[${index}].parts[${partIndex}]`;
    if (!isObject(part)) {
      skipped.push({ path, reason: "must be a part object with a part_kind" });
      return;
    }
    const timestamp = isoUtc(part.timestamp) ?? fallbackTime;
    const kind = part.part_kind;
    if (kind === "system-prompt" || kind === "user-prompt") {
      const rendered =
        kind === "user-prompt"
          ? renderUserContent(part.content)
          : typeof part.content === "string"
            ? { text: part.content, parts: null }
            : null;
      if (!rendered) {
        skipped.push({ path, reason: `content: must be a string${kind === "user-prompt" ? " or a list of user content" : ""}` });
        return;
      }
      const role: TurnRole = kind === "user-prompt" ? "user" : "system";
      made.push({ partIndex, role, content: rendered.text, ...(rendered.parts ? { parts: rendered.parts } : {}), timestamp });
    } else if (kind === "tool-return" || (typeof kind === "string" && kind.endsWith("-return") && kind !== "builtin-tool-return")) {
      // Typed subclasses (tool-search-return, ...) are tool returns too.
      const toolCallId = nonEmptyString(part.tool_call_id);
      if (!toolCallId) {
        skipped.push({ path, reason: "tool_call_id: must be a non-empty string" });
        return;
      }
      const isError = part.outcome === "failed" || part.outcome === "denied";
      made.push({
        partIndex,
        role: "tool",
        content: renderToolContent(part.content),
        parts: [
          {
            type: "tool_result",
            toolCallId,
            content: withoutBinaryData(part.content ?? null),
            ...(isError ? { isError: true } : {}),
            ...toolNameKey(part),
          },
        ],
        timestamp,
      });
    } else if (kind === "retry-prompt") {
      const text = renderRetryContent(part.content);
      const toolCallId = nonEmptyString(part.tool_call_id);
      // pydantic-ai fills tool_call_id even for output-validation retries; tool_name tells them apart.
      if (toolCallId && nonEmptyString(part.tool_name)) {
        made.push({
          partIndex,
          role: "tool",
          content: text,
          parts: [{ type: "tool_result", toolCallId, content: text, isError: true, ...toolNameKey(part) }],
          timestamp,
        });
      } else {
        made.push({ partIndex, role: "user", content: text, timestamp, metadata: { retryPrompt: true } });
      }
    }
    // Other part kinds (instruction, tool-availability-delta, ...) carry nothing to show.
  });
  return made.map(({ partIndex, ...turn }) => ({ ...turn, key: made.length > 1 ? `${index}:${partIndex}` : String(index) }));
}

function toolNameKey(part: JsonRecord): { toolName?: string } {
  const name = nonEmptyString(part.tool_name);
  return name ? { toolName: name } : {};
}

/** A user prompt's text and, when it holds more than text, its structured parts. */
function renderUserContent(content: JsonValue | undefined): { text: string; parts: TurnPart[] | null } | null {
  if (typeof content === "string") return { text: content, parts: null };
  if (!Array.isArray(content)) return null;
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  for (const item of content) {
    if (typeof item === "string") {
      parts.push({ type: "text", text: item });
      texts.push(item);
    } else if (isObject(item)) {
      const rendered = renderAttachment(item);
      if (!rendered) continue;
      parts.push(rendered.part);
      texts.push(rendered.text);
    }
  }
  const text = texts.join("\n\n");
  return { text, parts: parts.some((p) => p.type !== "text") ? parts : null };
}

const URL_KINDS: Record<string, string> = { "image-url": "image", "audio-url": "audio", "video-url": "video", "document-url": "document" };

/**
 * One item of multi-modal user content (or of a tool's return): text-content, image-url,
 * audio/video/document-url, binary, uploaded-file. Images become image parts; base64 data and data:
 * URLs are never kept, only the media type and a label.
 */
function renderAttachment(item: JsonRecord): { part: TurnPart; text: string } | null {
  const kind = typeof item.kind === "string" ? item.kind : "";
  if (kind === "text-content" && typeof item.content === "string")
    return { part: { type: "text", text: item.content }, text: item.content };
  const mediaType = nonEmptyString(item.media_type) ?? mediaTypeOfDataUrl(item.url);
  const url = typeof item.url === "string" && !item.url.startsWith("data:") ? item.url : null;
  const identifier = nonEmptyString(item.identifier);
  const label = url ?? identifier ?? mediaType ?? kind;
  if (kind === "image-url" || (kind === "binary" && mediaType?.startsWith("image/"))) {
    return {
      part: { type: "image", ...(mediaType ? { mediaType } : {}), alt: `image ${label}`.trim(), ...(url ? { url } : {}) },
      text: "[image]",
    };
  }
  if (kind in URL_KINDS || kind === "binary") {
    const noun = URL_KINDS[kind] ?? "file";
    const text = `[${noun}: ${label}]`;
    return { part: { type: "text", text, attachment: kind, ...(mediaType ? { mediaType } : {}) }, text };
  }
  if (kind === "uploaded-file") {
    const text = `[uploaded file: ${nonEmptyString(item.file_id) ?? label}]`;
    return { part: { type: "text", text, attachment: kind }, text };
  }
  return null; // cache-point markers and unknown kinds
}

function mediaTypeOfDataUrl(url: JsonValue | undefined): string | null {
  if (typeof url !== "string") return null;
  return /^data:([^;,]+)[;,]/.exec(url)?.[1] ?? null;
}

const MULTI_MODAL_KINDS = new Set(["image-url", "audio-url", "video-url", "document-url", "binary", "uploaded-file", "text-content"]);

/** Readable text of a tool's return value: strings as they are, files as labels, data as JSON. */
function renderToolContent(content: JsonValue | undefined): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return withoutDataUrl(content);
  const items = Array.isArray(content) ? content : [content];
  if (!items.some((item) => isObject(item) && typeof item.kind === "string" && MULTI_MODAL_KINDS.has(item.kind))) {
    return JSON.stringify(withoutBinaryData(content));
  }
  return items
    .map((item) => {
      if (typeof item === "string") return withoutDataUrl(item);
      if (isObject(item) && typeof item.kind === "string" && MULTI_MODAL_KINDS.has(item.kind)) return renderAttachment(item)?.text ?? "";
      return JSON.stringify(withoutBinaryData(item));
    })
    .filter(Boolean)
    .join("\n");
}

/** A retry's text: the message, or one line per validation error (`loc: msg`). */
function renderRetryContent(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((error) => {
      if (!isObject(error)) return "";
      const loc = Array.isArray(error.loc) ? error.loc.map(String).join(".") : "";
      const msg = typeof error.msg === "string" ? error.msg : JSON.stringify(error);
      return loc ? `${loc}: ${msg}` : msg;
    })
    .filter(Boolean)
    .join("\n");
}

/** A base64 data: URL becomes a label naming its media type; any other text stays as it is. */
function withoutDataUrl(text: string): string {
  const mediaType = /^data:([^;,]*);base64,/.exec(text)?.[1];
  return mediaType === undefined ? text : `[${mediaType || "data"} omitted]`;
}

/** A copy of a tool's return value without base64 payloads (BinaryContent data, data: URLs). */
function withoutBinaryData(value: JsonValue): JsonValue {
  if (typeof value === "string") return withoutDataUrl(value);
  if (Array.isArray(value)) return value.map(withoutBinaryData);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "data" && value.kind === "binary") copy[key] = "[binary data omitted]";
    else copy[key] = withoutBinaryData(inner);
  }
  return copy;
}

// --- responses ---------------------------------------------------------------------------------

function responseTurns(message: JsonRecord, parts: JsonValue[], index: number, skipped: SkippedEntry[]): ImportedTurn[] {
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

// --- thread ------------------------------------------------------------------------------------

function titleOf(turns: ImportedTurn[]): string | null {
  const first = turns.find((t) => t.role === "user" && !t.metadata?.retryPrompt && isRealPrompt(t.content));
  return first ? collapse(first.content) : null;
}

function earliest(turns: ImportedTurn[]): string | null {
  const times = turns
    .map((t) => t.timestamp)
    .filter((t): t is string => !!t)
    .sort();
  return times[0] ?? null;
}

function latest(turns: ImportedTurn[]): string | null {
  const times = turns
    .map((t) => t.timestamp)
    .filter((t): t is string => !!t)
    .sort();
  return times.at(-1) ?? null;
}

function nonEmptyString(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value.trim() ? value : null;
}
