import { describe, expect, it } from "vitest";
import { importedThreadId, importedTurnId, stableUuid } from "./stable-id";

describe("stable ids", () => {
  it("are version 5 UUIDs, the same for the same name and different otherwise", () => {
    const id = stableUuid("ns", "a");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableUuid("ns", "a")).toBe(id);
    expect(stableUuid("ns", "b")).not.toBe(id);
    expect(stableUuid("ns2", "a")).not.toBe(id);
    // the separator keeps ("ab", "c") and ("a", "bc") apart
    expect(stableUuid("ab", "c")).not.toBe(stableUuid("a", "bc"));
  });

  it("derive thread ids from format and key, except PAL's own UUIDs", () => {
    expect(importedThreadId("claude-code", "s-1")).toBe(importedThreadId("claude-code", "s-1"));
    expect(importedThreadId("codex", "s-1")).not.toBe(importedThreadId("claude-code", "s-1"));
    expect(importedThreadId("pal", "2B1F0C9E-6A52-4D0E-9C3A-5F7D9B1E0A05")).toBe("2b1f0c9e-6a52-4d0e-9c3a-5f7d9b1e0a05");
    expect(importedTurnId("t", "k")).not.toBe(importedTurnId("t", "k2"));
  });

  it("derive turn ids from thread, key and everything stored of the turn", () => {
    const id = importedTurnId("t", "0", ["user", "hello", null]);
    expect(importedTurnId("t", "0", ["user", "hello", null])).toBe(id);
    expect(importedTurnId("t", "0", ["assistant", "hello", null])).not.toBe(id);
    expect(importedTurnId("t", "0", ["user", "hello!", null])).not.toBe(id);
    expect(importedTurnId("t", "0", ["user", "hello", ""])).not.toBe(id);
    expect(importedTurnId("t", "1", ["user", "hello", null])).not.toBe(id);
    // values are delimited: moving text from one field to the next is a difference
    expect(importedTurnId("t", "0", ["ab", "c"])).not.toBe(importedTurnId("t", "0", ["a", "bc"]));
  });
});
