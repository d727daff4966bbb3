/**
 * Continue sessions (`~/.continue/sessions/<sessionId>.json`), docs/formats.md §18, "Continue".
 * Pure: the caller supplies the parsed document.
 *
 * One Session document {sessionId, title, workspaceDirectory, history, mode?, chatModelTitle?,
 * usage?} (src: continuedev/continue core/index.d.ts, core/util/history.ts, written by the IDE
 * extensions and by the `cn` CLI, extensions/cli/src/session.ts) is one thread keyed by sessionId.
 * Each history item {message, contextItems, promptLogs?, toolCallStates? (toolCallState before
 * July 2025), reasoning?, conversationSummary?} makes turns by `message.role`:
 * - user -> user turn (text and images; the context items' names in metadata);
 * - thinking -> its text goes to the next assistant turn as thinking (alone when none follows);
 * - assistant -> assistant turn (text, toolCalls as tool_call parts, `usage` per message, the
 *   model from the item's promptLogs, else the session's chatModelTitle);
 * - tool -> tool turn answering `toolCallId`; a call whose result lives only in its
 *   toolCallStates output (the CLI writes them there) gets a tool turn `<key>:results`;
 * - system -> system turn.
 * An item's `reasoning` ({text, startAt, endAt}, epoch ms: the only times in the file) becomes
 * thinking on its turn; `conversationSummary` a compaction turn after it (the CLI's compaction
 * item, whose content is the summary itself, becomes the compaction turn).
 */
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { isRealPrompt, titleFromContent } from "@/lib/domain/threads/title";
import { callLine } from "../text";
import { ImportFormatError, isObject, type ImportedTurn, type ImportedUsage, type ParsedSource, type SkippedEntry } from "../types";

type Json = Record<string, JsonValue>;
const ROLES = new Set(["user", "assistant", "thinking", "system", "tool"]);
/** The title Continue gives a session before it names it (core/util/constants.ts NEW_SESSION_TITLE). */
const NEW_SESSION_TITLE = "New Session";

const str = (value: JsonValue | undefined): string | null => (typeof value === "string" && value ? value : null);
const num = (value: JsonValue | undefined): number | null =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

// --- detection ---------------------------------------------------------------------------------

/** A Session: a sessionId and a history whose items each hold a message with a role. */
export function looksLikeContinueSession(doc: unknown, _fileName: string): boolean {
  if (!isObject(doc) || typeof doc.sessionId !== "string" || !Array.isArray(doc.history)) return false;
  const first = doc.history[0];
  if (first === undefined) return typeof doc.title === "string" && typeof doc.workspaceDirectory === "string";
  return isObject(first) && isObject(first.message) && typeof first.message.role === "string";
}

// --- parsing -----------------------------------------------------------------------------------

