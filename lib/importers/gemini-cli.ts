/**
 * Gemini CLI chat recordings (~/.gemini/tmp/<project>/chats/session-*.json[l]), FORMATS.md section 3.
 * Pure: the caller supplies the parsed document (legacy `.json`) or the numbered lines (`.jsonl`).
 *
 * One session file is one thread (key = sessionId). The JSONL is replayed the way gemini-cli's own
 * writer builds its in-memory conversation (src: gemini-cli packages/core/src/services/
 * chatRecordingService.ts):
 * - a message record (has a string `id`) is re-appended whenever the message changes (tool calls
 *   added, tokens filled in): the last record per id wins, the first-seen position is kept;
 * - `{"$set": {...}}` merges into the session metadata; `$set.messages` replaces the whole message
 *   list at that point (history rewrites such as chat compression); later records apply on top;
 * - `{"$rewindTo": id}` drops that message and everything after it. A message re-appended after a
 *   rewind goes to the end, as in gemini-cli's Map.
 *
 * Message types: `user` -> user turn (a message made only of functionResponse parts is a "tool"
 * turn); `gemini` -> assistant turn (thoughts, text, tool calls) followed by a "tool" turn holding the
 * results recorded inside its toolCalls; `info` / `error` / `warning` -> system turns (the CLI shows
 * them in the conversation). Unknown types are ignored.
 */
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { titleFromContent } from "@/lib/domain/title";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type ImportedUsage, type NumberedLine, type ParsedSource, type SkippedEntry } from "./types";

export type GeminiSource = {
  /** File name or path: `session-<time>-<id8>.json[l]`, or `chats/<parentSessionId>/<sessionId>.jsonl`. */
  name: string;
  /** The parent session of a sub-agent chat, when the caller knows it (the file's directory name). */
  parentSessionId?: string;
};

type JsonRecord = Record<string, JsonValue>;
/** Where a record came from, for SkippedEntry: a 1-based line (JSONL) or a JSON path (legacy). */
type Where = { line: number } | { path: string };
type MessageAt = { record: JsonRecord; where: Where };

const SYSTEM_MESSAGE_TYPES = new Set(["info", "error", "warning"]);
/** Tool call states after which the call has a result (scheduler `Status`). */
const FINISHED_STATUSES = new Set(["success", "error", "cancelled"]);
/** A sub-agent chat's path: chats/<parentSessionId>/<sessionId>.jsonl. */
const SUBAGENT_PATH = /(?:^|[\\/])chats[\\/]([^\\/]+)[\\/][^\\/]+\.jsonl$/i;
const SESSION_FILE = /(?:^|[\\/])session-[^\\/]*\.jsonl?$/i;

// --- detection ---------------------------------------------------------------------------------

/** A cheap check on the parsed document and the file name: a legacy single-JSON session. */
export function looksLikeGeminiLegacy(doc: unknown, fileName: string): boolean {
  if (!isObject(doc) || typeof doc.sessionId !== "string" || !Array.isArray(doc.messages)) return false;
  return typeof doc.projectHash === "string" || SESSION_FILE.test(fileName);
}

/** A cheap check on the first parsed line and the file name: the JSONL metadata line. */
export function looksLikeGeminiJsonl(firstLine: unknown, fileName: string): boolean {
  if (!isObject(firstLine) || typeof firstLine.sessionId !== "string" || typeof firstLine.projectHash !== "string") return false;
  // A legacy document squeezed onto one line carries its messages; the JSONL metadata line never does.
  return !Array.isArray(firstLine.messages) || /\.jsonl$/i.test(fileName);
}

// --- entry points ------------------------------------------------------------------------------

