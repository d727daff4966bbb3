/**
 * One entry point for every transcript format: detect the format of a file from its name and
 * first value or line, and parse it. Pure: the caller reads the file.
 */
import { looksLikeAiderHistory, parseAiderHistory } from "./aider";
import { looksLikeAmpThread, parseAmpThread } from "./amp";
import { looksLikeChatGptExport, parseChatGptExport } from "./chatgpt";
import { looksLikeClaudeCode, parseClaudeCodeSession } from "./claude-code";
import { documentOfHistory, looksLikeClineApiHistory, parseClineTask, variantOf } from "./cline";
import { looksLikeCodexRollout, parseCodexRollout } from "./codex";
import { looksLikeContinueSession, parseContinueSession } from "./continue";
import { looksLikeFactoryDroidSession, parseFactoryDroidSession } from "./factory-droid";
import { looksLikeCopilotEvents, looksLikeCopilotLegacy, parseCopilotEvents, parseCopilotLegacy } from "./copilot";
import { parseCrushSession } from "./crush";
import { looksLikeGooseJsonl, parseGooseJsonl } from "./goose";
import { looksLikeGeminiJsonl, looksLikeGeminiLegacy, parseGeminiJsonl, parseGeminiLegacy } from "./gemini-cli";
import { looksLikeOpenCodeExport, parseOpenCodeExport } from "./opencode";
import { looksLikePalThreads, parsePalThreads } from "./pal";
import { looksLikePiSession, parsePiSession } from "./pi";
import { looksLikePlainMessages, parsePlainMessages } from "./plain";
import { looksLikePydanticAiMessages, parsePydanticAiMessages } from "./pydantic-ai";
import { looksLikeQwenCodeSession, looksLikeQwenLegacy, parseQwenCodeSession, parseQwenLegacy } from "./qwen-code";
import {
  FORMAT_LABELS,
  IMPORT_FORMATS,
  ImportFormatError,
  isObject,
  isTranscriptPath,
  type ImportFormat,
  type NumberedLine,
  type ParsedSource,
} from "./types";

export { FORMAT_LABELS, isTranscriptPath, type ImportFormat, type ParsedSource };

/** The formats a file of JSON lines can be, in the order they are tried. */
const LINE_FORMATS = [
  // Before Claude Code: Qwen Code's records carry the same uuid/parentUuid/sessionId/type envelope.
  { format: "qwen-code", looksLike: looksLikeQwenCodeSession },
  { format: "claude-code", looksLike: looksLikeClaudeCode },
  { format: "codex", looksLike: looksLikeCodexRollout },
  { format: "gemini-cli", looksLike: looksLikeGeminiJsonl },
  { format: "pi", looksLike: looksLikePiSession },
  { format: "copilot", looksLike: looksLikeCopilotEvents },
  { format: "factory-droid", looksLike: looksLikeFactoryDroidSession },
  { format: "goose", looksLike: looksLikeGooseJsonl },
] as const;

/** The formats that are neither JSON nor JSON lines, judged by name and text before any JSON parse. */
const TEXT_FORMATS = [{ format: "aider", looksLike: looksLikeAiderHistory }] as const;

/** The formats a single JSON document can be; Threadline's own first, plain lists last (the loosest). */
const DOCUMENT_FORMATS = [
  { format: "threadline", looksLike: (doc: unknown) => isObject(doc) && doc.format === "threadline/v1" },
  { format: "chatgpt", looksLike: looksLikeChatGptExport },
  // Before Gemini CLI: a legacy Qwen Code session is Gemini's legacy document under ~/.qwen.
  { format: "qwen-code", looksLike: looksLikeQwenLegacy },
  { format: "gemini-cli", looksLike: looksLikeGeminiLegacy },
  { format: "opencode", looksLike: looksLikeOpenCodeExport },
  { format: "continue", looksLike: looksLikeContinueSession },
  { format: "copilot", looksLike: looksLikeCopilotLegacy },
  { format: "amp", looksLike: looksLikeAmpThread },
  { format: "pal", looksLike: looksLikePalThreads },
  { format: "pydantic-ai", looksLike: looksLikePydanticAiMessages },
  // Before plain lists: an API history is a role/content list that opens as these extensions open a task.
  { format: "cline", looksLike: (doc: unknown, name: string) => looksLikeClineApiHistory(doc, name) && variantOf(doc, name) === "cline" },
  {
    format: "roo-code",
    looksLike: (doc: unknown, name: string) => looksLikeClineApiHistory(doc, name) && variantOf(doc, name) === "roo-code",
  },
  {
    format: "kilo-code",
    looksLike: (doc: unknown, name: string) => looksLikeClineApiHistory(doc, name) && variantOf(doc, name) === "kilo-code",
  },
  { format: "plain", looksLike: looksLikePlainMessages },
] as const;

