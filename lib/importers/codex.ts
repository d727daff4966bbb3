/**
 * OpenAI Codex CLI rollouts ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<threadId>.jsonl),
 * FORMATS.md section 2. Pure: the caller supplies the lines. One file = one thread.
 *
 * How the records become turns (file order is the only order Codex gives):
 * - User turns come from `event_msg user_message` (the typed prompt). User-role `response_item`
 *   messages are injected context (environment, AGENTS.md, instructions): not turns; the first
 *   environment context and the first instructions block go to the thread's initialContext.
 *   Only a file with no user_message event at all (pre-Sept-2025 "bare" rollouts, or builds that
 *   did not persist events) takes its user turns from those items, minus the injected ones.
 * - One assistant turn gathers consecutive model output: reasoning summaries (thinking parts),
 *   assistant messages (text parts) and tool calls, until a user prompt, a tool output, a
 *   compaction, a rollback or a new task ends it. So the usual step "reasoning, a sentence, three
 *   calls" is one turn, followed by one "tool" turn per output.
 * - `agent_message` / `agent_reasoning` events repeat the assistant messages / reasoning summaries.
 *   The response items win; an event is matched to an item of the same kind in the same assistant
 *   turn by position (not by text: redacted files give the two different placeholders) and only
 *   an event left without an item is rendered, as a text/thinking part marked `fromEvent`.
 * - Developer/system messages are not shown. Encrypted reasoning is never rendered.
 * - Usage: `token_count` carries cumulative totals; each positive difference is one model request's
 *   usage and goes on the assistant turn holding that request's output. A request starts at the
 *   first model response item (reasoning, message, call) after a boundary (user prompt, tool
 *   output, turn_context, compaction, task start/end). Newer builds write the count after the
 *   request's items ("trailing"), 0.3x builds before them ("leading"); the first positive count
 *   tells which: trailing if a request is waiting unpaid, else leading. Trailing: a count pays the
 *   latest unpaid request (even when a fast tool output already came in between). Leading: a count
 *   waits for the next request. The thread's usage then sums to the final cumulative total (minus
 *   what predates the file when it does not start at the thread's start, and minus what a rollback
 *   dropped: both reported).
 * - `compacted` becomes a system turn with a compaction marker; `context_compacted` is the same
 *   event and only makes a turn when no `compacted` record goes with it.
 * - `thread_rolled_back {num_turns}` drops the last N user turns and everything after each, as
 *   Codex does with the model's history; a warning says what went.
 * - Turn keys are the 1-based line of the record that started the turn: the same file gives the
 *   same keys, and appending lines never changes the keys of earlier turns. Codex writes the
 *   prompt's user-role item just before its user_message event, so a prompt's turn is keyed by
 *   that item (the latest user-role item since the last turn that is not injected context), else
 *   by the event: a file read between the two lines gives the prompt the same key as the whole
 *   file does.
 */
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type ImportedUsage, type NumberedLine, type ParsedSource, type SkippedEntry } from "./types";
import { callLine, collapse } from "./text";

export type CodexSource = {
  /** File name (or path): `rollout-<time>-<threadId>.jsonl`. */
  name: string;
};

type Json = Record<string, JsonValue>;

/** Top-level line types of the envelope format (`RolloutLine {timestamp, type, payload}`). */
const ENVELOPE_TYPES = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);
const THREAD_ID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const USER_MESSAGE_EVENT = /"type"\s*:\s*"user_message"/;

