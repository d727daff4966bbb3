// A message's content, rendered per content type into readable text and structured parts.
import type { JsonValue, TurnPart } from "@/lib/domain/types";
import { isObject } from "../types";
import { Json, Rendered } from "./shapes";

// --- small helpers ---------------------------------------------------------------------------

export function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

export function nonEmpty(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Unix seconds (float) to milliseconds, or null. */
export function secondsToMs(value: JsonValue | undefined): number | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const ms = value * 1000;
  return Number.isFinite(new Date(ms).getTime()) ? ms : null;
}

export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

import { collapse } from "../text";

export { collapse };

/** A fence longer than any backtick run inside the code, so the block cannot end early. */
export function fenced(code: string, language: string | null): string {
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  const lang = language && language !== "unknown" ? language : "";
  return `${fence}${lang}\n${code}\n${fence}`;
}

/** Tool arguments: parsed when the text is a JSON object or array, else the raw text. */
export function toolArguments(raw: string): JsonValue {
  const trimmed = raw.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return raw;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return raw;
  }
}

export function pathOf(prefix: string, nodeId: string, rest = ""): string {
  return `${prefix}.mapping[${JSON.stringify(nodeId)}]${rest}`;
}

// --- content rendering -----------------------------------------------------------------------

function textOf(text: string): Rendered {
  return text.trim() ? { text, parts: [{ type: "text", text }] } : { text: "", parts: [] };
}

function joinRendered(pieces: Rendered[]): Rendered {
  return {
    text: pieces
      .map((p) => p.text)
      .filter((t) => t.trim() !== "")
      .join("\n\n"),
    parts: pieces.flatMap((p) => p.parts),
  };
}

function stringParts(content: Json): string[] {
  return Array.isArray(content.parts) ? content.parts.filter((p): p is string => typeof p === "string" && p.trim() !== "") : [];
}

export type Attachment = { id: string | null; name: string | null; mimeType: string | null; size: number | null };

export function attachmentsOf(metadata: Json): Attachment[] {
  if (!Array.isArray(metadata.attachments)) return [];
  return metadata.attachments.filter(isObject).map((a) => ({
    id: str(a.id),
    name: str(a.name),
    mimeType: str(a.mime_type) ?? str(a.mimeType),
    size: typeof a.size === "number" ? a.size : null,
  }));
}

function imagePart(pointer: Json, role: string, attachments: Attachment[]): { part: TurnPart; label: string } {
  const assetPointer = str(pointer.asset_pointer);
  // "file-service://file-abc" / "sediment://file_abc": the id after the scheme names the attachment.
  const assetId = assetPointer ? assetPointer.replace(/^[a-z-]+:\/\//i, "") : null;
  const attachment = assetId ? attachments.find((a) => a.id === assetId) : undefined;
  const meta = isObject(pointer.metadata) ? pointer.metadata : {};
  const dalle = isObject(meta.dalle) ? meta.dalle : {};
  const prompt = nonEmpty(dalle.prompt);
  const alt = prompt
    ? `generated image: ${collapse(prompt, 300)}`
    : attachment?.name
      ? attachment.name
      : role === "user"
        ? "image uploaded by the user"
        : "image";
  const part: TurnPart = {
    type: "image",
    alt,
    ...(attachment?.mimeType ? { mediaType: attachment.mimeType } : {}),
    ...(assetPointer ? { assetPointer } : {}),
    ...(typeof pointer.width === "number" ? { width: pointer.width } : {}),
    ...(typeof pointer.height === "number" ? { height: pointer.height } : {}),
  };
  return { part, label: `[image: ${alt}]` };
}

function renderMultimodal(content: Json, role: string, attachments: Attachment[]): Rendered {
  const pieces: Rendered[] = [];
  for (const part of Array.isArray(content.parts) ? content.parts : []) {
    if (typeof part === "string") {
      pieces.push(textOf(part));
      continue;
    }
    if (!isObject(part)) continue;
    switch (part.content_type) {
      case "image_asset_pointer": {
        const { part: image, label } = imagePart(part, role, attachments);
        pieces.push({ text: label, parts: [image] });
        break;
      }
      case "audio_asset_pointer":
        pieces.push({ text: "[audio]", parts: [] });
        break;
      case "real_time_user_audio_video_asset_pointer":
        pieces.push({ text: "[audio/video]", parts: [] });
        break;
      default: {
        // audio_transcription and unknown part types: their text, if any.
        const text = nonEmpty(part.text);
        if (text) pieces.push(textOf(text));
      }
    }
  }
  return joinRendered(pieces);
}

function renderThoughts(content: Json): Rendered {
  const parts: TurnPart[] = [];
  const texts: string[] = [];
  for (const thought of Array.isArray(content.thoughts) ? content.thoughts : []) {
    if (!isObject(thought)) continue;
    const summary = nonEmpty(thought.summary);
    const body = nonEmpty(thought.content);
    if (!summary && !body) continue;
    parts.push({ type: "thinking", text: body ?? summary!, ...(summary ? { summary } : {}) });
    texts.push([summary, body].filter(Boolean).join("\n\n"));
  }
  return { text: texts.join("\n\n"), parts };
}

/** Whatever text an unknown content type carries. */
function renderUnknown(content: Json): string {
  const fromParts = stringParts(content).join("\n\n");
  if (fromParts.trim()) return fromParts;
  return nonEmpty(content.text) ?? nonEmpty(content.result) ?? nonEmpty(content.content) ?? "";
}

/** The readable body of a message (tool calls are handled by the caller). */
export function renderContent(content: Json, role: string, attachments: Attachment[]): Rendered {
  switch (content.content_type) {
    case "text":
      return joinRendered(stringParts(content).map(textOf));
    case "code": {
      const code = str(content.text) ?? "";
      return code.trim() ? textOf(fenced(code, str(content.language))) : { text: "", parts: [] };
    }
    case "multimodal_text":
      return renderMultimodal(content, role, attachments);
    case "thoughts":
      return renderThoughts(content);
    case "reasoning_recap": {
      const recap = nonEmpty(content.content);
      return recap ? { text: recap, parts: [{ type: "thinking", text: recap, recap: true }] } : { text: "", parts: [] };
    }
    case "execution_output":
      return textOf(str(content.text) ?? "");
    case "tether_browsing_display":
      return textOf([nonEmpty(content.summary), nonEmpty(content.result)].filter(Boolean).join("\n\n"));
    case "tether_quote": {
      const source = nonEmpty(content.title) ?? nonEmpty(content.domain);
      const url = nonEmpty(content.url);
      const header = source || url ? `Quote from ${[source, url ? `<${url}>` : null].filter(Boolean).join(" ")}:` : null;
      return textOf([header, nonEmpty(content.text)].filter(Boolean).join("\n"));
    }
    case "sonic_webpage":
      return textOf(
        [nonEmpty(content.title), nonEmpty(content.url), nonEmpty(content.text) ?? nonEmpty(content.snippet)].filter(Boolean).join("\n"),
      );
    case "system_error":
      return textOf([nonEmpty(content.name), nonEmpty(content.text)].filter(Boolean).join(": "));
    default:
      return textOf(renderUnknown(content));
  }
}

/** The raw text of a tool call's arguments. */
export function callText(content: Json): string {
  if (content.content_type === "code" || content.content_type === "execution_output") return str(content.text) ?? "";
  return renderUnknown(content);
}
