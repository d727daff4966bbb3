// One Droid `message` record to one turn. Droid writes Anthropic's message shape: content blocks
// text, thinking, redacted_thinking, tool_use, tool_result (in the next user message), image,
// document. Pure.
import { isRealPrompt } from "@/lib/domain/threads/title";
import type { JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine } from "../text";
import { isObject, type ImportedTurn, type SkippedEntry } from "../types";
import { defined, obj, str, type Json } from "./values";

export type MessageContext = {
  /** Tool call id -> tool name, filled as the calls come. */
  toolNames: Map<string, string>;
  skipped: SkippedEntry[];
};

export type MessageOutcome = { turn: ImportedTurn; prompt: string | null } | { skip: string };

/** A block's media type and nothing of its data: base64 never becomes text. */
function mediaPart(block: Json, kind: "image" | "document"): TurnPart {
  const source = obj(block.source);
  const mediaType = str(source?.media_type) ?? str(source?.mediaType) ?? str(block.media_type);
  const url = str(source?.url);
  const title = str(block.title);
  if (kind === "image")
    return { type: "image", ...(mediaType ? { mediaType } : {}), ...(url && /^https?:\/\//i.test(url) ? { url } : {}), alt: "image" };
  return { type: "text", text: `[document${title ? `: ${title}` : ""}]`, document: defined({ mediaType, title }) };
}

function unknownPart(block: Json): TurnPart {
  const { data: _data, ...rest } = block;
  return { type: "text", text: `[${String(block.type)}]`, unknownBlock: rest };
}

/** A tool result's content: a string, or text and image blocks. */
function resultContent(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? "" : JSON.stringify(content);
  return content
    .map((block) =>
      isObject(block) && block.type === "text" && typeof block.text === "string"
        ? block.text
        : isObject(block)
          ? `[${String(block.type)}]`
          : "",
    )
    .filter((text) => text !== "")
    .join("\n");
}

/** Text, images, documents and unknown blocks, common to both roles. */
function addCommonBlock(block: Json, parts: TurnPart[], texts: string[]): void {
  if (block.type === "text" && typeof block.text === "string") {
    parts.push({ type: "text", text: block.text });
    texts.push(block.text);
  } else if (block.type === "image") {
    parts.push(mediaPart(block, "image"));
    texts.push("[image]");
  } else if (block.type === "document") {
    const part = mediaPart(block, "document");
    parts.push(part);
    texts.push(part.type === "text" ? part.text : "[document]");
  } else {
    parts.push(unknownPart(block));
    texts.push(`[${String(block.type)}]`);
  }
}

const richParts = (parts: TurnPart[]) => parts.some((p) => p.type !== "text" || p.unknownBlock !== undefined || p.document !== undefined);

/**
 * The turn a message record makes, and (for a prompt a person typed) its first real text block,
 * which can name the thread: Droid puts its injected `<system-reminder>` blocks first.
 */
export function messageTurn(record: Json, key: string, timestamp: string | null, ctx: MessageContext, line: number): MessageOutcome {
  const message = obj(record.message);
  if (!message) return { skip: "message: missing or not an object" };
  const blocks: JsonValue[] | null =
    typeof message.content === "string"
      ? [{ type: "text", text: message.content }]
      : Array.isArray(message.content)
        ? message.content
        : null;
  if (blocks === null) return { skip: "message.content: neither a list of blocks nor a string" };
  if (message.role !== "user" && message.role !== "assistant")
    return { skip: `message.role ${JSON.stringify(message.role ?? null)}: not one Droid writes (user, assistant)` };
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  let results = 0;
  let prompt: string | null = null;
  blocks.forEach((block, j) => {
    if (!isObject(block)) return;
    if (message.role === "assistant" && (block.type === "thinking" || block.type === "redacted_thinking")) {
      const text = str(block.thinking) ?? "";
      parts.push({ type: "thinking", text, ...(block.type === "redacted_thinking" ? { redacted: true } : {}) });
    } else if (message.role === "assistant" && block.type === "tool_use") {
      const id = str(block.id);
      if (!id) {
        ctx.skipped.push({ line, path: `message.content[${j}]`, reason: "tool_use without an id" });
        return;
      }
      const name = str(block.name) ?? "tool";
      ctx.toolNames.set(id, name);
      parts.push({ type: "tool_call", id, name, ...(block.input !== undefined ? { arguments: block.input } : {}) });
      texts.push(callLine(name, block.input));
    } else if (message.role === "user" && block.type === "tool_result") {
      const toolCallId = str(block.tool_use_id);
      if (!toolCallId) {
        ctx.skipped.push({ line, path: `message.content[${j}]`, reason: "tool_result without a tool_use_id" });
        return;
      }
      const text = resultContent(block.content);
      const toolName = ctx.toolNames.get(toolCallId);
      parts.push({ type: "tool_result", toolCallId, content: text, isError: block.is_error === true, ...(toolName ? { toolName } : {}) });
      texts.push(text);
      results++;
    } else {
      addCommonBlock(block, parts, texts);
      if (prompt === null && block.type === "text" && typeof block.text === "string" && isRealPrompt(block.text)) prompt = block.text;
    }
  });
  const visibility = str(message.visibility);
  const hookEventName = str(message.hookEventName);
  const metadata = defined({ parentId: str(record.parentId), visibility, hookEventName });
  if (message.role === "assistant") {
    const model = str(message.model) ?? str(message.modelId);
    return {
      turn: {
        key,
        role: "assistant",
        content: texts.join("\n\n"),
        parts,
        timestamp,
        ...(model ? { modelName: model } : {}),
        metadata: defined({ ...metadata, stopReason: str(message.stop_reason) ?? str(message.stopReason) }),
      },
      prompt: null,
    };
  }
  const onlyResult = results === 1 ? parts.find((p) => p.type === "tool_result") : undefined;
  const toolName = onlyResult && typeof onlyResult.toolName === "string" ? onlyResult.toolName : null;
  // A hook's notice or a message only the user sees is not a prompt that names the thread.
  const typed = results === 0 && visibility !== "user_only" && hookEventName === null;
  return {
    turn: {
      key,
      role: results > 0 ? "tool" : "user",
      content: texts.join("\n\n"),
      ...(results > 0 || richParts(parts) ? { parts } : {}),
      ...(toolName ? { toolName } : {}),
      timestamp,
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    },
    prompt: typed ? prompt : null,
  };
}