/** The legacy format: one JSON object `{sessionId, projectHash, startTime, lastUpdated, messages, ...}`. */
export function parseGeminiLegacy(doc: unknown, source: GeminiSource): ParsedSource {
  if (!isObject(doc)) throw new ImportFormatError(`${source.name}: not a Gemini CLI session (expected a JSON object)`);
  if (typeof doc.sessionId !== "string" || !doc.sessionId) {
    throw new ImportFormatError(`${source.name}: not a Gemini CLI session (sessionId missing or not a string)`);
  }
  if (!Array.isArray(doc.messages)) throw new ImportFormatError(`${source.name}: not a Gemini CLI session (messages is not an array)`);

  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const messages = new Map<string, MessageAt>();
  doc.messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isObject(message)) {
      skipped.push({ path, reason: "not a JSON object" });
      return;
    }
    if (typeof message.id !== "string" || !message.id) {
      skipped.push({ path, reason: "id: missing or not a string" });
      return;
    }
    // Ids are unique in practice; should one repeat, treat it like the JSONL (last copy wins).
    messages.set(message.id, { record: message, where: { path } });
  });
  const { messages: _messages, ...metadata } = doc;
  const thread = buildThread(metadata, [...messages.values()], source, skipped, warnings);
  skipped.sort((a, b) => messageIndexOf(a) - messageIndexOf(b));
  return { format: "gemini-cli", threads: thread ? [thread] : [], skipped, warnings };
}

/** The current append-only JSONL: metadata line, message records, `$set` and `$rewindTo` lines. */
export function parseGeminiJsonl(lines: Iterable<NumberedLine>, source: GeminiSource): ParsedSource {
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  let metadata: JsonRecord = {};
  const messages = new Map<string, MessageAt>();
  let rewinds = 0;
  let historyRewrites = 0;
  // A bad line is reported once we know whether it was the last one (a truncated live append).
  let pendingBad: SkippedEntry | null = null;

  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    if (pendingBad) skipped.push(pendingBad);
    pendingBad = null;
    let record: unknown;
    try {
      record = JSON.parse(text) as unknown;
    } catch {
      pendingBad = { line, reason: "not valid JSON" };
      continue;
    }
    if (!isObject(record)) {
      skipped.push({ line, reason: "not a JSON object" });
      continue;
    }
    // Same order of tests as gemini-cli's loader.
    if ("$rewindTo" in record) {
      const target = record.$rewindTo;
      if (typeof target !== "string") {
        skipped.push({ line, reason: "$rewindTo: not a string message id" });
      } else if (rewindTo(messages, target)) {
        rewinds += 1;
      } else {
        // gemini-cli's loader would drop the whole history here; keeping it loses nothing.
        warnings.push(`line ${line}: $rewindTo names message "${target}", which is not in the history before it; nothing was dropped`);
      }
    } else if (typeof record.id === "string" && record.id) {
      messages.set(record.id, { record, where: { line } });
    } else if ("id" in record) {
      skipped.push({ line, reason: "id: empty or not a string" });
    } else if ("$set" in record) {
      const update = record.$set;
      if (!isObject(update)) {
        skipped.push({ line, reason: "$set: not an object" });
        continue;
      }
      const { messages: replacement, ...fields } = update;
      metadata = { ...metadata, ...fields };
      if (replacement !== undefined) {
        if (!Array.isArray(replacement)) {
          skipped.push({ line, reason: "$set.messages: not an array" });
        } else {
          replaceHistory(messages, replacement, line, skipped);
          historyRewrites += 1;
        }
      }
    } else if (typeof record.sessionId === "string" && typeof record.projectHash === "string") {
      metadata = { ...metadata, ...record };
    } else if (typeof record.type === "string" && ["user", "gemini", ...SYSTEM_MESSAGE_TYPES].includes(record.type)) {
      skipped.push({ line, reason: `${record.type} message without an id` });
    }
    // Anything else is a record type this parser does not know: tolerated silently.
  }
  if (pendingBad) skipped.push({ ...pendingBad, reason: "not valid JSON (truncated last line?)" });

  if (typeof metadata.sessionId !== "string" || !metadata.sessionId || typeof metadata.projectHash !== "string") {
    throw new ImportFormatError(`${source.name}: not a Gemini CLI chat recording (no metadata line with sessionId and projectHash)`);
  }
  const extra: JsonObject = {};
  if (rewinds > 0) extra.rewinds = rewinds;
  if (historyRewrites > 0) extra.historyRewrites = historyRewrites;
  const thread = buildThread(metadata, [...messages.values()], source, skipped, warnings, extra);
  // Turn building reports its skips after the parse's: put them back in file order.
  skipped.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { format: "gemini-cli", threads: thread ? [thread] : [], skipped, warnings };
}