/** Text Codex injects as user-role messages: context, not something the user typed. */
const INJECTED_CONTEXT = /^\s*(<environment_context>|<user_instructions>|<permissions instructions>|<INSTRUCTIONS>|# AGENTS\.md instructions|<turn_aborted>|<user_shell_command>|<subagent_notification>|<skill>)/;
const ENVIRONMENT_CONTEXT = /^\s*<environment_context>/;
const INSTRUCTIONS = /^\s*(<user_instructions>|<INSTRUCTIONS>|# AGENTS\.md instructions)/;
/** The VS Code extension wraps the typed request in IDE context; the title uses the request. */
const IDE_REQUEST_MARKER = "## My request for Codex:";

/** A cheap check on the first parsed line and the file name. */
export function looksLikeCodexRollout(firstLine: unknown, fileName: string): boolean {
  if (!isObject(firstLine)) return false;
  const type = firstLine.type;
  if (type === "session_meta") return isObject(firstLine.payload);
  if (typeof type === "string") return ENVELOPE_TYPES.has(type) && isObject(firstLine.payload) && typeof firstLine.timestamp === "string";
  return isBareHeader(firstLine) && ("instructions" in firstLine || /(^|[\\/])rollout-[^\\/]*\.jsonl$/i.test(fileName));
}

/** Line 1 of a pre-Sept-2025 rollout: `{id, timestamp, instructions, git}`, no `type`. */
function isBareHeader(value: Json): boolean {
  return value.type === undefined && typeof value.id === "string" && typeof value.timestamp === "string" && ("instructions" in value || "git" in value || "cwd" in value);
}

// --- small helpers ------------------------------------------------------------------------------

function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

function num(value: JsonValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function isoOrNull(value: JsonValue | undefined): string | null {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** An object without its undefined and null fields (JsonObject has no undefined). */
function defined(fields: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}


/** Tool arguments: parsed JSON when the string parses, else the raw string. */
function jsonOrRaw(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return value;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return value;
  }
}

/** Text of a message's content items of the given types, joined. */
function contentText(content: JsonValue | undefined, types: readonly string[]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((item) => (isObject(item) && typeof item.type === "string" && types.includes(item.type) && typeof item.text === "string" ? item.text : ""))
    .filter(Boolean)
    .join("\n");
}

/** An image as a part: media type and a label only, never its data. */
function imagePart(url: string | null, alt: string, localPath?: string): TurnPart {
  const mediaType = url ? /^data:([^;,]+)[;,]/.exec(url)?.[1] : undefined;
  const remote = url && /^https?:\/\//i.test(url) ? url : undefined;
  return { type: "image", ...(localPath ? { path: localPath } : {}), ...(mediaType ? { mediaType } : {}), ...(remote ? { url: remote } : {}), alt };
}


type ToolOutput = { text: string; images: TurnPart[]; exitCode: number | null; durationSeconds: number | null; failed: boolean };

/**
 * A tool output as text. 0.4x wrote `{"output": …, "metadata": {exit_code, duration_seconds}}` as a
 * JSON string: unwrapped, the exit code kept. Newer exec outputs start with a small header
 * ("Exit code: N" / "Process exited with code N") before "Output:". MCP outputs may be a list of
 * content items (text and images).
 */
function toolOutput(output: JsonValue | undefined): ToolOutput {
  const result: ToolOutput = { text: "", images: [], exitCode: null, durationSeconds: null, failed: false };
  const fromItems = (items: JsonValue[]) => {
    const texts: string[] = [];
    for (const item of items) {
      if (!isObject(item)) continue;
      if (typeof item.text === "string") texts.push(item.text);
      else if (item.type === "input_image" || item.type === "image") {
        result.images.push(imagePart(str(item.image_url) ?? str(item.url), "image returned by the tool"));
        texts.push("[image]");
      }
    }
    return texts.join("\n");
  };
  if (typeof output === "string") {
    result.text = output;
    const wrapped = output.trimStart().startsWith("{") ? jsonOrRaw(output) : undefined;
    if (isObject(wrapped) && typeof wrapped.output === "string" && isObject(wrapped.metadata)) {
      result.text = wrapped.output;
      result.exitCode = num(wrapped.metadata.exit_code);
      result.durationSeconds = num(wrapped.metadata.duration_seconds);
    } else {
      const split = output.indexOf("\nOutput:");
      const header = split >= 0 && split < 600 ? output.slice(0, split) : "";
      const code = /^(?:Exit code:|Process exited with code) (-?\d+)\s*$/m.exec(header);
      if (code?.[1]) result.exitCode = Number(code[1]);
    }
  } else if (Array.isArray(output)) {
    result.text = fromItems(output);
  } else if (isObject(output)) {
    if (typeof output.content === "string") result.text = output.content;
    else if (Array.isArray(output.content)) result.text = fromItems(output.content);
    else result.text = JSON.stringify(output);
    if (output.success === false) result.failed = true;
  } else if (output !== undefined && output !== null) {
    result.text = JSON.stringify(output);
  }
  if (result.exitCode !== null && result.exitCode !== 0) result.failed = true;
  return result;
}

// --- token usage --------------------------------------------------------------------------------

type Totals = { input: number; cached: number; output: number; reasoning: number; total: number };
const ZERO: Totals = { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };

function totalsOf(value: JsonValue | undefined): Totals | null {
  if (!isObject(value)) return null;
  const input = num(value.input_tokens);
  const output = num(value.output_tokens);
  if (input === null || output === null) return null;
  return { input, output, cached: num(value.cached_input_tokens) ?? 0, reasoning: num(value.reasoning_output_tokens) ?? 0, total: num(value.total_tokens) ?? input + output };
}

function minus(a: Totals, b: Totals): Totals {
  return { input: a.input - b.input, cached: a.cached - b.cached, output: a.output - b.output, reasoning: a.reasoning - b.reasoning, total: a.total - b.total };
}

function sameTotals(a: Totals, b: Totals): boolean {
  return a.input === b.input && a.cached === b.cached && a.output === b.output && a.reasoning === b.reasoning && a.total === b.total;
}

/** OpenAI counts cached input inside input; ImportedUsage keeps them apart. */
function usageOf(delta: Totals): ImportedUsage {
  return { inputTokens: delta.input - delta.cached, cacheReadTokens: delta.cached, outputTokens: delta.output, reasoningTokens: delta.reasoning };
}

function addUsage(a: ImportedUsage | null | undefined, b: ImportedUsage): ImportedUsage {
  if (!a) return { ...b };
  const sum = (x?: number, y?: number) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return defined({
    inputTokens: sum(a.inputTokens, b.inputTokens),
    cacheReadTokens: sum(a.cacheReadTokens, b.cacheReadTokens),
    cacheWriteTokens: sum(a.cacheWriteTokens, b.cacheWriteTokens),
    outputTokens: sum(a.outputTokens, b.outputTokens),
    reasoningTokens: sum(a.reasoningTokens, b.reasoningTokens),
  }) as ImportedUsage;
}

function usageTotal(usage: ImportedUsage): number {
  return (usage.inputTokens ?? 0) + (usage.cacheReadTokens ?? 0) + (usage.outputTokens ?? 0);
}

// --- the parser ---------------------------------------------------------------------------------

/** The assistant turn taking model output, and the duplicate events not yet matched to an item. */
type OpenAssistant = {
  turn: ImportedTurn;
  parts: TurnPart[];
  /** Parts rendered from agent_message / agent_reasoning events, waiting for their response item. */
  eventText: TurnPart[];
  eventThinking: TurnPart[];
  /** Items that came before their event (the event, when it comes, is then dropped). */
  itemsWithoutTextEvent: number;
  itemsWithoutThinkingEvent: number;
};

/** A model request: the turn its first output went to, and whether its usage came. */
type Request = { turn: ImportedTurn; paid: boolean };
type TokenOrder = "leading" | "trailing";

type Record_ = { line: number; timestamp: string | null; type: string; payload: Json };

export function parseCodexRollout(input: Iterable<NumberedLine>, source: CodexSource): ParsedSource {
  const lines = Array.from(input);
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];

  // --- read the lines into records ------------------------------------------------------------
  const lastLine = [...lines].reverse().find((l) => l.text.trim())?.line;
  const records: Record_[] = [];
  let bare: Json | null = null;
  let first = true;
  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      skipped.push({ line, reason: line === lastLine ? "truncated last line (the session may still be running)" : "not valid JSON" });
      continue;
    }
    if (!isObject(value)) {
      skipped.push({ line, reason: "not a JSON object" });
      continue;
    }
    if (first) {
      first = false;
      if (!looksLikeCodexRollout(value, source.name)) {
        throw new ImportFormatError(`line ${line} is not a Codex rollout record (expected a session_meta line, or another {timestamp, type, payload} rollout line)`, line);
      }
      if (isBareHeader(value)) {
        bare = value;
        continue;
      }
    }
    if (bare) {
      // Pre-Sept-2025: bare response items, `{"record_type":"state"}` markers, no envelope.
      if (value.record_type !== undefined) continue;
      if (typeof value.type !== "string") {
        skipped.push({ line, reason: "type: missing (expected a response item)" });
        continue;
      }
      records.push({ line, timestamp: isoOrNull(value.timestamp), type: "response_item", payload: value });
      continue;
    }
    if (typeof value.type !== "string") {
      skipped.push({ line, reason: "type: missing or not a string" });
      continue;
    }
    if (!ENVELOPE_TYPES.has(value.type)) continue; // newer record types (world_state, …): not needed
    if (!isObject(value.payload)) {
      skipped.push({ line, reason: `payload of the ${value.type} line: missing or not an object` });
      continue;
    }
    records.push({ line, timestamp: isoOrNull(value.timestamp), type: value.type, payload: value.payload });
  }
  if (first) throw new ImportFormatError("no Codex rollout lines: the file is empty or holds no JSON objects");

  // A file without any typed-prompt event takes its user turns from user-role items.
  const promptsFromItems = bare !== null || !lines.some((l) => USER_MESSAGE_EVENT.test(l.text));

  // --- state ----------------------------------------------------------------------------------
  const meta: Json | null = bare ?? (records.find((r) => r.type === "session_meta")?.payload ?? null);
  const modelProvider = meta ? str(meta.model_provider) : null;
  const turns: ImportedTurn[] = [];
  const initialContext: JsonObject = {};
  let title: string | null = null;
  let project: string | null = meta ? str(meta.cwd) : null;
  let model: string | null = bare ? str(bare.model) : null;
  let effort: string | null = null;
  let turnId: string | null = null;
  let open: OpenAssistant | null = null;
  /** A model response item came since the last boundary: the request is still being written. */
  let requestOpen = false;
  let latestRequest: Request | null = null;
  let tokenOrder: TokenOrder | null = null;
  let pendingUsage: ImportedUsage | null = null;
  let previousTotals: Totals | null = null;
  let lastContextTokens: number | null = null;
  let lastCumulativeTokens: number | null = null;
  let droppedUsage: ImportedUsage | null = null;
  let taskRunning = false;
  let activitySincePrompt = false;
  /** The compaction turn made from a `compacted` record, until its context_compacted event. */
  let compactionAwaitingEvent: ImportedTurn | null = null;
  const callNames = new Map<string, string>();
  /** The line of the latest prompt item (a user-role item, not injected context) since the last turn. */
  let promptItemLine: number | null = null;
  let lastTimestamp: string | null = null;
  let firstTimestamp: string | null = null;

  const closeAssistant = () => {
    open = null;
    requestOpen = false;
    promptItemLine = null;
  };

  /**
   * The assistant turn that takes the next model output. A response item (not a duplicate event)
   * also starts a request when none is being written.
   */
  const assistant = (record: Record_, fromItem = true): OpenAssistant => {
    if (!open) {
      const turn: ImportedTurn = {
        key: String(record.line),
        role: "assistant",
        content: "",
        parts: [],
        timestamp: record.timestamp,
        modelProvider,
        modelName: model,
        metadata: defined({ turnId, effort }),
      };
      turns.push(turn);
      open = { turn, parts: turn.parts!, eventText: [], eventThinking: [], itemsWithoutTextEvent: 0, itemsWithoutThinkingEvent: 0 };
      promptItemLine = null;
    }
    if (fromItem && !requestOpen) {
      requestOpen = true;
      latestRequest = { turn: open.turn, paid: false };
      if (pendingUsage) {
        // Leading order: this request's count came first. Trailing order: a count that found no
        // request to pay; the request still gets its own count later (so it stays unpaid).
        open.turn.usage = addUsage(open.turn.usage, pendingUsage);
        pendingUsage = null;
      }
    }
    activitySincePrompt = true;
    return open;
  };

  /** An item's part replaces the matching event's part (same place), or waits for its event. */
  const addItemPart = (target: OpenAssistant, part: TurnPart, kind: "text" | "thinking") => {
    const waiting = kind === "text" ? target.eventText : target.eventThinking;
    const eventPart = waiting.shift();
    if (eventPart) {
      target.parts[target.parts.indexOf(eventPart)] = part;
      return;
    }
    target.parts.push(part);
    if (kind === "text") target.itemsWithoutTextEvent++;
    else target.itemsWithoutThinkingEvent++;
  };

  const addEventPart = (target: OpenAssistant, part: TurnPart, kind: "text" | "thinking") => {
    if (kind === "text" && target.itemsWithoutTextEvent > 0) return void target.itemsWithoutTextEvent--;
    if (kind === "thinking" && target.itemsWithoutThinkingEvent > 0) return void target.itemsWithoutThinkingEvent--;
    target.parts.push(part);
    (kind === "text" ? target.eventText : target.eventThinking).push(part);
  };

  const addUserTurn = (record: Record_, text: string, parts: TurnPart[], images: string[], key = String(record.line)) => {
    closeAssistant();
    const imageCount = parts.filter((p) => p.type === "image").length;
    const content = [text, ...Array.from({ length: imageCount }, () => "[image]")].filter(Boolean).join("\n\n");
    turns.push({
      key,
      role: "user",
      content,
      ...(imageCount > 0 ? { parts: [...(text ? [{ type: "text", text } as TurnPart] : []), ...parts] } : {}),
      ...(images.length > 0 ? { images } : {}),
      timestamp: record.timestamp,
      ...(turnId ? { metadata: { turnId } } : {}),
    });
    activitySincePrompt = false;
    if (title === null && text.trim()) {
      const marker = text.indexOf(IDE_REQUEST_MARKER);
      title = collapse(marker >= 0 ? text.slice(marker + IDE_REQUEST_MARKER.length) : text) || null;
    }
  };

  const addCall = (record: Record_, id: string, name: string, args: JsonValue | undefined, extra: JsonObject = {}) => {
    callNames.set(id, name);
    assistant(record).parts.push({ type: "tool_call", id, name, ...(args !== undefined ? { arguments: args } : {}), ...extra });
  };

  const addToolResult = (record: Record_, callId: string, output: JsonValue | undefined) => {
    closeAssistant();
    const result = toolOutput(output);
    const name = callNames.get(callId);
    const parts: TurnPart[] = [
      {
        type: "tool_result",
        toolCallId: callId,
        content: result.text,
        ...(result.failed ? { isError: true } : {}),
        ...(result.exitCode !== null ? { exitCode: result.exitCode } : {}),
        ...(result.durationSeconds !== null ? { durationSeconds: result.durationSeconds } : {}),
        ...(name ? { name } : {}),
      },
      ...result.images,
    ];
    turns.push({ key: String(record.line), role: "tool", content: result.text, parts, timestamp: record.timestamp });
    activitySincePrompt = true;
  };

  const addTokenCount = (record: Record_) => {
    const info = record.payload.info;
    if (info === null || info === undefined) return; // rate-limit-only events
    if (!isObject(info)) return void skipped.push({ line: record.line, reason: "token_count info: not an object" });
    const totals = totalsOf(info.total_token_usage);
    const last = totalsOf(info.last_token_usage);
    if (last) lastContextTokens = last.total;
    if (!totals) return void skipped.push({ line: record.line, reason: "token_count info.total_token_usage: missing input_tokens/output_tokens" });
    lastCumulativeTokens = totals.total;
    if (previousTotals === null) {
      // The first count of a whole thread is its first request (total = last). More than that
      // means earlier history is missing from this file: that part is not attributed.
      if (last && !sameTotals(totals, last)) {
        previousTotals = totals;
        warnings.push(`line ${record.line}: the first token count is cumulative over history not in this file (${totals.total} tokens); usage counts from there`);
        return;
      }
      previousTotals = ZERO;
    }
    let delta = minus(totals, previousTotals);
    if (delta.input === 0 && delta.cached === 0 && delta.output === 0 && delta.reasoning === 0 && delta.total === 0) return; // a repeated event
    if (delta.input < 0 || delta.cached < 0 || delta.output < 0 || delta.reasoning < 0 || delta.total < 0) {
      warnings.push(`line ${record.line}: cumulative token totals went down (${previousTotals.total} -> ${totals.total}); counted as a restart from zero`);
      delta = totals;
    }
    previousTotals = totals;
    const usage = usageOf(delta);
    const unpaid: Request | null = latestRequest && !latestRequest.paid ? latestRequest : null;
    tokenOrder ??= unpaid ? "trailing" : "leading";
    if (tokenOrder === "trailing" && unpaid) {
      unpaid.turn.usage = addUsage(unpaid.turn.usage, usage);
      unpaid.paid = true;
    } else {
      pendingUsage = addUsage(pendingUsage, usage);
    }
  };

  const addCompaction = (record: Record_, message: string | null, fromEvent: boolean) => {
    closeAssistant();
    const lastTurn = turns[turns.length - 1];
    if (fromEvent) {
      const made = compactionAwaitingEvent;
      compactionAwaitingEvent = null;
      if (made && made === lastTurn) return; // the `compacted` record already made the turn
    } else if (lastTurn?.compaction && lastTurn.metadata?.fromEvent === true) {
      // The event came first (no record yet): the record fills in that turn.
      lastTurn.content = message || "Context compacted (remote summary, encrypted)";
      lastTurn.metadata = compactionMetadata(record.payload);
      return;
    }
    // Mid-task (after model or tool output, before task_complete) only auto-compaction happens.
    const trigger = taskRunning && activitySincePrompt ? "auto" : null;
    const turn: ImportedTurn = {
      key: String(record.line),
      role: "system",
      content: fromEvent ? "Context compacted" : message || "Context compacted (remote summary, encrypted)",
      timestamp: record.timestamp,
      compaction: { trigger, tokensBefore: lastContextTokens, tokensAfter: null },
      metadata: fromEvent ? { fromEvent: true } : compactionMetadata(record.payload),
    };
    turns.push(turn);
    compactionAwaitingEvent = fromEvent ? null : turn;
  };

  const compactionMetadata = (payload: Json): JsonObject =>
    defined({
      remote: payload.message === "",
      replacementHistoryItems: Array.isArray(payload.replacement_history) ? payload.replacement_history.length : undefined,
      cumulativeTotalTokens: lastCumulativeTokens,
    });

  const rollBack = (record: Record_) => {
    const count = num(record.payload.num_turns);
    if (count === null || count < 1) return void skipped.push({ line: record.line, reason: "thread_rolled_back num_turns: not a positive number" });
    closeAssistant();
    latestRequest = null;
    const userIndexes = turns.flatMap((t, i) => (t.role === "user" ? [i] : []));
    const cutAt = userIndexes.length >= count ? userIndexes[userIndexes.length - count]! : userIndexes[0];
    if (cutAt === undefined) {
      warnings.push(`line ${record.line}: thread_rolled_back by ${count} turn(s), but there is no user turn to drop`);
      return;
    }
    const dropped = turns.splice(cutAt);
    for (const turn of dropped) if (turn.usage) droppedUsage = addUsage(droppedUsage, turn.usage);
    warnings.push(
      `line ${record.line}: thread_rolled_back dropped the last ${Math.min(count, userIndexes.length)} user turn(s) and what followed (${dropped.length} turns, from line ${dropped[0]!.key})` +
        (userIndexes.length < count ? `; ${count} were asked for` : ""),
    );
  };

  const handleResponseItem = (record: Record_) => {
    const item = record.payload;
    const type = str(item.type) ?? "";
    switch (type) {
      case "message": {
        const role = str(item.role);
        if (role === "assistant") {
          const text = contentText(item.content, ["output_text", "text"]);
          const target = assistant(record);
          if (text) addItemPart(target, { type: "text", text, ...(typeof item.phase === "string" ? { phase: item.phase } : {}) }, "text");
          return;
        }
        if (role === "user") {
          const text = contentText(item.content, ["input_text", "text"]);
          if (INJECTED_CONTEXT.test(text)) {
            if (ENVIRONMENT_CONTEXT.test(text) && initialContext.environmentContext === undefined) initialContext.environmentContext = text;
            if (INSTRUCTIONS.test(text) && initialContext.instructions === undefined) initialContext.instructions = text;
            return;
          }
          if (!promptsFromItems) {
            promptItemLine = record.line; // the typed prompt comes from its user_message event, which takes this line as key
            return;
          }
          const images = Array.isArray(item.content)
            ? item.content.filter((c) => isObject(c) && c.type === "input_image").map((c) => imagePart(isObject(c) ? str(c.image_url) : null, "image attached to the prompt"))
            : [];
          if (text || images.length > 0) addUserTurn(record, text, images, []);
          return;
        }
        return; // developer / system: instructions, not shown
      }
      case "reasoning": {
        const target = assistant(record);
        if (Array.isArray(item.summary)) {
          for (const entry of item.summary) {
            const text = isObject(entry) ? str(entry.text) : null;
            if (text) addItemPart(target, { type: "thinking", text }, "thinking");
          }
        }
        // Raw reasoning text (open-weight models); encrypted_content is never read.
        const raw = contentText(item.content, ["reasoning_text", "text"]);
        if (raw) target.parts.push({ type: "thinking", text: raw, raw: true });
        return;
      }
      case "function_call":
      case "custom_tool_call": {
        const id = str(item.call_id);
        const name = str(item.name);
        if (!id || !name) return void skipped.push({ line: record.line, reason: `${type}: ${!id ? "call_id" : "name"} missing or not a string` });
        addCall(record, id, name, jsonOrRaw(type === "function_call" ? item.arguments : item.input), type === "custom_tool_call" ? { custom: true } : {});
        return;
      }
      case "local_shell_call": {
        const id = str(item.call_id) ?? str(item.id) ?? `local_shell:${record.line}`;
        addCall(record, id, "local_shell", item.action ?? undefined);
        return;
      }
      case "web_search_call": {
        const id = str(item.call_id) ?? str(item.id) ?? `web_search:${record.line}`;
        addCall(record, id, "web_search", item.action ?? undefined);
        return;
      }
      case "image_generation_call": {
        // `result` holds the image as base64: only the prompt is kept.
        const id = str(item.call_id) ?? str(item.id) ?? `image_generation:${record.line}`;
        addCall(record, id, "image_generation", defined({ prompt: str(item.revised_prompt) }));
        return;
      }
      case "function_call_output":
      case "custom_tool_call_output":
      case "tool_search_output": {
        const id = str(item.call_id);
        if (!id) return void skipped.push({ line: record.line, reason: `${type}: call_id missing or not a string` });
        addToolResult(record, id, item.output);
        return;
      }
      default:
        if (type.endsWith("_call")) {
          // A newer kind of tool call (tool_search_call, …): shown as a call all the same.
          const id = str(item.call_id) ?? str(item.id) ?? `${type}:${record.line}`;
          addCall(record, id, str(item.name) ?? type.replace(/_call$/, ""), jsonOrRaw(item.arguments ?? item.input ?? item.action ?? undefined));
        }
        return; // compaction (encrypted), ghost snapshots, …: nothing to show
    }
  };

  const handleEvent = (record: Record_) => {
    const event = record.payload;
    switch (event.type) {
      case "user_message": {
        const message = str(event.message);
        if (message === null) return void skipped.push({ line: record.line, reason: "user_message message: missing or not a string" });
        const parts: TurnPart[] = [];
        const paths: string[] = [];
        if (Array.isArray(event.images)) for (const url of event.images) parts.push(imagePart(typeof url === "string" ? url : null, "image attached to the prompt"));
        if (Array.isArray(event.local_images)) {
          for (const local of event.local_images) {
            const localPath = typeof local === "string" ? local : isObject(local) ? str(local.path) : null;
            if (localPath) paths.push(localPath);
            parts.push(imagePart(null, "local image attached to the prompt", localPath ?? undefined));
          }
        }
        addUserTurn(record, message, parts, paths, String(promptItemLine ?? record.line));
        return;
      }
      case "agent_message": {
        const message = str(event.message);
        if (message) addEventPart(assistant(record, false), { type: "text", text: message, fromEvent: true, ...(typeof event.phase === "string" ? { phase: event.phase } : {}) }, "text");
        return;
      }
      case "agent_reasoning": {
        const text = str(event.text);
        if (text) addEventPart(assistant(record, false), { type: "thinking", text, fromEvent: true }, "thinking");
        return;
      }
      case "token_count":
        return addTokenCount(record);
      case "task_started":
        closeAssistant();
        taskRunning = true;
        activitySincePrompt = false;
        if (typeof event.turn_id === "string") turnId = event.turn_id;
        return;
      case "task_complete":
      case "turn_aborted":
        closeAssistant();
        taskRunning = false;
        return;
      case "context_compacted":
        return addCompaction(record, null, true);
      case "thread_rolled_back":
        return rollBack(record);
      default:
        return; // exec_command_end, patch_apply_end, …: the response items carry the same
    }
  };

  // --- walk the records -----------------------------------------------------------------------
  let sawMeta = false;
  for (const record of records) {
    if (record.timestamp) {
      firstTimestamp ??= record.timestamp;
      lastTimestamp = record.timestamp;
    }
    switch (record.type) {
      case "session_meta":
        if (sawMeta && str(record.payload.id) !== str(meta?.id ?? null)) warnings.push(`line ${record.line}: a second session_meta (${String(record.payload.id)}) is ignored`);
        sawMeta = true;
        break;
      case "turn_context": {
        const context = record.payload;
        requestOpen = false; // each sampling step writes one (0.3x and newer)
        if (typeof context.model === "string") model = context.model;
        if (typeof context.effort === "string") effort = context.effort;
        if (typeof context.turn_id === "string") turnId = context.turn_id;
        if (project === null && typeof context.cwd === "string") project = context.cwd;
        break;
      }
      case "response_item":
        handleResponseItem(record);
        break;
      case "event_msg":
        handleEvent(record);
        break;
      case "compacted": {
        const message = record.payload.message;
        if (message !== undefined && typeof message !== "string") skipped.push({ line: record.line, reason: "compacted message: not a string" });
        else addCompaction(record, message ?? null, false);
        break;
      }
    }
  }

  // --- finish the turns -----------------------------------------------------------------------
  // An assistant turn with nothing to show (an empty reasoning item alone) is dropped; its usage
  // moves to the assistant turn before it (or after it), so no tokens are lost.
  const kept: ImportedTurn[] = [];
  let orphanUsage: ImportedUsage | null = null;
  for (const turn of turns) {
    if (turn.role === "assistant" && (turn.parts?.length ?? 0) === 0) {
      if (turn.usage) {
        const previous = [...kept].reverse().find((t) => t.role === "assistant");
        if (previous) previous.usage = addUsage(previous.usage, turn.usage);
        else orphanUsage = addUsage(orphanUsage, turn.usage);
      }
      continue;
    }
    if (turn.role === "assistant" && orphanUsage) {
      turn.usage = addUsage(turn.usage, orphanUsage);
      orphanUsage = null;
    }
    kept.push(turn);
  }
  for (const turn of kept) if (turn.role === "assistant") turn.content = assistantContent(turn.parts ?? []);
  const leftover = addUsage(orphanUsage, pendingUsage ?? {});
  if (usageTotal(leftover) > 0) {
    const lastAssistant = [...kept].reverse().find((t) => t.role === "assistant");
    if (lastAssistant) lastAssistant.usage = addUsage(lastAssistant.usage, leftover);
    else warnings.push(`${usageTotal(leftover)} tokens of usage came with no assistant turn to carry them`);
  }

  // --- the thread -----------------------------------------------------------------------------
  const fileName = source.name.split(/[\\/]/).pop() ?? source.name;
  let key = meta ? str(meta.id) : null;
  if (!key) {
    key = THREAD_ID_IN_NAME.exec(fileName)?.[1]?.toLowerCase() ?? fileName.replace(/\.jsonl$/i, "");
    warnings.push(`no session_meta with an id: the thread key comes from the file name (${key})`);
  }
  const sourceField = meta?.source;
  const spawn = isObject(sourceField) && isObject(sourceField.subagent) && isObject(sourceField.subagent.thread_spawn) ? sourceField.subagent.thread_spawn : null;
  const parentFromSpawn = spawn ? str(spawn.parent_thread_id) : null;
  const forkedFromId = meta ? str(meta.forked_from_id) : null;
  const agentId = (meta && (str(meta.agent_nickname) ?? str(meta.agent_role))) ?? (spawn && (str(spawn.agent_nickname) ?? str(spawn.agent_role))) ?? null;
  const git = meta && isObject(meta.git) ? meta.git : null;
  const gitMeta = git ? defined({ commit: str(git.commit_hash), branch: str(git.branch), repositoryUrl: str(git.repository_url) }) : null;

  const thread: ImportedThread = {
    key,
    title,
    toolName: "codex",
    project,
    createdAt: (meta && isoOrNull(meta.timestamp)) ?? firstTimestamp,
    lastUpdatedAt: lastTimestamp ?? (meta && isoOrNull(meta.timestamp)),
    ...(Object.keys(initialContext).length > 0 ? { initialContext } : {}),
    metadata: defined({
      originator: meta ? str(meta.originator) : null,
      cliVersion: meta ? str(meta.cli_version) : null,
      source: sourceField,
      modelProvider,
      git: gitMeta && Object.keys(gitMeta).length > 0 ? gitMeta : null,
      forkedFromId,
      agentNickname: meta ? str(meta.agent_nickname) : null,
      agentRole: meta ? str(meta.agent_role) : null,
      threadSource: meta?.thread_source,
      bareFormat: bare ? true : null,
      rolledBackUsage: droppedUsage ? (droppedUsage as JsonObject) : null,
    }),
    turns: kept,
  };
  if (parentFromSpawn) {
    thread.parentKey = parentFromSpawn;
    thread.relation = { kind: "subagent", toolCallId: (spawn && str(spawn.spawn_call_id)) ?? null, agentId };
  } else if (forkedFromId) {
    thread.parentKey = forkedFromId;
    thread.relation = { kind: "fork", atTurnKey: null };
  }
  return { format: "codex", threads: [thread], skipped, warnings };
}

/** Readable text of an assistant turn: its text and tool calls; thinking only when that is all. */
function assistantContent(parts: TurnPart[]): string {
  const shown = parts.flatMap((part) => {
    if (part.type === "text") return [part.text];
    if (part.type === "tool_call") return [callLine(part.name, part.arguments)];
    if (part.type === "image") return ["[image]"];
    return [];
  });
  if (shown.length > 0) return shown.join("\n\n");
  return parts.flatMap((part) => (part.type === "thinking" ? [part.text] : [])).join("\n\n");
}
