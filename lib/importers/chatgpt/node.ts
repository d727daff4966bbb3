// One mapping node to one turn (or none), pairing a tool call with the tool message after it.
import type { JsonObject, TurnPart } from "@/lib/domain/types";
import { isObject, type ImportedTurn, type SkippedEntry } from "../types";
import { Attachment, attachmentsOf, callText, fenced, iso, pathOf, renderContent, secondsToMs, str, toolArguments } from "./render";
import { ConvertedNode, INVISIBLE_CONTENT_TYPES, Json, MappingNode, OpenCall } from "./shapes";

// --- one node -> one turn --------------------------------------------------------------------

export type NodeContext = { prefix: string; skipped: SkippedEntry[] };

export function messageTime(message: Json): number | null {
  return secondsToMs(message.create_time) ?? secondsToMs(message.update_time);
}

export function convertNode(node: MappingNode, openCallBefore: OpenCall | null, ctx: NodeContext): ConvertedNode {
  // Invisible nodes leave an open tool call open: they sit between a call and its result.
  const hidden: ConvertedNode = { turn: null, openCallAfter: openCallBefore };
  const message = node.message;
  if (!message) return hidden;
  const time = messageTime(message);
  const author = isObject(message.author) ? message.author : null;
  const role = author ? str(author.role) : null;
  if (!role) {
    ctx.skipped.push({ path: pathOf(ctx.prefix, node.id, ".message.author.role"), reason: "author.role is missing or not a string" });
    return hidden;
  }
  if (role !== "user" && role !== "assistant" && role !== "system" && role !== "tool") return hidden; // unknown role: tolerated
  const metadata = isObject(message.metadata) ? message.metadata : {};
  if (metadata.is_visually_hidden_from_conversation === true) return hidden;
  const content = isObject(message.content) ? message.content : null;
  if (!content) {
    ctx.skipped.push({ path: pathOf(ctx.prefix, node.id, ".message.content"), reason: "content is missing or not an object" });
    return hidden;
  }
  const contentType = str(content.content_type) ?? "unknown";
  if (INVISIBLE_CONTENT_TYPES.has(contentType)) return hidden;

  const messageId = str(message.id) ?? node.id;
  const recipient = str(message.recipient);
  const attachments = attachmentsOf(metadata);
  const turnMetadata = messageMetadata(message, metadata, contentType, messageId, node.id, attachments);
  const base = { key: node.id, timestamp: iso(time), ...(Object.keys(turnMetadata).length ? { metadata: turnMetadata } : {}) };

  if (role === "assistant" && recipient !== null && recipient !== "all") {
    // A call to the tool named by the recipient; its result comes in the next tool message(s).
    const raw = callText(content);
    const call: TurnPart = { type: "tool_call", id: messageId, name: recipient, arguments: toolArguments(raw) };
    const shown = contentType === "code" ? fenced(raw, str(content.language)) : raw;
    const turn: ImportedTurn = {
      ...base,
      role: "assistant",
      content: raw.trim() ? `[${recipient}]\n${shown}` : `[${recipient}]`,
      parts: [call],
      modelProvider: "openai",
      modelName: str(metadata.model_slug),
    };
    return { turn, openCallAfter: { id: messageId, name: recipient } };
  }

  const rendered = renderContent(content, role, attachments);
  const empty = !rendered.text.trim() && rendered.parts.length === 0;

  if (role === "tool") {
    const toolName = author ? str(author.name) : null;
    if (openCallBefore) {
      // Even an empty answer is the call's result (python code that printed nothing).
      const isError = contentType === "system_error" || metadata.status === "failed";
      const result: TurnPart = {
        type: "tool_result",
        toolCallId: openCallBefore.id,
        content: rendered.text,
        ...(isError ? { isError: true } : {}),
      };
      const others = rendered.parts.filter((p) => p.type !== "text");
      const turn: ImportedTurn = {
        ...base,
        role: "tool",
        content: empty ? "(no output)" : rendered.text,
        parts: [result, ...others],
        toolName,
      };
      return { turn, openCallAfter: openCallBefore };
    }
    if (empty) return hidden;
    return { turn: { ...base, role: "tool", content: rendered.text, parts: rendered.parts, toolName }, openCallAfter: null };
  }

  if (empty) return hidden; // the empty system message under the root, empty placeholders

  const turn: ImportedTurn = {
    ...base,
    role,
    content: rendered.text,
    parts: rendered.parts,
    ...(role === "assistant" ? { modelProvider: "openai", modelName: str(metadata.model_slug) } : {}),
  };
  return { turn, openCallAfter: null };
}

/** What is worth keeping of a message beyond its content. */
function messageMetadata(
  message: Json,
  metadata: Json,
  contentType: string,
  messageId: string,
  nodeId: string,
  attachments: Attachment[],
): JsonObject {
  const out: JsonObject = { contentType };
  if (messageId !== nodeId) out.messageId = messageId;
  const status = str(message.status);
  if (status && status !== "finished_successfully") out.status = status;
  const finish = isObject(metadata.finish_details) ? str(metadata.finish_details.type) : null;
  if (finish) out.finishReason = finish;
  if (typeof message.weight === "number" && message.weight !== 1) out.weight = message.weight;
  const channel = str(message.channel) ?? str(metadata.channel);
  if (channel) out.channel = channel;
  const command = str(metadata.command);
  if (command) out.command = command;
  if (isObject(metadata.invoked_plugin)) {
    const namespace = str(metadata.invoked_plugin.namespace);
    if (namespace) out.plugin = namespace;
  }
  if (attachments.length) {
    out.attachments = attachments.map((a) => ({ name: a.name, mimeType: a.mimeType, size: a.size }));
  }
  const gizmo = str(metadata.gizmo_id);
  if (gizmo) out.gizmoId = gizmo;
  return out;
}