function messageIndexOf(entry: SkippedEntry): number {
  return Number(/^messages\[(\d+)\]/.exec(entry.path ?? "")?.[1] ?? 0);
}

// --- replay ------------------------------------------------------------------------------------

/** Drops `id` and every message after it (Map order). False when `id` is not there. */
function rewindTo(messages: Map<string, MessageAt>, id: string): boolean {
  if (!messages.has(id)) return false;
  let dropping = false;
  for (const key of [...messages.keys()]) {
    if (key === id) dropping = true;
    if (dropping) messages.delete(key);
  }
  return true;
}

/** `$set.messages`: the message list as gemini-cli rewrote it replaces everything recorded so far. */
function replaceHistory(messages: Map<string, MessageAt>, replacement: JsonValue[], line: number, skipped: SkippedEntry[]): void {
  messages.clear();
  replacement.forEach((message, index) => {
    if (!isObject(message)) {
      skipped.push({ line, reason: `$set.messages[${index}]: not a JSON object` });
    } else if (typeof message.id !== "string" || !message.id) {
      skipped.push({ line, reason: `$set.messages[${index}]: id missing or not a string` });
    } else {
      messages.set(message.id, { record: message, where: { line } });
    }
  });
}

// --- thread ------------------------------------------------------------------------------------

function buildThread(
  metadata: JsonRecord,
  messages: MessageAt[],
  source: GeminiSource,
  skipped: SkippedEntry[],
  warnings: string[],
  extraMetadata: JsonObject = {},
): ImportedThread | null {
  const sessionId = String(metadata.sessionId);
  const state: ThreadState = { resultIds: new Set() };
  const turns = messages.flatMap((message) => turnsOf(message, state, skipped));
  if (turns.length === 0) {
    // gemini-cli creates the file when it starts, so sessions quit before the first prompt are common.
    warnings.push(`${source.name}: session ${sessionId} has no messages; nothing imported`);
    return null;
  }

  const kind = typeof metadata.kind === "string" ? metadata.kind : null;
  const directories = Array.isArray(metadata.directories) ? metadata.directories.filter((d): d is string => typeof d === "string") : null;
  const summary = typeof metadata.summary === "string" ? titleFromContent(metadata.summary) : null;
  const firstUser = turns.find((turn) => turn.role === "user");
  const parentKey = kind === "subagent" ? parentSessionOf(source, sessionId) : null;

  return {
    key: sessionId,
    ...(parentKey ? { parentKey, relation: { kind: "subagent", toolCallId: null } } : {}),
    title: summary ?? (firstUser ? titleFromContent(firstUser.content) : null),
    toolName: "gemini-cli",
    project: directories?.[0] ?? null,
    createdAt: isoOrNull(metadata.startTime) ?? turns[0]?.timestamp ?? null,
    lastUpdatedAt: isoOrNull(metadata.lastUpdated) ?? turns.at(-1)?.timestamp ?? null,
    metadata: {
      projectHash: typeof metadata.projectHash === "string" ? metadata.projectHash : null,
      kind,
      directories,
      ...extraMetadata,
    },
    turns,
  };
}

/** The parent of a sub-agent chat: the caller's word, else the directory of chats/<parent>/<id>.jsonl. */
function parentSessionOf(source: GeminiSource, sessionId: string): string | null {
  if (source.parentSessionId) return source.parentSessionId;
  const parent = SUBAGENT_PATH.exec(source.name)?.[1];
  return parent && parent !== sessionId ? parent : null;
}

// --- turns -------------------------------------------------------------------------------------

type ThreadState = {
  /** Tool call ids whose result has been emitted: a rewritten history repeats them as user parts. */
  resultIds: Set<string>;
};

