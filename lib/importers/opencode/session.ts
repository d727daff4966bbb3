// One OpenCode session (export-shaped: {info, messages: [{info, parts}], todos?}) to a thread.
// The mapping is described at the top of ./index.ts.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine } from "../text";
import { isObject, type ImportedCompaction, type ImportedThread, type ImportedTurn, type ImportedUsage, type SkippedEntry } from "../types";

type Json = Record<string, JsonValue>;

/** Where a task tool call started a child session: the parent session and the call. */
export type SubagentLink = { parentKey: string; toolCallId: string };

/** The agents that write OpenCode's format: OpenCode itself and the Kilo CLI, its fork. */
export type OpenCodeAgent = "opencode" | "kilo-code";

export type SessionResult = {
  thread: ImportedThread;
  skipped: SkippedEntry[];
  warnings: string[];
  subagentCalls: Map<string, SubagentLink>;
};

/** Unix milliseconds to ISO-8601, or null. */
function isoFromMs(value: JsonValue | undefined): string | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const date = new Date(value);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
}

function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

function num(value: JsonValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The object without the keys that only repeat where it sits (ids of its session and message). */
function withoutIds(part: Json, keys: readonly string[] = ["id", "sessionID", "messageID"]): JsonObject {
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(part)) if (!keys.includes(key)) rest[key] = value;
  return rest;
}

/**
 * A part's provider metadata without OpenAI's encrypted reasoning (an opaque blob the model
 * provider alone can read: never shown), and how long it was.
 */
function shownMetadata(metadata: JsonValue | undefined): { metadata: JsonObject | null; encryptedChars: number } {
  if (!isObject(metadata)) return { metadata: null, encryptedChars: 0 };
  let encryptedChars = 0;
  const out: JsonObject = {};
  for (const [provider, value] of Object.entries(metadata)) {
    if (isObject(value) && typeof value.reasoningEncryptedContent === "string") {
      encryptedChars += value.reasoningEncryptedContent.length;
      const { reasoningEncryptedContent: _dropped, ...kept } = value;
      out[provider] = kept;
    } else out[provider] = value;
  }
  return { metadata: out, encryptedChars };
}

/**
 * An assistant message's `tokens` as Threadline counts them. OpenCode's `input` already excludes
 * cache reads and writes. Whether `output` includes `reasoning` changed between builds; `total`
 * says which: total = input + output + cache means reasoning is inside output (the samples, 1.2.5);
 * total = input + output + reasoning + cache means it is not, and it is added so that
 * outputTokens always includes reasoning (ImportedUsage's convention).
 * @internal exported for its tests
 */
