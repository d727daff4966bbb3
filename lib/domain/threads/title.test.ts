import { describe, expect, it } from "vitest";
import { secretSamples } from "../testing/secret-samples";
import { cutTitle, displayTitle, isRealPrompt, shownTitle, titleFromContent } from "./title";

describe("titleFromContent", () => {
  it("collapses whitespace and keeps short prompts whole", () => {
    expect(titleFromContent("  Review\n\n the   auth module ")).toBe("Review the auth module");
  });

  it("cuts to 100 characters with an ellipsis without splitting a code point", () => {
    const long = "😀".repeat(150);
    const title = titleFromContent(long);
    expect(Array.from(title ?? "")).toHaveLength(100);
    expect(title).toBe(`${"😀".repeat(99)}…`);
    expect(titleFromContent("x".repeat(101))).toBe(`${"x".repeat(99)}…`);
    expect(titleFromContent("x".repeat(100))).toBe("x".repeat(100));
  });

  it("gives no title for blank content", () => {
    expect(titleFromContent(" \n\t")).toBeNull();
    expect(displayTitle(null)).toBe("Untitled thread");
  });
});

describe("titleFromContent on long text", () => {
  it("equals collapsing the whole text, reading only the start", () => {
    const cases = [
      `${"  \n".repeat(50_000)}first words here`,
      `${"many words ".repeat(100_000)}`,
      "A".repeat(1_000_000),
      `a ${" ".repeat(1_000_000)} b`,
      `${"😀".repeat(150)} tail`,
      `${"x".repeat(201)}😀 more`,
    ];
    for (const text of cases) {
      const collapsed = text.replace(/\s+/g, " ").trim();
      expect(titleFromContent(text)).toBe(cutTitle(collapsed, 100));
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

describe("cutTitle", () => {
  it("keeps a short title whole, whitespace collapsed", () => {
    expect(cutTitle("  fix   the\nbuild ", 20)).toBe("fix the build");
    expect(cutTitle("exactly ten", 11)).toBe("exactly ten");
  });

  it("cuts at the last word boundary that fits, with an ellipsis counted in the length", () => {
    const text = "Work on bead spotter-4te. Run bd show spotter-4te to see the issue details and bd ready to find available subtasks.";
    const cut = cutTitle(text, 100);
    expect(cut).toBe("Work on bead spotter-4te. Run bd show spotter-4te to see the issue details and bd ready to find…");
    expect(Array.from(cut).length).toBeLessThanOrEqual(100);
    expect(cutTitle("Your task is to analyze the current directory", 20)).toBe("Your task is to…");
  });

  it("never leaves a dangling separator before the ellipsis", () => {
    expect(cutTitle("alpha beta, gamma delta epsilon", 13)).toBe("alpha beta…");
    expect(cutTitle("Focus on: 1. Dependencies and more", 11)).toBe("Focus on…");
  });

  it("cuts inside a word too long to end on", () => {
    const cut = cutTitle(`see ${"a".repeat(200)} then more`, 40);
    expect(cut).toBe(`see ${"a".repeat(35)}…`);
    // A URL has word boundaries of its own: it ends at one when that keeps more than half.
    expect(cutTitle(`see https://example.com/${"a".repeat(200)}`, 40)).toBe("see https://example.com…");
    expect(cutTitle("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
  });

  it("cuts text without spaces (Chinese, Japanese) between words, never inside a code point", () => {
    const chinese = "請幫我依照專案實際狀況更新文件開發者的引導不需要寫在裡面這三份文件應該更加偏向使用者取向";
    const cut = cutTitle(chinese, 20);
    expect(cut.endsWith("…")).toBe(true);
    expect(Array.from(cut).length).toBeLessThanOrEqual(20);
    expect(chinese.startsWith(cut.slice(0, -1))).toBe(true);
    // More than half is kept: the cut is near the end, not at the first boundary.
    expect(Array.from(cut).length).toBeGreaterThan(10);
    const emoji = cutTitle("👩‍💻".repeat(30), 12);
    expect(emoji.endsWith("…")).toBe(true);
    expect(Array.from(emoji).length).toBeLessThanOrEqual(12);
    expect(emoji).not.toMatch(/\u200d…$/);
  });
});

describe("shownTitle", () => {
  it("gives the cut text and the whole title for the tooltip", () => {
    const title = "Review the token refresh path and the session store before the release goes out to everyone";
    expect(shownTitle(title, 40)).toEqual({ text: "Review the token refresh path and the…", full: title, cut: true });
    expect(shownTitle("Short", 40)).toEqual({ text: "Short", full: "Short", cut: false });
    expect(shownTitle(null)).toEqual({ text: "Untitled thread", full: "Untitled thread", cut: false });
  });
});

describe("isRealPrompt", () => {
  it("refuses preambles, command wrappers, caveats and context blocks", () => {
    for (const text of [
      "\nYou are an AI agent that brings the power of Gemini directly into the terminal. Your task is to analyze",
      "You are an interactive CLI agent specializing in software engineering tasks.",
      "System: Please continue.",
      "<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>",
      "<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>",
      "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>",
      "<user_instructions>Use pnpm.</user_instructions>",
      "# AGENTS.md instructions for /repo",
      "   ",
    ]) {
      expect(isRealPrompt(text), text).toBe(false);
    }
  });

  it('accepts what people type, including prompts that start with "You are"', () => {
    for (const text of [
      "mix phx.server doesnt seem to start",
      "You are auditing the core repository to prepare it for release.",
      "/review the diff",
      "請幫我更新 README.md",
    ]) {
      expect(isRealPrompt(text), text).toBe(true);
    }
  });
});