function turnsOf({ record, where }: MessageAt, state: ThreadState, skipped: SkippedEntry[]): ImportedTurn[] {
  const id = String(record.id);
  const type = record.type;
  if (typeof type !== "string") {
    skipped.push({ ...where, reason: `message ${id}: type missing or not a string` });
    return [];
  }
  const timestamp = isoOrNull(record.timestamp);
  if (type === "user") {
    const turn = userTurn(id, record, timestamp, state);
    return turn ? [turn] : [];
  }
  if (type === "gemini") return geminiTurns(id, record, timestamp, state);
  if (SYSTEM_MESSAGE_TYPES.has(type)) {
    const rendered = renderParts(record.content, id, state);
    return [{ key: id, role: "system", content: rendered.texts.join("\n"), timestamp, metadata: { messageType: type } }];
  }
  return []; // a message type this parser does not know
}

function userTurn(id: string, record: JsonRecord, timestamp: string | null, state: ThreadState): ImportedTurn | null {
  const rendered = renderParts(record.content, id, state);
  // Everything in it repeated tool results already shown with their calls (a history rewrite).
  if (rendered.parts.length === 0 && rendered.droppedDuplicates) return null;
  const onlyResults = rendered.parts.length > 0 && rendered.parts.every((part) => part.type === "tool_result");
  const metadata: JsonObject = {};
  if (record.displayContent !== undefined && record.displayContent !== null) {
    // What the CLI showed instead of what the model got (e.g. "/init" for the expanded prompt).
    const shown = renderParts(record.displayContent, id, { resultIds: new Set() }).texts.join("\n");
    if (shown !== rendered.texts.join("\n")) metadata.displayContent = shown;
  }
  return {
    key: id,
    role: onlyResults ? "tool" : "user",
    content: rendered.texts.join("\n"),
    ...(rendered.parts.length > 0 ? { parts: rendered.parts } : {}),
    timestamp,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function geminiTurns(id: string, record: JsonRecord, timestamp: string | null, state: ThreadState): ImportedTurn[] {
  const parts: TurnPart[] = [];
  const texts: string[] = [];

  for (const thought of Array.isArray(record.thoughts) ? record.thoughts : []) {
    if (!isObject(thought)) continue;
    const subject = typeof thought.subject === "string" ? thought.subject.trim() : "";
    const description = typeof thought.description === "string" ? thought.description.trim() : "";
    if (!subject && !description) continue;
    parts.push({
      type: "thinking",
      text: [subject, description].filter(Boolean).join("\n\n"),
      ...(subject ? { subject } : {}),
      ...(typeof thought.timestamp === "string" ? { timestamp: thought.timestamp } : {}),
    });
  }

  const calls = (Array.isArray(record.toolCalls) ? record.toolCalls : []).filter(isObject);
  const callIds = calls.map((call, index) => (typeof call.id === "string" && call.id ? call.id : `${id}:call-${index}`));
  const rendered = renderParts(record.content, id, state, new Set(callIds));
  parts.push(...rendered.parts);
  texts.push(...rendered.texts);

  const resultParts: TurnPart[] = [];
  const resultTexts: string[] = [];
  let resultTime: string | null = null;
  calls.forEach((call, index) => {
    const callId = callIds[index]!;
    const name = typeof call.name === "string" && call.name ? call.name : "tool";
    const args = parseArguments(call.args);
    parts.push({
      type: "tool_call",
      id: callId,
      name,
      ...(args !== undefined ? { arguments: args } : {}),
      ...(typeof call.agentId === "string" ? { agentId: call.agentId } : {}),
    });
    texts.push(callLine(name, args));

    const result = toolResultOf(callId, name, call);
    if (!result || state.resultIds.has(callId)) return;
    state.resultIds.add(callId);
    resultParts.push(...result.parts);
    resultTexts.push(result.text ? `[${name}] ${result.text}` : `[${name}]`);
    const callTime = isoOrNull(call.timestamp);
    if (callTime && (!resultTime || callTime > resultTime)) resultTime = callTime;
  });

  const usage = usageOf(record.tokens);
  const metadata: JsonObject = {};
  if (isObject(record.tokens)) metadata.tokens = record.tokens;
  const assistant: ImportedTurn = {
    key: id,
    role: "assistant",
    content: texts.join("\n\n"),
    ...(parts.length > 0 ? { parts } : {}),
    timestamp,
    modelProvider: "google",
    modelName: typeof record.model === "string" && record.model ? record.model : null,
    usage,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
  if (resultParts.length === 0) return [assistant];
  return [assistant, { key: `${id}:results`, role: "tool", content: resultTexts.join("\n\n"), parts: resultParts, timestamp: resultTime ?? timestamp }];
}

/** A tool call's result as recorded inside the call, or null while the call had none. */
function toolResultOf(callId: string, name: string, call: JsonRecord): { parts: TurnPart[]; text: string } | null {
  const status = typeof call.status === "string" ? call.status : null;
  const hasResult = call.result !== undefined && call.result !== null && !(Array.isArray(call.result) && call.result.length === 0);
  const display = call.resultDisplay;
  const hasDisplay = (typeof display === "string" && display !== "") || isObject(display);
  if (!hasResult && !hasDisplay && !(status && FINISHED_STATUSES.has(status))) return null;

  const texts: string[] = [];
  const images: TurnPart[] = [];
  let errorResponse = false;
  for (const part of asPartList(call.result)) {
    if (typeof part === "string") {
      texts.push(part);
    } else if (isObject(part.functionResponse)) {
      const response = part.functionResponse.response;
      if (isObject(response) && response.error !== undefined) errorResponse = true;
      texts.push(responseText(response));
    } else if (typeof part.text === "string") {
      texts.push(part.text);
    } else {
      const media = mediaPart(part, "tool output");
      if (media) {
        if (media.part.type === "image") images.push(media.part);
        texts.push(media.text);
      }
    }
  }
  // Older records may lack `result`; the display text is what the user saw.
  if (texts.length === 0 && typeof display === "string" && display) texts.push(display);
  const fileDiff = isObject(display) && typeof display.fileDiff === "string" ? display.fileDiff : null;
  if (texts.length === 0 && fileDiff) texts.push(fileDiff);

  const text = texts.filter(Boolean).join("\n");
  // A cancelled call answers with an error response but is the user's choice, not a failure.
  const isError = status === "error" || (status === null && errorResponse);
  return {
    text,
    parts: [
      {
        type: "tool_result",
        toolCallId: callId,
        content: text,
        isError,
        name,
        ...(status ? { status } : {}),
        ...(fileDiff ? { fileDiff } : {}),
      },
      ...images,
    ],
  };
}

/** Text of a functionResponse.response: its `output`, else its `error`, else the JSON. */
function responseText(response: JsonValue | undefined): string {
  if (typeof response === "string") return response;
  if (isObject(response)) {
    if (typeof response.output === "string") return response.output;
    if (typeof response.error === "string") return response.error;
    if (isObject(response.error) && typeof response.error.message === "string") return response.error.message;
  }
  return response === undefined ? "" : JSON.stringify(response);
}

type Rendered = { parts: TurnPart[]; texts: string[]; droppedDuplicates: boolean };

/**
 * A Gemini `PartListUnion` (string, Part, or a list of both) as parts and readable text.
 * `skipCallIds`: functionCall parts already given by the message's toolCalls (a rewritten
 * history carries both).
 */
function renderParts(content: JsonValue | undefined, messageId: string, state: ThreadState, skipCallIds: ReadonlySet<string> = new Set()): Rendered {
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
function mediaPart(part: JsonRecord, where: string): { part: TurnPart; text: string } | null {
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
function asPartList(content: JsonValue | undefined): (string | JsonRecord)[] {
  if (typeof content === "string") return [content];
  if (isObject(content)) return [content];
  if (!Array.isArray(content)) return [];
  return content.filter((part): part is string | JsonRecord => typeof part === "string" || isObject(part));
}

/** Arguments as parsed JSON when the source gives a JSON string that parses; else as given. */
function parseArguments(args: JsonValue | undefined): JsonValue | undefined {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args) as JsonValue;
  } catch {
    return args;
  }
}

/** One line of a tool call for the readable text: name and compact arguments, cut short. */
function callLine(name: string, args: JsonValue | undefined): string {
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
function usageOf(tokens: JsonValue | undefined): ImportedUsage | null {
  if (!isObject(tokens)) return null;
  const count = (value: JsonValue | undefined) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null);
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

function isoOrNull(value: JsonValue | undefined): string | null {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
