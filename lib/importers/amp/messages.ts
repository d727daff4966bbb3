// One Amp thread message to one turn: user prompts, assistant replies, the tool results Amp carries in
// the next user message, and `info` summaries (compaction). Pure.
import { isRealPrompt } from "@/lib/domain/threads/title";
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine } from "../text";
import { isObject, type ImportedTurn, type ImportedUsage, type SkippedEntry } from "../types";
import { defined, isoOfString, num, obj, providerOfModel, str, type Json } from "./values";

/** What the messages of one thread share while they are turned, in order. */
export type MessageContext = {
  /** Tool call id -> tool name, filled as the calls come (a call precedes its result). */
  toolNames: Map<string, string>;
  /** The usage ledger's events by the message they were spent for (`toMessageId`), for messages without usage of their own. */
  ledger: Map<string, Json[]>;
  skipped: SkippedEntry[];
};

/** What a message gave: a turn (and, for a prompt a person typed, its first real text, which can name the thread), or a reason to report it skipped. */
export type MessageOutcome = { turn: ImportedTurn; prompt?: string | null } | { skip: string };

/** `content` as blocks: a list as it is, a bare string (seen in old tests of readers, tolerated) as one text block. */
function blocksOf(content: JsonValue | undefined): JsonValue[] | null {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : null;
}

/** An image block: its media type and where it came from, never its data (base64 stays out of the text). */
function imagePart(block: Json): TurnPart {
  const source = obj(block.source);
  const mediaType = str(source?.media_type) ?? str(source?.mediaType) ?? str(block.mediaType) ?? str(block.mimeType);
  const url = str(source?.url) ?? str(block.url);
  const sourcePath = str(block.sourcePath);
  return {
    type: "image",
    ...(mediaType ? { mediaType } : {}),
    ...(url && /^https?:\/\//i.test(url) ? { url } : {}),
    ...(sourcePath ? { sourcePath } : {}),
    alt: "image",
  };
}

/** A block of a type this importer does not know: kept as it came, minus any inline data. */
function unknownPart(block: Json): TurnPart {
  const { data: _data, bytes: _bytes, ...rest } = block;
  return { type: "text", text: `[${String(block.type)}]`, unknownBlock: rest };
}

/**
 * A tool's `run.result` as readable text: a string as it is; a shell's `{output, exitCode}`, a
 * read's `{content}` or an edit's `{diff}` by that field; `{success}` as success/failed; a list of
 * strings or text blocks joined; anything else as compact JSON. Null when there is none.
 * @internal exported for its tests
 */
export function resultText(value: JsonValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "";
    if (value.every((v) => typeof v === "string")) return value.join("\n");
    if (value.every((v) => isObject(v) && v.type === "text" && typeof v.text === "string"))
      return value.map((v) => (isObject(v) ? String(v.text) : "")).join("\n");
    return JSON.stringify(value);
  }
  for (const field of ["output", "content", "diff"]) {
    if (field in value) {
      const text = resultText(value[field]);
      if (text) return text;
    }
  }
  if (typeof value.success === "boolean") return value.success ? "success" : "failed";
  return JSON.stringify(value);
}

/** A unified diff, as the page shows one beside the result: an edit tool's `result.diff`. */
const UNIFIED_DIFF = /^(?:--- |\+\+\+ |@@ |diff )/m;

/** A `tool_result` block: `{toolUseID, run: {status, result | error | progress}}` (or the Anthropic `tool_use_id` + `content`). */
function resultPart(block: Json, toolNames: Map<string, string>): { part: TurnPart; text: string } | null {
  const toolCallId = str(block.toolUseID) ?? str(block.tool_use_id);
  if (!toolCallId) return null;
  const run = obj(block.run);
  const status = str(run?.status);
  const result = run?.result;
  const error = run?.error;
  let text: string;
  if (status === "error") text = str(obj(error)?.message) ?? str(error) ?? "[error]";
  else
    text =
      resultText(result) ?? resultText(run?.progress) ?? resultText(block.content) ?? (status && status !== "done" ? `[${status}]` : "");
  const resultObject = obj(result);
  const exitCode = num(resultObject?.exitCode);
  const isError =
    status === "error" ||
    status === "rejected-by-user" ||
    (exitCode !== null && exitCode !== 0) ||
    resultObject?.success === false ||
    block.is_error === true;
  const diff = str(resultObject?.diff);
  const toolName = toolNames.get(toolCallId);
  return {
    part: {
      type: "tool_result",
      toolCallId,
      content: text,
      isError,
      ...(toolName ? { toolName } : {}),
      ...(status ? { status } : {}),
      ...(exitCode !== null ? { exitCode } : {}),
      ...(diff && UNIFIED_DIFF.test(diff) ? { diff } : {}),
    },
    text,
  };
}

/**
 * Amp's usage of one inference: `inputTokens` is the prompt not read from the cache nor written to
 * it (totalInputTokens = input + cache writes + cache reads). For gpt-* models Amp reports the
 * whole uncached prompt as cache creation and inputTokens as 0; OpenAI bills no cache writes, so
 * there it is input (as agentsview reads it). `folded`: the cache-creation count moved into input.
 */
