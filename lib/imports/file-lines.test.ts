import { describe, expect, it } from "vitest";
import { importLimitsOf, MAX_LINE_VALUES } from "@/lib/importers/long-lines";
import type { NumberedLine } from "@/lib/importers/types";
import { LineReader, readLines, sourceLines, withoutSpans, type LineReaderOptions, type SourceBytes } from "./file-lines";

const MB = 1024 * 1024;
/** A line may have 100 bytes here. */
const SMALL = importLimitsOf(100 / MB, 1000 / MB);

/** The bytes of `text`, cut into pieces at `cuts`. */
function pieces(text: string | Buffer, cuts: number[] = []): SourceBytes {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  return { chunks: () => chunks };
}

async function read(source: SourceBytes, options: LineReaderOptions = {}) {
  const reader = new LineReader(source, { limits: SMALL, ...options });
  const lines: NumberedLine[] = [];
  const taken: Buffer[] = [];
  for await (const line of reader.lines({ update: (bytes) => taken.push(Buffer.from(bytes)) })) lines.push(line);
  return { reader, lines, taken: Buffer.concat(taken).toString() };
}

const long = "x".repeat(250);
const text = `{"a":1}\nshort\n${long}\nafter\n`;

describe("LineReader: lines over the limit", () => {
  it("skips a line longer than the limit with its number and size, and keeps the lines around it", async () => {
    const { lines, reader } = await read(pieces(text));
    expect(lines.map((l) => [l.line, l.text])).toEqual([
      [1, '{"a":1}'],
      [2, "short"],
      [3, ""],
      [4, "after"],
    ]);
    expect(lines[2]!.skipped).toEqual({
      line: 3,
      bytes: 250,
      reason: "line too long (250 bytes): over the 100 bytes a line may have (THREADLINE_MAX_LINE_MB), not read",
    });
    expect(lines.filter((l) => l.skipped)).toHaveLength(1);
    expect(reader.count).toBe(4);
    expect(reader.tail.length).toBe(0);
    expect(reader.open).toBeNull();
  });

  it("a line of exactly the limit is kept", async () => {
    const { lines } = await read(pieces(`${"y".repeat(100)}\n${"z".repeat(101)}\n`));
    expect(lines.map((l) => [l.text.length, l.skipped?.bytes])).toEqual([
      [100, undefined],
      [0, 101],
    ]);
  });

  it("gives the same lines however the source is cut into chunks", async () => {
    const whole = await read(pieces(text));
    expect(whole.lines.map((l) => l.skipped?.bytes)).toEqual([undefined, undefined, 250, undefined]);
    const length = Buffer.byteLength(text);
    for (let cut = 0; cut <= length; cut++) {
      const { lines, taken } = await read(pieces(text, [cut]));
      expect(lines, `cut at ${cut}`).toEqual(whole.lines);
      expect(taken).toBe(text); // every byte taken once, the long line's too
    }
    const bytewise = await read(
      pieces(
        text,
        Array.from({ length }, (_, i) => i),
      ),
    );
    expect(bytewise.lines).toEqual(whole.lines);
    // A chunk that ends on the newline after the long line, and one that starts with it.
    const at = text.indexOf(long) + long.length;
    for (const cuts of [[at], [at + 1], [20, 60, at]]) expect((await read(pieces(text, cuts))).lines).toEqual(whole.lines);
  });

  it("CRLF: the text drops the \\r, a long line's size does not count it", async () => {
    const crlf = `one\r\n${long}\r\ntwo\r\n`;
    for (const cuts of [[], [crlf.indexOf(long) + long.length], [crlf.indexOf(long) + long.length + 1]]) {
      const { lines } = await read(pieces(crlf, cuts));
      expect(lines.map((l) => [l.line, l.text, l.skipped?.bytes])).toEqual([
        [1, "one", undefined],
        [2, "", 250],
        [3, "two", undefined],
      ]);
    }
  });

  it("an unfinished line under the limit is the tail; one over it is not kept, only its length", async () => {
    const under = await read(pieces(`a\n${"t".repeat(80)}`));
    expect(under.reader.tail.toString()).toBe("t".repeat(80));
    expect(under.reader.tailLine()).toEqual({ text: "t".repeat(80), line: 2 });
    expect(under.reader.open).toBeNull();
    expect(under.taken).toBe("a\n"); // read again next time

    const over = await read(pieces(`a\n${"t".repeat(180)}`, [5, 50, 120]));
    expect(over.reader.tail.length).toBe(0);
    expect(over.reader.tailLine()).toBeNull();
    expect(over.reader.open).toEqual({ line: 2, bytes: 180, why: "bytes" });
    expect(over.reader.openEntry()).toMatchObject({ line: 2, bytes: 180, reason: expect.stringContaining("so far, no line end yet") });
    expect(over.taken).toBe(`a\n${"t".repeat(180)}`); // never read again
    expect(over.reader.count).toBe(1);
  });

  it("goes on inside a long line an earlier read left open, and numbers the lines after it", async () => {
    const { lines, reader } = await read(pieces(`${"t".repeat(40)}\nnext\nlast`), { open: { line: 7, bytes: 180, why: "bytes" } });
    expect(lines.map((l) => [l.line, l.text, l.skipped?.bytes])).toEqual([
      [7, "", 220],
      [8, "next", undefined],
    ]);
    expect(reader.tailLine()).toEqual({ text: "last", line: 9 });
    expect(reader.count).toBe(2);
  });

  it("does not hold an unfinished long line in memory while it is read", async () => {
    const limits = importLimitsOf(4, 64);
    let most = 0;
    const source: SourceBytes = {
      async *chunks() {
        yield Buffer.from('{"a":1}\n{"data":"');
        for (let i = 0; i < 150; i++) {
          yield Buffer.alloc(MB, 0x41);
          most = Math.max(most, process.memoryUsage().arrayBuffers);
        }
      },
    };
    const before = process.memoryUsage().arrayBuffers;
    const reader = new LineReader(source, { limits });
    const lines: NumberedLine[] = [];
    for await (const line of reader.lines()) lines.push(line);
    expect(lines.map((l) => l.text)).toEqual(['{"a":1}']);
    expect(reader.open).toEqual({ line: 2, bytes: 150 * MB + 9, why: "bytes" });
    // 150 MB went through; what is held stays near the 4 MB limit (the garbage collector frees the rest in its time).
    expect(most - before).toBeLessThan(100 * MB);
  });
});

