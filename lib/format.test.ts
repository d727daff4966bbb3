import { describe, expect, it } from "vitest";
import { contentPreview, formatDuration, formatPercent, plural } from "./format";

describe("contentPreview", () => {
  it("keeps a text that fits", () => {
    expect(contentPreview("short\ntext", 100)).toBe("short\ntext");
  });

  it("cuts at the last line break within the limit", () => {
    const text = `${"a".repeat(60)}\n${"b".repeat(30)}\n${"c".repeat(50)}`;
    expect(contentPreview(text, 100)).toBe(`${"a".repeat(60)}\n${"b".repeat(30)}`);
  });

  it("cuts a very long line at the limit, never inside a surrogate pair", () => {
    expect(contentPreview(`title\n${"x".repeat(500)}`, 100)).toBe(`title\n${"x".repeat(94)}`);
    const emoji = `${"x".repeat(99)}😀😀`;
    expect(contentPreview(emoji, 100)).toBe("x".repeat(99));
    expect(contentPreview(emoji, 101)).toBe(`${"x".repeat(99)}😀`);
  });
});

describe("plural", () => {
  it("says 1 turn and 2 turns", () => {
    expect([0, 1, 2].map((n) => plural(n, "turn"))).toEqual(["0 turns", "1 turn", "2 turns"]);
  });
});

describe("formatPercent", () => {
  it("one decimal of the share, a dash for nothing", () => {
    expect(formatPercent(1, 8)).toBe("12.5%");
    expect(formatPercent(0, 3)).toBe("0.0%");
    expect(formatPercent(3, 3)).toBe("100.0%");
    expect(formatPercent(0, 0)).toBe("-");
  });
});

describe("formatDuration", () => {
  it("the two largest units", () => {
    expect(formatDuration(44_600)).toBe("45 s");
    expect(formatDuration(12 * 60_000 + 59_000)).toBe("12 min");
    expect(formatDuration(3 * 3_600_000 + 5 * 60_000)).toBe("3 h 05 min");
    expect(formatDuration(52 * 3_600_000 + 59 * 60_000)).toBe("2 d 4 h");
  });
});
