// Small readers of rollout values: typed fields, times, tool arguments, message text, images and
// tool outputs.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { isObject } from "../types";

export function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

export function num(value: JsonValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function isoOrNull(value: JsonValue | undefined): string | null {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** An object without its undefined and null fields (JsonObject has no undefined). */
export function defined(fields: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** Tool arguments: parsed JSON when the string parses, else the raw string. */
export function jsonOrRaw(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return value;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return value;
  }
}

/** Text of a message's content items of the given types, joined. */
export function contentText(content: JsonValue | undefined, types: readonly string[]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((item) =>
      isObject(item) && typeof item.type === "string" && types.includes(item.type) && typeof item.text === "string" ? item.text : "",
    )
    .filter(Boolean)
    .join("\n");
}

/** An image as a part: media type and a label only, never its data. */
export function imagePart(url: string | null, alt: string, localPath?: string): TurnPart {
  const mediaType = url ? /^data:([^;,]+)[;,]/.exec(url)?.[1] : undefined;
  const remote = url && /^https?:\/\//i.test(url) ? url : undefined;
  return {
    type: "image",
    ...(localPath ? { path: localPath } : {}),
    ...(mediaType ? { mediaType } : {}),
    ...(remote ? { url: remote } : {}),
    alt,
  };
}

export type ToolOutput = { text: string; images: TurnPart[]; exitCode: number | null; durationSeconds: number | null; failed: boolean };

/**
 * A tool output as text. 0.4x wrote `{"output": …, "metadata": {exit_code, duration_seconds}}` as a
 * JSON string: unwrapped, the exit code kept. Newer exec outputs start with a small header
 * ("Exit code: N" / "Process exited with code N") before "Output:". MCP outputs may be a list of
 * content items (text and images).
 */
export function toolOutput(output: JsonValue | undefined): ToolOutput {
  const result: ToolOutput = { text: "", images: [], exitCode: null, durationSeconds: null, failed: false };
  if (typeof output === "string") readTextOutput(output, result);
  else if (Array.isArray(output)) result.text = itemsText(output, result.images);
  else if (isObject(output)) {
    if (typeof output.content === "string") result.text = output.content;
    else if (Array.isArray(output.content)) result.text = itemsText(output.content, result.images);
    else result.text = JSON.stringify(output);
    if (output.success === false) result.failed = true;
  } else if (output !== undefined && output !== null) {
    result.text = JSON.stringify(output);
  }
  if (result.exitCode !== null && result.exitCode !== 0) result.failed = true;
  return result;
}

function readTextOutput(output: string, result: ToolOutput): void {
  result.text = output;
  const wrapped = output.trimStart().startsWith("{") ? jsonOrRaw(output) : undefined;
  if (isObject(wrapped) && typeof wrapped.output === "string" && isObject(wrapped.metadata)) {
    result.text = wrapped.output;
    result.exitCode = num(wrapped.metadata.exit_code);
    result.durationSeconds = num(wrapped.metadata.duration_seconds);
    return;
  }
  const split = output.indexOf("\nOutput:");
  const header = split >= 0 && split < 600 ? output.slice(0, split) : "";
  const code = /^(?:Exit code:|Process exited with code) (-?\d+)\s*$/m.exec(header);
  if (code?.[1]) result.exitCode = Number(code[1]);
}

/** MCP content items: their texts, images as parts (and "[image]" in the text). */
function itemsText(items: JsonValue[], images: TurnPart[]): string {
  const texts: string[] = [];
  for (const item of items) {
    if (!isObject(item)) continue;
    if (typeof item.text === "string") texts.push(item.text);
    else if (item.type === "input_image" || item.type === "image") {
      images.push(imagePart(str(item.image_url) ?? str(item.url), "image returned by the tool"));
      texts.push("[image]");
    }
  }
  return texts.join("\n");
}