function usageOf(usage: Json, model: string | null): { usage: ImportedUsage | null; folded: number | null } {
  const input = num(usage.inputTokens);
  const output = num(usage.outputTokens);
  const cacheWrite = num(usage.cacheCreationInputTokens);
  const cacheRead = num(usage.cacheReadInputTokens);
  const fold = model !== null && /^gpt-/i.test(model) && cacheWrite !== null;
  const out: ImportedUsage = {};
  if (input !== null || fold) out.inputTokens = (input ?? 0) + (fold ? cacheWrite : 0);
  if (cacheRead !== null) out.cacheReadTokens = cacheRead;
  if (cacheWrite !== null && !fold) out.cacheWriteTokens = cacheWrite;
  if (output !== null) out.outputTokens = output;
  return { usage: Object.keys(out).length > 0 ? out : null, folded: fold ? cacheWrite : null };
}

/** The legacy usage ledger's events for a message without usage of its own: their input and output summed, their model. */
function ledgerUsage(events: Json[]): { usage: ImportedUsage | null; model: string | null; credits: number | null } {
  let input: number | null = null;
  let output: number | null = null;
  let credits: number | null = null;
  let model: string | null = null;
  for (const event of events) {
    const tokens = obj(event.tokens);
    const i = num(tokens?.input);
    const o = num(tokens?.output);
    const c = num(event.credits);
    if (i !== null) input = (input ?? 0) + i;
    if (o !== null) output = (output ?? 0) + o;
    if (c !== null) credits = (credits ?? 0) + c;
    model ??= str(event.model);
  }
  const usage: ImportedUsage = {};
  if (input !== null) usage.inputTokens = input;
  if (output !== null) usage.outputTokens = output;
  return { usage: Object.keys(usage).length > 0 ? usage : null, model, credits };
}

/** Text blocks (`hidden` ones are context Amp added, not what was typed or shown), images, unknown blocks. */
function addCommonBlock(block: Json, parts: TurnPart[], texts: string[], hidden: string[]): void {
  if (block.type === "text" && typeof block.text === "string") {
    if (block.hidden === true) {
      parts.push({ type: "text", text: block.text, hidden: true });
      hidden.push(block.text);
    } else {
      parts.push({ type: "text", text: block.text });
      texts.push(block.text);
    }
  } else if (block.type === "image") {
    parts.push(imagePart(block));
    texts.push("[image]");
  } else {
    parts.push(unknownPart(block));
    texts.push(`[${String(block.type)}]`);
  }
}

/** Whether the parts hold more than visible text (else the content alone says it all). */
const richParts = (parts: TurnPart[]) => parts.some((p) => p.type !== "text" || p.hidden === true || p.unknownBlock !== undefined);

/** A user message: a prompt (user turn), or the results of the previous reply's tool calls (tool turn). */
function userTurn(base: ImportedTurn, message: Json, blocks: JsonValue[], ctx: MessageContext, path: string): MessageOutcome {
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  const hidden: string[] = [];
  let results = 0;
  blocks.forEach((block, j) => {
    if (!isObject(block)) return;
    if (block.type === "tool_result") {
      const made = resultPart(block, ctx.toolNames);
      if (!made) {
        ctx.skipped.push({ path: `${path}.content[${j}]`, reason: "tool_result without a toolUseID" });
        return;
      }
      parts.push(made.part);
      texts.push(made.text);
      results++;
    } else addCommonBlock(block, parts, texts, hidden);
  });
  const meta = obj(message.meta);
  const onlyResult = results === 1 ? parts.find((p) => p.type === "tool_result") : undefined;
  const toolName = onlyResult && typeof onlyResult.toolName === "string" ? onlyResult.toolName : null;
  const typed =
    results === 0
      ? parts.find((p) => p.type === "text" && p.hidden !== true && p.unknownBlock === undefined && isRealPrompt(p.text))
      : undefined;
  const prompt = typed?.type === "text" ? typed.text : null;
  const turn: ImportedTurn = {
    ...base,
    role: results > 0 ? "tool" : "user",
    // Only injected context: shown as it is, marked hidden.
    content: texts.length > 0 ? texts.join("\n\n") : hidden.join("\n\n"),
    ...(results > 0 || richParts(parts) ? { parts } : {}),
    ...(toolName ? { toolName } : {}),
    metadata: defined({
      ...base.metadata,
      hidden: texts.length === 0 && hidden.length > 0 ? true : null,
      fromExecutorThreadID: str(meta?.fromExecutorThreadID),
      fromAutomation: meta?.fromAutomation === true ? true : null,
    }),
  };
  return { turn, prompt: meta?.fromAutomation === true ? null : prompt };
}

