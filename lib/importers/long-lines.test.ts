import { describe, expect, it } from "vitest";
import {
  DEFAULT_IMPORT_LIMITS,
  JsonValueCounter,
  documentTooLarge,
  importLimitsOf,
  longLineEntry,
  longLinesWarning,
  longRecordEntry,
  megabytes,
  withoutLongLines,
} from "./long-lines";

function count(text: string, cuts: number[] = []): number {
  const bytes = Buffer.from(text);
  const counter = new JsonValueCounter();
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    counter.add(bytes.subarray(from, cut));
    from = cut;
  }
  return counter.values;
}

describe("JsonValueCounter", () => {
  it("counts the commas and brackets outside strings: about one per value", () => {
    expect(count(`{"a":1,"b":[1,2,3],"c":{"d":null}}`)).toBe(7);
    expect(count("[1,2,3]")).toBe(3);
    expect(count('"just a string, with, commas {[ inside"')).toBe(0);
  });

  it("knows escaped quotes and backslashes, in any piece boundary", () => {
    const text = '{"t":"say \\"hi, there\\" [x]","u":"a\\\\","v":[1,2],"w":"\\\\\\"{,"}';
    const whole = count(text);
    expect(whole).toBe(6); // { , , [ , ,   (the strings' commas and brackets do not count)
    for (let cut = 0; cut <= Buffer.byteLength(text); cut++) expect(count(text, [cut]), `cut at ${cut}`).toBe(whole);
    // Every byte its own piece.
    expect(
      count(
        text,
        Array.from({ length: Buffer.byteLength(text) }, (_, i) => i),
      ),
    ).toBe(whole);
  });

  it("skips a long string without looking at its bytes one by one", () => {
    const line = Buffer.from(`{"type":"image","data":"${"QUJD".repeat(4 * 1024 * 1024)}"}`); // 16 MB
    const counter = new JsonValueCounter();
    let bytesLookedAt = 0;
    // Each piece counts the bytes read one at a time; a search (indexOf) runs on the piece itself.
    const counted = (piece: Uint8Array) =>
      new Proxy(piece, {
        get(target, key) {
          if (typeof key === "string" && /^\d+$/.test(key)) bytesLookedAt += 1;
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    for (let at = 0; at < line.length; at += 1024 * 1024) counter.add(counted(line.subarray(at, at + 1024 * 1024)));
    expect(counter.values).toBe(2);
    expect(bytesLookedAt).toBeLessThan(100); // the two keys and the quotes around them, not the 16 MB between
  });
});

describe("messages", () => {
  const limits = importLimitsOf(64, 32);

  it("a long line names its size, the limit and the setting", () => {
    const entry = longLineEntry(12, 200 * 1024 * 1024, "bytes", limits);
    expect(entry).toEqual({
      line: 12,
      bytes: 200 * 1024 * 1024,
      reason: "line too long (200.0 MB): over the 64 MB a line may have (THREADLINE_MAX_LINE_MB), not read",
    });
    expect(longLineEntry(3, 5 * 1024 * 1024, "values", limits, true).reason).toBe(
      "line too costly to parse (5.00 MB so far, no line end yet): more than 1,000,000 JSON values, not read",
    );
    expect(longLineEntry(1, 1, "bytes", importLimitsOf(0.5, 1)).reason).toContain("over the 0.5 MB a line may have");
  });

  it("a document too large names the file, its size and the setting", () => {
    expect(documentTooLarge("conversations.json", 100 * 1024 * 1024, limits)).toBe(
      "conversations.json: 100.0 MB, larger than the 32 MB a file read whole may be (THREADLINE_MAX_DOCUMENT_MB); not read",
    );
  });

  it("the warning of a followed file lists the long lines only, the first three", () => {
    expect(DEFAULT_IMPORT_LIMITS).toEqual({ maxLineBytes: 16 * 1024 * 1024, maxDocumentBytes: 64 * 1024 * 1024 });
    expect(longLinesWarning([{ line: 2, reason: "not valid JSON" }])).toBeNull();
    const long = [5, 9, 11, 20].map((line) => longLineEntry(line, 70 * 1024 * 1024, "bytes", DEFAULT_IMPORT_LIMITS));
    expect(longLinesWarning([long[0]!, { line: 6, reason: "not valid JSON" }])).toBe(
      `1 line skipped, the rest imported. line 5: ${long[0]!.reason}`,
    );
    const warning = longLinesWarning(long)!;
    expect(warning).toMatch(/^4 lines skipped, the rest imported\. line 5: .*; line 9: .*; line 11: .*; and 1 more$/);
    expect(longLinesWarning([longRecordEntry("ses_1/part/prt_2", 3 * 1024 * 1024, DEFAULT_IMPORT_LIMITS)])).toBe(
      "1 entry skipped, the rest imported. ses_1/part/prt_2: record too large (3.00 MB): over the 16 MB a line or record may have (THREADLINE_MAX_LINE_MB), not read",
    );
    expect([megabytes(1536 * 1024), megabytes(200 * 1024 * 1024), megabytes(4096)]).toEqual(["1.50 MB", "200.0 MB", "4,096 bytes"]);
  });
});

describe("withoutLongLines", () => {
  it("leaves out the lines of a text read whole that pass the line limit, counted in UTF-8 bytes", () => {
    const limits = importLimitsOf(30 / (1024 * 1024), 1);
    const lines = [
      { text: "short", line: 1 },
      { text: "é".repeat(16), line: 2 }, // 16 characters, 32 bytes
      { text: "a".repeat(30), line: 3 },
    ];
    const { lines: kept, skipped } = withoutLongLines(lines, limits);
    expect(kept).toEqual([lines[0], { text: "", line: 2 }, lines[2]]);
    expect(skipped).toEqual([
      { line: 2, bytes: 32, reason: "line too long (32 bytes): over the 30 bytes a line may have (THREADLINE_MAX_LINE_MB), not read" },
    ]);
    expect(withoutLongLines([lines[0]!], limits).lines).toEqual([lines[0]]);
  });
});
