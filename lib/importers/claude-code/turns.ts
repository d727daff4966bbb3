// The second pass: the planned threads' entries to turns, streamed.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { isObject, type ImportedTurn, type NumberedLine } from "../types";
import { classify, messageOf, parseLine, timeOf, userText } from "./entries";
import { EntryKind, Plan, ThreadTurn } from "./shapes";
import { agentReport, latestUsage, responseKey, usageOf } from "./usage";

// --- second pass: entries to turns -------------------------------------------------------------

function toolResultText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : JSON.stringify(content);
  return content
    .map((part) => {
      if (!isObject(part)) return "";
      if (part.type === "text" && typeof part.text === "string") return part.text;
      if (part.type === "image") return "[image]";
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

function imagePart(part: Record<string, JsonValue>): TurnPart {
  const src = isObject(part.source) ? part.source : {};
  const mediaType = typeof src.media_type === "string" ? src.media_type : undefined;
  return { type: "image", ...(mediaType ? { mediaType } : {}), alt: "image pasted into the session" };
}

/** One line of a tool call for the readable text: name and compact arguments, cut short. */
function callLine(name: string, input: JsonValue | undefined): string {
  const args = input === undefined ? "" : JSON.stringify(input);
  return `[${name}] ${args.length > 300 ? `${args.slice(0, 300)}…` : args}`;
}

type Json = Record<string, JsonValue>;

type OpenTurn = { turn: ImportedTurn; messageId: string | null; texts: string[] };

/** An assistant turn still taking blocks, and the tool results that arrived since. */
type Pending = { assistant: OpenTurn; after: ImportedTurn[] };

export type TurnReader = {
  add(line: NumberedLine): ThreadTurn[];
  /** `add` for a line whose entry the first pass parsed already (SessionPlanner.add). */
  addEntry(line: number, entry: JsonObject): ThreadTurn[];
  end(): ThreadTurn[];
  replan(plan: Plan): void;
};

/**
 * Second pass: the planned threads' turns, in file order per thread. 2.x writes each content
 * block of one API message on its own line, and with parallel tool calls a tool's result can come
 * before the message's next block: all blocks of one message make one assistant turn, followed by
 * the results that arrived meanwhile. Usage counts once per message id and request id.
 *
 * A reader is a fold, like the planner: `add` takes lines in order and answers the turns they
 * complete, `end` the turns still open. A followed session that grew goes on from where it was
 * (`replan` with the plan of the grown file, when it kept every earlier line where it was).
 */
export function claudeCodeTurnReader(plan: Plan): TurnReader {
  const reader: ReaderState = {
    threadOfLine: linesToThreads(plan),
    pending: new Map(),
    countedUsage: new Set(),
    pendingSummary: new Map(),
  };
  return {
    add: (line) => addLine(reader, line),
    addEntry: (line, entry) => addEntry(reader, line, entry),
    end: () => openTurns(reader),
    replan(next: Plan) {
      reader.threadOfLine = linesToThreads(next);
    },
  };
}

type ReaderState = {
  threadOfLine: Map<number, number>;
  /** By thread: the assistant turn still taking blocks. */
  pending: Map<number, Pending>;
  /** Responses (message id and request id) whose usage is counted already. */
  countedUsage: Set<string>;
  /** By thread: the compaction turn waiting for its summary. */
  pendingSummary: Map<number, ImportedTurn>;
};

/** An entry of a planned thread being read, and the turns it completes. */
type EntryAt = {
  entry: Json;
  threadIndex: number;
  key: string;
  timestamp: string | null;
  out: ThreadTurn[];
};

function addLine(reader: ReaderState, { text, line }: NumberedLine): ThreadTurn[] {
  if (!reader.threadOfLine.has(line)) return [];
  let entry: unknown;
  try {
    entry = parseLine(text);
  } catch {
    return []; // reported by the first pass
  }
  return isObject(entry) ? addEntry(reader, line, entry) : [];
}

function addEntry(reader: ReaderState, line: number, entry: Json): ThreadTurn[] {
  const out: ThreadTurn[] = [];
  const threadIndex = reader.threadOfLine.get(line);
  if (threadIndex === undefined) return out;
  const kind = classify(entry);
  const message = messageOf(entry);
  const timestamp = typeof entry.timestamp === "string" ? new Date(timeOf(entry) || 0).toISOString() : null;
  const at: EntryAt = { entry, threadIndex, key: String(entry.uuid), timestamp, out };
  if (kind === "assistant" && message) addAssistantBlocks(reader, at, message);
  else addOtherEntry(reader, at, kind, message);
  return out;
}

/** Ends the thread's assistant turn: it and the tool results that came meanwhile are complete. */
function flush(reader: ReaderState, threadIndex: number, out: ThreadTurn[]): void {
  const current = reader.pending.get(threadIndex);
  if (!current) return;
  reader.pending.delete(threadIndex);
  current.assistant.turn.content = current.assistant.texts.join("\n\n");
  out.push({ threadIndex, turn: current.assistant.turn });
  for (const turn of current.after) out.push({ threadIndex, turn });
}

/** An assistant line: its blocks join the open turn of the same message, else start a new turn. */
function addAssistantBlocks(reader: ReaderState, at: EntryAt, message: Json): void {
  const messageId = typeof message.id === "string" ? message.id : null;
  const current = reader.pending.get(at.threadIndex);
  let target = current && current.assistant.messageId !== null && current.assistant.messageId === messageId ? current.assistant : null;
  if (!target) {
    flush(reader, at.threadIndex, at.out);
    target = openAssistantTurn(reader, at, message, messageId);
    reader.pending.set(at.threadIndex, { assistant: target, after: [] });
  } else if (target.turn.usage) {
    // Each line of a streamed response repeats its usage as it stood then: output grows from
    // the first block's few tokens to the final count. The response's usage is the latest.
    target.turn.usage = latestUsage(target.turn.usage, usageOf(message));
  }
  const content = message.content;
  const blocks = typeof content === "string" ? [{ type: "text", text: content } as Json] : Array.isArray(content) ? content : [];
  for (const block of blocks) {
    if (!isObject(block)) return;
    if (block.type === "text" && typeof block.text === "string") {
      target.turn.parts!.push({ type: "text", text: block.text });
      target.texts.push(block.text);
    } else if (block.type === "thinking" && typeof block.thinking === "string") {
      target.turn.parts!.push({ type: "thinking", text: block.thinking });
    } else if (block.type === "redacted_thinking") {
      target.turn.parts!.push({ type: "thinking", text: "[redacted thinking]", redacted: true });
    } else if (block.type === "tool_use" && typeof block.id === "string") {
      const name = typeof block.name === "string" ? block.name : "tool";
      target.turn.parts!.push({
        type: "tool_call",
        id: block.id,
        name,
        ...(block.input !== undefined ? { arguments: block.input } : {}),
      });
      target.texts.push(callLine(name, block.input));
    } else if (block.type === "image") {
      target.turn.parts!.push(imagePart(block));
      target.texts.push("[image]");
    }
  }
}

/** A new assistant turn for a message; its usage counts unless the same response's did already. */
function openAssistantTurn(reader: ReaderState, { entry, key, timestamp }: EntryAt, message: Json, messageId: string | null): OpenTurn {
  const model = typeof message.model === "string" ? message.model : null;
  const synthetic = model === "<synthetic>";
  const usageKey = responseKey(message, entry, key);
  const usage = synthetic || reader.countedUsage.has(usageKey) ? null : usageOf(message);
  if (usage) reader.countedUsage.add(usageKey);
  return {
    turn: {
      key,
      role: "assistant",
      content: "",
      parts: [],
      timestamp,
      modelProvider: "anthropic",
      modelName: synthetic ? null : model,
      usage,
      metadata: {
        ...(messageId ? { messageId } : {}),
        ...(typeof entry.requestId === "string" ? { requestId: entry.requestId } : {}),
        ...(synthetic ? { synthetic: true } : {}),
        ...(typeof message.stop_reason === "string" ? { stopReason: message.stop_reason } : {}),
      },
    },
    messageId,
    texts: [],
  };
}

/** Any other line: it ends the open assistant turn (a tool result joins it instead) and makes its own turn. */
function addOtherEntry(reader: ReaderState, at: EntryAt, kind: EntryKind | null, message: Json | null): void {
  const { threadIndex, key, timestamp, out } = at;
  if (kind !== "tool-result") flush(reader, threadIndex, out);
  if (kind === "compact-boundary") {
    // Held until the summary entry arrives (next line as a rule), so the marker carries it.
    reader.pendingSummary.set(threadIndex, compactionTurn(at));
    return;
  }
  const waiting = reader.pendingSummary.get(threadIndex);
  if (waiting) {
    reader.pendingSummary.delete(threadIndex);
    if (kind === "compact-summary" && message) {
      waiting.content = userText(message.content);
      waiting.metadata = { ...waiting.metadata, summaryUuid: key };
      out.push({ threadIndex, turn: waiting });
      return;
    }
    out.push({ threadIndex, turn: waiting });
  }
  if (kind === "compact-summary" && message) {
    // A summary without its boundary (cut from the file): still a compaction marker.
    const turn: ImportedTurn = {
      key,
      role: "system",
      content: userText(message.content),
      timestamp,
      compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
    };
    out.push({ threadIndex, turn });
  } else if (kind === "tool-result" && message && Array.isArray(message.content)) addToolResults(reader, at, message.content);
  else if ((kind === "prompt" || kind === "user" || kind === "meta") && message) addUserTurn(at, kind, message);
  else if (kind === "system") {
    const { entry } = at;
    const content = typeof entry.content === "string" ? entry.content : String(entry.subtype ?? "system");
    out.push({ threadIndex, turn: { key, role: "system", content, timestamp, metadata: { subtype: String(entry.subtype ?? "") } } });
  }
}

function compactionTurn({ entry, key, timestamp }: EntryAt): ImportedTurn {
  const meta = isObject(entry.compactMetadata) ? entry.compactMetadata : {};
  return {
    key,
    role: "system",
    content: typeof entry.content === "string" ? entry.content : "Conversation compacted",
    timestamp,
    compaction: {
      trigger: typeof meta.trigger === "string" ? meta.trigger : null,
      tokensBefore: typeof meta.preTokens === "number" ? meta.preTokens : null,
      tokensAfter: typeof meta.postTokens === "number" ? meta.postTokens : null,
    },
    // The summariser's run (an acompact file) names this entry as the one it followed.
    ...(typeof entry.logicalParentUuid === "string" ? { metadata: { logicalParentUuid: entry.logicalParentUuid } } : {}),
  };
}

/** A tool turn of the results in a user line: after the open assistant turn's end, if one is open. */
function addToolResults(reader: ReaderState, { entry, threadIndex, key, timestamp, out }: EntryAt, blocks: JsonValue[]): void {
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  const toolUseResult = isObject(entry.toolUseResult) ? entry.toolUseResult : null;
  const agentId = toolUseResult && typeof toolUseResult.agentId === "string" ? toolUseResult.agentId : null;
  const reported = agentId ? agentReport(toolUseResult) : null;
  for (const block of blocks) {
    if (!isObject(block)) return;
    if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
      const resultText = toolResultText(block.content);
      parts.push({
        type: "tool_result",
        toolCallId: block.tool_use_id,
        content: resultText,
        ...(block.is_error === true ? { isError: true } : {}),
        ...(agentId ? { agentId } : {}),
        ...(reported ? { agentReport: reported } : {}),
      });
      texts.push(resultText);
    } else if (block.type === "text" && typeof block.text === "string") {
      parts.push({ type: "text", text: block.text });
      texts.push(block.text);
    } else if (block.type === "image") {
      parts.push(imagePart(block));
      texts.push("[image]");
    }
  }
  const turn: ImportedTurn = { key, role: "tool", content: texts.join("\n\n"), parts, timestamp };
  const current = reader.pending.get(threadIndex);
  if (current) current.after.push(turn);
  else out.push({ threadIndex, turn });
}

/** A typed prompt, a command (`user`) or a meta entry: a user turn. */
function addUserTurn({ threadIndex, key, timestamp, out }: EntryAt, kind: "prompt" | "user" | "meta", message: Json): void {
  const content = message.content;
  const parts: TurnPart[] = [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) return;
      if (block.type === "text" && typeof block.text === "string") parts.push({ type: "text", text: block.text });
      else if (block.type === "image") parts.push(imagePart(block));
    }
  }
  const images = parts.filter((p) => p.type === "image").length;
  const textContent = userText(content) + (images > 0 ? `${userText(content) ? "\n\n" : ""}${"[image]\n".repeat(images).trim()}` : "");
  out.push({
    threadIndex,
    turn: {
      key,
      role: "user",
      content: textContent,
      ...(images > 0 ? { parts } : {}),
      timestamp,
      ...(kind === "user" ? { metadata: { command: true } } : kind === "meta" ? { metadata: { meta: true } } : {}),
    },
  });
}

/**
 * The turns still open at the end of the lines added so far (an assistant message that may take
 * more blocks, the results that came meanwhile, a compaction waiting for its summary), as copies:
 * more lines may still change them.
 */
function openTurns(reader: ReaderState): ThreadTurn[] {
  const out: ThreadTurn[] = [];
  for (const [threadIndex, { assistant, after }] of reader.pending) {
    out.push({
      threadIndex,
      turn: { ...assistant.turn, parts: [...(assistant.turn.parts ?? [])], content: assistant.texts.join("\n\n") },
    });
    for (const turn of after) out.push({ threadIndex, turn });
  }
  for (const [threadIndex, turn] of reader.pendingSummary) out.push({ threadIndex, turn: { ...turn } });
  return out;
}

function linesToThreads(plan: Plan): Map<number, number> {
  const threadOfLine = new Map<number, number>();
  plan.threads.forEach((p, index) => {
    for (const line of p.lines) threadOfLine.set(line, index);
  });
  return threadOfLine;
}
