// The legacy format (2025 builds): ~/.copilot/history-session-state/session_<id>_<ms>.json, one
// JSON object {sessionId, startTime, chatMessages, timeline} (the mapping is described in index.ts).
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine, collapse, isoUtc } from "../text";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type ParsedSource, type SkippedEntry } from "../types";
import { defined, isChangingDiff, obj, parsedArguments, rest, str, type Json } from "./values";
import { isRealPrompt } from "@/lib/domain/threads/title";

/** A timeline entry with its index, consumed at most once. */
type Entry = { index: number; value: Json; used: boolean };

/** The timeline by kind: typed prompts and replies in order, tool completions by call id. */
class Timeline {
  readonly users: Entry[] = [];
  readonly replies: Entry[] = [];
  readonly tools = new Map<string, Entry>();
  readonly entries: Entry[] = [];
  private nextUser = 0;
  private nextReply = 0;

  constructor(timeline: JsonValue[], skipped: SkippedEntry[]) {
    timeline.forEach((value, index) => {
      if (!isObject(value)) {
        skipped.push({ path: `timeline[${index}]`, reason: "not a JSON object" });
        return;
      }
      const entry = { index, value, used: false };
      this.entries.push(entry);
      const type = str(value.type);
      const callId = str(value.callId);
      if (type === "user") this.users.push(entry);
      else if (type === "copilot") this.replies.push(entry);
      else if (type === "tool_call_completed" && callId && !this.tools.has(callId)) this.tools.set(callId, entry);
    });
  }

  /** The next typed prompt, if the chat message (typed text plus injected context) starts with it. */
  user(chatContent: string): Entry | null {
    const entry = this.users[this.nextUser];
    const text = entry ? str(entry.value.text) : null;
    if (!entry || text === null || !chatContent.trimStart().startsWith(text.trim())) return null;
    this.nextUser += 1;
    entry.used = true;
    return entry;
  }

  /** The next reply shown, if it is this assistant text. */
  reply(text: string): Entry | null {
    const entry = this.replies[this.nextReply];
    if (!entry || str(entry.value.text)?.trim() !== text.trim()) return null;
    this.nextReply += 1;
    entry.used = true;
    return entry;
  }

  tool(callId: string): Entry | null {
    const entry = this.tools.get(callId);
    if (!entry || entry.used) return null;
    entry.used = true;
    return entry;
  }
}

/** A message's text: a string, or OpenAI content parts' text joined. */
function messageText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((part) => (isObject(part) && typeof part.text === "string" ? [part.text] : [])).join("\n");
}

export function parseLegacy(doc: unknown, source: { name: string }): ParsedSource {
  if (!isObject(doc)) throw new ImportFormatError(`${source.name}: not a GitHub Copilot CLI session (expected a JSON object)`);
  const sessionId = str(doc.sessionId);
  if (!sessionId) throw new ImportFormatError(`${source.name}: not a GitHub Copilot CLI session (sessionId missing or not a string)`);
  if (!Array.isArray(doc.chatMessages))
    throw new ImportFormatError(`${source.name}: not a GitHub Copilot CLI session (chatMessages is not a list)`);
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const timeline = new Timeline(Array.isArray(doc.timeline) ? doc.timeline : [], skipped);
  const turns: ImportedTurn[] = [];
  const calls = new Map<string, string>();
  let systemPrompt: string | null = null;
  let title: string | null = null;

  doc.chatMessages.forEach((message, index) => {
    const path = `chatMessages[${index}]`;
    if (!isObject(message)) {
      skipped.push({ path, reason: "not a JSON object" });
      return;
    }
    const key = `m${index}`;
    const role = str(message.role);
    const text = messageText(message.content);
    const extra = rest(message, ["role", "content", "tool_calls", "tool_call_id"]);
    if (role === "system") {
      if (systemPrompt === null) systemPrompt = text;
      else
        turns.push({
          key,
          role: "system",
          content: text,
          parts: [{ type: "text", text }],
          metadata: { ...extra, systemPromptChanged: true },
        });
    } else if (role === "user") {
      const typed = timeline.user(text);
      const shown = typed ? (str(typed.value.text) ?? text) : text;
      if (title === null && isRealPrompt(shown)) title = collapse(shown);
      const metadata = defined({
        ...extra,
        transformedContent: shown !== text ? text : null,
        timelineId: typed ? str(typed.value.id) : null,
      });
      turns.push({
        key,
        role: "user",
        content: shown,
        parts: [{ type: "text", text: shown }],
        timestamp: typed ? isoUtc(typed.value.timestamp) : null,
        metadata,
      });
    } else if (role === "assistant") {
      turns.push(assistantTurn(key, path, message, text, extra, timeline, calls, skipped));
    } else if (role === "tool") {
      const callId = str(message.tool_call_id);
      if (!callId) {
        skipped.push({ path, reason: "a tool message without a tool_call_id" });
        return;
      }
      if (!calls.has(callId)) warnings.push(`${path}: result of tool call ${callId}, which no earlier assistant message requested`);
      turns.push(toolTurn(key, callId, text, extra, calls.get(callId) ?? null, timeline.tool(callId)));
    } else {
      skipped.push({ path, reason: `role ${JSON.stringify(role)} is not user, assistant, tool or system` });
    }
  });

  const notices = timeline.entries.filter((e) => str(e.value.type) === "info").map((e) => ({ ...e.value, index: e.index }));
  for (const entry of timeline.entries) if (str(entry.value.type) === "info") entry.used = true;
  const unmatched = timeline.entries.filter((e) => !e.used).map((e) => ({ ...e.value, index: e.index }));
  const times = [isoUtc(doc.startTime), ...timeline.entries.map((e) => isoUtc(e.value.timestamp))].filter((t): t is string => t !== null);
  const thread: ImportedThread = {
    key: sessionId,
    title,
    toolName: "copilot",
    createdAt: isoUtc(doc.startTime) ?? times[0] ?? null,
    lastUpdatedAt: times.length > 0 ? times.reduce((a, b) => (a > b ? a : b)) : null,
    ...(systemPrompt !== null ? { initialContext: { instructions: systemPrompt } } : {}),
    metadata: defined({
      ...rest(doc, ["sessionId", "startTime", "chatMessages", "timeline"]),
      legacyFormat: "history-session-state",
      modelHost: "github-copilot",
      notices: notices.length > 0 ? notices : null,
      // Timeline entries no chat message accounts for: kept as they were.
      unmatchedTimeline: unmatched.length > 0 ? unmatched : null,
    }),
    turns,
  };
  return { format: "copilot", threads: [thread], skipped, warnings };
}

