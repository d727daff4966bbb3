import { describe, expect, it, vi } from "vitest";
import { rememberCounts, rememberingLongTexts } from "./memo";

describe("rememberingLongTexts", () => {
  it("counts a long text once per tokenizer, short texts every time", () => {
    const count = vi.fn((text: string) => text.length);
    const remembering = rememberingLongTexts("test-a", count);
    const long = "x".repeat(600);
    expect(remembering(long)).toBe(600);
    expect(remembering(long)).toBe(600);
    expect(remembering("short")).toBe(5);
    expect(remembering("short")).toBe(5);
    expect(count).toHaveBeenCalledTimes(3);
    const other = vi.fn(() => 7);
    expect(rememberingLongTexts("test-b", other)(long)).toBe(7);
    expect(remembering(long + "y")).toBe(601);
  });

  it("answers counts remembered ahead (measured on the worker) without counting", () => {
    const block = "--- BEGIN FILE ---\n" + "z".repeat(2_000);
    rememberCounts("test-c", [block, "short"], [42, 1]);
    const count = vi.fn((text: string) => text.length);
    const remembering = rememberingLongTexts("test-c", count);
    expect(remembering(block)).toBe(42);
    expect(remembering("short")).toBe(5); // short texts are not remembered
    expect(count).toHaveBeenCalledTimes(1);
  });
});