export function parseContinueSession(doc: unknown, source: { name: string }): ParsedSource {
  if (!isObject(doc)) throw new ImportFormatError(`${source.name}: not a Continue session (expected a JSON object)`);
  if (typeof doc.sessionId !== "string" || !doc.sessionId)
    throw new ImportFormatError(`${source.name}: not a Continue session (sessionId missing or not a string)`);
  if (!Array.isArray(doc.history))
    throw new ImportFormatError(
      `${source.name}: not a Continue session (history is ${doc.history === undefined ? "missing" : "not a list"})`,
    );

  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const sessionModel = str(doc.chatModelTitle);
  const items = doc.history
    .map((item, index) => ({ item, index }))
    .filter(({ item, index }) => {
      const path = `history[${index}]`;
      if (!isObject(item) || !isObject(item.message)) {
        skipped.push({ path, reason: "not an object with a message" });
        return false;
      }
      if (typeof item.message.role !== "string" || !ROLES.has(item.message.role)) {
        skipped.push({
          path,
          reason: `message.role: ${JSON.stringify(item.message.role ?? null)} is not user, assistant, thinking, system or tool`,
        });
        return false;
      }
      return true;
    }) as { item: Json & { message: Json }; index: number }[];

  // Tool results written as their own messages; the other calls' results come from toolCallStates.
  const answered = new Set<string>();
  for (const { item } of items)
    if (item.message.role === "tool" && str(item.message.toolCallId)) answered.add(str(item.message.toolCallId)!);
  const stateOf = new Map<string, Json>();
  for (const { item } of items) for (const state of toolStates(item)) if (str(state.toolCallId)) stateOf.set(str(state.toolCallId)!, state);

  const turns: ImportedTurn[] = [];
  const usedKeys = new Set<string>();
  let pendingThinking: TurnPart[] = [];
  let pendingThinkingKey: string | null = null;
  const flushThinking = () => {
    if (pendingThinking.length === 0) return;
    turns.push({ key: pendingThinkingKey!, role: "assistant", content: "", parts: pendingThinking });
    pendingThinking = [];
    pendingThinkingKey = null;
  };

  for (const { item, index } of items) {
    const message = item.message;
    const role = message.role as string;
    const key = uniqueKey(str(message.id) ?? `history-${index}`, usedKeys);
    const reasoning = reasoningOf(item);
    const timestamp = reasoning?.at ?? null;

    if (role === "thinking") {
      const text = contentOf(message.content).text;
      if (text) pendingThinking.push({ type: "thinking", text, ...(message.redactedThinking ? { redacted: true } : {}) });
      pendingThinkingKey ??= key;
      continue;
    }
    if (role !== "assistant") flushThinking();

    const summary = str(item.conversationSummary);
    if (role === "assistant" && summary && contentOf(message.content).text === summary) {
      // The CLI's compaction: the whole history before it replaced by this one summary item.
      flushThinking();
      turns.push(compactionTurn(key, summary, timestamp));
      continue;
    }

    if (role === "user") turns.push(userTurn(key, message, item, timestamp));
    else if (role === "system") {
      const text = contentOf(message.content).text;
      if (text) turns.push({ key, role: "system", content: text, timestamp });
    } else if (role === "tool") {
      turns.push(toolMessageTurn(key, message, stateOf, timestamp));
    } else {
      const turn = assistantTurn(key, item, message, sessionModel, timestamp);
      const thinking = [...pendingThinking, ...(reasoning ? [reasoning.part] : [])];
      if (thinking.length > 0) turn.parts = [...thinking, ...(turn.parts ?? [])];
      pendingThinking = [];
      pendingThinkingKey = null;
      turns.push(turn);
      const results = stateResults(key, item, answered, timestamp);
      if (results) turns.push(results);
    }
    // Reasoning on an item that is no reply: a reply of its own (the stream put it on the item before).
    if (reasoning && role !== "assistant")
      turns.push({ key: `${key}:reasoning`, role: "assistant", content: "", parts: [reasoning.part], timestamp });
    if (summary) turns.push(compactionTurn(`${key}:summary`, summary, timestamp));
  }
  flushThinking();

  if (turns.length === 0) {
    warnings.push(`${source.name}: session ${doc.sessionId} has no messages; nothing imported`);
    return { format: "continue", threads: [], skipped, warnings };
  }
  const title = str(doc.title);
  const firstPrompt = turns.find((turn) => turn.role === "user" && isRealPrompt(turn.content));
  const workspace = str(doc.workspaceDirectory);
  const times = turns.map((turn) => turn.timestamp).filter((t): t is string => !!t);
  return {
    format: "continue",
    threads: [
      {
        key: doc.sessionId,
        title: title && title !== NEW_SESSION_TITLE ? title : firstPrompt ? titleFromContent(firstPrompt.content) : null,
        toolName: "continue",
        project: workspace ? workspacePath(workspace) : null,
        createdAt: times[0] ?? null,
        lastUpdatedAt: times.at(-1) ?? null,
        metadata: defined({
          sessionId: doc.sessionId,
          workspaceDirectory: workspace,
          mode: str(doc.mode),
          chatModelTitle: sessionModel,
          // The session's running totals (the CLI's, with its own cost): each response's usage is on its turn.
          sessionUsage: isObject(doc.usage) ? doc.usage : null,
        }),
        turns,
      },
    ],
    skipped,
    warnings,
  };
}

// --- turns -------------------------------------------------------------------------------------

