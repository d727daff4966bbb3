// The current format: ~/.copilot/session-state/<sessionId>/events.jsonl, replayed event by event
// into one thread (the mapping is described in index.ts).
import { USAGE_IN_SESSION_TOTALS } from "@/lib/domain/usage/usage";
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine, collapse, isoUtc } from "../text";
import {
  ImportFormatError,
  fileStem,
  isObject,
  type ImportedThread,
  type ImportedTurn,
  type NumberedLine,
  type ParsedSource,
  type SkippedEntry,
} from "../types";
import { ShutdownLedger } from "./totals";
import { defined, isChangingDiff, obj, rest, str, type Json } from "./values";
import { isRealPrompt } from "@/lib/domain/threads/title";

/** The event types this parser maps; any other is kept in the thread's metadata (sessionEvents). */
export const KNOWN_EVENT_TYPES = [
  "session.start",
  "session.model_change",
  "session.mode_changed",
  "session.info",
  "session.task_complete",
  "session.shutdown",
  "system.message",
  "user.message",
  "assistant.turn_start",
  "assistant.turn_end",
  "assistant.message",
  "tool.execution_start",
  "tool.execution_complete",
] as const;

/** Copilot's event names: `area.name`, lower case (session.start, tool.execution_complete, ...). */
const EVENT_TYPE = /^[a-z][a-z_]{0,40}\.[a-z][a-z_.]{0,80}$/;

/** A line that has Copilot's envelope: `{type: "area.name", data: {...}, id, timestamp}`. */
export function isCopilotEnvelope(value: unknown): value is Json {
  if (!isObject(value) || typeof value.type !== "string" || !EVENT_TYPE.test(value.type)) return false;
  return isObject(value.data) && typeof value.id === "string" && typeof value.timestamp === "string";
}

type CopilotEvent = { line: number; type: string; key: string; timestamp: string | null; data: Json };

/** A tool call seen in this file: the turn holding its part, and its execution_start if any. */
type KnownCall = { name: string; arguments: JsonValue | undefined; start: CopilotEvent | null };

const ZONE = "github-copilot";

/** The conversation's state while the events arrive. */
class EventAssembly {
  readonly turns: ImportedTurn[] = [];
  readonly warnings: string[] = [];
  readonly sessionEvents: JsonObject[] = [];
  readonly ledger = new ShutdownLedger();
  start: Json | null = null;
  title: string | null = null;
  systemPrompt: string | null = null;
  systemMessages = { count: 0, repeats: 0, lines: [] as number[] };
  model: string | null = null;
  reasoningEffort: string | null = null;
  /** The open assistant.turn_start: its turnId and line, and whether a message came since. */
  openTurn: { turnId: string | null; line: number; messages: number } | null = null;
  readonly calls = new Map<string, KnownCall>();
  readonly completed = new Set<string>();
  readonly unknownTypes = new Set<string>();

  constructor(readonly skipped: SkippedEntry[]) {}

  keep(event: CopilotEvent): void {
    this.sessionEvents.push({
      type: event.type,
      line: event.line,
      ...(event.timestamp ? { timestamp: event.timestamp } : {}),
      ...event.data,
    });
  }
}

/** Reads every line into events; the first must be a Copilot event, else the file is not this format. */
function decode(lines: readonly NumberedLine[], name: string, skipped: SkippedEntry[]): CopilotEvent[] {
  const events: CopilotEvent[] = [];
  let pendingBad: SkippedEntry | null = null;
  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    if (pendingBad) skipped.push(pendingBad);
    pendingBad = null;
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      if (events.length === 0)
        throw new ImportFormatError(`${name}: line ${line}: not valid JSON, so not a GitHub Copilot CLI events.jsonl`, line);
      pendingBad = { line, reason: "not valid JSON" };
      continue;
    }
    if (!isCopilotEnvelope(value)) {
      if (events.length === 0) {
        throw new ImportFormatError(
          `${name}: line ${line}: not a GitHub Copilot CLI event (expected {type: "area.name", data: {...}, id, timestamp})`,
          line,
        );
      }
      skipped.push({
        line,
        reason:
          isObject(value) && typeof value.type === "string"
            ? `event "${collapse(value.type, 60)}" without Copilot's envelope (data, id, timestamp)`
            : "not a Copilot event",
      });
      continue;
    }
    events.push({
      line,
      type: value.type as string,
      key: value.id as string,
      timestamp: isoUtc(value.timestamp),
      data: value.data as Json,
    });
  }
  if (pendingBad) skipped.push({ ...pendingBad, reason: "not valid JSON (truncated last line?)" });
  if (events.length === 0) throw new ImportFormatError(`${name}: no GitHub Copilot CLI events in the file`);
  return events;
}

