import "server-only";
import { createReadStream } from "node:fs";
import { createHash } from "node:crypto";
import type { NumberedLine } from "@/lib/importers/types";

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * The lines of a file, numbered from 1, read in 1 MB chunks: memory holds one chunk and one line,
 * never the file. UTF-8; a trailing "\r" is dropped.
 */
export async function* fileLines(path: string): AsyncGenerator<NumberedLine> {
  let carry: Buffer[] = [];
  let line = 0;
  const text = (bytes: Buffer) => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    return bytes.toString("utf8", 0, end);
  };
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE, start); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, at);
      const bytes = carry.length > 0 ? Buffer.concat([...carry, piece]) : piece;
      carry = [];
      line += 1;
      yield { text: text(bytes), line };
      start = at + 1;
    }
    if (start < chunk.length) carry.push(chunk.subarray(start));
  }
  if (carry.length > 0) {
    line += 1;
    yield { text: text(Buffer.concat(carry)), line };
  }
}

/** The file's SHA-256 (hex) and size, read as a stream. */
export async function fileDigest(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest("hex"), size };
}

/** The first line that is not blank, for format detection without reading the whole file. */
export async function firstNonBlankLine(path: string): Promise<string | null> {
  for await (const { text } of fileLines(path)) if (text.trim()) return text;
  return null;
}
