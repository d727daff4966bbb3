// One Qwen Code record (a ChatRecord) as the turn it makes, if any.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { asPartList, renderParts } from "../gemini-cli/render";
import { isoUtc } from "../text";
import { isObject, type ImportedTurn } from "../types";
import { providerOfModel, qwenUsage } from "./usage";

export type QwenRecord = Record<string, JsonValue>;

/** User-typed records whose text the CLI injected rather than the person (background notices, cron, goals). */
const INJECTED_USER_SUBTYPES = new Set(["notification", "cron", "goal_runtime"]);

const str = (value: JsonValue | undefined): string | null => (typeof value === "string" && value ? value : null);
const num = (value: JsonValue | undefined): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** The text parts of a Gemini Content (`{role, parts}`), thoughts left out. */
function contentText(content: JsonValue | undefined): string {
  const parts = isObject(content) ? content.parts : content;
  return asPartList(parts)
    .map((part) => (typeof part === "string" ? part : part.thought !== true && typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}

/**
 * The turn a record makes, or null for the records that make none (telemetry, titles, snapshots,
 * rewinds and the other bookkeeping `system` subtypes). Its key is the record's uuid.
 */
export function recordTurn(record: QwenRecord): ImportedTurn | null {
  const key = String(record.uuid);
  const timestamp = isoUtc(record.timestamp);
  const subtype = str(record.subtype);
  const payload = isObject(record.systemPayload) ? record.systemPayload : null;
  const base = { key, timestamp, ...(subtype ? { metadata: { subtype } as JsonObject } : {}) };

  switch (record.type) {
    case "user":
      return userTurn(record, base, subtype, payload);
    case "assistant":
      return assistantTurn(record, base);
    case "tool_result":
      return toolResultTurn(record, base);
    case "system":
      return systemTurn(base, subtype, payload);
    default:
      return null;
  }
}

type Base = { key: string; timestamp: string | null; metadata?: JsonObject };

function userTurn(record: QwenRecord, base: Base, subtype: string | null, payload: JsonObject | null): ImportedTurn | null {
  const rendered = renderParts(isObject(record.message) ? record.message.parts : undefined, base.key, { resultIds: new Set() });
  const text = rendered.texts.join("\n");
  const displayText = payload ? str(payload.displayText) : null;
  if (subtype && INJECTED_USER_SUBTYPES.has(subtype)) {
    const content = displayText ?? text;
    return content ? { ...base, role: "system", content } : null;
  }
  if (rendered.parts.length === 0) return null;
  const metadata: JsonObject = { ...base.metadata };
  // What the person typed, where the model got an expanded prompt (@-files read in, hooks' context).
  if (displayText && displayText !== text) metadata.displayText = displayText;
  return {
    ...base,
    role: "user",
    content: text,
    parts: rendered.parts,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function assistantTurn(record: QwenRecord, base: Base): ImportedTurn | null {
  const rendered = renderParts(isObject(record.message) ? record.message.parts : undefined, base.key, { resultIds: new Set() });
  const modelName = str(record.model);
  const usage = qwenUsage(record.usageMetadata, modelName);
  if (rendered.parts.length === 0 && !usage) return null;
  const metadata: JsonObject = { ...base.metadata };
  const contextWindowSize = num(record.contextWindowSize);
  if (contextWindowSize !== null) metadata.contextWindowSize = contextWindowSize;
  if (isObject(record.usageMetadata)) metadata.usageMetadata = record.usageMetadata;
  return {
    ...base,
    role: "assistant",
    content: rendered.texts.join("\n\n"),
    ...(rendered.parts.length > 0 ? { parts: rendered.parts } : {}),
    modelProvider: providerOfModel(modelName),
    modelName,
    usage,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function toolResultTurn(record: QwenRecord, base: Base): ImportedTurn | null {
  const info = isObject(record.toolCallResult) ? record.toolCallResult : {};
  const callId = str(info.callId);
  const status = str(info.status);
  const rendered = renderParts(isObject(record.message) ? record.message.parts : undefined, base.key, { resultIds: new Set() });
  const parts: TurnPart[] = rendered.parts.map((part) => {
    if (part.type !== "tool_result") return part;
    // A response without an id answers the call the record names.
    const toolCallId = part.toolCallId.startsWith(`${base.key}:part-`) && callId ? callId : part.toolCallId;
    return {
      ...part,
      toolCallId,
      isError: part.isError === true || status === "error",
      ...(status ? { status } : {}),
    };
  });
  if (parts.length === 0) return null;
  const metadata: JsonObject = { ...base.metadata };
  const display = info.resultDisplay;
  // The Agent tool's result: which sub-agent ran and how it ended (its own steps are in its transcript).
  if (isObject(display) && display.type === "task_execution") {
    metadata.subagent = {
      name: str(display.subagentName),
      description: str(display.taskDescription),
      status: str(display.status),
      ...(isObject(display.executionSummary) ? { executionSummary: display.executionSummary } : {}),
    };
  }
  return {
    ...base,
    role: "tool",
    content: rendered.texts.join("\n\n"),
    parts,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function systemTurn(base: Base, subtype: string | null, payload: JsonObject | null): ImportedTurn | null {
  if (!payload) return null;
  switch (subtype) {
    case "chat_compression": {
      const info = isObject(payload.info) ? payload.info : {};
      const history = Array.isArray(payload.compressedHistory) ? payload.compressedHistory : [];
      // The summary: the payload's own (some builds), else the user message the compressed history opens with.
      const first = history[0];
      const summary = str(payload.summary) ?? (isObject(first) && first.role === "user" ? contentText(first) : "");
      return {
        ...base,
        role: "system",
        content: summary,
        compaction: { trigger: null, tokensBefore: num(info.originalTokenCount), tokensAfter: num(info.newTokenCount) },
        metadata: {
          ...base.metadata,
          ...(info.compressionStatus !== undefined ? { compressionStatus: info.compressionStatus } : {}),
          keptMessages: history.length,
        },
      };
    }
    case "slash_command": {
      if (payload.phase === "invocation") {
        const command = str(payload.rawCommand);
        return command ? { ...base, role: "user", content: command, metadata: { ...base.metadata, phase: "invocation" } } : null;
      }
      const items = Array.isArray(payload.outputHistoryItems) ? payload.outputHistoryItems : [];
      const text = items
        .map((item) => (isObject(item) && typeof item.text === "string" ? item.text : ""))
        .filter(Boolean)
        .join("\n");
      return text ? { ...base, role: "system", content: text, metadata: { ...base.metadata, phase: str(payload.phase) } } : null;
    }
    case "background_task_completed": {
      const text = str(payload.displayText);
      return text ? { ...base, role: "system", content: text } : null;
    }
    default:
      return null;
  }
}
