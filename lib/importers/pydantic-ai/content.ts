// What pydantic-ai messages carry, rendered: user content and attachments, tool returns and
// retries, with base64 payloads never kept.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { isObject } from "../types";

export type JsonRecord = Record<string, JsonValue>;

export function nonEmptyString(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value.trim() ? value : null;
}

export function toolNameKey(part: JsonRecord): { toolName?: string } {
  const name = nonEmptyString(part.tool_name);
  return name ? { toolName: name } : {};
}

/** A user prompt's text and, when it holds more than text, its structured parts. */
export function renderUserContent(content: JsonValue | undefined): { text: string; parts: TurnPart[] | null } | null {
  if (typeof content === "string") return { text: content, parts: null };
  if (!Array.isArray(content)) return null;
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  for (const item of content) {
    if (typeof item === "string") {
      parts.push({ type: "text", text: item });
      texts.push(item);
    } else if (isObject(item)) {
      const rendered = renderAttachment(item);
      if (!rendered) continue;
      parts.push(rendered.part);
      texts.push(rendered.text);
    }
  }
  const text = texts.join("\n\n");
  return { text, parts: parts.some((p) => p.type !== "text") ? parts : null };
}

const URL_KINDS: Record<string, string> = { "image-url": "image", "audio-url": "audio", "video-url": "video", "document-url": "document" };

/**
 * One item of multi-modal user content (or of a tool's return): text-content, image-url,
 * audio/video/document-url, binary, uploaded-file. Images become image parts; base64 data and data:
 * URLs are never kept, only the media type and a label.
 */
export function renderAttachment(item: JsonRecord): { part: TurnPart; text: string } | null {
  const kind = typeof item.kind === "string" ? item.kind : "";
  if (kind === "text-content" && typeof item.content === "string")
    return { part: { type: "text", text: item.content }, text: item.content };
  const mediaType = nonEmptyString(item.media_type) ?? mediaTypeOfDataUrl(item.url);
  const url = typeof item.url === "string" && !item.url.startsWith("data:") ? item.url : null;
  const identifier = nonEmptyString(item.identifier);
  const label = url ?? identifier ?? mediaType ?? kind;
  if (kind === "image-url" || (kind === "binary" && mediaType?.startsWith("image/"))) {
    return {
      part: { type: "image", ...(mediaType ? { mediaType } : {}), alt: `image ${label}`.trim(), ...(url ? { url } : {}) },
      text: "[image]",
    };
  }
  if (kind in URL_KINDS || kind === "binary") {
    const noun = URL_KINDS[kind] ?? "file";
    const text = `[${noun}: ${label}]`;
    return { part: { type: "text", text, attachment: kind, ...(mediaType ? { mediaType } : {}) }, text };
  }
  if (kind === "uploaded-file") {
    const text = `[uploaded file: ${nonEmptyString(item.file_id) ?? label}]`;
    return { part: { type: "text", text, attachment: kind }, text };
  }
  return null; // cache-point markers and unknown kinds
}

function mediaTypeOfDataUrl(url: JsonValue | undefined): string | null {
  if (typeof url !== "string") return null;
  return /^data:([^;,]+)[;,]/.exec(url)?.[1] ?? null;
}

const MULTI_MODAL_KINDS = new Set(["image-url", "audio-url", "video-url", "document-url", "binary", "uploaded-file", "text-content"]);

/** Readable text of a tool's return value: strings as they are, files as labels, data as JSON. */
export function renderToolContent(content: JsonValue | undefined): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return withoutDataUrl(content);
  const items = Array.isArray(content) ? content : [content];
  if (!items.some((item) => isObject(item) && typeof item.kind === "string" && MULTI_MODAL_KINDS.has(item.kind))) {
    return JSON.stringify(withoutBinaryData(content));
  }
  return items
    .map((item) => {
      if (typeof item === "string") return withoutDataUrl(item);
      if (isObject(item) && typeof item.kind === "string" && MULTI_MODAL_KINDS.has(item.kind)) return renderAttachment(item)?.text ?? "";
      return JSON.stringify(withoutBinaryData(item));
    })
    .filter(Boolean)
    .join("\n");
}

/** A retry's text: the message, or one line per validation error (`loc: msg`). */
export function renderRetryContent(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((error) => {
      if (!isObject(error)) return "";
      const loc = Array.isArray(error.loc) ? error.loc.map(String).join(".") : "";
      const msg = typeof error.msg === "string" ? error.msg : JSON.stringify(error);
      return loc ? `${loc}: ${msg}` : msg;
    })
    .filter(Boolean)
    .join("\n");
}

/** A base64 data: URL becomes a label naming its media type; any other text stays as it is. */
function withoutDataUrl(text: string): string {
  const mediaType = /^data:([^;,]*);base64,/.exec(text)?.[1];
  return mediaType === undefined ? text : `[${mediaType || "data"} omitted]`;
}

/** A copy of a tool's return value without base64 payloads (BinaryContent data, data: URLs). */
export function withoutBinaryData(value: JsonValue): JsonValue {
  if (typeof value === "string") return withoutDataUrl(value);
  if (Array.isArray(value)) return value.map(withoutBinaryData);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "data" && value.kind === "binary") copy[key] = "[binary data omitted]";
    else copy[key] = withoutBinaryData(inner);
  }
  return copy;
}