export function usageOfTokens(tokens: JsonValue | undefined, cost: JsonValue | undefined): ImportedUsage | null {
  if (!isObject(tokens)) return null;
  const input = num(tokens.input) ?? 0;
  const output = num(tokens.output) ?? 0;
  const reasoning = num(tokens.reasoning) ?? 0;
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  const cacheRead = num(cache.read) ?? 0;
  const cacheWrite = num(cache.write) ?? 0;
  const total = num(tokens.total);
  const outputExcludesReasoning = reasoning > 0 && total !== null && total === input + output + reasoning + cacheRead + cacheWrite;
  const usage: ImportedUsage = {
    inputTokens: input,
    outputTokens: outputExcludesReasoning ? output + reasoning : output,
    reasoningTokens: reasoning,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
  // Kept also when 0: that is what OpenCode reported (a subscription login, a free model); the
  // page then shows Threadline's own price beside it, so a 0 never hides what the tokens cost.
  const reported = num(cost);
  if (reported !== null && reported >= 0) usage.reportedCostUsd = reported;
  return usage;
}

/**
 * The child session a task tool part names: its metadata's sessionId, else `task_id: ses_…` opening its output.
 * @internal exported for its tests
 */
export function childSessionOf(state: Json): string | null {
  const metadata = isObject(state.metadata) ? state.metadata : {};
  const fromMetadata = str(metadata.sessionId);
  if (fromMetadata) return fromMetadata;
  const output = str(state.output);
  if (!output?.startsWith("task_id: ses_")) return null;
  // Scans one word: linear, no regular expression over untrusted text.
  const start = "task_id: ".length;
  let end = start;
  while (end < output.length && end < start + 64 && /[A-Za-z0-9_]/.test(output[end]!)) end++;
  return output.slice(start, end);
}

type Message = { info: Json; parts: Json[]; path: string };

/** The turns of one user message: a prompt. */
function userTurn(message: Message): ImportedTurn {
  const { info, parts } = message;
  const turnParts: TurnPart[] = [];
  const texts: string[] = [];
  const files: string[] = [];
  const images: string[] = [];
  const other: JsonObject[] = [];
  const mentions: JsonObject[] = [];
  let synthetic = 0;
  for (const part of parts) {
    const type = str(part.type);
    if (type === "text" && typeof part.text === "string") {
      const marks = { ...(part.synthetic === true ? { synthetic: true } : {}), ...(part.ignored === true ? { ignored: true } : {}) };
      turnParts.push({ type: "text", text: part.text, ...marks });
      if (part.synthetic === true) synthetic++;
      // An ignored part was not sent to the model: kept in the parts, left out of the text.
      if (part.ignored !== true) texts.push(part.text);
    } else if (type === "file") {
      const source = isObject(part.source) ? part.source : {};
      const name =
        str(source.path) ?? str(part.filename) ?? (str(part.url)?.startsWith("file://") ? str(part.url)!.slice("file://".length) : null);
      const url = str(part.url);
      const mime = str(part.mime);
      // A data URL is the file's content (a pasted image): its length is kept, not the bytes.
      const mention: JsonObject = {
        ...withoutIds(part, ["id", "sessionID", "messageID", "url"]),
        ...(url && !url.startsWith("data:") ? { url } : url ? { dataUrlChars: url.length } : {}),
      };
      mentions.push(mention);
      if (mime?.startsWith("image/")) {
        turnParts.push({ type: "image", mediaType: mime, alt: name ?? str(part.filename) ?? "image attached to the prompt" });
        images.push(name ?? str(part.filename) ?? "image");
      } else if (name) files.push(name);
    } else if (type === "compaction") {
      // Handled by the caller (a compaction marker); never reaches here.
      other.push(withoutIds(part));
    } else {
      // agent and subtask mentions, and whatever later builds add: kept as they are.
      other.push(withoutIds(part));
    }
  }
  const metadata: JsonObject = { messageId: str(info.id) ?? "", ...userMetadata(info) };
  if (synthetic > 0) metadata.syntheticParts = synthetic;
  if (mentions.length > 0) metadata.fileParts = mentions;
  if (other.length > 0) metadata.otherParts = other;
  return {
    key: str(info.id)!,
    role: "user",
    content: texts.join("\n\n") || (files.length > 0 ? files.map((f) => `@${f}`).join(" ") : ""),
    ...(turnParts.some((p) => p.type !== "text" || p.synthetic === true || p.ignored === true) ? { parts: turnParts } : {}),
    timestamp: isoFromMs(isObject(info.time) ? info.time.created : undefined),
    ...(files.length > 0 ? { files } : {}),
    ...(images.length > 0 ? { images } : {}),
    metadata,
  };
}

/** What a user message says besides its parts: agent, variant, system prompt, tools, the diffs of the changes it led to. */
function userMetadata(info: Json): JsonObject {
  const keep: JsonObject = {};
  // `model` is the model the prompt asked for (in metadata: the responses name the one that answered).
  for (const key of ["agent", "model", "variant", "system", "tools", "summary"] as const)
    if (info[key] !== undefined) keep[key] = info[key]!;
  return keep;
}

/** An error as one readable line: "MessageAbortedError: The operation was aborted." */
function errorLine(error: Json): string {
  const name = str(error.name) ?? "Error";
  const data = isObject(error.data) ? error.data : {};
  const message = str(data.message);
  return message ? `${name}: ${message}` : name;
}

type AssistantTurns = { turn: ImportedTurn; results: ImportedTurn | null; calls: Map<string, string> };

/** One assistant message (one model step): its turn, and the results of its tool calls in a tool turn after it. */
function assistantTurns(message: Message, sessionKey: string): AssistantTurns {
  const { info, parts } = message;
  const key = str(info.id)!;
  const turnParts: TurnPart[] = [];
  const resultParts: TurnPart[] = [];
  const texts: string[] = [];
  const resultTexts: string[] = [];
  const steps: JsonObject[] = [];
  const patches: JsonObject[] = [];
  const other: JsonObject[] = [];
  const calls = new Map<string, string>();
  let lastResultAt: number | null = null;
  for (const part of parts) {
    const type = str(part.type);
    if (type === "text" && typeof part.text === "string") {
      turnParts.push({
        type: "text",
        text: part.text,
        ...(part.synthetic === true ? { synthetic: true } : {}),
        ...(part.ignored === true ? { ignored: true } : {}),
      });
      if (part.ignored !== true) texts.push(part.text);
    } else if (type === "reasoning" && typeof part.text === "string") {
      const { metadata, encryptedChars } = shownMetadata(part.metadata);
      turnParts.push({
        type: "thinking",
        text: part.text,
        // Only the encrypted form exists: the page says the thinking is hidden.
        ...(part.text === "" && encryptedChars > 0 ? { redacted: true } : {}),
        ...(encryptedChars > 0 ? { encryptedChars } : {}),
        ...(metadata ? { providerMetadata: metadata } : {}),
      });
    } else if (type === "tool" && typeof part.callID === "string") {
      const state = isObject(part.state) ? part.state : {};
      const status = str(state.status) ?? "unknown";
      const name = str(part.tool) ?? "tool";
      const child = name === "task" ? childSessionOf(state) : null;
      if (child) calls.set(child, part.callID);
      const time = isObject(state.time) ? state.time : {};
      const compactedAt = isoFromMs(time.compacted);
      turnParts.push({
        type: "tool_call",
        id: part.callID,
        name,
        ...(state.input !== undefined ? { arguments: state.input } : {}),
        status,
        ...(status === "pending" || status === "running" ? { unfinished: true } : {}),
        ...(typeof state.title === "string" ? { title: state.title } : {}),
        ...(child ? { childSessionId: child } : {}),
        ...(state.raw !== undefined ? { raw: state.raw } : {}),
      });
      texts.push(callLine(name, state.input));
      if (status === "completed" || status === "error") {
        const content = status === "completed" ? (str(state.output) ?? "") : (str(state.error) ?? "error");
        const metadata = isObject(state.metadata) ? state.metadata : null;
        resultParts.push({
          type: "tool_result",
          toolCallId: part.callID,
          content,
          isError: status === "error",
          ...(typeof state.title === "string" ? { title: state.title } : {}),
          // The edit's unified diff (edit, write, apply_patch), to show beside what the model was told.
          ...(metadata && typeof metadata.diff === "string" ? { diff: metadata.diff } : {}),
          ...(metadata ? { metadata } : {}),
          ...(state.attachments !== undefined ? { attachments: state.attachments } : {}),
          ...(Object.keys(time).length > 0 ? { time } : {}),
          // OpenCode stopped sending this output to the model at that time (pruned before a compaction).
          ...(compactedAt ? { compactedAt } : {}),
          // Ties the result to the sub-agent thread, whichever file brings it (see lib/db/imports/turn-stream-import).
          ...(child ? { agentId: child } : {}),
        });
        resultTexts.push(content);
        const end = num(time.end);
        if (end !== null) lastResultAt = Math.max(lastResultAt ?? end, end);
      }
    } else if (type === "step-start" || type === "step-finish") {
      steps.push(withoutIds(part));
    } else if (type === "patch") {
      patches.push(withoutIds(part));
    } else if (type === "file") {
      other.push(withoutIds(part, ["id", "sessionID", "messageID", "url"]));
    } else {
      other.push(withoutIds(part));
    }
  }
  const error = isObject(info.error) ? info.error : null;
  const aborted = error !== null && str(error.name) === "MessageAbortedError";
  if (error) texts.push(aborted ? "[aborted]" : `[error] ${errorLine(error)}`);
  const time = isObject(info.time) ? info.time : {};
  const metadata: JsonObject = { messageId: key };
  for (const field of ["parentID", "mode", "agent", "variant", "finish", "path", "system"] as const)
    if (info[field] !== undefined) metadata[field] = info[field]!;
  if (isObject(info.tokens)) metadata.tokens = info.tokens;
  if (time.completed !== undefined) metadata.completedAt = isoFromMs(time.completed);
  if (error) metadata.error = error;
  if (aborted) metadata.aborted = true;
  if (steps.length > 0) metadata.steps = steps;
  if (patches.length > 0) metadata.patches = patches;
  if (other.length > 0) metadata.otherParts = other;
  const turn: ImportedTurn = {
    key,
    role: "assistant",
    content: texts.join("\n\n"),
    parts: turnParts,
    timestamp: isoFromMs(time.created),
    modelProvider: str(info.providerID),
    modelName: str(info.modelID),
    usage: usageOfTokens(info.tokens, info.cost),
    metadata,
  };
  const results: ImportedTurn | null =
    resultParts.length === 0
      ? null
      : {
          key: `${key}:results`,
          role: "tool",
          content: resultTexts.join("\n\n"),
          parts: resultParts,
          timestamp: isoFromMs(lastResultAt ?? time.completed ?? time.created),
          metadata: { messageId: key, sessionId: sessionKey },
        };
  return { turn, results, calls };
}

function isCompactionRequest(message: Message): boolean {
  return message.info.role === "user" && message.parts.some((part) => part.type === "compaction");
}

function isSummary(message: Message): boolean {
  return message.info.role === "assistant" && message.info.summary === true;
}

/**
 * A compaction: the request (a user message with a compaction part) and the summary the model
 * wrote (the assistant message with summary:true after it), as one marker. Its content is the
 * summary; the summary's model and usage stay on it, since that call was made and paid for.
 */
function compactionTurn(request: Message | null, summary: Message | null): ImportedTurn {
  const requestPart = request?.parts.find((part) => part.type === "compaction") ?? null;
  const summaryTurns = summary ? assistantTurns(summary, "") : null;
  const auto = requestPart ? requestPart.auto : undefined;
  const compaction: ImportedCompaction = {
    trigger: auto === true ? "auto" : auto === false ? "manual" : null,
    tokensBefore: null,
    tokensAfter: null,
  };
  const summaryText = summary
    ? summary.parts
        .filter((part) => part.type === "text" && typeof part.text === "string")
        .map((part) => part.text as string)
        .join("\n\n")
    : "";
  const metadata: JsonObject = {};
  if (request) {
    metadata.requestMessageId = str(request.info.id) ?? "";
    metadata.request = { ...userMetadata(request.info), ...(requestPart ? { part: withoutIds(requestPart) } : {}) };
    const others = request.parts.filter((part) => part.type !== "compaction").map((part) => withoutIds(part));
    if (others.length > 0) metadata.otherParts = others;
  }
  if (summaryTurns) metadata.summary = summaryTurns.turn.metadata ?? {};
  const thinking = summaryTurns?.turn.parts?.filter((part) => part.type === "thinking") ?? [];
  const key = str(request?.info.id) ?? str(summary!.info.id)!;
  const requestTime = request && isObject(request.info.time) ? request.info.time.created : undefined;
  return {
    key,
    role: "system",
    content: summaryText || (summary ? "" : "Compaction requested (no summary recorded)"),
    // The summary is the content, shown folded under the marker as every compaction's is.
    parts: [{ type: "compaction", trigger: compaction.trigger ?? null }, ...thinking],
    timestamp: isoFromMs(requestTime) ?? summaryTurns?.turn.timestamp ?? null,
    compaction,
    ...(summaryTurns
      ? { modelProvider: summaryTurns.turn.modelProvider, modelName: summaryTurns.turn.modelName, usage: summaryTurns.turn.usage }
      : {}),
    metadata,
  };
}

/** The session's messages, checked: each has an info with an id and a known role, and a parts list. */
function messagesOf(doc: Json, skipped: SkippedEntry[]): Message[] {
  const list = Array.isArray(doc.messages) ? doc.messages : [];
  const messages: Message[] = [];
  list.forEach((entry, index) => {
    const path = `messages[${index}]`;
    if (!isObject(entry) || !isObject(entry.info)) return skipped.push({ path, reason: "not a message: no info object" });
    const info = entry.info;
    if (typeof info.id !== "string" || info.id === "") return skipped.push({ path, reason: "message without an id" });
    if (info.role !== "user" && info.role !== "assistant")
      return skipped.push({ path, reason: `message ${info.id}: unknown role ${JSON.stringify(info.role ?? null)}` });
    const parts: Json[] = [];
    (Array.isArray(entry.parts) ? entry.parts : []).forEach((part, partIndex) => {
      if (isObject(part) && typeof part.type === "string") parts.push(part);
      else skipped.push({ path: `${path}.parts[${partIndex}]`, reason: "not a part: no type" });
    });
    messages.push({ info, parts, path });
  });
  return messages;
}

/** The session's info as thread metadata: everything but what has a column of its own. */
function threadMetadata(info: Json, doc: Json): JsonObject {
  const metadata: JsonObject = {};
  for (const key of ["version", "slug", "projectID", "summary", "share", "revert", "permission", "time", "parentID"] as const)
    if (info[key] !== undefined) metadata[key] = info[key]!;
  if (doc.todos !== undefined) metadata.todos = doc.todos;
  return metadata;
}

/** One session document to a thread. `doc` is checked by the caller to have an info with an id. */
export function sessionThread(doc: Json, agent: OpenCodeAgent = "opencode"): SessionResult {
  const info = doc.info as Json;
  const key = info.id as string;
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const messages = messagesOf(doc, skipped);
  const turns: ImportedTurn[] = [];
  const subagentCalls = new Map<string, SubagentLink>();
  let firstCwd: string | null = null;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (isCompactionRequest(message)) {
      const next = messages[i + 1];
      const summary = next && isSummary(next) ? next : null;
      turns.push(compactionTurn(message, summary));
      if (summary) i++;
      continue;
    }
    if (isSummary(message)) {
      turns.push(compactionTurn(null, message));
      continue;
    }
    if (message.info.role === "user") {
      turns.push(userTurn(message));
      continue;
    }
    const { turn, results, calls } = assistantTurns(message, key);
    const path = isObject(message.info.path) ? message.info.path : {};
    firstCwd ??= str(path.cwd);
    turns.push(turn);
    if (results) turns.push(results);
    for (const [child, toolCallId] of calls) subagentCalls.set(child, { parentKey: key, toolCallId });
  }
  const time = isObject(info.time) ? info.time : {};
  const parentKey = str(info.parentID);
  const thread: ImportedThread = {
    key,
    title: str(info.title),
    toolName: agent,
    project: str(info.directory) ?? firstCwd,
    createdAt: isoFromMs(time.created),
    lastUpdatedAt: isoFromMs(time.updated),
    metadata: threadMetadata(info, doc),
    ...(parentKey ? { parentKey, relation: { kind: "subagent" as const, toolCallId: null, agentId: key } } : {}),
    turns,
  };
  return { thread, skipped, warnings, subagentCalls };
}
