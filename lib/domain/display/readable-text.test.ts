// The cleaning summaries and previews share with the thread page (lib/domain/display/transcript-display.ts),
// on the real Claude Code /compact exchange (fixtures/real) and on the forms that reach a summary.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractiveSummary } from "../compaction/extractive";
import type { CompactionTurn } from "../compaction/types";
import { readableText, stripEscapeCodes } from "./transcript-display";

const SESSION =
  "fixtures/real/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl";
const entries = readFileSync(SESSION, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { type: string; message?: { content?: unknown } });
const userStrings = entries
  .map((e) => (e.type === "user" && typeof e.message?.content === "string" ? e.message.content : null))
  .filter((c): c is string => c !== null);
const command = userStrings.find((c) => c.includes("<command-name>/compact</command-name>"))!;
const stdout = userStrings.find((c) => c.startsWith("<local-command-stdout>") && c.includes("\u001b["))!;
const caveat = userStrings.find((c) => c.includes("<local-command-caveat>"))!;

const ESCAPES = /\u001b|\[\d{1,3}(?:;\d{1,3})*m/;
const TAGS = /<\/?(?:command-name|command-message|command-args|local-command-stdout|local-command-caveat)>/;

describe("readableText on the real /compact exchange", () => {
  it("has the fixture's command, its escape-coded output and a caveat", () => {
    expect([command, stdout, caveat].every(Boolean)).toBe(true);
    expect(stdout).toMatch(/\u001b\[2m/);
  });

  it("shows the command as typed, the output without escape codes or tags, and leaves the caveat out", () => {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(command)?.[1]?.trim() ?? "";
    expect(readableText("user", command)).toBe(args ? `/compact ${args}` : "/compact");
    const output = readableText("user", stdout);
    expect(output).toContain("Compacted (ctrl+o to see full summary)");
    expect(output).not.toMatch(ESCAPES);
    expect(output).not.toMatch(TAGS);
    expect(readableText("user", caveat).trim()).toBe("");
  });

  it("summarises those turns with no escape codes or tags, numbering turns from #1 as the page does", () => {
    const turns: CompactionTurn[] = [command, stdout, caveat, "Please add tracing to the router.", stdout].map((content, index) => ({
      index,
      role: "user",
      content,
      parts: null,
      toolName: null,
      modelName: null,
      files: [],
      images: [],
    }));
    const summary = extractiveSummary(turns);
    expect(summary).not.toMatch(ESCAPES);
    expect(summary).not.toMatch(TAGS);
    expect(summary).toContain('- Turn #1: "/compact');
    expect(summary).toContain('- Turn #4: "Please add tracing to the router."');
    expect(summary).not.toMatch(/Turn #?0\b/);
    // The caveat-only turn asked nothing.
    expect(summary).not.toContain("Turn #3:");
  });
});

describe("stripEscapeCodes", () => {
  it("removes whole escape sequences and those that lost their ESC, and nothing else", () => {
    expect(stripEscapeCodes("\u001b[2mCompacted\u001b[22m")).toBe("Compacted");
    expect(stripEscapeCodes("[2mCompacted (ctrl+o to see full summary)[22m")).toBe("Compacted (ctrl+o to see full summary)");
    expect(stripEscapeCodes("[1;31merror[0m: x")).toBe("error: x");
    expect(stripEscapeCodes("a[i] and [link](x) and [2 items]")).toBe("a[i] and [link](x) and [2 items]");
  });

  it("is linear on a long run of near-misses", () => {
    const started = performance.now();
    stripEscapeCodes("[1;2;3;4;5;6;7;8;9;1;2;3;4;5;6;7;8;9;".repeat(100_000));
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
