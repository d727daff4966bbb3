// One Cursor bubble (a message of the side panel: a prompt, an answer's text, its thinking, or one
// tool call with its result) as Threadline turns. Pure.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine, isoUtc } from "../text";
import { ImportFormatError, isObject, type ImportedTurn, type ImportedUsage } from "../types";
import { innerJson, isoFromMs, lexicalText, NEWEST_BUBBLE_VERSION, num, obj, pathOfUri, str } from "./document";

/** What the bubbles before this one decided: the model the last prompt was sent to. */
export type BubbleContext = {
  /** The composer's model setting (modelConfig.modelName): the last resort for a response's model. */
  composerModel: string | null;
  /** The model the latest prompt (user bubble) named in its modelInfo. */
  requestModel: string | null;
};

/** Tool statuses that end a call (with or without a result Cursor kept); others (running, loading) leave it unfinished. */
const ENDED = new Set(["completed", "error", "cancelled", "canceled", "rejected", "aborted"]);

/** Tools that start a sub-agent (Cursor's internal names; `task_v2` in 3.x). */
const TASK_TOOL = /^task(_v\d+|_subagent)?$/i;

/** The bubble's time: its ISO `createdAt` (Cursor from late 2025), else its timing (Unix ms), else a legacy `timestamp`. */
function bubbleTime(bubble: JsonObject): string | null {
  const created = bubble.createdAt;
  const iso = typeof created === "number" ? isoFromMs(created) : isoUtc(created);
  if (iso) return iso;
  const timing = obj(bubble.timingInfo);
  if (timing) {
    for (const field of ["clientRpcSendTime", "clientSettleTime", "clientEndTime"] as const) {
      const at = isoFromMs(timing[field]);
      if (at) return at;
    }
  }
  return isoFromMs(bubble.timestamp);
}

/** Refuses a bubble of a newer version than the ones read. */
export function checkBubbleVersion(bubble: JsonObject, where: string): void {
  const v = bubble._v;
  if (typeof v === "number" && v > NEWEST_BUBBLE_VERSION)
    throw new ImportFormatError(
      `${where}: a Cursor bubble of version _v ${v}, newer than the versions this importer reads (bubbles up to _v ${NEWEST_BUBBLE_VERSION})`,
    );
}

/** Cursor's per-bubble token counts, when it filled them in (it leaves most at zero). */
function usageOf(bubble: JsonObject): ImportedUsage | null {
  const count = obj(bubble.tokenCount);
  if (!count) return null;
  const input = num(count.inputTokens) ?? 0;
  const output = num(count.outputTokens) ?? 0;
  if (input <= 0 && output <= 0) return null;
  return { inputTokens: input, outputTokens: output };
}

function modelOf(bubble: JsonObject): string | null {
  return str(obj(bubble.modelInfo)?.modelName);
}

/** Keeps only the fields that are set: Cursor writes dozens of empty lists and false flags on every bubble. */
function setFields(source: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const field of fields) {
    const value = source[field];
    if (value === undefined || value === null || value === "" || value === false) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (isObject(value) && Object.keys(value).length === 0) continue;
    out[field] = value;
  }
  return out;
}

const USER_FIELDS = [
  "requestId",
  "checkpointId",
  "modelInfo",
  "unifiedMode",
  "isAgentic",
  "contextWindowStatusAtCreation",
  "relevantFiles",
];
const ASSISTANT_FIELDS = [
  "serverBubbleId",
  "requestId",
  "checkpointId",
  "usageUuid",
  "capabilityType",
  "unifiedMode",
  "isAgentic",
  "timingInfo",
  "turnDurationMs",
  "thinkingDurationMs",
  "tokenCount",
];

/** The files a prompt attached (its context's file selections), as paths. */
function attachedFiles(bubble: JsonObject): string[] {
  const context = obj(bubble.context);
  const selections = Array.isArray(context?.fileSelections) ? context.fileSelections : [];
  const files: string[] = [];
  for (const selection of selections) {
    const uri = isObject(selection) ? obj(selection.uri) : null;
    const file = str(uri?.fsPath) ?? str(uri?.path) ?? (str(uri?.external) ? pathOfUri(uri!.external as string) : null);
    if (file) files.push(file);
  }
  return files;
}

/** A prompt: its text (or, when empty, the text of its rich-text editor state). */
export function userTurn(bubble: JsonObject, key: string, context: BubbleContext): ImportedTurn {
  const text = str(bubble.text) ?? lexicalText(bubble.richText);
  context.requestModel = modelOf(bubble) ?? context.requestModel;
  const files = attachedFiles(bubble);
  const images = Array.isArray(bubble.images) ? bubble.images.length : 0;
  return {
    key,
    role: "user",
    content: text,
    parts: text ? [{ type: "text", text }] : [],
    timestamp: bubbleTime(bubble),
    ...(files.length > 0 ? { files } : {}),
    metadata: { ...setFields(bubble, USER_FIELDS), ...(images > 0 ? { imageCount: images } : {}) },
  };
}

/** The bubble's code blocks that its text does not already hold, fenced. */
function extraCodeBlocks(bubble: JsonObject, text: string): string[] {
  const blocks = Array.isArray(bubble.codeBlocks) ? bubble.codeBlocks : [];
  const out: string[] = [];
  for (const block of blocks) {
    const content = isObject(block) ? str(block.content) : null;
    if (!content || text.includes(content)) continue;
    const language = isObject(block) ? (str(block.languageId) ?? "") : "";
    out.push(`\`\`\`${language}\n${content}\n\`\`\``);
  }
  return out;
}