export function parseEvents(lines: readonly NumberedLine[], source: { name: string }): ParsedSource {
  const skipped: SkippedEntry[] = [];
  const events = decode(lines, source.name, skipped);
  const assembly = new EventAssembly(skipped);
  for (const event of events) {
    const handler = HANDLERS[event.type as (typeof KNOWN_EVENT_TYPES)[number]] as Handler | undefined;
    if (handler) handler(assembly, event);
    else unknownEvent(assembly, event);
  }
  if (assembly.openTurn && assembly.openTurn.messages === 0)
    skipped.push({ line: assembly.openTurn.line, reason: "assistant.turn_start with no assistant.message after it (the file ends first)" });
  for (const [id, call] of assembly.calls) {
    if (!assembly.completed.has(id))
      assembly.warnings.push(
        `tool call ${id} (${call.name}) has no tool.execution_complete in the file: no result (still running, or the session ended first)`,
      );
  }
  if (assembly.unknownTypes.size > 0) {
    assembly.warnings.push(
      `event types Threadline does not map, kept in the thread's metadata (sessionEvents): ${[...assembly.unknownTypes].sort().join(", ")}`,
    );
  }
  skipped.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const thread = threadOf(assembly, events, source);
  return { format: "copilot", threads: [thread], skipped, warnings: [...assembly.warnings, ...assembly.ledger.warnings] };
}

type Handler = (assembly: EventAssembly, event: CopilotEvent) => void;

const HANDLERS: Record<(typeof KNOWN_EVENT_TYPES)[number], Handler> = {
  "session.start": (a, e) => {
    if (!a.start) {
      a.start = e.data;
      a.model ??= str(e.data.selectedModel);
      return;
    }
    if (str(e.data.sessionId) !== str(a.start.sessionId))
      a.warnings.push(
        `line ${e.line}: a second session.start for session ${String(e.data.sessionId)}: kept in sessionEvents, the thread stays ${String(a.start.sessionId)}`,
      );
    a.keep(e);
  },
  "session.model_change": (a, e) => {
    a.model = str(e.data.newModel) ?? a.model;
    if ("reasoningEffort" in e.data) a.reasoningEffort = str(e.data.reasoningEffort);
    a.keep(e);
  },
  "session.mode_changed": (a, e) => a.keep(e),
  "session.task_complete": (a, e) => a.keep(e),
  "session.shutdown": (a, e) => {
    a.ledger.add(e.data, e.line, e.timestamp);
    // The per-model figures go to sessionTotals; the rest of the report stays with its line.
    a.keep({ ...e, data: rest(e.data, ["modelMetrics"]) });
  },
  "session.info": (a, e) => {
    const message = str(e.data.message) ?? "";
    a.turns.push({
      key: e.key,
      role: "system",
      content: message,
      parts: [{ type: "text", text: message }],
      timestamp: e.timestamp,
      metadata: { eventType: e.type, ...rest(e.data, ["message"]) },
    });
  },
  "system.message": (a, e) => {
    const content = str(e.data.content) ?? "";
    a.systemMessages.count += 1;
    a.systemMessages.lines.push(e.line);
    if (a.systemPrompt === null) {
      a.systemPrompt = content;
    } else if (content === a.systemPrompt) {
      a.systemMessages.repeats += 1;
    } else {
      // A changed prompt is shown where it changed; the thread keeps the first one.
      a.systemPrompt = content;
      a.turns.push({
        key: e.key,
        role: "system",
        content,
        parts: [{ type: "text", text: content }],
        timestamp: e.timestamp,
        metadata: { eventType: e.type, systemPromptChanged: true, ...rest(e.data, ["content"]) },
      });
    }
  },
  "user.message": (a, e) => {
    const typed = str(e.data.content) ?? "";
    const transformed = str(e.data.transformedContent);
    // Autopilot sends the model a continuation prompt of its own: no typed text, only what the model saw.
    const content = typed.trim() !== "" ? typed : (transformed ?? "");
    if (a.title === null && isRealPrompt(typed)) a.title = collapse(typed);
    const attachments = Array.isArray(e.data.attachments) ? e.data.attachments : [];
    const files = attachments.flatMap((item) => {
      const path = isObject(item) ? (str(item.path) ?? str(item.filePath)) : typeof item === "string" ? item : null;
      return path ? [path] : [];
    });
    const metadata = defined({
      ...rest(e.data, ["content", "transformedContent", ...(attachments.length === 0 ? ["attachments"] : [])]),
      transformedContent: transformed !== null && transformed !== content ? transformed : null,
      noTypedText: typed.trim() === "" ? true : null,
    });
    a.turns.push({
      key: e.key,
      role: "user",
      content,
      parts: [{ type: "text", text: content }],
      timestamp: e.timestamp,
      ...(files.length > 0 ? { files } : {}),
      metadata,
    });
  },
  "assistant.turn_start": (a, e) => {
    if (a.openTurn && a.openTurn.messages === 0)
      a.skipped.push({ line: a.openTurn.line, reason: "assistant.turn_start with no assistant.message before the next turn started" });
    a.openTurn = { turnId: str(e.data.turnId), line: e.line, messages: 0 };
  },
  "assistant.turn_end": (a, e) => {
    if (!a.openTurn) {
      a.skipped.push({ line: e.line, reason: "assistant.turn_end without a turn_start before it" });
      return;
    }
    if (a.openTurn.messages === 0)
      a.skipped.push({
        line: a.openTurn.line,
        reason: `assistant turn ${a.openTurn.turnId ?? "?"} ended (line ${e.line}) without an assistant.message`,
      });
    a.openTurn = null;
  },
  "assistant.message": (a, e) => assistantMessage(a, e),
  "tool.execution_start": (a, e) => toolStart(a, e),
  "tool.execution_complete": (a, e) => toolComplete(a, e),
};