describe("reading the lines again without the long ones", () => {
  const twoLong = `a\n${long}\nb\n${"w".repeat(300)}\r\nc\n${"o".repeat(150)}`;

  it("again() numbers the lines as before, the long ones blank, and never asks for their bytes", async () => {
    const bytes = Buffer.from(twoLong);
    const asked: [number, number][] = [];
    const source: SourceBytes = {
      chunks: () => [bytes.subarray(0, 100), bytes.subarray(100)],
      range: (start, end) => (asked.push([start, Math.min(end, bytes.length)]), [bytes.subarray(start, end)]),
    };
    const { reader, lines } = await read(source);
    expect(reader.longSpans).toEqual([
      { start: 2, end: 252 },
      { start: 255, end: 556 },
      { start: 559, end: 709 },
    ]);
    const again: NumberedLine[] = [];
    for await (const line of reader.again()) again.push(line);
    expect(again).toEqual(lines.map((l) => ({ text: l.text, line: l.line })));
    expect(asked).toEqual([
      [0, 2],
      [252, 255],
      [556, 559],
      [709, 709],
    ]);
    // The first read's state stays: the open line is still open.
    expect(reader.open).toEqual({ line: 6, bytes: 150, why: "bytes" });
  });

  it("withoutSpans drops the same bytes from a source that can only be read whole, however it is cut", async () => {
    const spans = [
      { start: 2, end: 252 },
      { start: 255, end: 556 },
    ];
    const expected = twoLong.slice(0, 2) + twoLong.slice(252, 255) + twoLong.slice(556);
    for (const cuts of [[], [1], [2], [100, 252], [253, 255, 556], [254, 400, 557]]) {
      const out: Buffer[] = [];
      for await (const chunk of withoutSpans(pieces(twoLong, cuts), spans).chunks()) out.push(chunk);
      expect(Buffer.concat(out).toString(), `cuts ${cuts.join(",")}`).toBe(expected);
    }
  });
});

