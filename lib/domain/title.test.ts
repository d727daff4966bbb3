import { describe, expect, it } from "vitest";
import { displayTitle, titleFromContent } from "./title";

describe("titleFromContent", () => {
  it("collapses whitespace and keeps short prompts whole", () => {
    expect(titleFromContent("  Review\n\n the   auth module ")).toBe("Review the auth module");
  });

  it("cuts to 100 characters without splitting a code point", () => {
    const long = "😀".repeat(150);
    const title = titleFromContent(long);
    expect(Array.from(title ?? "")).toHaveLength(100);
    expect(title).toBe("😀".repeat(100));
    expect(titleFromContent("x".repeat(101))).toBe("x".repeat(100));
  });

  it("gives no title for blank content", () => {
    expect(titleFromContent(" \n\t")).toBeNull();
    expect(displayTitle(null)).toBe("Untitled thread");
  });
});
