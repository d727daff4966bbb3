// One Goose message (role user or assistant, a list of typed content blocks, visibility metadata)
// as Threadline turns. Block types from goose's MessageContent (crates/goose/src/conversation/message):
// text, image, document, toolRequest, frontendToolRequest, toolResponse, thinking, redactedThinking,
// toolConfirmationRequest, actionRequired, systemNotification, error; older builds also wrote
// reasoning, contextLengthExceeded, summarizationRequested and conversationCompacted.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine } from "../text";
import { isObject, type ImportedTurn } from "../types";
import { defined, isoFromSeconds, obj, str, text, type Json } from "./values";

export type GooseMessage = {
  /** Unique within the session: message_id (or the row or line where it has none). */
  key: string;
  messageId: string | null;
  role: "user" | "assistant";
  created: JsonValue;
  content: JsonValue[];
  metadata: Json;
};

/** The turns of one message and what the session needs to know of them. */
type MessageTurns = {
  turns: ImportedTurn[];
  /** The main turn (text, thinking, tool calls of the message's own role), if any. */
  main: ImportedTurn | null;
  /** Block types this reader does not know, kept by name in the turn's metadata. */
  unknownTypes: string[];
};

/** What a tool result's content items say, as the model saw them (items for the user only are left out). */
function resultText(items: JsonValue | undefined): { text: string; userOnly: string[] } {
  const lines: string[] = [];
  const userOnly: string[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    if (!isObject(item)) continue;
    const audience = obj(item.annotations)?.audience;
    const forUserOnly = Array.isArray(audience) && audience.length > 0 && !audience.includes("assistant");
    const line = contentItemText(item);
    if (line === null) continue;
    (forUserOnly ? userOnly : lines).push(line);
  }
  return { text: lines.join("\n"), userOnly };
}

/** One MCP content item (rmcp's RawContent) as a line of text. */
function contentItemText(item: Json): string | null {
  switch (item.type) {
    case "text":
      return str(item.text);
    case "image":
      return `[image ${str(item.mimeType) ?? ""}]`.replace(" ]", "]");
    case "audio":
      return `[audio ${str(item.mimeType) ?? ""}]`.replace(" ]", "]");
    case "resource": {
      const resource = obj(item.resource);
      return str(resource?.text) ?? `[resource ${str(resource?.uri) ?? ""}]`.replace(" ]", "]");
    }
    case "resource_link":
    case "resourceLink":
      return `[resource link ${str(item.uri) ?? ""}]`.replace(" ]", "]");
    default:
      return null;
  }
}

/** A tool result as goose serializes it: `{status: "success", value}` (a CallToolResult, or a bare content list from older builds) or `{status: "error", error}`. */
function toolResultPart(block: Json): { part: TurnPart; text: string } | null {
  const id = text(block.id);
  if (!id) return null;
  const result = obj(block.toolResult);
  if (result?.status === "error" || !result) {
    const error = str(result?.error) ?? "tool result missing";
    return { part: { type: "tool_result", toolCallId: id, content: error, isError: true }, text: error };
  }
  const value = result.value;
  const call = obj(value);
  const items = Array.isArray(value) ? value : call?.content;
  const { text: body, userOnly } = resultText(items);
  const meta = obj(call?._meta);
  const agentId = text(meta?.subagent_session_id);
  const part: TurnPart = {
    type: "tool_result",
    toolCallId: id,
    content: body,
    ...(call?.isError === true ? { isError: true } : {}),
    // The sub-agent session a delegate (or load) call ran: the import ties that session's thread to this call.
    ...(agentId ? { agentId } : {}),
    ...(userOnly.length > 0 && userOnly.join("\n") !== body ? { userText: userOnly.join("\n") } : {}),
  };
  return { part, text: body };
}

/** A tool request as goose serializes it: `toolCall` is `{status: "success", value: {name, arguments}}` or `{status: "error", error}`. */
function toolCallPart(block: Json, frontend: boolean): { part: TurnPart; line: string } | null {
  const id = text(block.id);
  if (!id) return null;
  const call = obj(block.toolCall);
  const value = call?.status === "success" ? obj(call.value) : null;
  const name = text(value?.name) ?? "(invalid tool call)";
  const args = value?.arguments ?? undefined;
  const title = str(obj(block._meta)?.["goose.toolSummary.title"]);
  const part: TurnPart = {
    type: "tool_call",
    id,
    name,
    ...(args !== undefined && args !== null ? { arguments: args } : {}),
    ...(frontend ? { frontend: true } : {}),
    ...(call?.status === "error" ? { error: str(call.error) ?? "invalid tool call" } : {}),
    ...(title ? { title } : {}),
  };
  return { part, line: callLine(name, args ?? undefined) };
}

/** A block that is a notice to the user, not conversation: its kind and text. */
function noticeOf(block: Json): JsonObject | null {
  switch (block.type) {
    case "systemNotification":
      return defined({ kind: str(block.notificationType) ?? "notification", text: str(block.msg) ?? "", data: block.data });
    case "error":
      return defined({ kind: "error", errorKind: str(block.kind), text: str(block.message) ?? "" });
    case "contextLengthExceeded":
    case "summarizationRequested":
      return { kind: block.type, text: str(block.msg) ?? "" };
    case "toolConfirmationRequest":
      return defined({
        kind: "toolConfirmationRequest",
        id: str(block.id),
        toolName: str(block.toolName),
        prompt: str(block.prompt),
        arguments: block.arguments,
        text: `Confirm ${str(block.toolName) ?? "tool"}${str(block.prompt) ? `: ${str(block.prompt)}` : ""}`,
      });
    case "actionRequired": {
      const data = obj(block.data) ?? {};
      const action = str(data.actionType) ?? "action";
      const line =
        action === "toolConfirmation"
          ? `Confirm ${str(data.toolName) ?? "tool"}${str(data.prompt) ? `: ${str(data.prompt)}` : ""}`
          : action === "elicitation"
            ? (str(data.message) ?? "")
            : action === "elicitationResponse"
              ? JSON.stringify(data.user_data ?? null)
              : action;
      return { kind: "actionRequired", actionType: action, data, text: line };
    }
    default:
      return null;
  }
}

