import { describe, expect, it } from "vitest";
import { DEFAULT_SUMMARY_CHARS, extractiveSummary, splitSentences } from "./extractive";
import { collectReferences, missingReferences } from "./references";
import { authRefreshTurns } from "../testing/auth-refresh-turns";
import { assistant, call, chat, result, turnsOf, user } from "../testing/compaction-turns";
import type { CompactionTurn } from "./types";

/** The summary's length without the references section, which is never cut. */
function boundedLength(summary: string): number {
  const refs = /## Files and tools referenced\n(?:- .*(?:\n|$))*/.exec(summary)?.[0] ?? "";
  return summary.length - refs.trimEnd().length;
}

function section(summary: string, title: string): string {
  const start = summary.indexOf(`## ${title}\n`);
  if (start === -1) return "";
  const end = summary.indexOf("\n\n## ", start);
  return summary.slice(start, end === -1 ? undefined : end);
}

describe("extractiveSummary on the auth-refresh debugging run", () => {
  const turns = authRefreshTurns();
  const summary = extractiveSummary(turns);

  it("has each section the thread calls for, in order", () => {
    const titles = [...summary.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(titles).toEqual([
      "User requests",
      "Decisions and outcomes",
      "Files and tools referenced",
      "Errors and resolutions",
      "Open tasks and next steps",
    ]);
  });

  it("keeps every path and tool name", () => {
    expect(missingReferences(collectReferences(turns), summary)).toEqual({ paths: [], tools: [] });
  });

  it("lists the PAL tool each replaced turn ran under with the tools it called", () => {
    expect(section(summary, "Files and tools referenced")).toContain("- Tools: `analyze`, `codereview`, `debug`, `read_file`");
  });

  it("quotes each user prompt in order", () => {
    const requests = section(summary, "User requests");
    expect(requests).toContain('- Turn #1: "Why do sessions drop after a token refresh?');
    expect(requests).toContain('- Turn #7: "Confirmed. Can you also write a regression test for the two-tab race?"');
    expect(requests.indexOf("Turn #3:")).toBeLessThan(requests.indexOf("Turn #5:"));
  });

  it("states the decisions, the last explanation and the final answer", () => {
    const decisions = section(summary, "Decisions and outcomes");
    expect(decisions).toContain("keeps the stale `expiresAt` (confirmed)");
    expect(decisions).toContain("The CI test passes 200/200 runs with that change.");
    expect(decisions).toContain(
      "Last explanation (turn #6): The retry in `retryWithFreshToken()` builds the request before awaiting the refresh",
    );
    expect(decisions).toContain("Final answer (turn #8): a ts code block");
  });

  it("pairs the reported 401 with how it was fixed", () => {
    const errors = section(summary, "Errors and resolutions");
    expect(errors).toContain("intermittent 401");
    expect(errors).toMatch(/Resolution \(turn #6\): The CI test passes 200\/200 runs with that change\./);
  });

  it("lists the open next step", () => {
    expect(section(summary, "Open tasks and next steps")).toContain("Next step: a code review of `src/auth/tokens.ts`");
  });

  it("stays within the default bound and is deterministic", () => {
    expect(boundedLength(summary)).toBeLessThanOrEqual(DEFAULT_SUMMARY_CHARS);
    expect(extractiveSummary(authRefreshTurns())).toBe(summary);
  });

  it("keeps every reference when cut hard, noting what it left out", () => {
    const short = extractiveSummary(turns, { maxChars: 500 });
    expect(boundedLength(short)).toBeLessThanOrEqual(500);
    expect(short).toMatch(/- \(\d+ more\)/);
    expect(missingReferences(collectReferences(turns), short)).toEqual({ paths: [], tools: [] });
  });

  it("opens with the focus and prefers sentences that share its words", () => {
    const focused = extractiveSummary(turns, { instructions: "the two-tab race and BroadcastChannel", maxChars: 700 });
    expect(focused.split("\n")[0]).toBe("Focus: the two-tab race and BroadcastChannel");
    expect(boundedLength(focused)).toBeLessThanOrEqual(700);
    expect(section(focused, "User requests")).toContain("two-tab race");
    expect(section(focused, "Decisions and outcomes")).toContain("two tabs can refresh at once");
    expect(section(extractiveSummary(turns, { maxChars: 700 }), "Decisions and outcomes")).not.toContain("two tabs");
  });
});

describe("extractiveSummary", () => {
  it("does not take tool results for prompts, and omits empty sections", () => {
    const summary = extractiveSummary(turnsOf(user("List the files."), call("c1"), result("c1", "a.txt"), assistant("There is one file.")));
    expect(section(summary, "User requests").match(/- Turn/g)).toHaveLength(1);
    expect(summary).not.toContain("## Errors");
    expect(summary).not.toContain("## Open tasks");
  });

  it("reports a failed tool call and the fix that followed", () => {
    const summary = extractiveSummary(
      turnsOf(
        user("Run the tests."),
        call("c1", "bash", { command: "npm test" }),
        result("c1", "FAIL src/a.test.ts\nTypeError: x is undefined\n1 failed", true),
        assistant("The root cause is a missing default; I fixed it in src/a.ts by defaulting x to 0."),
        user("Thanks. TODO: add a regression test next."),
      ),
    );
    const errors = section(summary, "Errors and resolutions");
    expect(errors).toContain('- Turn #3: bash returned an error: "FAIL src/a.test.ts"');
    expect(errors).toContain("  - Resolution (turn #4): The root cause is a missing default; I fixed it in src/a.ts by defaulting x to 0.");
    expect(section(summary, "Open tasks and next steps")).toContain("TODO: add a regression test next.");
  });

  it("counts an unflagged tool output as a failure only on a clear sign", () => {
    const summary = extractiveSummary(
      turnsOf(
        user("Read it, then run it."),
        call("c1", "read_file"),
        result("c1", "export function f(error: unknown) {\n  if (error) throw error;\n}"),
        call("c2", "bash", { command: "node f.js" }),
        result("c2", "starting\nTypeError: f is not a function\n    at main (f.js:3)"),
        assistant("Done."),
      ),
    );
    const errors = section(summary, "Errors and resolutions");
    expect(errors).toContain('- Turn #5: bash output: "TypeError: f is not a function"');
    expect(errors).not.toContain("read_file");
  });

  it("cuts long sections in proportion and keeps a long reference list whole", () => {
    const turns = turnsOf(
      ...Array.from({ length: 300 }, (_, i) =>
        i % 2 === 0
          ? user(`Please update module ${i} in src/mod${i}/index.ts now.`)
          : assistant(`I updated src/mod${i - 1}/index.ts because it was stale.`),
      ),
    );
    const summary = extractiveSummary(turns, { maxChars: 2_000 });
    expect(boundedLength(summary)).toBeLessThanOrEqual(2_000);
    expect(section(summary, "User requests")).toMatch(/- \(\d+ more\)$/);
    expect(section(summary, "Decisions and outcomes")).toMatch(/- \(\d+ more\)$/);
    expect(missingReferences(collectReferences(turns), summary)).toEqual({ paths: [], tools: [] });
    // The first request (the goal) and the final answer survive the cut.
    expect(summary).toContain("Turn #1:");
    expect(summary).toContain("Final answer (turn #300)");
  });

  // Its speed is measured by npm run bench (compaction section), not here.
  it("summarises 2,000 turns of a few KB within the bound, keeping every reference", () => {
    const filler = "The migration touches the billing tables and the ledger export, row by row. ".repeat(40);
    const turns: CompactionTurn[] = turnsOf(
      ...Array.from({ length: 2_000 }, (_, i) => {
        if (i % 4 === 0) return user(`Step ${i}: check src/billing/step${i % 50}.ts? ${filler}`);
        if (i % 4 === 1) return call(`c${i}`, "read_file", { path: `src/billing/step${i % 50}.ts` });
        if (i % 4 === 2) return result(`c${i - 1}`, `${i % 40 === 2 ? "Error: timeout\n" : ""}${filler}`, i % 40 === 2);
        return assistant(
          `I decided to keep the batch size because it works. Next: verify step ${i}. ${filler}\n\n\`\`\`sql\nSELECT 1;\n\`\`\``,
        );
      }),
    );
    expect(turns.reduce((n, t) => n + t.content.length, 0)).toBeGreaterThan(4_000_000);
    const summary = extractiveSummary(turns, { instructions: "batch size" });
    expect(summary).toBe(extractiveSummary(turns, { instructions: "batch size" })); // deterministic
    expect(boundedLength(summary)).toBeLessThanOrEqual(DEFAULT_SUMMARY_CHARS);
    expect(missingReferences(collectReferences(turns), summary)).toEqual({ paths: [], tools: [] });
  });

  it("says so when the turns have no text", () => {
    expect(extractiveSummary([])).toBe("(The summarised turns have no text.)");
    expect(extractiveSummary(turnsOf(...chat(0)), { instructions: "x" })).toBe("Focus: x\n\n(The summarised turns have no text.)");
  });
});

describe("splitSentences", () => {
  it("reads prose, leaving out code blocks, tables and headings", () => {
    const text = "## Findings\n\nFirst one. Second `a.ts` one!\n\n```ts\nconst x = 1.5;\n```\n| a | b |\n- **Bold** item\n1. Numbered item";
    expect(splitSentences(text)).toEqual(["First one.", "Second `a.ts` one!", "Bold item", "Numbered item"]);
  });
});
