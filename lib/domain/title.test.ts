import { describe, expect, it } from "vitest";
import { secretSamples } from "./secrets/samples";
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

describe("titleFromContent on long text", () => {
  it("equals collapsing the whole text, reading only the start", () => {
    const cases = [`${"  \n".repeat(50_000)}first words here`, "A".repeat(1_000_000), `a ${" ".repeat(1_000_000)} b`, `${"😀".repeat(150)} tail`, `${"x".repeat(201)}😀 more`];
    for (const text of cases) {
      const collapsed = text.replace(/\s+/g, " ").trim();
      const expected = Array.from(collapsed).slice(0, 100).join("");
      expect(titleFromContent(text)).toBe(expected);
    }
  });
});

describe("titleFromContent and secrets", () => {
  const token = secretSamples(9).find((s) => s.rule === "github-pat")!.value;

  it("masks a secret in the title, the turn keeping it", () => {
    const title = titleFromContent(`git clone https://${token}@github.com/acme/app.git`)!;
    expect(title).toMatch(/^git clone https:\/\/\[GitHub token …[0-9a-f]{4}\]@github\.com/);
    expect(title).not.toContain(token.slice(4, 12));
  });

  it("leaves no piece of a secret the 100-character cut would split, and never half a mask", () => {
    for (let start = 60; start <= 99; start++) {
      const title = titleFromContent(`${"w".repeat(start - 1)} ${token} and more words after it`)!;
      expect(title, `secret at ${start}`).not.toContain(token.slice(4, 10));
      expect(title, `secret at ${start}`).not.toMatch(/\[[^\]]*$/);
      expect(Array.from(title).length).toBeLessThanOrEqual(100);
    }
  });
});