function assistantTurn(
  key: string,
  path: string,
  message: Json,
  text: string,
  extra: JsonObject,
  timeline: Timeline,
  calls: Map<string, string>,
  skipped: SkippedEntry[],
): ImportedTurn {
  const parts: TurnPart[] = [];
  const lines: string[] = [];
  if (text.trim() !== "") {
    parts.push({ type: "text", text });
    lines.push(text);
  }
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  toolCalls.forEach((call, index) => {
    const fn = isObject(call) ? obj(call.function) : null;
    const id = isObject(call) ? str(call.id) : null;
    const name = fn ? str(fn.name) : null;
    if (!isObject(call) || !id || !name || !fn) {
      skipped.push({ path: `${path}.tool_calls[${index}]`, reason: "a tool call without an id and a function name" });
      return;
    }
    const args = parsedArguments(fn.arguments);
    calls.set(id, name);
    // The call's own `type` ("function") is kept as requestType: `type` is the part's kind.
    parts.push({
      ...rest(fn, ["name", "arguments"]),
      ...rest(call, ["id", "function", "type"]),
      ...defined({ requestType: call.type }),
      type: "tool_call",
      id,
      name,
      arguments: args ?? {},
    });
    lines.push(callLine(name, args));
  });
  const shown = text.trim() !== "" ? timeline.reply(text) : null;
  return {
    key,
    role: "assistant",
    content: lines.join("\n"),
    parts,
    timestamp: shown ? isoUtc(shown.value.timestamp) : null,
    metadata: defined({ ...extra, timelineId: shown ? str(shown.value.id) : null }),
  };
}

function toolTurn(key: string, callId: string, text: string, extra: JsonObject, name: string | null, done: Entry | null): ImportedTurn {
  const entry = done?.value ?? null;
  const result = entry ? obj(entry.result) : null;
  const log = result ? str(result.log) : null;
  const status = result ? str(result.type) : null;
  const part: TurnPart = {
    type: "tool_result",
    toolCallId: callId,
    content: text,
    isError: status !== null && status !== "success",
    ...defined({
      status,
      diff: log !== null && isChangingDiff(log) ? log : null,
      detailedContent: log !== null && log !== text && !isChangingDiff(log) ? log : null,
      toolTitle: entry ? str(entry.toolTitle) : null,
      intentionSummary: entry ? str(entry.intentionSummary) : null,
      timelineId: entry ? str(entry.id) : null,
      resultExtra: result ? nonEmpty(rest(result, ["type", "log"])) : null,
      timelineExtra: entry
        ? nonEmpty(rest(entry, ["type", "id", "timestamp", "callId", "name", "toolTitle", "intentionSummary", "arguments", "result"]))
        : null,
    }),
  };
  return {
    key,
    role: "tool",
    content: text,
    parts: [part],
    timestamp: entry ? isoUtc(entry.timestamp) : null,
    toolName: name ?? (entry ? str(entry.name) : null),
    ...(Object.keys(extra).length > 0 ? { metadata: extra } : {}),
  };
}

function nonEmpty(value: JsonObject): JsonObject | null {
  return Object.keys(value).length > 0 ? value : null;
}