/** The thinking of a bubble: `thinking.text`, else the texts of `allThinkingBlocks`. */
function thinkingOf(bubble: JsonObject): string | null {
  const own = str(obj(bubble.thinking)?.text);
  if (own) return own;
  const blocks = Array.isArray(bubble.allThinkingBlocks) ? bubble.allThinkingBlocks : [];
  const texts = blocks.map((block) => (isObject(block) ? str(block.text) : typeof block === "string" ? block : null)).filter(Boolean);
  return texts.length > 0 ? texts.join("\n\n") : null;
}

/** The readable text of a tool result: a shell's output or a file's contents, else the JSON. */
function resultText(result: JsonValue): string {
  if (typeof result === "string") return result;
  if (isObject(result)) {
    for (const field of ["output", "contents", "content", "text", "error"] as const)
      if (typeof result[field] === "string") return result[field];
  }
  return result === null ? "" : JSON.stringify(result);
}

type AssistantTurns = { turn: ImportedTurn | null; result: ImportedTurn | null };

/**
 * An answer's bubble: thinking, text (with code blocks its text lacks) and its tool call, on one
 * assistant turn; the call's result, which Cursor keeps in the same bubble, on a tool turn after it.
 * A bubble with none of these (an empty placeholder) makes no turn.
 */
export function assistantTurns(bubble: JsonObject, key: string, context: BubbleContext): AssistantTurns {
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  const thinking = thinkingOf(bubble);
  if (thinking) {
    const durationMs = num(bubble.thinkingDurationMs);
    parts.push({ type: "thinking", text: thinking, ...(durationMs !== null ? { durationMs } : {}) });
  }
  const own = str(bubble.text) ?? "";
  const text = [own, ...extraCodeBlocks(bubble, own)].filter(Boolean).join("\n\n");
  if (text) {
    parts.push({ type: "text", text });
    texts.push(text);
  }
  const metadata: JsonObject = setFields(bubble, ASSISTANT_FIELDS);
  let result: ImportedTurn | null = null;
  const tool = obj(bubble.toolFormerData);
  if (tool && (str(tool.name) || num(tool.tool) !== null)) {
    const call = toolTurns(tool, key, bubble);
    parts.push(call.part);
    texts.push(callLine(call.part.name, call.part.arguments));
    result = call.result;
  }
  if (parts.length === 0) return { turn: null, result: null };
  const model = modelOf(bubble) ?? context.requestModel ?? context.composerModel;
  return {
    turn: {
      key,
      role: "assistant",
      content: texts.join("\n\n"),
      parts,
      timestamp: bubbleTime(bubble),
      modelProvider: null,
      modelName: model,
      usage: usageOf(bubble),
      metadata: { bubbleId: key, ...metadata },
    },
    result,
  };
}

type ToolCallPart = Extract<TurnPart, { type: "tool_call" }>;

/** A toolFormerData as a tool_call part, and its result (when Cursor has one) as a tool turn. */
function toolTurns(tool: JsonObject, key: string, bubble: JsonObject): { part: ToolCallPart; result: ImportedTurn | null } {
  const name = str(tool.name) ?? `tool-${String(tool.tool)}`;
  const id = str(tool.toolCallId) ?? `${key}:call`;
  const params = tool.params !== undefined && tool.params !== null ? innerJson(tool.params) : innerJson(tool.rawArgs ?? undefined);
  const status = str(tool.status);
  const additional = obj(tool.additionalData);
  const parsedResult = tool.result === undefined || tool.result === null ? null : innerJson(tool.result)!;
  // task_v2 names the sub-agent's composer: in its additional data, and as the result's agentId.
  const child = TASK_TOOL.test(name)
    ? (str(additional?.subagentComposerId) ?? (isObject(parsedResult) ? str(parsedResult.agentId) : null))
    : null;
  const failed = status === "error" || additional?.status === "error";
  const ended = parsedResult !== null || (status !== null && ENDED.has(status));
  const part: ToolCallPart = {
    type: "tool_call",
    id,
    name,
    ...(params !== undefined ? { arguments: params } : {}),
    ...(status ? { status } : {}),
    ...(num(tool.tool) !== null ? { cursorTool: tool.tool! } : {}),
    ...(str(tool.userDecision) ? { userDecision: tool.userDecision! } : {}),
    ...(ended ? {} : { unfinished: true }),
    ...(child ? { childSessionId: child } : {}),
  };
  if (!ended) return { part, result: null };
  // No result: a completed call's outcome is what Cursor kept in its additional data (a search's
  // match counts); an ended one's is its status.
  const content: JsonValue = parsedResult ?? (status === "completed" ? (additional ?? "") : (status ?? "error"));
  const extra = setFields(tool, ["toolIndex", "modelCallId"]);
  const result: ImportedTurn = {
    key: `${key}:result`,
    role: "tool",
    content: resultText(content),
    parts: [
      {
        type: "tool_result",
        toolCallId: id,
        content,
        isError: failed || (parsedResult === null && status !== "completed"),
        ...(additional && Object.keys(additional).length > 0 ? { additionalData: additional } : {}),
        // Ties the result to the sub-agent's thread, whichever is imported first (lib/db/imports/turn-stream-import).
        ...(child ? { agentId: child } : {}),
      },
    ],
    timestamp: bubbleTime(bubble),
    toolName: name,
    metadata: { bubbleId: key, ...extra },
  };
  return { part, result };
}