export function supportedFormatsText(): string {
  return IMPORT_FORMATS.map((f) => FORMAT_LABELS[f]).join("; ");
}

function unknownFormat(name: string, why: string): ImportFormatError {
  return new ImportFormatError(`${name}: ${why}. Supported formats: ${supportedFormatsText()}.`);
}

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * The text split into numbered lines (1-based), without line endings.
 * @internal exported for its tests
 */
export function numberedLines(text: string): NumberedLine[] {
  return text.split("\n").map((line, i) => ({ text: line.endsWith("\r") ? line.slice(0, -1) : line, line: i + 1 }));
}

function firstJsonLine(lines: NumberedLine[]): unknown {
  for (const { text } of lines) {
    if (!text.trim()) continue;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A whole-document parse, or undefined when the text is not one JSON value. */
function wholeJson(text: string): unknown {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export type Detected = { format: ImportFormat; document?: unknown; lines?: NumberedLine[] };

/**
 * Which format `text` (from a file called `name`) is in. A text that is one JSON value is a
 * document; otherwise it is JSON lines, judged by its first line. Throws ImportFormatError naming
 * the supported formats when nothing fits.
 */
export function detectFormat(name: string, text: string, forced?: ImportFormat): Detected {
  if (!text.trim()) throw unknownFormat(name, "the file is empty");
  if (/^\s*[\x00-\x08\x0e-\x1f]/.test(text) || text.includes("\u0000")) throw unknownFormat(name, "the file is binary, not text");
  const textFormat = forced ? TEXT_FORMATS.find((f) => f.format === forced) : TEXT_FORMATS.find((f) => f.looksLike(text, name));
  if (textFormat) return { format: textFormat.format, lines: numberedLines(text) };
  const document = /\.jsonl$/i.test(name) ? undefined : wholeJson(text);
  if (Array.isArray(document) && document.length === 0) throw new ImportFormatError(`${name}: an empty JSON list: nothing to import`);
  if (document !== undefined) {
    const match = forced ? DOCUMENT_FORMATS.find((f) => f.format === forced) : DOCUMENT_FORMATS.find((f) => f.looksLike(document, name));
    if (match) return { format: match.format, document };
    if (!forced) throw unknownFormat(name, "a JSON document in no format Threadline reads");
  }
  return detectLines(name, numberedLines(text), forced, document, text.trimStart().startsWith("{"));
}

/**
 * Which line format the lines of a file are in, for a file read line by line (JSON lines, or Aider's
 * Markdown), never whole: as detectFormat judges a text that is not one JSON document.
 */
export function detectLineFormat(name: string, lines: NumberedLine[], forced?: ImportFormat): Detected {
  const first = lines.find((l) => l.text.trim())?.text;
  if (first === undefined) throw unknownFormat(name, "the file is empty");
  if (/^\s*[\x00-\x08\x0e-\x1f]/.test(first) || lines.some((l) => l.text.includes("\u0000")))
    throw unknownFormat(name, "the file is binary, not text");
  const textFormat = forced ? TEXT_FORMATS.find((f) => f.format === forced) : TEXT_FORMATS.find((f) => f.looksLike(first, name));
  if (textFormat) return { format: textFormat.format, lines };
  return detectLines(name, lines, forced, undefined, first.trimStart().startsWith("{"));
}

function detectLines(
  name: string,
  lines: NumberedLine[],
  forced: ImportFormat | undefined,
  document: unknown,
  startsAsObject: boolean,
): Detected {
  const first = firstJsonLine(lines);
  if (forced) {
    if (LINE_FORMATS.some((f) => f.format === forced)) return { format: forced, lines };
    if (document === undefined)
      throw new ImportFormatError(`${name}: ${FORMAT_LABELS[forced]} is one JSON document, and this file is not valid JSON`);
    return { format: forced, document };
  }
  if (first === undefined)
    throw unknownFormat(name, document === undefined && startsAsObject ? "not valid JSON or JSON lines" : "not JSON");
  const match = LINE_FORMATS.find((f) => f.looksLike(first, name));
  if (!match) throw unknownFormat(name, "JSON lines in no format Threadline reads");
  return { format: match.format, lines };
}

/**
 * Parses a detected source (any format but Threadline's own, which lib/db/imports/transfer imports).
 * `extra`: what a format reads beside the file, given by the caller that read it (Gemini CLI's
 * parent session id; a Factory Droid session's `<id>.settings.json`, parsed).
 */
export async function parseDetected(
  name: string,
  detected: Detected,
  extra: { parentSessionId?: string; droidSettings?: unknown } = {},
): Promise<ParsedSource> {
  const source = { name };
  switch (detected.format) {
    case "claude-code":
      return parseClaudeCodeSession(detected.lines!, source);
    case "codex":
      return parseCodexRollout(detected.lines!, source);
    case "gemini-cli":
      return detected.lines
        ? parseGeminiJsonl(detected.lines, { ...source, ...extra })
        : parseGeminiLegacy(detected.document, { ...source, ...extra });
    case "pi":
      return parsePiSession(detected.lines!, source);
    case "copilot":
      return detected.lines ? parseCopilotEvents(detected.lines, source) : parseCopilotLegacy(detected.document, source);
    case "opencode":
      return parseOpenCodeExport(detected.document, source);
    case "kilo-code":
      // The Kilo CLI (an OpenCode fork) exports OpenCode's documents; the editor extension keeps Cline's task histories.
      return looksLikeOpenCodeExport(detected.document)
        ? parseOpenCodeExport(detected.document, { ...source, agent: "kilo-code" })
        : parseClineTask(documentOfHistory(detected.document, name, detected.format), source);
    case "crush":
      return parseCrushSession(detected.document, source);
    case "aider":
      return parseAiderHistory(detected.lines!, source);
    case "goose":
      // sessions.db goes through lib/imports/goose-database.ts; a file here is a legacy session.
      return parseGooseJsonl(detected.lines!, source);
    case "cursor":
      // Cursor keeps its chats in SQLite only: lib/imports/cursor-database.ts reads them.
      throw new ImportFormatError(`${name}: ${FORMAT_LABELS.cursor} are read from Cursor's state.vscdb database, not from a JSON file`);
    case "chatgpt":
      return parseChatGptExport(detected.document, source);
    case "pal":
      return parsePalThreads(detected.document, source);
    case "pydantic-ai":
      return parsePydanticAiMessages(detected.document, source);
    case "qwen-code":
      return detected.lines ? parseQwenCodeSession(detected.lines, source) : parseQwenLegacy(detected.document, source);
    case "continue":
      return parseContinueSession(detected.document, source);
    case "amp":
      return parseAmpThread(detected.document, source);
    case "factory-droid":
      return parseFactoryDroidSession(detected.lines!, source, extra.droidSettings);
    case "cline":
    case "roo-code":
      // An API history read alone (an upload, or one outside a task folder): no ui_messages.json, so no usage.
      return parseClineTask(documentOfHistory(detected.document, name, detected.format), source);
    case "plain":
      return parsePlainMessages(detected.document, source);
    case "threadline":
      throw new Error("Threadline documents are imported by lib/db/imports/transfer");
  }
}
