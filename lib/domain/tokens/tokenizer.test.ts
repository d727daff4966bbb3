import { describe, expect, it } from "vitest";
import { codePointLength, palBudgetEstimate, palReportedEstimate } from "./tokenizer";

// Expected values are Python 3's len(s), len(s) // 3 and len(s) // 4, computed once with CPython.
const PYTHON: Array<[label: string, text: string, len: number, div3: number, div4: number]> = [
  ["empty", "", 0, 0, 0],
  ["ASCII", "abc", 3, 1, 0],
  ["eleven ASCII characters", "a".repeat(11), 11, 3, 2],
  ["emoji outside the BMP (2 UTF-16 units each)", "😀😀😀", 3, 1, 0],
  ["combining accent (two code points)", "e\u0301", 2, 0, 0],
  ["CJK", "你好世界", 4, 1, 1],
  ["ZWJ family: 3 emoji + 2 joiners", "👨\u200d👩\u200d👧", 5, 1, 1],
  ["flag: two regional indicators", "🇫🇷", 2, 0, 0],
  ["mixed", "naïve café 😀 你好", 15, 5, 3],
  ["lone high surrogate at the end", "x\ud83d", 2, 0, 0],
  ["low surrogate before a high one (no pair)", "\ude00\ud83d", 2, 0, 0],
];

describe("codePointLength", () => {
  it.each(PYTHON)("%s: matches Python's len()", (_label, text, len) => {
    expect(codePointLength(text)).toBe(len);
  });

  it("agrees with Array.from on well-formed text", () => {
    const text = "Threadline 🧵 keeps 会话 where people can see them — e\u0301 🇫🇷 👨\u200d👩\u200d👧";
    expect(codePointLength(text)).toBe(Array.from(text).length);
    expect(codePointLength(text)).toBeLessThan(text.length);
  });
});

describe("PAL's character estimates", () => {
  it.each(PYTHON)("%s: len // 3 and len // 4 as in Python", (_label, text, _len, div3, div4) => {
    expect(palBudgetEstimate(text)).toBe(div3);
    expect(palReportedEstimate(text)).toBe(div4);
  });

  it("rounds down, never up", () => {
    expect(palBudgetEstimate("ab")).toBe(0);
    expect(palBudgetEstimate("abcdef")).toBe(2);
    expect(palBudgetEstimate("abcdefgh")).toBe(2);
    expect(palReportedEstimate("abcdefg")).toBe(1);
    expect(palReportedEstimate("abcdefgh")).toBe(2);
  });

  it("counts an emoji as one character where UTF-16 length would count two", () => {
    const text = "😀".repeat(12); // JS length 24, Python len 12
    expect(palReportedEstimate(text)).toBe(3);
    expect(Math.floor(text.length / 4)).toBe(6);
  });
});
