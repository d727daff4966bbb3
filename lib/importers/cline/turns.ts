// The API history (api_conversation_history.json) of one task to turns. The mapping is described
// at the top of ./index.ts; usage, models and the ui's records are added by ./requests.ts.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine } from "../text";
import { isObject, type ImportedTurn, type SkippedEntry } from "../types";

type Json = Record<string, JsonValue>;

/** Unix milliseconds to ISO-8601, or null. */
export function isoFromMs(value: JsonValue | undefined): string | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return null;
  const date = new Date(value);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
}

export function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

export function num(value: JsonValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

const ENVIRONMENT_OPEN = "<environment_details>";

/** A text block the extension added to a user message: the editor's state, open files, time, mode, model. */
export function isEnvironmentDetails(text: string): boolean {
  return text.trimStart().startsWith(ENVIRONMENT_OPEN);
}

/** The text inside `<tag>…</tag>` when `text` is wholly so wrapped (the first prompt's `<task>`, Roo Code's `<user_message>`), else null. */
export function unwrapped(text: string, tags: readonly string[] = ["task", "user_message"]): string | null {
  const trimmed = text.trim();
  for (const tag of tags) {
    const open = `<${tag}>`;
    const close = `</${tag}>`;
    if (trimmed.startsWith(open) && trimmed.endsWith(close)) return trimmed.slice(open.length, trimmed.length - close.length).trim();
  }
  return null;
}

/** The value between the last `<tag>` and its `</tag>` in `text` (lastIndexOf, linear), or null. */
function lastTagValue(text: string, tag: string): string | null {
  const open = `<${tag}>`;
  const start = text.lastIndexOf(open);
  if (start < 0) return null;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  if (end < 0 || end - start > 500) return null;
  return text.slice(start + open.length, end).trim() || null;
}

/** What environment details tell: Roo Code's and Kilo Code's `<model>` (under "# Current Mode") and the working directory. */
function environmentFacts(text: string): { model: string | null; cwd: string | null } {
  const model = lastTagValue(text, "model");
  let cwd: string | null = null;
  for (const heading of ["# Current Working Directory (", "# Current Workspace Directory ("]) {
    const start = text.indexOf(heading);
    if (start < 0) continue;
    const from = start + heading.length;
    const end = text.indexOf(") Files", from);
    const lineEnd = text.indexOf("\n", from);
    if (end > from && (lineEnd < 0 || end < lineEnd)) {
      const value = text.slice(from, end);
      // Cline's multi-root workspaces name only the primary folder: no path.
      if (!value.startsWith("Primary: ")) cwd = value;
    }
    break;
  }
  return { model, cwd };
}

/** A tool result's readable text: its text blocks joined, an image as "[image]". */
function resultText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : JSON.stringify(content);
  const texts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block.type === "image") texts.push("[image]");
  }
  return texts.join("\n");
}

function imagePart(block: Json, alt: string): TurnPart {
  const source = isObject(block.source) ? block.source : {};
  const mediaType = str(source.media_type);
  return { type: "image", ...(mediaType ? { mediaType } : {}), alt };
}

/** The first word of `text` after `prefix`: a task id (letters, digits, `-`, `_`, `.`), scanned without a regular expression. */
function idAfter(text: string, prefix: string): string | null {
  if (!text.startsWith(prefix)) return null;
  let end = prefix.length;
  while (end < text.length && end < prefix.length + 128 && /[A-Za-z0-9._-]/.test(text[end]!)) end++;
  const id = text.slice(prefix.length, end).replace(/\.$/, "");
  return id || null;
}

/**
 * The child task a Roo Code / Kilo Code `new_task` result names: "Delegated to child task <id>"
 * (when it starts), "Subtask <id> completed." (once the child finished). Null for older builds,
 * whose result names no id.
 * @internal exported for its tests
 */
export function childTaskOf(result: string): string | null {
  return idAfter(result, "Delegated to child task ") ?? idAfter(result, "Subtask ");
}

/** A user text that is the result of a tool called in XML (tools in text, before native tool calls): `[read_file for 'a.ts'] Result:`. */
function isXmlToolResult(text: string): boolean {
  if (!text.startsWith("[")) return false;
  const lineEnd = text.indexOf("\n");
  const firstLine = lineEnd < 0 ? text : text.slice(0, lineEnd);
  return firstLine.length <= 1000 && firstLine.includes("] Result:");
}

