// One tree entry to one turn (or to nothing: settings, names, labels and extension state are kept elsewhere).
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine, isoUtc } from "../text";
import { isObject, type ImportedTurn, type ImportedUsage } from "../types";
import { unifiedDiffOf } from "./diff";
import { defined, num, str, type Json, type PiNode } from "./entries";

/** The model and thinking level in force at an entry: the header's (v1), then model_change / thinking_level_change, then each assistant message's own. */
export type PiSettings = { provider: string | null; modelId: string | null; thinkingLevel: string | null };

/** What turning an entry gave: a turn, nothing (kept elsewhere), or a reason to report it skipped. */
export type EntryOutcome = { turn: ImportedTurn } | { none: true } | { skip: string };

/** The entry types that never make a turn: they change settings or the thread, or hold extension state. */
const NON_TURN_TYPES = new Set(["model_change", "thinking_level_change", "session_info", "label", "custom"]);

/** Whether an entry makes a turn (decided without converting it; the branch split needs it first). */
export function makesTurn(node: PiNode): boolean {
  const { entry } = node;
  if (entry.type === "message") return isObject(entry.message) && MESSAGE_ROLES.has(String(entry.message.role));
  return entry.type === "compaction" || entry.type === "branch_summary" || entry.type === "custom_message";
}

const MESSAGE_ROLES = new Set([
  "user",
  "assistant",
  "toolResult",
  "bashExecution",
  "custom",
  "hookMessage",
  "branchSummary",
  "compactionSummary",
]);

/**
 * A content list (user, tool result, custom message: text and image blocks) as parts and readable
 * text. Images keep their media type only: base64 data is never stored as text.
 */
function contentParts(content: JsonValue | undefined, where: string): { parts: TurnPart[]; text: string; images: number } {
  if (typeof content === "string") return { parts: [{ type: "text", text: content }], text: content, images: 0 };
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  let images = 0;
  for (const block of Array.isArray(content) ? content : []) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") {
      parts.push({ type: "text", text: block.text });
      texts.push(block.text);
    } else if (block.type === "image") {
      const mediaType = str(block.mimeType);
      parts.push({ type: "image", ...(mediaType ? { mediaType } : {}), alt: `image ${where}` });
      texts.push("[image]");
      images++;
    } else {
      // An unknown block: kept as it came, minus any inline data.
      const { data: _data, ...rest } = block;
      parts.push({ type: "text", text: `[${String(block.type)}]`, unknownBlock: rest });
      texts.push(`[${String(block.type)}]`);
    }
  }
  return { parts, text: texts.join("\n\n"), images };
}

/** Pi's usage: `input` excludes cache reads and writes (totalTokens = input + output + cacheRead + cacheWrite); cost.total is pi's own price. */
function usageOf(usage: JsonValue | undefined): ImportedUsage | null {
  if (!isObject(usage)) return null;
  const out: ImportedUsage = {};
  const input = num(usage.input);
  const output = num(usage.output);
  const cacheRead = num(usage.cacheRead);
  const cacheWrite = num(usage.cacheWrite);
  if (input !== null) out.inputTokens = input;
  if (output !== null) out.outputTokens = output;
  if (cacheRead !== null) out.cacheReadTokens = cacheRead;
  if (cacheWrite !== null) out.cacheWriteTokens = cacheWrite;
  const cost = isObject(usage.cost) ? num(usage.cost.total) : null;
  if (cost !== null) out.reportedCostUsd = cost;
  return Object.keys(out).length > 0 ? out : null;
}

function assistantTurn(base: ImportedTurn, message: Json, settings: PiSettings): ImportedTurn {
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  const blocks: JsonValue[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : Array.isArray(message.content) ? message.content : [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") {
      parts.push({ type: "text", text: block.text });
      texts.push(block.text);
    } else if (block.type === "thinking" && typeof block.thinking === "string") {
      parts.push({ type: "thinking", text: block.thinking, ...(block.redacted === true ? { redacted: true } : {}) });
    } else if (block.type === "toolCall" && typeof block.id === "string") {
      const name = str(block.name) ?? "tool";
      parts.push({ type: "tool_call", id: block.id, name, ...(block.arguments !== undefined ? { arguments: block.arguments } : {}) });
      texts.push(callLine(name, block.arguments));
    } else {
      parts.push({ type: "text", text: `[${String(block.type)}]`, unknownBlock: block });
      texts.push(`[${String(block.type)}]`);
    }
  }
  const stopReason = str(message.stopReason);
  return {
    ...base,
    role: "assistant",
    content: texts.join("\n\n"),
    parts,
    // The message names the model that answered; a model_change only says what was chosen.
    modelProvider: str(message.provider) ?? settings.provider,
    modelName: str(message.model) ?? settings.modelId,
    usage: usageOf(message.usage),
    metadata: defined({
      api: str(message.api),
      stopReason,
      // Aborted replies are kept (often empty): they show where the user stopped the agent.
      aborted: stopReason === "aborted" ? true : null,
      error: stopReason === "error" ? true : null,
      errorMessage: str(message.errorMessage),
      responseId: str(message.responseId),
      thinkingLevel: settings.thinkingLevel,
    }),
  };
}

function toolResultTurn(base: ImportedTurn, message: Json, pathOfCall: (id: string) => string | null): ImportedTurn {
  const toolName = str(message.toolName);
  const { parts: blocks, text } = contentParts(message.content, "returned by the tool");
  const details = message.details;
  // The edit tool's numbered diff, as a unified diff for the page; the raw details stay beside it.
  const piDiff = isObject(details) ? str(details.diff) : null;
  const toolCallId = str(message.toolCallId) ?? "";
  const diff = piDiff ? unifiedDiffOf(piDiff, pathOfCall(toolCallId)) : null;
  const result: TurnPart = {
    type: "tool_result",
    toolCallId,
    content: blocks
      .filter((p) => p.type === "text")
      .map((p) => (p.type === "text" ? p.text : ""))
      .join("\n\n"),
    isError: message.isError === true,
    ...(toolName ? { toolName } : {}),
    ...(diff ? { diff } : {}),
    ...(details !== undefined && details !== null ? { details } : {}),
  };
  return { ...base, role: "tool", toolName, content: text, parts: [result, ...blocks.filter((p) => p.type !== "text")] };
}

