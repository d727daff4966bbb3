import { describe, expect, it } from "vitest";
import { decodeStoredText, encodeParameter, encodeStoredText } from "./postgres-text";

describe("stored text on PostgreSQL", () => {
  const samples = ["", "plain", "\u0000", "a\u0000b", "\uFFFE", "\uFFFE0", "\uFFFE\uFFFE", "0\u0000\uFFFE0\u0000", "x\uFFFE\u0000\uFFFEy"];

  it("never stores a NUL and reads every string back exactly", () => {
    for (const text of samples) {
      const stored = encodeStoredText(text);
      expect(stored).not.toContain("\u0000");
      expect(decodeStoredText(stored)).toBe(text);
    }
  });

  it("keeps different strings different once stored", () => {
    const stored = samples.map(encodeStoredText);
    expect(new Set(stored).size).toBe(samples.length);
  });

  it("leaves text without NUL or the escape as it is", () => {
    const text = "ordinary text ✓ with emoji 🧵";
    expect(encodeStoredText(text)).toBe(text);
    expect(decodeStoredText(text)).toBe(text);
  });

  it("encodes the strings inside array parameters and nothing else", () => {
    const date = new Date(0);
    expect(encodeParameter(["a\u0000", null, 3])).toEqual(["a\uFFFE0", null, 3]);
    expect(encodeParameter(date)).toBe(date);
    expect(encodeParameter(7)).toBe(7);
  });
});