describe("LineReader: JSON lines with too many values", () => {
  it("skips a JSON line with more than MAX_LINE_VALUES values, keeps a longer one of text", async () => {
    const limits = importLimitsOf(64, 64);
    const many = `[${"1,".repeat(MAX_LINE_VALUES + 10)}1]`;
    const image = JSON.stringify({ type: "image", data: "QUJD".repeat(MB) }); // 4 MB of base64
    const source = pieces(`${many}\n${image}\n{"ok":true}\n`, [MB, 3 * MB, 5 * MB]);
    const lines: NumberedLine[] = [];
    for await (const line of new LineReader(source, { limits, json: true }).lines()) lines.push(line);
    expect(lines[0]!.skipped).toMatchObject({ line: 1, reason: expect.stringContaining("more than 1,000,000 JSON values") });
    expect(lines[0]!.skipped!.bytes).toBe(Buffer.byteLength(many));
    expect(lines[1]!.text).toBe(image);
    expect(lines[2]!.text).toBe('{"ok":true}');
    // Not JSON lines: not counted.
    const plain: NumberedLine[] = [];
    for await (const line of new LineReader(pieces(`${many}\n`), { limits }).lines()) plain.push(line);
    expect(plain[0]!.text).toBe(many);
  });
});

describe("sourceLines and readLines", () => {
  it("sourceLines ends with the tail, or the open long line as skipped", async () => {
    const collect = async (source: SourceBytes) => {
      const out: NumberedLine[] = [];
      for await (const line of sourceLines(source, { limits: SMALL })) out.push(line);
      return out.map((l) => [l.line, l.text, l.skipped?.bytes]);
    };
    expect(await collect(pieces("a\nb"))).toEqual([
      [1, "a", undefined],
      [2, "b", undefined],
    ]);
    expect(await collect(pieces(`a\n${long}`))).toEqual([
      [1, "a", undefined],
      [2, "", 250],
    ]);
  });

  it("readLines keeps the lines under the limit and refuses more than the document limit, naming the file and size", async () => {
    const { lines, skipped } = await readLines("rollout.jsonl", pieces(text), SMALL);
    expect(lines.map((l) => l.text)).toEqual(['{"a":1}', "short", "", "after"]);
    expect(skipped).toEqual([expect.objectContaining({ line: 3, bytes: 250 })]);
    const big = Array.from({ length: 20 }, (_, i) => `{"line":${i},"pad":"${"p".repeat(60)}"}`).join("\n");
    await expect(readLines("rollout.jsonl", pieces(big), SMALL)).rejects.toThrow(
      /^rollout\.jsonl: 1,\d{3} bytes, larger than the 1,000 bytes the lines of a file read whole may be \(THREADLINE_MAX_DOCUMENT_MB\); not read$/,
    );
  });

  it("tailMayBeJson and tailNumber look at the tail's bytes without decoding it", async () => {
    const ended = await read(pieces('a\n{"b":1}  '));
    expect([ended.reader.tailMayBeJson(), ended.reader.tailNumber()]).toEqual([true, 2]);
    const cut = await read(pieces('a\n{"b":'));
    expect([cut.reader.tailMayBeJson(), cut.reader.tailNumber()]).toEqual([false, 2]);
    const blank = await read(pieces("a\n  \r"));
    expect([blank.reader.tailMayBeJson(), blank.reader.tailNumber()]).toEqual([false, null]);
  });
});
