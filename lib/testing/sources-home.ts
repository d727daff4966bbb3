import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REAL_TRANSCRIPTS } from "./real-transcripts";

/** The real Claude Code fixtures: 5 sessions, a sub-agent and a compaction summariser's run (7 files). */
export const CLAUDE_CODE_FIXTURES = path.join(REAL_TRANSCRIPTS, "claude-code", "projects");

/**
 * A temporary home folder for the followed sources' tests, with `~/.claude/projects` holding copies
 * of the real Claude Code fixtures (or nothing, `withClaudeCode: false`). Remove it with `remove()`.
 */
export function makeSourcesHome({ withClaudeCode = true } = {}): { home: string; claudeProjects: string; remove: () => void } {
  const home = mkdtempSync(path.join(os.tmpdir(), "threadline-home-"));
  const claudeProjects = path.join(home, ".claude", "projects");
  if (withClaudeCode) cpSync(CLAUDE_CODE_FIXTURES, claudeProjects, { recursive: true });
  else mkdirSync(claudeProjects, { recursive: true });
  return { home, claudeProjects, remove: () => rmSync(home, { recursive: true, force: true }) };
}