function unknownEvent(a: EventAssembly, e: CopilotEvent): void {
  a.unknownTypes.add(e.type);
  a.keep(e);
}

function assistantMessage(a: EventAssembly, e: CopilotEvent): void {
  if (a.openTurn) a.openTurn.messages += 1;
  const parts: TurnPart[] = [];
  const reasoning = str(e.data.reasoningText);
  if (reasoning) parts.push({ type: "thinking", text: reasoning });
  const text = str(e.data.content) ?? "";
  if (text.trim() !== "") parts.push({ type: "text", text });
  const lines = text.trim() !== "" ? [text] : [];
  const requests = Array.isArray(e.data.toolRequests) ? e.data.toolRequests : [];
  requests.forEach((request, index) => {
    const id = isObject(request) ? str(request.toolCallId) : null;
    const name = isObject(request) ? str(request.name) : null;
    if (!isObject(request) || !id || !name) {
      a.skipped.push({ line: e.line, path: `data.toolRequests[${index}]`, reason: "a tool request without a toolCallId and a name" });
      return;
    }
    if (a.calls.has(id)) {
      a.skipped.push({ line: e.line, path: `data.toolRequests[${index}]`, reason: `tool call ${id} was requested before` });
      return;
    }
    a.calls.set(id, { name, arguments: request.arguments, start: null });
    // The request's own `type` ("function") is kept as requestType: `type` is the part's kind.
    parts.push({
      ...rest(request, ["toolCallId", "name", "arguments", "type"]),
      ...defined({ requestType: request.type }),
      type: "tool_call",
      id,
      name,
      arguments: request.arguments ?? {},
    });
    lines.push(callLine(name, request.arguments));
  });
  const opaque = str(e.data.reasoningOpaque);
  const metadata = defined({
    ...withoutUsageKey(rest(e.data, ["content", "toolRequests", "reasoningText", "reasoningOpaque"])),
    // Encrypted reasoning is never shown or stored: only that it was there.
    reasoningOpaqueChars: opaque ? opaque.length : null,
    turnId: a.openTurn?.turnId ?? null,
    reasoningEffort: a.reasoningEffort,
  });
  Object.assign(metadata, USAGE_IN_SESSION_TOTALS);
  a.turns.push({ key: e.key, role: "assistant", content: lines.join("\n"), parts, timestamp: e.timestamp, modelName: a.model, metadata });
}

function toolStart(a: EventAssembly, e: CopilotEvent): void {
  const id = str(e.data.toolCallId);
  if (!id) {
    a.skipped.push({ line: e.line, reason: "tool.execution_start without a toolCallId" });
    return;
  }
  const known = a.calls.get(id);
  if (known) {
    known.start = e;
    return;
  }
  // The request is not in this file (it starts mid-session): the start names the call.
  const name = str(e.data.toolName) ?? "unknown";
  a.calls.set(id, { name, arguments: e.data.arguments, start: e });
  const part: TurnPart = {
    ...rest(e.data, ["toolCallId", "toolName", "arguments", "type"]),
    type: "tool_call",
    id,
    name,
    arguments: e.data.arguments ?? {},
  };
  a.turns.push({
    key: e.key,
    role: "assistant",
    content: callLine(name, e.data.arguments),
    parts: [part],
    timestamp: e.timestamp,
    modelName: a.model,
    metadata: { eventType: e.type, callFromExecutionStart: true, ...USAGE_IN_SESSION_TOTALS },
  });
}

