import { describe, expect, it } from "vitest";
import { codePointLength } from "../tokens/tokenizer";
import {
  formatPalModifiedAt,
  palCountTokens,
  palEstimateFileTokens,
  palFileBlock,
  palReportTokens,
  pathSuffix,
  pyThousands,
  utf8ByteLength,
} from "./pal";

describe("codePointLength", () => {
  it("counts code points as Python's len does", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("é")).toBe(1);
    expect(codePointLength("😀")).toBe(1); // 2 UTF-16 units
    expect(codePointLength("a😀b😀")).toBe(4);
    expect(codePointLength("👍🏽")).toBe(2); // thumbs up + skin tone modifier: two code points
  });

  it("counts a lone surrogate as one", () => {
    expect(codePointLength("\ud83d")).toBe(1);
    expect(codePointLength("a\ude00b")).toBe(3);
    expect(codePointLength("\ude00\ud83d")).toBe(2); // low then high: not a pair
  });
});

describe("PAL counters", () => {
  it("budget counter is code points // 3, reported total is code points // 4", () => {
    expect(palCountTokens("12345678")).toBe(2);
    expect(palReportTokens("12345678")).toBe(2);
    expect(palCountTokens("123456789")).toBe(3);
    expect(palReportTokens("123456789")).toBe(2);
    // 6 emoji: 12 UTF-16 units but 6 code points
    expect(palCountTokens("😀".repeat(6))).toBe(2);
    expect(palReportTokens("😀".repeat(6))).toBe(1);
  });
});

describe("PAL file estimate", () => {
  it("is int(bytes / ratio for the extension), 3.5 by default", () => {
    // 1000 / 3.5 = 285.71 -> 285
    expect(palEstimateFileTokens("/a/b.py", { ok: true, content: "x".repeat(1000) })).toBe(285);
    // 1000 / 2.5 = 400
    expect(palEstimateFileTokens("/a/b.JSON", { ok: true, content: "x".repeat(1000) })).toBe(400);
    // no extension: 3.5
    expect(palEstimateFileTokens("/a/Makefile", { ok: true, content: "x".repeat(7) })).toBe(2);
    // sizeBytes wins over the content length
    expect(palEstimateFileTokens("/a/b.md", { ok: true, content: "", sizeBytes: 420 })).toBe(100);
  });

  it("measures bytes in UTF-8, not characters", () => {
    expect(utf8ByteLength("aé€😀")).toBe(1 + 2 + 3 + 4);
    // 10 emoji = 40 bytes / 4.0 (.txt) = 10
    expect(palEstimateFileTokens("/n.txt", { ok: true, content: "😀".repeat(10) })).toBe(10);
  });

  it("reads the suffix as Python's pathlib does", () => {
    expect(pathSuffix("/x/y/file.tar.gz")).toBe(".gz");
    expect(pathSuffix("/x/.env")).toBe("");
    expect(pathSuffix("/x/file.")).toBe("");
    expect(pathSuffix("/x.d/file")).toBe("");
    expect(pathSuffix("/x/app.dockerfile")).toBe(".dockerfile");
  });
});

describe("palFileBlock", () => {
  it("uses read_file_content's markers with the modification time, without line numbers", () => {
    const block = palFileBlock("/src/a.py", {
      ok: true,
      content: "one\r\ntwo\rthree\n",
      modifiedAt: "2024-02-29T23:59:59.999Z",
    });
    expect(block).toBe(
      "\n--- BEGIN FILE: /src/a.py (Last modified: 2024-02-29 23:59:59 UTC) ---\none\ntwo\nthree\n\n--- END FILE: /src/a.py ---\n",
    );
  });

  it("falls back to the earlier marker without a modification time", () => {
    expect(palFileBlock("/src/a.py", { ok: true, content: "x" })).toBe("\n--- BEGIN FILE: /src/a.py ---\nx\n--- END FILE: /src/a.py ---\n");
    expect(palFileBlock("/src/a.py", { ok: true, content: "x", modifiedAt: "not a date" })).toBe(
      "\n--- BEGIN FILE: /src/a.py ---\nx\n--- END FILE: /src/a.py ---\n",
    );
  });

  it("replaces files over 1,000,000 bytes by PAL's FILE TOO LARGE block", () => {
    expect(palFileBlock("/logs/big.log", { ok: true, content: "", sizeBytes: 1_234_567, modifiedAt: Date.UTC(2025, 0, 2, 3, 4, 5) })).toBe(
      "\n--- FILE TOO LARGE: /logs/big.log (Last modified: 2025-01-02 03:04:05 UTC) ---\nFile size: 1,234,567 bytes (max: 1,000,000)\n--- END FILE ---\n",
    );
    // exactly at the limit is still read
    expect(palFileBlock("/a.txt", { ok: true, content: "x", sizeBytes: 1_000_000 })).toContain("--- BEGIN FILE: /a.txt ---");
  });

  it("formats times and thousands as Python does", () => {
    expect(formatPalModifiedAt(new Date(Date.UTC(2025, 11, 31, 0, 0, 7, 900)))).toBe("2025-12-31 00:00:07 UTC");
    expect(formatPalModifiedAt(0)).toBe("1970-01-01 00:00:00 UTC");
    expect(formatPalModifiedAt(null)).toBeNull();
    expect(pyThousands(999)).toBe("999");
    expect(pyThousands(1000)).toBe("1,000");
    expect(pyThousands(1234567890)).toBe("1,234,567,890");
  });
});
