import "server-only";
import { createReadStream, readFileSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { createHash } from "node:crypto";
import { openInside } from "@/lib/files/inside";
import type { NumberedLine } from "@/lib/importers/types";

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * A file an import reads, as often as its passes need (digest, format, plan, turns). A file up to
 * IN_MEMORY_BYTES is read once and its passes run over that copy: a small session read four
 * times from disk spent more in opening and closing than in parsing. A larger one is streamed in
 * 1 MB chunks on each pass, so memory holds one chunk and one line, never the file.
 */
export type SourceBytes = { chunks: () => AsyncIterable<Buffer> | Iterable<Buffer> };

export const IN_MEMORY_BYTES = 8 * 1024 * 1024;

/** Read without the thread pool's round trips: a megabyte is a fraction of a millisecond. */
const READ_IN_PLACE_BYTES = 1024 * 1024;

/**
 * `within`: the real path of the followed folder the file was found in; it is then opened only if
 * it really is inside (openInside), on every pass.
 */
export async function sourceBytes(path: string, within?: string): Promise<SourceBytes> {
  if (within !== undefined) return bytesInside(path, within);
  const small = statSync(path, { throwIfNoEntry: false });
  if (small && small.isFile() && small.size <= READ_IN_PLACE_BYTES) {
    const whole = readFileSync(path);
    if (whole.length <= READ_IN_PLACE_BYTES) return { chunks: () => [whole] };
  }
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    if (size <= IN_MEMORY_BYTES) {
      const whole = await handle.readFile();
      return { chunks: () => [whole] };
    }
  } finally {
    await handle.close();
  }
  return { chunks: () => createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer> };
}

async function bytesInside(path: string, within: string): Promise<SourceBytes> {
  const handle = await openInside(path, within);
  try {
    const { size } = await handle.stat();
    if (size <= IN_MEMORY_BYTES) {
      const whole = await handle.readFile();
      return { chunks: () => [whole] };
    }
  } finally {
    await handle.close();
  }
  return { chunks: () => chunksInside(path, within) };
}

async function* chunksInside(path: string, within: string): AsyncGenerator<Buffer> {
  const handle = await openInside(path, within);
  try {
    for (;;) {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(CHUNK_BYTES), 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * The complete lines of a source (each ended by "\n"), numbered from `first`. UTF-8; a trailing
 * "\r" is dropped. What follows the last "\n" is not a line yet (a live session's line being
 * written): once `lines` has been read through, `tail` holds it and `count` the lines read. Each
 * call of `lines` reads the source again; `taken`, when given, is handed every complete line's
 * bytes, line end included, in order.
 */
export class LineReader {
  tail: Buffer = Buffer.alloc(0);
  count = 0;

  constructor(
    private readonly source: SourceBytes,
    private readonly first = 1,
  ) {}

  async *lines(taken?: { update(bytes: Buffer): void }): AsyncGenerator<NumberedLine> {
    let carry: Buffer[] = [];
    let line = this.first - 1;
    for await (const chunk of this.source.chunks()) {
      let start = 0;
      for (let at = chunk.indexOf(NEWLINE, start); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, at);
        const bytes = carry.length > 0 ? Buffer.concat([...carry, piece]) : piece;
        carry = [];
        line += 1;
        if (taken) {
          taken.update(bytes);
          taken.update(LINE_END);
        }
        yield { text: lineText(bytes), line };
        start = at + 1;
      }
      if (start < chunk.length) carry.push(chunk.subarray(start));
    }
    this.tail = Buffer.concat(carry);
    this.count = line - this.first + 1;
  }

  /** The tail as a line, numbered after the complete ones; null when it is blank. */
  tailLine(): NumberedLine | null {
    const text = lineText(this.tail);
    return text.trim() ? { text, line: this.first + this.count } : null;
  }
}

const LINE_END = Buffer.from([NEWLINE]);

function lineText(bytes: Buffer): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  return bytes.toString("utf8", 0, end);
}

/** Every line of a source, the unfinished last one too, numbered from 1. */
export async function* sourceLines(source: SourceBytes): AsyncGenerator<NumberedLine> {
  const reader = new LineReader(source);
  yield* reader.lines();
  const tail = reader.tailLine();
  if (tail) yield tail;
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

/** The first line that is not blank, for format detection without reading the whole source. */
export async function firstNonBlankLine(source: SourceBytes): Promise<string | null> {
  for await (const { text } of sourceLines(source)) if (text.trim()) return text;
  return null;
}

/** The whole source as text (formats that are read whole). */
export async function sourceText(source: SourceBytes): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.chunks()) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}