function toolComplete(a: EventAssembly, e: CopilotEvent): void {
  const id = str(e.data.toolCallId);
  if (!id) {
    a.skipped.push({ line: e.line, reason: "tool.execution_complete without a toolCallId" });
    return;
  }
  const call = a.calls.get(id);
  if (!call) a.warnings.push(`line ${e.line}: result of tool call ${id}, which is not requested or started in this file`);
  if (a.completed.has(id)) a.warnings.push(`line ${e.line}: a second result for tool call ${id}`);
  a.completed.add(id);
  const model = str(e.data.model);
  if (model) a.model = model; // the model that ran the call; it answers the next request too
  const result = obj(e.data.result);
  const error = obj(e.data.error);
  const content = (result && str(result.content)) ?? (error && str(error.message)) ?? (result ? JSON.stringify(result) : "");
  const detailed = result ? str(result.detailedContent) : null;
  const start = call?.start ?? null;
  const startArguments = start?.data.arguments;
  const part: TurnPart = {
    type: "tool_result",
    toolCallId: id,
    content,
    isError: e.data.success === false,
    ...defined({
      // A change's diff is shown beside what the model was told, as Pi's and OpenCode's are; other details are kept as they are.
      diff: detailed !== null && isChangingDiff(detailed) ? detailed : null,
      detailedContent: detailed !== null && detailed !== content && !isChangingDiff(detailed) ? detailed : null,
      resultExtra: result ? nonEmpty(rest(result, ["content", "detailedContent"])) : null,
      error: error ?? (e.data.error as JsonValue | undefined) ?? null,
      startedAt: start?.timestamp ?? null,
      mcpServerName: start ? str(start.data.mcpServerName) : null,
      mcpToolName: start ? str(start.data.mcpToolName) : null,
      executedArguments:
        start && startArguments !== undefined && JSON.stringify(startArguments) !== JSON.stringify(call?.arguments) ? startArguments : null,
    }),
  };
  const parts: TurnPart[] = [part];
  const telemetry = obj(e.data.toolTelemetry);
  const metadata = defined({
    ...withoutUsageKey(rest(e.data, ["toolCallId", "success", "result", "error", "toolTelemetry"])),
    toolTelemetry: telemetry && Object.keys(telemetry).length > 0 ? telemetry : null,
  });
  a.turns.push({ key: e.key, role: "tool", content, parts, timestamp: e.timestamp, toolName: call?.name ?? null, metadata });
}

/**
 * A turn's metadata `usage` is read as the response's reported usage (lib/domain/usage/usage.ts); a field
 * of that name in an event is no such thing, so it is kept under another name.
 */
function withoutUsageKey(fields: JsonObject): JsonObject {
  if (!("usage" in fields)) return fields;
  const { usage, ...others } = fields;
  return { ...others, eventUsage: usage ?? null };
}

function nonEmpty(value: JsonObject): JsonObject | null {
  return Object.keys(value).length > 0 ? value : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** session.start's sessionId, else the session folder's name (`<id>/events.jsonl`), else the file's stem. */
function threadKey(a: EventAssembly, name: string): string {
  const fromStart = a.start ? str(a.start.sessionId) : null;
  if (fromStart) return fromStart;
  const segments = name.split(/[\\/]/);
  const file = segments.pop() ?? name;
  const folder = segments.pop() ?? "";
  const key = file === "events.jsonl" && UUID.test(folder) ? folder.toLowerCase() : fileStem(file, name);
  a.warnings.push(`no session.start with a sessionId: the thread key comes from the file's path (${key})`);
  return key;
}

function threadOf(a: EventAssembly, events: CopilotEvent[], source: { name: string }): ImportedThread {
  const start = a.start;
  const context = start ? obj(start.context) : null;
  const times = events.map((e) => e.timestamp).filter((t): t is string => t !== null);
  const totals = a.ledger.totals();
  const metadata = defined({
    ...(start ? rest(start, ["sessionId", "context", "startTime"]) : {}),
    ...(context ? rest(context, ["cwd"]) : {}),
    modelHost: ZONE,
    systemMessages:
      a.systemMessages.count > 0
        ? { count: a.systemMessages.count, repeatsOfThePrompt: a.systemMessages.repeats, lines: a.systemMessages.lines }
        : null,
    sessionEvents: a.sessionEvents.length > 0 ? a.sessionEvents : null,
    sessionTotals: totals,
  });
  return {
    key: threadKey(a, source.name),
    title: a.title,
    toolName: "copilot",
    project: context ? str(context.cwd) : null,
    createdAt: (start && isoUtc(start.startTime)) ?? times[0] ?? null,
    lastUpdatedAt: times.at(-1) ?? null,
    ...(a.systemPrompt !== null ? { initialContext: { instructions: firstSystemPrompt(events) } } : {}),
    metadata,
    turns: a.turns,
  };
}

function firstSystemPrompt(events: CopilotEvent[]): string {
  const first = events.find((e) => e.type === "system.message");
  return (first && str(first.data.content)) ?? "";
}
