import { describe, expect, it } from "vitest";
import { contentPreview, plural } from "./format";

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
