import { describe, expect, it } from "vitest";
import { diffLineKind, looksLikeUnifiedDiff } from "./diff";

describe("unified diffs", () => {
  it("recognises a diff by its hunk header, with or without file headers", () => {
    expect(looksLikeUnifiedDiff("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n+d\n")).toBe(true);
    expect(looksLikeUnifiedDiff("@@ -3 +3 @@ function f()\n-old\n+new")).toBe(true);
  });

  it("does not take text that merely mentions @@ or starts lines with + and - for a diff", () => {
    expect(looksLikeUnifiedDiff("- a list item\n+ another\n")).toBe(false);
    expect(looksLikeUnifiedDiff("use @@ -x in prose")).toBe(false);
    expect(looksLikeUnifiedDiff("")).toBe(false);
  });

  it("tells file headers, hunk headers, additions, removals and context apart", () => {
    expect(["--- a/x", "+++ b/x", "diff --git a/x b/x", "@@ -1 +1 @@", "+new", "-old", " same", ""].map(diffLineKind)).toEqual([
      "file",
      "file",
      "file",
      "hunk",
      "added",
      "removed",
      "context",
      "context",
    ]);
  });

  it("answers at once for a long text with no hunk header", () => {
    // A linear scan: a million lines of near-misses never backtrack.
    expect(looksLikeUnifiedDiff("@@ -x\n".repeat(1_000_000))).toBe(false);
  });
});
