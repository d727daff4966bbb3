import { describe, expect, it } from "vitest";
import { knownCount, rememberCounts } from "./memo";

describe("remembered counts", () => {
  it("answers counts remembered (measured on the worker) by tokenizer and text, long or short", () => {
    const block = "--- BEGIN FILE ---\n" + "z".repeat(2_000);
    rememberCounts("test-c", [block, "short"], [42, 1]);
    expect(knownCount("test-c", block)).toBe(42);
    expect(knownCount("test-c", "short")).toBe(1);
    expect(knownCount("test-d", "short")).toBeUndefined();
    expect(knownCount("test-d", block)).toBeUndefined();
    expect(knownCount("test-c", block + "!")).toBeUndefined();
  });
});