/** A user `!command`: a tool card of its own (call and result paired), and the text pi gives the model. */
function bashTurn(base: ImportedTurn, message: Json): ImportedTurn {
  const command = str(message.command) ?? "";
  const output = str(message.output) ?? "";
  const exitCode = num(message.exitCode);
  const cancelled = message.cancelled === true;
  const id = `${base.key}:bash`;
  let text = `Ran \`${command}\`\n${output ? `\`\`\`\n${output}\n\`\`\`` : "(no output)"}`;
  if (cancelled) text += "\n\n(command cancelled)";
  else if (exitCode !== null && exitCode !== 0) text += `\n\nCommand exited with code ${exitCode}`;
  return {
    ...base,
    role: "user",
    content: text,
    parts: [
      { type: "tool_call", id, name: "bash", arguments: { command } },
      { type: "tool_result", toolCallId: id, content: output, isError: cancelled || (exitCode !== null && exitCode !== 0) },
    ],
    metadata: defined({
      bashExecution: true,
      exitCode,
      cancelled,
      truncated: message.truncated === true,
      fullOutputPath: str(message.fullOutputPath),
      excludeFromContext: message.excludeFromContext === true ? true : null,
    }),
  };
}

/** Extension text sent to the model as a user message (custom_message entries, `custom` / v2 `hookMessage` messages). */
function customTurn(base: ImportedTurn, source: Json): ImportedTurn {
  const { parts, text, images } = contentParts(source.content, "from an extension");
  return {
    ...base,
    role: "user",
    content: text,
    ...(images > 0 ? { parts } : {}),
    metadata: defined({
      customMessage: true,
      customType: str(source.customType),
      display: typeof source.display === "boolean" ? source.display : null,
      details: source.details,
    }),
  };
}

function compactionTurn(base: ImportedTurn, summary: string, tokensBefore: number | null, metadata: JsonObject): ImportedTurn {
  return { ...base, role: "system", content: summary, compaction: { trigger: null, tokensBefore, tokensAfter: null }, metadata };
}

function branchSummaryTurn(base: ImportedTurn, summary: string, fromId: string | null, extra: JsonObject): ImportedTurn {
  return { ...base, role: "system", content: summary, metadata: { branchSummary: true, ...defined({ fromId }), ...extra } };
}

/**
 * The turn an entry makes. `firstKeptKey`: for a v1 compaction, the key of the entry its
 * `firstKeptEntryIndex` names, when that entry is in the file. `pathOfCall`: the file a tool call
 * (by id) worked on, to name it in an edit's diff.
 */
export function entryTurn(
  node: PiNode,
  settings: PiSettings,
  firstKeptKey: string | null,
  pathOfCall: (id: string) => string | null,
): EntryOutcome {
  const { entry } = node;
  const base: ImportedTurn = { key: node.key, role: "user", content: "", timestamp: isoUtc(entry.timestamp) };
  switch (entry.type) {
    case "message": {
      const message = entry.message;
      if (!isObject(message)) return { skip: "message: missing or not an object" };
      switch (message.role) {
        case "user": {
          const { parts, text, images } = contentParts(message.content, "pasted into the session");
          return { turn: { ...base, role: "user", content: text, ...(images > 0 ? { parts } : {}) } };
        }
        case "assistant":
          return { turn: assistantTurn(base, message, settings) };
        case "toolResult":
          return { turn: toolResultTurn(base, message, pathOfCall) };
        case "bashExecution":
          return { turn: bashTurn(base, message) };
        case "custom":
        case "hookMessage":
          return { turn: customTurn(base, message) };
        case "branchSummary":
          return { turn: branchSummaryTurn(base, str(message.summary) ?? "", str(message.fromId), {}) };
        case "compactionSummary":
          return { turn: compactionTurn(base, str(message.summary) ?? "", num(message.tokensBefore), { compactionSummaryMessage: true }) };
        default:
          return { skip: `message.role ${JSON.stringify(message.role ?? null)}: not a role Pi writes` };
      }
    }
    case "compaction":
      return {
        turn: compactionTurn(
          base,
          str(entry.summary) ?? "",
          num(entry.tokensBefore),
          defined({
            firstKeptEntryId: str(entry.firstKeptEntryId) ?? firstKeptKey,
            firstKeptEntryIndex: num(entry.firstKeptEntryIndex),
            details: entry.details,
            fromHook: typeof entry.fromHook === "boolean" ? entry.fromHook : null,
            usage: entry.usage,
          }),
        ),
      };
    case "branch_summary":
      return {
        turn: branchSummaryTurn(
          base,
          str(entry.summary) ?? "",
          str(entry.fromId),
          defined({ details: entry.details, fromHook: typeof entry.fromHook === "boolean" ? entry.fromHook : null }),
        ),
      };
    case "custom_message":
      return { turn: customTurn(base, entry) };
    case "custom":
      return {
        skip: `extension state (custom entry ${JSON.stringify(entry.customType ?? null)}): pi never shows it to the model or the user`,
      };
    default:
      return NON_TURN_TYPES.has(String(entry.type))
        ? { none: true }
        : { skip: `type ${JSON.stringify(entry.type)}: not an entry type Pi writes` };
  }
}