/** The visibility flags that differ from goose's default (both true). */
export function visibilityOf(metadata: Json): JsonObject {
  return defined({
    userVisible: metadata.userVisible === false ? false : undefined,
    agentVisible: metadata.agentVisible === false ? false : undefined,
  });
}

/**
 * The turns of one message: a tool turn for its tool results; the main turn (user or assistant)
 * for its text, images, documents, thinking and tool calls; a system turn for a message of notices
 * only (a system notification, an error, a confirmation prompt); a compaction marker for an
 * older build's conversationCompacted block.
 */
export function messageTurns(message: GooseMessage): MessageTurns {
  const timestamp = isoFromSeconds(message.created);
  const visibility = visibilityOf(message.metadata);
  const texts: string[] = [];
  const parts: TurnPart[] = [];
  const results: TurnPart[] = [];
  const resultTexts: string[] = [];
  const notices: JsonObject[] = [];
  const documents: JsonObject[] = [];
  const unknownTypes: string[] = [];
  let compacted: string | null = null;
  let images = 0;
  for (const raw of message.content) {
    const block = obj(raw);
    const type = str(block?.type);
    if (!block || !type) {
      unknownTypes.push("(not a content block)");
      continue;
    }
    switch (type) {
      case "text": {
        const value = str(block.text);
        if (value === null) break;
        texts.push(value);
        parts.push({ type: "text", text: value });
        break;
      }
      case "image":
        images += 1;
        parts.push(defined({ type: "image", mediaType: str(block.mimeType), bytes: str(block.data)?.length }) as TurnPart);
        break;
      case "document": {
        const line = `[document${str(block.name) ? ` ${str(block.name)}` : ""} (${str(block.mimeType) ?? "unknown type"})]`;
        texts.push(line);
        documents.push(defined({ name: str(block.name), mimeType: str(block.mimeType), bytes: str(block.data)?.length }));
        break;
      }
      case "thinking":
        parts.push({ type: "thinking", text: str(block.thinking) ?? "" });
        break;
      case "reasoning":
        parts.push({ type: "thinking", text: str(block.text) ?? "" });
        break;
      case "redactedThinking":
        parts.push({ type: "thinking", text: "[redacted thinking]", redacted: true });
        break;
      case "toolRequest":
      case "frontendToolRequest": {
        const call = toolCallPart(block, type === "frontendToolRequest");
        if (!call) {
          unknownTypes.push(`${type} without an id`);
          break;
        }
        parts.push(call.part);
        texts.push(call.line);
        break;
      }
      case "toolResponse": {
        const result = toolResultPart(block);
        if (!result) {
          unknownTypes.push("toolResponse without an id");
          break;
        }
        results.push(result.part);
        resultTexts.push(result.text);
        break;
      }
      case "conversationCompacted":
        compacted = str(block.msg) ?? "";
        break;
      default: {
        const notice = noticeOf(block);
        if (notice) notices.push(notice);
        else unknownTypes.push(type);
      }
    }
  }

  const base: JsonObject = { ...(message.messageId ? { messageId: message.messageId } : {}), ...visibility };
  const turns: ImportedTurn[] = [];
  const hasMain = parts.length > 0 || texts.length > 0;
  const keys = {
    main: message.key,
    results: `${message.key}:results`,
    notice: `${message.key}:notice`,
    compaction: `${message.key}:compaction`,
  };
  // A message with no main turn gives its bare key to the first turn it has.
  if (!hasMain) {
    if (compacted !== null) keys.compaction = message.key;
    else if (results.length > 0) keys.results = message.key;
    else keys.notice = message.key;
  }
  if (compacted !== null)
    turns.push({
      key: keys.compaction,
      role: "system",
      content: compacted,
      parts: [{ type: "compaction", trigger: null }],
      timestamp,
      compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
      metadata: { ...base, block: "conversationCompacted" },
    });
  if (results.length > 0)
    turns.push({ key: keys.results, role: "tool", content: resultTexts.join("\n\n"), parts: results, timestamp, metadata: { ...base } });
  let main: ImportedTurn | null = null;
  if (hasMain) {
    const metadata: JsonObject = { ...base };
    if (notices.length > 0) metadata.notices = notices;
    if (documents.length > 0) metadata.documents = documents;
    if (unknownTypes.length > 0) metadata.unknownContent = unknownTypes;
    main = {
      key: keys.main,
      role: message.role,
      content: texts.join("\n\n") || (images > 0 ? `[${images === 1 ? "an image" : `${images} images`}]` : ""),
      parts,
      timestamp,
      metadata,
    };
    turns.push(main);
  } else if (notices.length > 0 || (unknownTypes.length > 0 && results.length === 0 && compacted === null)) {
    const metadata: JsonObject = { ...base, notices, role: message.role };
    if (unknownTypes.length > 0) metadata.unknownContent = unknownTypes;
    turns.push({
      key: keys.notice,
      role: "system",
      content: notices.map((n) => str(n.text) ?? "").join("\n\n"),
      parts: [],
      timestamp,
      metadata,
    });
  } else if (unknownTypes.length > 0 && turns.length > 0) {
    turns[turns.length - 1]!.metadata = { ...turns[turns.length - 1]!.metadata, unknownContent: unknownTypes };
  }
  return { turns, main, unknownTypes };
}
