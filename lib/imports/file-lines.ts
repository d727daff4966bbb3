import "server-only";
import { createReadStream, readFileSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { createHash } from "node:crypto";
import { openInside, readWholeInside } from "@/lib/files/inside";
import {
  COUNT_VALUES_FROM,
  DEFAULT_IMPORT_LIMITS,
  JsonValueCounter,
  MAX_LINE_VALUES,
  documentTooLarge,
  longLineEntry,
  type ImportLimits,
} from "@/lib/importers/long-lines";
import { ImportFormatError, type NumberedLine, type SkippedEntry } from "@/lib/importers/types";

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * A file an import reads, as often as its passes need (digest, format, plan, turns). A file up to
 * IN_MEMORY_BYTES is read once and its passes run over that copy: a small session read four
 * times from disk spent more in opening and closing than in parsing. A larger one is streamed in
 * 1 MB chunks on each pass, so memory holds one chunk and one line, never the file. Each pass
 * reads the bytes the file had when it was opened: a live session that grows meanwhile gives
 * every pass the same lines.
 */
export type SourceBytes = {
  chunks: () => AsyncIterable<Buffer> | Iterable<Buffer>;
  /** The bytes from `start` to `end` (at most the end), when the source can read part of itself. */
  range?: (start: number, end: number) => AsyncIterable<Buffer> | Iterable<Buffer>;
  /** The file read, as it was when opened (a followed session is known by it): no second stat of its path. */
  opened?: OpenedFile;
  /** All of its bytes, when they are held in memory. */
  held?: Buffer;
};

export type OpenedFile = { dev: number; ino: number; mtimeMs: number };

export const IN_MEMORY_BYTES = 8 * 1024 * 1024;

/** Read without the thread pool's round trips: a megabyte is a fraction of a millisecond. */
const READ_IN_PLACE_BYTES = 1024 * 1024;

/**
 * `within`: the real path of the followed folder the file was found in; it is then opened only if
 * it really is inside (openInside), on every pass.
 */
export async function sourceBytes(path: string, within?: string): Promise<SourceBytes> {
  if (within !== undefined) return rangeBytes(path, 0, undefined, within);
  const small = statSync(path, { throwIfNoEntry: false });
  if (small && small.isFile() && small.size <= READ_IN_PLACE_BYTES) {
    const whole = readFileSync(path);
    if (whole.length <= READ_IN_PLACE_BYTES) return heldSource(whole, { dev: small.dev, ino: small.ino, mtimeMs: small.mtimeMs });
  }
  return rangeBytes(path, 0);
}

/**
 * The whole of `path`, inside `within` (readWholeInside: blocking calls, for a worker thread), held
 * in memory; null when it is larger than IN_MEMORY_BYTES, to be streamed as sourceBytes would.
 */
export async function heldSourceInside(path: string, within: string): Promise<SourceBytes | null> {
  const whole = await readWholeInside(path, within, IN_MEMORY_BYTES);
  return whole && heldSource(whole.bytes, { dev: whole.info.dev, ino: whole.info.ino, mtimeMs: whole.info.mtimeMs });
}

/** Bytes held in memory as a source (`opened`: the file they were read from). */
export function heldSource(bytes: Buffer, opened?: OpenedFile): SourceBytes {
  return { chunks: () => [bytes], range: (start, end) => [bytes.subarray(start, end)], held: bytes, ...(opened ? { opened } : {}) };
}

/**
 * The bytes of `path` from `start` to `end` (its size when opened: a followed session's appended
 * lines). With `within`, opened only where it really is inside that folder, at every read (openInside).
 */
export async function rangeBytes(path: string, start: number, end?: number, within?: string): Promise<SourceBytes> {
  const handle = within === undefined ? await open(path, "r") : await openInside(path, within);
  let size: number;
  let opened: OpenedFile;
  try {
    const info = await handle.stat();
    opened = { dev: info.dev, ino: info.ino, mtimeMs: info.mtimeMs };
    size = Math.min(end ?? Infinity, info.size);
    if (size <= start) return heldSource(Buffer.alloc(0), opened);
    if (size - start <= IN_MEMORY_BYTES) {
      // Not zero-filled: every byte is read over, and what a short read leaves is cut off.
      const bytes = Buffer.allocUnsafe(size - start);
      let read = 0;
      while (read < bytes.length) {
        const { bytesRead } = await handle.read(bytes, read, bytes.length - read, start + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return heldSource(bytes.subarray(0, read), opened);
    }
  } finally {
    await handle.close();
  }
  const stream = (from: number, to: number): AsyncIterable<Buffer> | Iterable<Buffer> => {
    const [first, last] = [start + from, start + Math.min(to, size - start)];
    if (first >= last) return [];
    if (within !== undefined) return chunksInside(path, within, first, last);
    return createReadStream(path, { start: first, end: last - 1, highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>;
  };
  return { chunks: () => stream(0, size - start), range: stream, opened };
}

/** Byte offsets in a source, from `start` up to `end`. */
export type Span = { start: number; end: number };

/**
 * A source without some of its bytes (spans in order, not overlapping), which are not read when the source can read part of itself.
 * @internal exported for its tests
 */
export function withoutSpans(source: SourceBytes, spans: readonly Span[]): SourceBytes {
  if (spans.length === 0) return source;
  const { range } = source;
  if (range) {
    return {
      async *chunks() {
        let from = 0;
        for (const span of spans) {
          yield* range(from, span.start);
          from = span.end;
        }
        yield* range(from, Infinity);
      },
    };
  }
  return {
    async *chunks() {
      let base = 0;
      let next = 0;
      for await (const chunk of source.chunks()) {
        let at = 0;
        while (at < chunk.length) {
          const span = spans[next];
          if (!span || span.start >= base + chunk.length) {
            yield chunk.subarray(at);
            break;
          }
          if (span.start > base + at) yield chunk.subarray(at, span.start - base);
          at = Math.min(chunk.length, Math.max(at, span.end - base));
          if (span.end <= base + chunk.length) next += 1;
        }
        base += chunk.length;
      }
    },
  };
}

async function* chunksInside(path: string, within: string, from: number, to: number): AsyncGenerator<Buffer> {
  const handle = await openInside(path, within);
  try {
    for (let at = from; at < to;) {
      const length = Math.min(CHUNK_BYTES, to - at);
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, at);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * A line read as far as the end of the source without being kept, because it passed the line
 * limit (`bytes`) or the number of JSON values a line may hold (`values`): its bytes so far.
 */
export type OpenLongLine = { line: number; bytes: number; why: "bytes" | "values" };

export type LineReaderOptions = {
  /** The number of the first line read (1). */
  first?: number;
  limits?: ImportLimits;
  /** The lines are JSON: a long one's values are counted as it is read, and too many skip it. */
  json?: boolean;
  /** The source starts inside a long line that an earlier read left open (a followed session). */
  open?: OpenLongLine | null;
};

/**
 * The complete lines of a source (each ended by "\n"), numbered from `first`. UTF-8; a trailing
 * "\r" is dropped. A line is carried in pieces until its line end, up to `limits.maxLineBytes`:
 * past that (or past MAX_LINE_VALUES values, for JSON) its pieces are dropped as they are read, only
 * its length is kept, and it comes out as a blank line carrying `skipped` (its number, size and why).
 * What follows the last "\n" is not a line yet (a live session's line being written): once `lines`
 * has been read through, `tail` holds it and `count` the lines read, or `open` says how long it
 * is when it is already past the limit. Each call of `lines` reads the source again; `taken`, when
 * given, is handed every complete line's bytes, line end included, in order, and a long line's
 * bytes as they are read (an open one's too: they are never read again, see claude-code-session).
 */
export class LineReader {
  tail: Buffer = Buffer.alloc(0);
  open: OpenLongLine | null = null;
  count = 0;
  /** Where the long lines' bytes are in the source (the open one's up to its end), after `lines`. */
  longSpans: Span[] = [];
  private readonly first: number;
  private readonly limits: ImportLimits;

  constructor(
    private readonly source: SourceBytes,
    private readonly options: LineReaderOptions = {},
  ) {
    this.first = options.open?.line ?? options.first ?? 1;
    this.limits = options.limits ?? DEFAULT_IMPORT_LIMITS;
  }

  async *lines(taken?: { update(bytes: Buffer): void }): AsyncGenerator<NumberedLine> {
    const max = this.limits.maxLineBytes;
    let carry: Buffer[] = [];
    let carried = 0;
    let counter: JsonValueCounter | null = null;
    let long: OpenLongLine | null = this.options.open ? { ...this.options.open } : null;
    let endsInCr = false;
    let line = this.first - 1;
    /** Bytes of the chunks before this one, and where the line being read began. */
    let base = 0;
    let lineStart = 0;
    const spans: Span[] = [];
    const becomeLong = (why: OpenLongLine["why"]) => {
      if (taken) for (const piece of carry) taken.update(piece);
      long = { line: line + 1, bytes: carried, why };
      carry = [];
      carried = 0;
      counter = null;
    };
    for await (const chunk of this.source.chunks()) {
      let start = 0;
      while (start < chunk.length) {
        const at = chunk.indexOf(NEWLINE, start);
        const piece = chunk.subarray(start, at === -1 ? chunk.length : at);
        if (piece.length > 0) endsInCr = piece[piece.length - 1] === 0x0d;
        if (long) {
          long.bytes += piece.length;
          taken?.update(piece);
        } else if (piece.length > 0) {
          carry.push(piece);
          carried += piece.length;
          if (carried > max) becomeLong("bytes");
          else if (this.options.json && carried > COUNT_VALUES_FROM) {
            if (!counter) {
              counter = new JsonValueCounter();
              for (const earlier of carry) counter.add(earlier);
            } else counter.add(piece);
            if (counter.values > MAX_LINE_VALUES) becomeLong("values");
          }
        }
        if (at === -1) break;
        line += 1;
        start = at + 1;
        const ended = long as OpenLongLine | null;
        if (ended) spans.push({ start: lineStart, end: base + at });
        lineStart = base + start;
        if (ended) {
          taken?.update(LINE_END);
          yield { text: "", line, skipped: longLineEntry(line, ended.bytes - (endsInCr ? 1 : 0), ended.why, this.limits) };
          long = null;
        } else {
          const bytes = carry.length === 1 ? carry[0]! : Buffer.concat(carry);
          carry = [];
          carried = 0;
          counter = null;
          if (taken) {
            taken.update(bytes);
            taken.update(LINE_END);
          }
          yield { text: lineText(bytes), line };
        }
        endsInCr = false;
      }
      base += chunk.length;
    }
    if (long) spans.push({ start: lineStart, end: base });
    this.longSpans = spans;
    this.open = long;
    this.tail = long ? Buffer.alloc(0) : Buffer.concat(carry);
    this.count = line - this.first + 1;
  }

  /**
   * The lines again, as the last `lines` gave them, but with the long lines' bytes not read a second
   * time: each comes out as a blank line (no `skipped`), numbered as before.
   */
  again(): AsyncGenerator<NumberedLine> {
    return new LineReader(withoutSpans(this.source, this.longSpans), { ...this.options, first: this.first, open: null }).lines();
  }

  /** The tail's line number when it is not blank (without decoding it). */
  tailNumber(): number | null {
    for (const byte of this.tail) if (!WHITESPACE.has(byte)) return this.first + this.count;
    return null;
  }

  /** Whether the tail ends as a JSON object or list does (a line being written mostly does not). */
  tailMayBeJson(): boolean {
    let end = this.tail.length - 1;
    while (end >= 0 && WHITESPACE.has(this.tail[end]!)) end -= 1;
    return end >= 0 && (this.tail[end] === 0x7d || this.tail[end] === 0x5d);
  }

  /** The tail as a line, numbered after the complete ones; null when it is blank or too long to keep. */
  tailLine(): NumberedLine | null {
    if (this.open) return null;
    const text = lineText(this.tail);
    return text.trim() ? { text, line: this.first + this.count } : null;
  }

  /** The open long line as a skipped entry (its size so far), or null. */
  openEntry(): SkippedEntry | null {
    return this.open ? longLineEntry(this.open.line, this.open.bytes, this.open.why, this.limits, true) : null;
  }
}

const LINE_END = Buffer.from([NEWLINE]);
const WHITESPACE = new Set([0x20, 0x09, 0x0d, 0x0a, 0x0b, 0x0c]);

function lineText(bytes: Buffer): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  return bytes.toString("utf8", 0, end);
}

/**
 * Every line of a source, the unfinished last one too (an open long one as skipped), numbered from 1.
 * @internal exported for its tests
 */
export async function* sourceLines(source: SourceBytes, options: LineReaderOptions = {}): AsyncGenerator<NumberedLine> {
  const reader = new LineReader(source, options);
  yield* reader.lines();
  const tail = reader.tailLine();
  if (tail) yield tail;
  const open = reader.openEntry();
  if (open) yield { text: "", line: open.line!, skipped: open };
}

/**
 * Every line of a source for a format parsed at once, with the long lines left out (each a blank
 * line, its entry in `skipped`). Throws ImportFormatError when the lines kept pass the document limit.
 */
export async function readLines(
  name: string,
  source: SourceBytes,
  limits: ImportLimits,
): Promise<{ lines: NumberedLine[]; skipped: SkippedEntry[] }> {
  const lines: NumberedLine[] = [];
  const skipped: SkippedEntry[] = [];
  let kept = 0;
  for await (const line of sourceLines(source, { limits, json: true })) {
    if (line.skipped) skipped.push(line.skipped);
    kept += Buffer.byteLength(line.text);
    if (kept > limits.maxDocumentBytes) throw new ImportFormatError(documentTooLarge(name, kept, limits, "the lines of a file read whole"));
    lines.push(line.skipped ? { text: "", line: line.line } : line);
  }
  return { lines, skipped };
}

/** The source's SHA-256 (hex) and size, in one pass. */
export async function sourceDigest(source: SourceBytes): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of source.chunks()) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest("hex"), size };
}

/** The first line that is not blank (long lines are passed over), for format detection without reading the whole source. */
export async function firstNonBlankLine(source: SourceBytes, limits?: ImportLimits): Promise<string | null> {
  for await (const { text } of sourceLines(source, { limits, json: true })) if (text.trim()) return text;
  return null;
}

/** The whole source as text (formats that are read whole; the caller checks the size first). */
export async function sourceText(source: SourceBytes): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.chunks()) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}
