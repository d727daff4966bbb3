import { describe, expect, it } from "vitest";
import { trimText } from "./trim";

describe("trimText", () => {
  it("keeps about 60% from the head and the rest from the tail around a marker", () => {
    expect(trimText("abcdefghijklmnopqrstuvwxyz", 10)).toBe("abcdef\n[...truncated, 26 chars total]\nwxyz");
  });

  it("leaves text at or under the limit alone, and 0 disables trimming", () => {
    expect(trimText("0123456789", 10)).toBe("0123456789");
    expect(trimText("x".repeat(5000), 0)).toBe("x".repeat(5000));
  });

  it("never cuts a surrogate pair in half", () => {
    // "😀" is two UTF-16 units. Head budget 6 would end between its halves; tail budget 4 would start between them.
    const text = "abcde😀" + "-".repeat(20) + "😀xyz";
    const out = trimText(text, 10);
    expect(out).toBe(`abcde\n[...truncated, ${text.length} chars total]\nxyz`);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it("keeps whole pairs that fit", () => {
    const text = "abcd😀" + "-".repeat(20) + "x😀z";
    expect(trimText(text, 10)).toBe(`abcd😀\n[...truncated, ${text.length} chars total]\nx😀z`);
  });

  it("rejects a negative limit", () => {
    expect(() => trimText("abc", -1)).toThrow(RangeError);
  });
});