/** A model response of the history: the turn it made and what attributing its usage needs. */
export type Response = {
  turn: ImportedTurn;
  /** Index of its message in the API history. */
  apiIndex: number;
  /** Its message's `ts` (Unix ms), where recorded. */
  ts: number | null;
  /** Cline's per-message `modelInfo` (Nov 2025 on). */
  modelInfo: { providerId: string | null; modelId: string | null; mode: string | null } | null;
  /** The `<model>` the environment details before it named (Roo Code, Kilo Code). */
  environmentModel: string | null;
};

/** A compaction marker of the history: Roo Code's summary message or truncation marker, Cline's summarize_task / condense call. */
type Compaction = {
  turn: ImportedTurn;
  condenseId: string | null;
  truncationId: string | null;
  kind: "summary" | "truncation" | "tool";
};

/** A sub-agent call: Cline's use_subagents (its usage is reported in ui_messages.json's subagent_usage). */
type SubagentCall = { toolCallId: string; turn: ImportedTurn; prompts: string[]; resultText: string | null };

export type HistoryTurns = {
  turns: ImportedTurn[];
  responses: Response[];
  compactions: Compaction[];
  subagentCalls: SubagentCall[];
  /** Child tasks Roo Code's new_task results name, by call id. */
  childTasks: Map<string, string>;
  skipped: SkippedEntry[];
  /** The first prompt (the `<task>` text) and the working directory the first environment details name. */
  firstPrompt: string | null;
  cwd: string | null;
  firstTs: number | null;
  lastTs: number | null;
};

/** Keys of a message kept in its turn's metadata, where present. */
const KEPT_KEYS = ["id", "condenseParent", "truncationParent", "metrics", "modelInfo"] as const;

function keptMetadata(message: Json): JsonObject {
  const kept: JsonObject = {};
  for (const key of KEPT_KEYS) if (message[key] !== undefined) kept[key] = message[key]!;
  return kept;
}

type State = HistoryTurns & {
  calls: Map<string, { name: string; part: TurnPart }>;
  subagentCallById: Map<string, SubagentCall>;
  /** Thinking of a standalone reasoning item (Roo Code's older OpenAI Responses builds): joins the next response. */
  pendingThinking: TurnPart[];
  /** Cline's summarize_task / condense: the marker comes after the call's result. */
  pendingCompaction: Compaction | null;
  environmentModel: string | null;
};

/**
 * The turns of an API history, in order, with the responses (for usage) and compaction markers
 * (for the ui's condense records) noted. `list` must be an array; entries that are no message go
 * to `skipped` with their JSON path.
 */
export function historyTurns(list: readonly JsonValue[]): HistoryTurns {
  const state: State = {
    turns: [],
    responses: [],
    compactions: [],
    subagentCalls: [],
    childTasks: new Map(),
    skipped: [],
    firstPrompt: null,
    cwd: null,
    firstTs: null,
    lastTs: null,
    calls: new Map(),
    subagentCallById: new Map(),
    pendingThinking: [],
    pendingCompaction: null,
    environmentModel: null,
  };
  list.forEach((message, index) => {
    const path = `[${index}]`;
    if (!isObject(message)) {
      state.skipped.push({ path, reason: "not a message object" });
      return;
    }
    const ts = num(message.ts);
    if (ts !== null && ts > 0) {
      state.firstTs = state.firstTs === null ? ts : Math.min(state.firstTs, ts);
      state.lastTs = state.lastTs === null ? ts : Math.max(state.lastTs, ts);
    }
    if (message.type === "reasoning" && message.role === undefined) {
      state.pendingThinking.push(reasoningPart(message));
      return;
    }
    if (message.role !== "user" && message.role !== "assistant") {
      state.skipped.push({ path, reason: `role: must be user or assistant, found ${JSON.stringify(message.role ?? null)}` });
      return;
    }
    const content = message.content;
    const blocks: JsonValue[] | null =
      typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : null;
    if (!blocks) {
      state.skipped.push({ path, reason: "content: must be a string or a list of content blocks" });
      return;
    }
    if (message.isSummary === true || message.isTruncationMarker === true) {
      addMarker(state, index, message, blocks, ts);
      return;
    }
    if (message.role === "assistant") addAssistant(state, index, message, blocks, ts);
    else addUser(state, index, message, blocks, ts);
  });
  if (state.pendingCompaction) state.turns.push(state.pendingCompaction.turn);
  const {
    calls: _calls,
    subagentCallById: _byId,
    pendingThinking: _thinking,
    pendingCompaction: _compaction,
    environmentModel: _model,
    ...result
  } = state;
  return result;
}

/** A reasoning item or block: its text as thinking, encrypted content (OpenAI's) only by its length. */
function reasoningPart(block: Json): TurnPart {
  const text = str(block.text) ?? summaryText(block.summary);
  const encrypted = str(block.encrypted_content);
  return {
    type: "thinking",
    text: text ?? "",
    ...(!text && encrypted ? { redacted: true } : {}),
    ...(encrypted ? { encryptedChars: encrypted.length } : {}),
  };
}