function userTurn(key: string, message: Json, item: Json, timestamp: string | null): ImportedTurn {
  const { text, parts } = contentOf(message.content);
  const metadata: JsonObject = {};
  const context = (Array.isArray(item.contextItems) ? item.contextItems : []).filter(isObject);
  // What was attached (@-files, code selections, ...): its name and where from; the text itself went into the prompt.
  if (context.length > 0)
    metadata.contextItems = context.map((c) =>
      defined({ name: str(c.name), description: str(c.description), uri: isObject(c.uri) ? str(c.uri.value) : null }),
    );
  return {
    key,
    role: "user",
    content: text,
    ...(parts.length > 0 ? { parts } : {}),
    timestamp,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function assistantTurn(key: string, item: Json, message: Json, sessionModel: string | null, timestamp: string | null): ImportedTurn {
  const { text, parts } = contentOf(message.content);
  const texts = text ? [text] : [];
  for (const call of (Array.isArray(message.toolCalls) ? message.toolCalls : []).filter(isObject)) {
    const fn = isObject(call.function) ? call.function : {};
    const id = str(call.id);
    if (!id) continue;
    const name = str(fn.name) ?? "tool";
    const args = parseArguments(fn.arguments);
    parts.push({ type: "tool_call", id, name, ...(args !== undefined ? { arguments: args } : {}) });
    texts.push(callLine(name, args));
  }
  const log = lastPromptLog(item);
  const completionModel = log && isObject(log.completionOptions) ? str(log.completionOptions.model) : null;
  const modelName = completionModel ?? (log ? str(log.modelTitle) : null) ?? sessionModel;
  const metadata: JsonObject = {};
  if (log && str(log.modelTitle)) metadata.modelTitle = str(log.modelTitle);
  if (!log && sessionModel) metadata.modelFromSession = true;
  const usage = usageOf(message.usage);
  if (isObject(message.usage)) metadata.continueUsage = message.usage;
  return {
    key,
    role: "assistant",
    content: texts.join("\n\n"),
    ...(parts.length > 0 ? { parts } : {}),
    timestamp,
    modelProvider: log ? str(log.modelProvider) : null,
    modelName,
    usage,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function toolMessageTurn(key: string, message: Json, stateOf: Map<string, Json>, timestamp: string | null): ImportedTurn {
  const callId = str(message.toolCallId) ?? `${key}:call`;
  const state = stateOf.get(callId);
  const status = state ? str(state.status) : null;
  const text = contentOf(message.content).text;
  const name = state ? toolName(state) : "tool";
  return {
    key,
    role: "tool",
    content: `[${name}] ${text}`.trimEnd(),
    parts: [{ type: "tool_result", toolCallId: callId, content: text, isError: status === "errored", name, ...(status ? { status } : {}) }],
    timestamp,
  };
}

/** The results of an item's calls that no tool message carries: the toolCallStates outputs (the CLI's only record of them). */
function stateResults(key: string, item: Json, answered: Set<string>, timestamp: string | null): ImportedTurn | null {
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  for (const state of toolStates(item)) {
    const callId = str(state.toolCallId);
    const status = str(state.status);
    if (!callId || answered.has(callId)) continue;
    const output = (Array.isArray(state.output) ? state.output : []).filter(isObject);
    // A call still generating or awaiting approval has no result.
    if (output.length === 0 && status !== "done" && status !== "errored" && status !== "canceled") continue;
    const text = output.map((o) => (typeof o.content === "string" ? o.content : "")).join("\n");
    const name = toolName(state);
    parts.push({
      type: "tool_result",
      toolCallId: callId,
      content: text,
      isError: status === "errored",
      name,
      ...(status ? { status } : {}),
    });
    texts.push(`[${name}] ${text}`.trimEnd());
  }
  return parts.length > 0 ? { key: `${key}:results`, role: "tool", content: texts.join("\n\n"), parts, timestamp } : null;
}

function compactionTurn(key: string, summary: string, timestamp: string | null): ImportedTurn {
  return { key, role: "system", content: summary, timestamp, compaction: { trigger: null, tokensBefore: null, tokensAfter: null } };
}

// --- pieces ------------------------------------------------------------------------------------

/** MessageContent (a string, or text and imageUrl parts) as text and turn parts; an image's data is never kept. */
function contentOf(content: JsonValue | undefined): { text: string; parts: TurnPart[] } {
  if (typeof content === "string") return { text: content, parts: content ? [{ type: "text", text: content }] : [] };
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (!isObject(part)) continue;
    if (part.type === "text" && typeof part.text === "string") {
      if (part.text) parts.push({ type: "text", text: part.text });
      texts.push(part.text);
    } else if (part.type === "imageUrl" && isObject(part.imageUrl)) {
      const url = str(part.imageUrl.url) ?? "";
      const mediaType = /^data:([^;,]+)/.exec(url)?.[1];
      parts.push({ type: "image", ...(mediaType ? { mediaType } : {}), ...(url.startsWith("data:") || !url ? {} : { path: url }) });
      texts.push("[image]");
    }
  }
  return { text: texts.filter(Boolean).join("\n"), parts };
}

type Reasoning = { part: TurnPart; at: string | null };

/** An item's `<think>` reasoning as a thinking part, and its end (else start) time. */
function reasoningOf(item: Json): Reasoning | null {
  const reasoning = isObject(item.reasoning) ? item.reasoning : null;
  const text = reasoning ? str(reasoning.text) : null;
  if (!reasoning || !text) return null;
  const ms = num(reasoning.endAt) ?? num(reasoning.startAt);
  return { part: { type: "thinking", text }, at: ms !== null ? new Date(ms).toISOString() : null };
}

function toolStates(item: Json): Json[] {
  if (Array.isArray(item.toolCallStates)) return item.toolCallStates.filter(isObject);
  return isObject(item.toolCallState) ? [item.toolCallState] : [];
}

function toolName(state: Json): string {
  const call = isObject(state.toolCall) ? state.toolCall : {};
  const fn = isObject(call.function) ? call.function : {};
  return str(fn.name) ?? "tool";
}

function lastPromptLog(item: Json): Json | null {
  const logs = Array.isArray(item.promptLogs) ? item.promptLogs.filter(isObject) : [];
  return logs.at(-1) ?? null;
}

/**
 * Continue's Usage {promptTokens, completionTokens, promptTokensDetails {cachedTokens,
 * cacheWriteTokens}, completionTokensDetails {reasoningTokens}}. Its own pricing
 * (core/llm/utils/calculateRequestCost.ts) bills promptTokens at the input price and the cache
 * apart: promptTokens is input without the cache (its Anthropic adapters put input_tokens
 * there; OpenAI's cached tokens are not reported in it). Reasoning is part of the completion.
 */
function usageOf(value: JsonValue | undefined): ImportedUsage | null {
  if (!isObject(value)) return null;
  const prompt = num(value.promptTokens);
  const completion = num(value.completionTokens);
  const promptDetails = isObject(value.promptTokensDetails) ? value.promptTokensDetails : {};
  const completionDetails = isObject(value.completionTokensDetails) ? value.completionTokensDetails : {};
  const cached = num(promptDetails.cachedTokens);
  const written = num(promptDetails.cacheWriteTokens);
  const reasoning = num(completionDetails.reasoningTokens);
  if (![prompt, completion, cached, written].some((n) => n)) return null;
  return defined({
    inputTokens: prompt,
    cacheReadTokens: cached || null,
    cacheWriteTokens: written || null,
    outputTokens: completion,
    reasoningTokens: reasoning || null,
  }) as ImportedUsage;
}

/** A tool call's arguments: Continue keeps them as a JSON string. */
function parseArguments(args: JsonValue | undefined): JsonValue | undefined {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args) as JsonValue;
  } catch {
    return args;
  }
}

/**
 * A VS Code workspace URI (`file:///Users/me/app`, `file:///c%3A/work`) as a path; a path as it is.
 * @internal exported for its tests
 */
export function workspacePath(directory: string): string {
  if (!directory.startsWith("file://")) return directory;
  let path = directory.slice("file://".length);
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: keep the text as written.
  }
  return /^\/[a-zA-Z]:/.test(path) ? path.slice(1) : path;
}

function uniqueKey(key: string, used: Set<string>): string {
  let candidate = key;
  for (let n = 2; used.has(candidate); n += 1) candidate = `${key}#${n}`;
  used.add(candidate);
  return candidate;
}

function defined(values: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}
