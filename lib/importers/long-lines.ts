/**
 * What an import refuses to read because it would cost the server too much, and how it says so:
 * a line longer than the line limit, a JSON line holding so many values that parsing it would
 * hold up the event loop, and a file read whole (a JSON document) larger than the document limit.
 * Pure: lib/imports/file-lines.ts reads the bytes, lib/env the settings.
 */
import { DEFAULT_MAX_DOCUMENT_MB, DEFAULT_MAX_LINE_MB } from "@/lib/domain/settings";
import type { NumberedLine, SkippedEntry } from "./types";

export type ImportLimits = {
  /** A line longer than this many bytes is skipped unread (THREADLINE_MAX_LINE_MB). */
  maxLineBytes: number;
  /** A file read whole (JSON documents, the line formats parsed at once) may hold this many bytes (THREADLINE_MAX_DOCUMENT_MB). */
  maxDocumentBytes: number;
};

const MB = 1024 * 1024;
export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxLineBytes: DEFAULT_MAX_LINE_MB * MB,
  maxDocumentBytes: DEFAULT_MAX_DOCUMENT_MB * MB,
};

/**
 * JSON.parse costs about 3-7 ms a MB for text and base64 (a 60 MB image line: 0.2 s) but 40 ms a MB
 * for many small values (60 MB of `{"a":1,...}`: 2.1 s, 14 million values). A line with more
 * values than this (about 0.15 s of parsing) is skipped; real transcript lines hold thousands.
 */
export const MAX_LINE_VALUES = 1_000_000;
/** Lines shorter than this are not counted: they cannot hold that many values (each takes 2 bytes or more). */
export const COUNT_VALUES_FROM = 1024 * 1024;

/** The limits for settings in MB (fractions allowed). */
export function importLimitsOf(maxLineMb: number, maxDocumentMb: number): ImportLimits {
  return { maxLineBytes: Math.floor(maxLineMb * MB), maxDocumentBytes: Math.floor(maxDocumentMb * MB) };
}

/**
 * "200.0 MB", "0.12 MB" (MiB, as the limits are given); under a tenth of one, in bytes.
 * @internal exported for its tests
 */
export function megabytes(bytes: number): string {
  if (bytes >= 10 * MB) return `${(bytes / MB).toFixed(1)} MB`;
  return bytes >= MB / 10 ? `${(bytes / MB).toFixed(2)} MB` : `${bytes.toLocaleString("en-US")} bytes`;
}

/** A limit as it was set: "64 MB", "0.1 MB". */
function limitMb(bytes: number): string {
  const mb = Math.round((bytes / MB) * 100) / 100;
  return mb >= 0.01 && Math.abs(mb * MB - bytes) < MB / 1000 ? `${mb} MB` : megabytes(bytes);
}

/**
 * A line left unread: `open`, it had no line end yet when the file was read (a live session's last
 * line, or one never ended). The entry carries the line's size, which the followed folders' page shows.
 */
export function longLineEntry(line: number, bytes: number, why: "bytes" | "values", limits: ImportLimits, open = false): SkippedEntry {
  const size = open ? `${megabytes(bytes)} so far, no line end yet` : megabytes(bytes);
  const reason =
    why === "bytes"
      ? `line too long (${size}): over the ${limitMb(limits.maxLineBytes)} a line may have (THREADLINE_MAX_LINE_MB), not read`
      : `line too costly to parse (${size}): more than ${MAX_LINE_VALUES.toLocaleString("en-US")} JSON values, not read`;
  return { line, bytes, reason };
}

/** A record read whole (an OpenCode message or part, a file or a database row) left unread, like a long line. */
export function longRecordEntry(path: string, bytes: number, limits: ImportLimits): SkippedEntry {
  return {
    path,
    bytes,
    reason: `record too large (${megabytes(bytes)}): over the ${limitMb(limits.maxLineBytes)} a line or record may have (THREADLINE_MAX_LINE_MB), not read`,
  };
}

/**
 * The lines of a text read whole with those longer than the line limit left out (blank, each with
 * its entry): a limit set below the document limit holds for every format alike.
 */
export function withoutLongLines(lines: NumberedLine[], limits: ImportLimits): { lines: NumberedLine[]; skipped: SkippedEntry[] } {
  const skipped: SkippedEntry[] = [];
  const kept = lines.map((line) => {
    // A UTF-8 character is at most 3 bytes per UTF-16 unit: shorter texts need no count.
    if (line.text.length * 3 <= limits.maxLineBytes) return line;
    const bytes = Buffer.byteLength(line.text);
    if (bytes <= limits.maxLineBytes) return line;
    skipped.push(longLineEntry(line.line, bytes, "bytes", limits));
    return { text: "", line: line.line };
  });
  return { lines: skipped.length > 0 ? kept : lines, skipped };
}

/** Why a file read whole is refused: its size and the limit. */
export function documentTooLarge(name: string, bytes: number, limits: ImportLimits, what = "a file read whole"): string {
  return `${name}: ${megabytes(bytes)}, larger than the ${limitMb(limits.maxDocumentBytes)} ${what} may be (THREADLINE_MAX_DOCUMENT_MB); not read`;
}

/** The skipped entries that are long lines, as one line for a followed folder's warnings. */
export function longLinesWarning(skipped: readonly SkippedEntry[]): string | null {
  const long = skipped.filter((entry) => entry.bytes !== undefined);
  if (long.length === 0) return null;
  const shown = long.slice(0, 3).map((entry) => `${entry.line !== undefined ? `line ${entry.line}` : entry.path}: ${entry.reason}`);
  const more = long.length > 3 ? `; and ${long.length - 3} more` : "";
  const what = long.every((entry) => entry.line !== undefined) ? "line" : "entr";
  const count = long.length === 1 ? `1 ${what === "line" ? "line" : "entry"}` : `${long.length} ${what === "line" ? "lines" : "entries"}`;
  return `${count} skipped, the rest imported. ${shown.join("; ")}${more}`;
}

/**
 * Counts the values of a JSON text as it streams in, piece by piece, without parsing it: each `{`,
 * `[` and `,` outside strings starts a value (about one per value; keys are not counted). Strings
 * are skipped with indexOf, so a line of base64 or text costs next to nothing.
 */
export class JsonValueCounter {
  values = 0;
  private inString = false;
  /** Backslashes just before the end of the last piece, inside a string (an odd count escapes what follows). */
  private backslashes = 0;

  add(bytes: Uint8Array): void {
    let at = 0;
    const end = bytes.length;
    while (at < end) {
      if (this.inString) {
        if (this.backslashes % 2 === 1) {
          // The last piece ended with an escape: this byte is escaped.
          this.backslashes = 0;
          at += 1;
          continue;
        }
        this.backslashes = 0;
        const quote = bytes.indexOf(QUOTE, at);
        if (quote === -1) {
          this.backslashes = trailingBackslashes(bytes, at, end);
          return;
        }
        if (trailingBackslashes(bytes, at, quote) % 2 === 0) this.inString = false;
        at = quote + 1;
        continue;
      }
      const byte = bytes[at]!;
      if (byte === QUOTE) this.inString = true;
      else if (byte === COMMA || byte === OPEN_BRACE || byte === OPEN_BRACKET) this.values += 1;
      at += 1;
    }
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** Backslashes immediately before `end`, not looking before `from`. */
function trailingBackslashes(bytes: Uint8Array, from: number, end: number): number {
  let count = 0;
  while (end - count - 1 >= from && bytes[end - count - 1] === BACKSLASH) count += 1;
  return count;
}