function summaryText(summary: JsonValue | undefined): string | null {
  if (!Array.isArray(summary)) return null;
  const texts = summary.flatMap((item) => (isObject(item) && typeof item.text === "string" ? [item.text] : []));
  return texts.length > 0 ? texts.join("\n\n") : null;
}

/** Roo Code's condense summary (`isSummary`) or sliding-window marker (`isTruncationMarker`): a compaction marker. */
function addMarker(state: State, index: number, message: Json, blocks: JsonValue[], ts: number | null): void {
  const texts: string[] = [];
  for (const block of blocks) {
    if (isObject(block) && block.type === "text" && typeof block.text === "string" && !isEnvironmentDetails(block.text))
      texts.push(block.text);
  }
  const truncation = message.isTruncationMarker === true;
  const turn: ImportedTurn = {
    key: String(index),
    role: "system",
    content: texts.join("\n\n"),
    timestamp: isoFromMs(ts ?? undefined),
    compaction: { trigger: truncation ? "sliding_window" : null, tokensBefore: null, tokensAfter: null },
    metadata: {
      ...keptMetadata(message),
      ...(str(message.condenseId) ? { condenseId: message.condenseId! } : {}),
      ...(str(message.truncationId) ? { truncationId: message.truncationId! } : {}),
      ...(message.role === "assistant" ? { summaryRole: "assistant" } : {}),
    },
  };
  state.turns.push(turn);
  state.compactions.push({
    turn,
    condenseId: str(message.condenseId),
    truncationId: str(message.truncationId),
    kind: truncation ? "truncation" : "summary",
  });
}

/** Tools whose call is a compaction (Cline): summarize_task when the context fills up, condense for /smol and /compact. */
const COMPACTION_TOOLS: Record<string, string> = { summarize_task: "auto", condense: "manual" };

function addAssistant(state: State, index: number, message: Json, blocks: JsonValue[], ts: number | null): void {
  const parts: TurnPart[] = [...state.pendingThinking];
  state.pendingThinking = [];
  const texts: string[] = [];
  const other: string[] = [];
  const key = String(index);
  let compaction: Compaction | null = null;
  const subagentCalls: { toolCallId: string; prompts: string[] }[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    const type = str(block.type);
    if (type === "text" && typeof block.text === "string") {
      parts.push({ type: "text", text: block.text });
      texts.push(block.text);
    } else if (type === "thinking" && typeof block.thinking === "string") {
      parts.push({ type: "thinking", text: block.thinking });
    } else if (type === "redacted_thinking") {
      parts.push({ type: "thinking", text: "", redacted: true });
    } else if (type === "reasoning") {
      parts.push(reasoningPart(block));
    } else if (type === "tool_use" && typeof block.id === "string") {
      const name = str(block.name) ?? "tool";
      const part: TurnPart = { type: "tool_call", id: block.id, name, ...(block.input !== undefined ? { arguments: block.input } : {}) };
      parts.push(part);
      texts.push(callLine(name, block.input));
      state.calls.set(block.id, { name, part });
      const input = isObject(block.input) ? block.input : {};
      if (COMPACTION_TOOLS[name] && typeof input.context === "string") {
        compaction = {
          turn: {
            key: `${key}:compaction`,
            role: "system",
            content: input.context,
            timestamp: isoFromMs(ts ?? undefined),
            compaction: { trigger: COMPACTION_TOOLS[name]!, tokensBefore: null, tokensAfter: null },
            metadata: { tool: name, toolCallId: block.id },
          },
          condenseId: null,
          truncationId: null,
          kind: "tool",
        };
      }
      if (name === "use_subagents") {
        const prompts = Object.keys(input)
          .filter((k) => k.startsWith("prompt"))
          .sort()
          .flatMap((k) => (typeof input[k] === "string" ? [input[k] as string] : []));
        subagentCalls.push({ toolCallId: block.id, prompts });
      }
    } else if (type === "image") {
      parts.push(imagePart(block, "image in the response"));
      texts.push("[image]");
    } else if (type !== "thoughtSignature") {
      // Documents and whatever later builds add: named in the metadata, not shown.
      other.push(type ?? "unknown");
    }
  }
  const turn: ImportedTurn = {
    key,
    role: "assistant",
    content: texts.join("\n\n"),
    ...(parts.some((p) => p.type !== "text") ? { parts } : {}),
    timestamp: isoFromMs(ts ?? undefined),
    metadata: { ...keptMetadata(message), ...(other.length > 0 ? { otherBlocks: other } : {}) },
  };
  state.turns.push(turn);
  const modelInfo = isObject(message.modelInfo)
    ? { providerId: str(message.modelInfo.providerId), modelId: str(message.modelInfo.modelId), mode: str(message.modelInfo.mode) }
    : null;
  state.responses.push({ turn, apiIndex: index, ts, modelInfo, environmentModel: state.environmentModel });
  for (const call of subagentCalls) {
    const entry: SubagentCall = { ...call, turn, resultText: null };
    state.subagentCalls.push(entry);
    state.subagentCallById.set(call.toolCallId, entry);
  }
  if (compaction) {
    if (state.pendingCompaction) state.turns.push(state.pendingCompaction.turn);
    state.pendingCompaction = compaction;
    state.compactions.push(compaction);
  }
}