/** An assistant message: text, thinking (encrypted reasoning kept as an empty, marked block), tool calls, and the inference's usage. */
function assistantTurn(
  base: ImportedTurn,
  message: Json,
  blocks: JsonValue[],
  ctx: MessageContext,
  path: string,
  messageId: string | null,
): ImportedTurn {
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  const hidden: string[] = [];
  blocks.forEach((block, j) => {
    if (!isObject(block)) return;
    if (block.type === "thinking" || block.type === "redacted_thinking") {
      const text = str(block.thinking) ?? "";
      const encrypted =
        block.type === "redacted_thinking" || (text === "" && (isObject(block.openAIReasoning) || typeof block.data === "string"));
      const provider = str(block.provider);
      parts.push({ type: "thinking", text, ...(encrypted ? { redacted: true } : {}), ...(provider ? { provider } : {}) });
    } else if (block.type === "tool_use") {
      const id = str(block.id);
      if (!id) {
        ctx.skipped.push({ path: `${path}.content[${j}]`, reason: "tool_use without an id" });
        return;
      }
      const name = str(block.name) ?? "tool";
      ctx.toolNames.set(id, name);
      parts.push({
        type: "tool_call",
        id,
        name,
        ...(block.input !== undefined ? { arguments: block.input } : {}),
        ...(block.complete === false ? { incomplete: true } : {}),
      });
      texts.push(callLine(name, block.input));
    } else addCommonBlock(block, parts, texts, hidden);
  });
  const usageRecord = obj(message.usage);
  const state = obj(message.state);
  const meta = obj(message.meta);
  let model = str(usageRecord?.model);
  let usage: ImportedUsage | null = null;
  let folded: number | null = null;
  let credits = num(usageRecord?.credits);
  let fromLedger = false;
  if (usageRecord) ({ usage, folded } = usageOf(usageRecord, model));
  else if (messageId !== null && ctx.ledger.has(messageId)) {
    const spent = ledgerUsage(ctx.ledger.get(messageId)!);
    ({ usage, credits } = spent);
    model = spent.model;
    fromLedger = usage !== null;
  }
  const stateType = str(state?.type);
  return {
    ...base,
    role: "assistant",
    timestamp: isoOfString(usageRecord?.timestamp) ?? base.timestamp,
    content: texts.join("\n\n"),
    parts,
    modelProvider: providerOfModel(model),
    modelName: model,
    usage,
    metadata: defined({
      ...base.metadata,
      state: stateType,
      stopReason: str(state?.stopReason),
      cancelled: stateType === "cancelled" ? true : null,
      credits,
      usageFromLedger: fromLedger ? true : null,
      // Amp's own counts a reader may want back: the cache creation moved into input (gpt-*), the prompt's total and window.
      ampUsage: usageRecord
        ? defined({
            cacheCreationInputTokens: folded,
            totalInputTokens: num(usageRecord.totalInputTokens),
            maxInputTokens: num(usageRecord.maxInputTokens),
          })
        : null,
      responsePhase: str(meta?.openAIResponsePhase),
    }),
  };
}

/** An `info` message: a summary block (Amp's compaction) is a compaction marker; other info is a system turn. */
function infoTurn(base: ImportedTurn, blocks: JsonValue[]): MessageOutcome {
  const texts: string[] = [];
  const parts: TurnPart[] = [];
  const hidden: string[] = [];
  let summary: string | null = null;
  let summaryThread: string | null = null;
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === "summary") {
      const value = block.summary;
      if (typeof value === "string") summary = value;
      else if (isObject(value) && value.type === "thread" && typeof value.thread === "string") summaryThread = value.thread;
      else if (isObject(value) && typeof value.summary === "string") summary = value.summary;
    } else addCommonBlock(block, parts, texts, hidden);
  }
  if (summary !== null || summaryThread !== null) {
    return {
      turn: {
        ...base,
        role: "system",
        content: summary ?? `The conversation before this point was summarized in thread ${summaryThread}.`,
        compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
        metadata: defined({ ...base.metadata, summaryThread }),
      },
    };
  }
  const content = [...texts, ...hidden].join("\n\n");
  if (!content.trim()) return { skip: "an info message with no summary and no text" };
  return { turn: { ...base, role: "system", content, ...(richParts(parts) ? { parts } : {}) } };
}

/**
 * The turn a message makes. `key`: the message's key in its thread; `timestamp`: the time the
 * thread gives it before its own (meta.sentAt, else the last time seen).
 */
export function messageTurn(message: Json, key: string, timestamp: string | null, ctx: MessageContext, path: string): MessageOutcome {
  const blocks = blocksOf(message.content);
  if (blocks === null) return { skip: "content: neither a list of blocks nor a string" };
  const messageId = typeof message.messageId === "number" || typeof message.messageId === "string" ? String(message.messageId) : null;
  const base: ImportedTurn = {
    key,
    role: "user",
    content: "",
    timestamp,
    metadata: defined({ protocolMessageID: str(message.protocolMessageID) }) as JsonObject,
  };
  switch (message.role) {
    case "user":
      return userTurn(base, message, blocks, ctx, path);
    case "assistant":
      return { turn: assistantTurn(base, message, blocks, ctx, path, messageId) };
    case "info":
      return infoTurn(base, blocks);
    default:
      return { skip: `role ${JSON.stringify(message.role ?? null)}: not one Amp writes (user, assistant, info)` };
  }
}
