// Crush's message rows to turns. The mapping is described at the top of ./index.ts.
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { callLine } from "../text";
import { isObject, type ImportedTurn, type SkippedEntry } from "../types";

type Json = Record<string, JsonValue>;

/** A message row as the reader hands it over (Crush's column names). */
export type CrushMessageRow = {
  id: string;
  role: string;
  parts: JsonValue[];
  model: string | null;
  provider: string | null;
  createdAt: string | null;
  finishedAt: string | null;
  isSummary: boolean;
  path: string;
};

/**
 * A Crush time as ISO-8601 UTC, or null. Crush writes Unix seconds (`strftime('%s', 'now')`,
 * `time.Now().Unix()`); a value too large to be seconds of this era (>= 1e11, the year 5138) is
 * taken as milliseconds, so a database written in milliseconds reads right too.
 */
export function crushTime(value: JsonValue | undefined): string | null {
  const number = typeof value === "string" && /^\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number) || number <= 0) return null;
  const date = new Date(number >= 1e11 ? number : number * 1000);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
}

function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

/** A JSON text as its value, or the text itself when it is not JSON (a tool call's input, a result's metadata). */
function parsedOrText(text: string): JsonValue {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return text;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** A part's `data` object and `type`, or why it is none. */
function partOf(part: JsonValue): { type: string; data: Json } | string {
  if (!isObject(part) || typeof part.type !== "string") return "not a part: no type";
  if (!isObject(part.data)) return `${part.type} part without a data object`;
  return { type: part.type, data: part.data };
}

/** The finishes that end a response other than normally, as the line they add to its text. */
const FINISH_LINES = new Map([
  ["error", "error"],
  ["content_filter", "refused"],
  ["canceled", "canceled"],
  // Crush before October 2025: the user refused a tool call.
  ["permission_denied", "permission denied"],
]);

/** A finish part as the turn's metadata keeps it, and the line it adds to the text (an error, a cancel). */
function finishOf(data: Json): { finish: JsonObject; line: string | null } {
  const reason = str(data.reason) ?? "unknown";
  const finish: JsonObject = { reason };
  const at = crushTime(data.time);
  if (at) finish.time = at;
  const message = str(data.message);
  const details = str(data.details);
  if (message) finish.message = message;
  if (details) finish.details = details;
  const label = FINISH_LINES.get(reason);
  const why = [message, details].filter(Boolean).join(": ");
  return { finish, line: label ? `[${label}]${why ? ` ${why}` : ""}` : null };
}

/** A reasoning part as thinking: the text; signatures and OpenAI's encrypted reasoning are never kept, only their length. */
function thinkingOf(data: Json): TurnPart {
  const opaque =
    (str(data.signature)?.length ?? 0) +
    (str(data.thought_signature)?.length ?? 0) +
    (data.responses_data !== undefined && data.responses_data !== null ? JSON.stringify(data.responses_data).length : 0);
  const text = str(data.thinking) ?? "";
  const started = crushTime(data.started_at);
  const finished = crushTime(data.finished_at);
  return {
    type: "thinking",
    text,
    ...(text === "" && opaque > 0 ? { redacted: true } : {}),
    ...(opaque > 0 ? { opaqueChars: opaque } : {}),
    ...(started ? { startedAt: started } : {}),
    ...(finished ? { finishedAt: finished } : {}),
  };
}

/** An attachment (`binary` part: Go field names, Data in base64): its name and type; the bytes are not kept, their length is. */
function attachmentOf(data: Json): { part: TurnPart | null; file: string | null; image: string | null; kept: JsonObject } {
  const mime = str(data.MIMEType) ?? "";
  const name = str(data.Path) || null;
  const dataChars = str(data.Data)?.length ?? 0;
  const kept: JsonObject = { path: name, mimeType: mime, dataChars };
  if (mime.startsWith("image/"))
    return {
      part: { type: "image", mediaType: mime, alt: name ?? "image attached to the prompt" },
      file: null,
      image: name ?? "image",
      kept,
    };
  return { part: null, file: name, image: null, kept };
}

/** An image_url part: the URL, unless it is a data URL (the image itself), of which only the length is kept. */
function imageUrlOf(data: Json): { part: TurnPart; image: string } {
  const url = str(data.url) ?? "";
  const inline = url.startsWith("data:");
  return {
    part: {
      type: "image",
      ...(inline ? { dataUrlChars: url.length } : { url }),
      ...(str(data.detail) ? { detail: str(data.detail)! } : {}),
      alt: inline ? "image pasted into the prompt" : url,
    },
    image: inline ? "image" : url,
  };
}

/** A bang-mode shell command (`!cmd` typed in the prompt) as Crush hands it to the model: the command, its output, its exit code. */
function shellCommandOf(data: Json): TurnPart {
  const command = str(data.command) ?? "";
  const output = str(data.output) ?? "";
  const exitCode = typeof data.exit_code === "number" ? data.exit_code : null;
  return {
    type: "text",
    text: `$ ${command}\n${output}\n(exit code ${exitCode ?? "?"})`,
    shellCommand: { command, exitCode },
  };
}

type Collected = { parts: TurnPart[]; texts: string[]; other: JsonObject[]; finish: JsonObject | null; files: string[]; images: string[] };

function collect(row: CrushMessageRow, skipped: SkippedEntry[], onPart: (type: string, data: Json, into: Collected) => boolean): Collected {
  const into: Collected = { parts: [], texts: [], other: [], finish: null, files: [], images: [] };
  const attachments: JsonObject[] = [];
  let finishLine: string | null = null;
  row.parts.forEach((raw, index) => {
    const part = partOf(raw);
    if (typeof part === "string") {
      skipped.push({ path: `${row.path}.parts[${index}]`, reason: `message ${row.id}: ${part}` });
      return;
    }
    const { type, data } = part;
    if (onPart(type, data, into)) return;
    if (type === "text" && typeof data.text === "string") {
      into.parts.push({ type: "text", text: data.text });
      into.texts.push(data.text);
    } else if (type === "finish") {
      const { finish, line } = finishOf(data);
      into.finish = finish;
      finishLine = line;
    } else if (type === "binary") {
      const attachment = attachmentOf(data);
      attachments.push(attachment.kept);
      if (attachment.part) into.parts.push(attachment.part);
      if (attachment.file) into.files.push(attachment.file);
      if (attachment.image) into.images.push(attachment.image);
    } else if (type === "image_url") {
      const { part: image, image: name } = imageUrlOf(data);
      into.parts.push(image);
      into.images.push(name);
    } else if (type === "shell_command") {
      const shell = shellCommandOf(data);
      into.parts.push(shell);
      into.texts.push(shell.text as string);
    } else {
      // A part type this importer does not know (a later Crush): kept as it is, out of the text.
      into.other.push({ type, data });
    }
  });
  if (finishLine) into.texts.push(finishLine);
  if (attachments.length > 0) into.other.push({ type: "attachments", data: attachments });
  return into;
}

function turnMetadata(row: CrushMessageRow, into: Collected): JsonObject {
  const metadata: JsonObject = {};
  if (into.finish) metadata.finish = into.finish;
  if (row.finishedAt) metadata.finishedAt = row.finishedAt;
  if (into.other.length > 0) metadata.otherParts = into.other;
  return metadata;
}

/** A user message: its text (and bang-mode shell commands), attachments as files or images. */
export function userTurn(row: CrushMessageRow, skipped: SkippedEntry[]): ImportedTurn {
  const into = collect(row, skipped, () => false);
  // Crush closes every message it creates that is not an assistant's with `finish {reason: "stop"}`: nothing to keep.
  if (into.finish?.reason === "stop") into.finish = null;
  const metadata = turnMetadata(row, into);
  return {
    key: row.id,
    role: row.role === "system" ? "system" : "user",
    content: into.texts.join("\n\n") || into.files.map((file) => `@${file}`).join(" "),
    ...(into.parts.some((part) => part.type !== "text" || part.shellCommand !== undefined) ? { parts: into.parts } : {}),
    timestamp: row.createdAt,
    ...(into.files.length > 0 ? { files: into.files } : {}),
    ...(into.images.length > 0 ? { images: into.images } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

/**
 * An assistant message (one model response): text, reasoning as thinking, tool calls (their input,
 * a JSON text, parsed), the finish reason in metadata and, for an error or a cancel, as a line of
 * the text.
 */
export function assistantTurn(row: CrushMessageRow, skipped: SkippedEntry[]): ImportedTurn {
  const into = collect(row, skipped, (type, data, acc) => {
    if (type === "reasoning") {
      acc.parts.push(thinkingOf(data));
      return true;
    }
    if (type === "tool_call" && typeof data.id === "string") {
      const name = str(data.name) ?? "tool";
      const input = str(data.input);
      const args = input === null ? undefined : parsedOrText(input);
      acc.parts.push({
        type: "tool_call",
        id: data.id,
        name,
        ...(args !== undefined ? { arguments: args } : {}),
        // Crush sets finished once the call's input has streamed in whole.
        ...(data.finished === false ? { unfinished: true } : {}),
        ...(data.provider_executed === true ? { providerExecuted: true } : {}),
      });
      acc.texts.push(callLine(name, args));
      return true;
    }
    return false;
  });
  const metadata = turnMetadata(row, into);
  return {
    key: row.id,
    role: "assistant",
    content: into.texts.join("\n\n"),
    parts: into.parts,
    timestamp: row.createdAt,
    modelProvider: row.provider || null,
    modelName: row.model || null,
    ...(into.files.length > 0 ? { files: into.files } : {}),
    ...(into.images.length > 0 ? { images: into.images } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

/**
 * A tool message: the results of one response's tool calls (a message holds several), each a
 * tool_result part tied to its call by `tool_call_id`. A result's media (`data`, base64, with its
 * `mime_type`) is not kept, its length is; its `metadata` (a JSON text: an edit's diff, a file's
 * path) is parsed.
 */
export function toolTurn(row: CrushMessageRow, skipped: SkippedEntry[]): ImportedTurn {
  const into = collect(row, skipped, (type, data, acc) => {
    if (type !== "tool_result" || typeof data.tool_call_id !== "string") return false;
    const content = str(data.content) ?? "";
    const metadata = str(data.metadata);
    const parsed = metadata ? parsedOrText(metadata) : null;
    const media = str(data.data);
    acc.parts.push({
      type: "tool_result",
      toolCallId: data.tool_call_id,
      content,
      isError: data.is_error === true,
      ...(str(data.name) ? { name: str(data.name)! } : {}),
      ...(isObject(parsed) && typeof parsed.diff === "string" ? { diff: parsed.diff } : {}),
      ...(parsed !== null && parsed !== "" ? { metadata: parsed } : {}),
      ...(media ? { mimeType: str(data.mime_type) ?? "", dataChars: media.length } : {}),
    });
    acc.texts.push(content);
    return true;
  });
  if (into.finish?.reason === "stop") into.finish = null;
  const metadata = turnMetadata(row, into);
  return {
    key: row.id,
    role: "tool",
    content: into.texts.join("\n\n"),
    parts: into.parts,
    timestamp: row.createdAt,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

/**
 * A summary message (Crush's compaction: the history before it is replaced by this text when the
 * session is sent to the model again) as a compaction marker. The summary was a model call: its
 * model stays on the marker; its thinking is kept after the marker part.
 */
export function summaryTurn(row: CrushMessageRow, skipped: SkippedEntry[]): ImportedTurn {
  const turn = assistantTurn(row, skipped);
  const thinking = (turn.parts ?? []).filter((part) => part.type === "thinking");
  const text = (turn.parts ?? []).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n\n");
  const error = turn.metadata?.finish && isObject(turn.metadata.finish) ? turn.metadata.finish : null;
  const failed = error?.reason === "error";
  return {
    ...turn,
    role: "system",
    content: text || (failed ? turn.content : "Summary requested (no text recorded)"),
    parts: [{ type: "compaction", trigger: null }, ...thinking],
    compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
    metadata: { ...(turn.metadata ?? {}), summaryMessage: true },
  };
}
