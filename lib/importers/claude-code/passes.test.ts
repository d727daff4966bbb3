import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { claudeCodePlanner, claudeCodeTurnReader, parseClaudeCodeSession } from "./index";
import type { NumberedLine, ThreadTurn } from "../types";

const ROOT = path.join(process.cwd(), "fixtures/real/claude-code/projects");
const SESSIONS = readdirSync(ROOT, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".jsonl"));

function fileLines(relative: string): NumberedLine[] {
  return readFileSync(path.join(ROOT, relative), "utf8")
    .split("\n")
    .map((text, i) => ({ text, line: i + 1 }));
}

/** Both passes, the second over the lines read again (a session too large to hold), else over the entries the first parsed. */
function turnsOf(lines: NumberedLine[], name: string, again: boolean): ThreadTurn[] {
  const planner = claudeCodePlanner({ name });
  const entries = lines.flatMap((line) => {
    const entry = planner.add(line);
    return entry ? [{ line: line.line, entry }] : [];
  });
  const reader = claudeCodeTurnReader(planner.plan());
  const read = again ? lines.flatMap((line) => reader.add(line)) : entries.flatMap(({ line, entry }) => reader.addEntry(line, entry));
  return [...read, ...reader.end()];
}

afterEach(() => vi.restoreAllMocks());

describe("the second pass over the entries the first parsed", () => {
  it("gives the turns the lines read again give, for every real session", () => {
    expect(SESSIONS.length).toBeGreaterThan(5);
    let turns = 0;
    for (const name of SESSIONS) {
      const lines = fileLines(name);
      const fromEntries = turnsOf(lines, name, false);
      expect(fromEntries, name).toEqual(turnsOf(lines, name, true));
      turns += fromEntries.length;
    }
    expect(turns).toBeGreaterThan(100);
  });

  it("parses each line once", async () => {
    const name = SESSIONS[0]!;
    const lines = fileLines(name);
    const parse = vi.spyOn(JSON, "parse");
    await parseClaudeCodeSession(lines, { name });
    expect(parse).toHaveBeenCalledTimes(lines.filter((line) => line.text.trim()).length);
  });
});
