import { describe, expect, it, vi } from "vitest";
import { knownCount, rememberCounts, rememberingCounts } from "./memo";

describe("rememberingCounts", () => {
  it("counts a text once per tokenizer, long or short", () => {
    const count = vi.fn((text: string) => text.length);
    const remembering = rememberingCounts("test-a", count);
    const long = "x".repeat(600);
    expect(remembering(long)).toBe(600);
    expect(remembering(long)).toBe(600);
    expect(remembering("short")).toBe(5);
    expect(remembering("short")).toBe(5);
    expect(count).toHaveBeenCalledTimes(2);
    const other = vi.fn(() => 7);
    const rememberingOther = rememberingCounts("test-b", other);
    expect(rememberingOther(long)).toBe(7);
    expect(rememberingOther("short")).toBe(7);
    expect(remembering(long + "y")).toBe(601);
    expect(remembering("shorter")).toBe(7);
    expect(count).toHaveBeenCalledTimes(4);
  });

  it("answers counts remembered ahead (measured on the worker) without counting", () => {
    const block = "--- BEGIN FILE ---\n" + "z".repeat(2_000);
    rememberCounts("test-c", [block, "short"], [42, 1]);
    expect(knownCount("test-c", block)).toBe(42);
    expect(knownCount("test-c", "short")).toBe(1);
    expect(knownCount("test-d", "short")).toBeUndefined();
    const count = vi.fn((text: string) => text.length);
    const remembering = rememberingCounts("test-c", count);
    expect(remembering(block)).toBe(42);
    expect(remembering("short")).toBe(1);
    expect(remembering(block + "!")).toBe(2_020);
    expect(count).toHaveBeenCalledTimes(1);
  });
});
