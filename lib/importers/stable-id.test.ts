import { createHash } from "node:crypto";
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

  it("stay the ids stored imports were given", () => {
    // Computed by the first implementation (a Hash fed piece by piece): re-imports find their threads by these.
    expect(stableUuid("ns", "a")).toBe("cc3eb0e5-93e8-5190-8222-c987a0c31664");
    expect(importedThreadId("claude-code", "s-1")).toBe("8a163c6a-9c15-53ff-ad1c-1b62afb87201");
    expect(importedTurnId("t", "0", ["user", "héllo \u{1F600}", null, "\uD83D"])).toBe("30af9145-8ea6-5c23-8b36-5208cb174dba");
    // And that implementation itself, over values that end or begin with half a surrogate pair.
    const pieceByPiece = (threadId: string, key: string, held: (string | null)[]) => {
      const sha1 = createHash("sha1").update("threadline:turn").update("\u0000").update(`${threadId}:${key}`);
      for (const value of held) sha1.update(value === null ? "\u0000-" : `\u0000${value.length}:`).update(value ?? "");
      const bytes = sha1.digest();
      bytes[6] = (bytes[6]! & 0x0f) | 0x50;
      bytes[8] = (bytes[8]! & 0x3f) | 0x80;
      const hex = bytes.subarray(0, 16).toString("hex");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    const values = ["", "a", "\uD83D", "\uDE00", "x\uD83D", "\uDE00y", "\u{1F600}", "ünï ", null];
    for (const first of values)
      for (const second of values) {
        const held = [first, second];
        expect(importedTurnId("t\uD83D", "\uDE00k", held)).toBe(pieceByPiece("t\uD83D", "\uDE00k", held));
      }
  });
});