function addUser(state: State, index: number, message: Json, blocks: JsonValue[], ts: number | null): void {
  const resultParts: TurnPart[] = [];
  const resultTexts: string[] = [];
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  const images: string[] = [];
  let unwrappedAny = false;
  const orphans: string[] = [];
  const other: string[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    const type = str(block.type);
    if (type === "tool_result" && typeof block.tool_use_id === "string") {
      const text = resultText(block.content);
      const call = state.calls.get(block.tool_use_id);
      if (!call) {
        // A result whose call is not in the history (cut by a checkpoint restore): kept as text.
        orphans.push(block.tool_use_id);
        parts.push({ type: "text", text, orphanToolResult: block.tool_use_id });
        texts.push(text);
        continue;
      }
      resultParts.push({
        type: "tool_result",
        toolCallId: block.tool_use_id,
        content: text,
        ...(block.is_error === true ? { isError: true } : {}),
      });
      resultTexts.push(text);
      for (const piece of Array.isArray(block.content) ? block.content : []) {
        if (isObject(piece) && piece.type === "image") resultParts.push(imagePart(piece, `image returned by ${call.name}`));
      }
      if (call.name === "new_task") {
        const child = childTaskOf(text);
        if (child) {
          state.childTasks.set(block.tool_use_id, child);
          call.part.childTaskId = child;
        }
      }
      if (call.name === "use_subagents") {
        const sub = state.subagentCallById.get(block.tool_use_id);
        if (sub) sub.resultText = text;
      }
    } else if (type === "text" && typeof block.text === "string") {
      if (isEnvironmentDetails(block.text)) {
        parts.push({ type: "text", text: block.text, synthetic: true, environmentDetails: true });
        const facts = environmentFacts(block.text);
        if (facts.model) state.environmentModel = facts.model;
        if (facts.cwd && state.cwd === null) state.cwd = facts.cwd;
        continue;
      }
      parts.push({ type: "text", text: block.text });
      // The prompt as typed: without the `<task>` / `<user_message>` the extension wraps it in (kept in the part).
      const prompt = unwrapped(block.text) ?? block.text;
      if (prompt !== block.text) unwrappedAny = true;
      texts.push(prompt);
      if (state.firstPrompt === null) state.firstPrompt = prompt;
    } else if (type === "image") {
      parts.push(imagePart(block, "image attached to the message"));
      images.push("image");
      texts.push("[image]");
    } else {
      other.push(type ?? "unknown");
    }
  }
  const key = String(index);
  const timestamp = isoFromMs(ts ?? undefined);
  const metadata: JsonObject = {
    ...keptMetadata(message),
    ...(orphans.length > 0 ? { orphanToolResults: orphans } : {}),
    ...(other.length > 0 ? { otherBlocks: other } : {}),
  };
  const xmlResult = resultParts.length === 0 && texts.length > 0 && isXmlToolResult(texts[0]!);
  if (resultParts.length > 0 || xmlResult) {
    // Tool results, and the text the extension sent with them (notices, the user's feedback, environment details): one tool turn.
    state.turns.push({
      key: resultParts.length > 0 ? `${key}:results` : key,
      role: "tool",
      content: [...resultTexts, ...texts].join("\n\n"),
      parts: [...resultParts, ...parts],
      timestamp,
      ...(images.length > 0 ? { images } : {}),
      metadata: { ...metadata, ...(xmlResult ? { toolResultInText: true } : {}) },
    });
  } else {
    state.turns.push({
      key,
      role: "user",
      content: texts.join("\n\n"),
      ...(unwrappedAny || parts.some((p) => p.type !== "text" || p.synthetic === true) ? { parts } : {}),
      timestamp,
      ...(images.length > 0 ? { images } : {}),
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    });
  }
  if (state.pendingCompaction) {
    state.turns.push(state.pendingCompaction.turn);
    state.pendingCompaction = null;
  }
}
