/**
 * Claude Code session transcripts (~/.claude/projects/<dir>/<sessionId>.jsonl and sub-agent
 * files), docs/formats.md §1, "Claude Code". Pure: the caller supplies the lines, twice if it streams them.
 *
 * Two passes, so a 200 MB session never sits in memory as objects: the first keeps a small
 * skeleton per entry (uuid, parent, kind, time) and decides which thread each entry belongs to;
 * the second reads the lines again and turns the kept entries into turns, thread by thread. A
 * session small enough to hold as objects gives the second pass the entries the first parsed
 * (SessionPlanner.add, TurnReader.addEntry) instead: its lines are decoded and parsed once.
 *
 * How the tree becomes threads:
 * - Entries are deduplicated by uuid (resumed sessions re-write history; the first copy wins).
 * - A node with several children is usually not a fork (parallel tool calls, hook progress and
 *   compaction replays all make siblings). Only a node with two or more typed user prompts as
 *   children is a real rewind: the prompt on the active path stays, each other prompt's subtree
 *   becomes a fork thread. The active path runs from last-prompt's leafUuid, else from the
 *   newest conversational entry, up the parent links (a compact boundary's logical parent
 *   counts as its parent).
 * - Everything else that is not a sidechain stays in the main thread, in file order (the order
 *   Claude Code appended it in).
 * - Inline sidechains (1.0.x) become sub-agent threads, one per sidechain root, linked to the Task
 *   tool call whose prompt matches. Separate agent files (2.x) are parsed on their own
 *   (`agent-<id>.jsonl`) into a sub-agent thread of their session; the main thread's tool result
 *   carries the agentId that links them. `agent-acompact-*` files are the compaction summariser's
 *   own transcript: not a user-visible sub-agent, so they give no thread, only a compaction run
 *   (its usage, tied to the session and to the boundary whose logicalParentUuid it follows).
 *
 * The folder: entries.ts reads one entry, plan.ts is the first pass (the tree and the threads),
 * tree.ts what the tree gives (active path, forks, sidechains), turns.ts the second pass (entries
 * to turns), shapes.ts what they share.
 */
import { looksLikeQwenCodeSession } from "../qwen-code";
import type { JsonObject } from "@/lib/domain/types";
import { isObject, type ImportedThread, type NumberedLine, type ParsedSource } from "../types";
import { claudeCodePlanner } from "./plan";
import type { ClaudeCodeSource } from "./shapes";
import { claudeCodeTurnReader } from "./turns";

export type { ClaudeCodeSource, Plan } from "./shapes";
export { claudeCodePlanner, type SessionPlanner } from "./plan";
export { claudeCodeTurnReader, type TurnReader } from "./turns";

/**
 * A cheap check on the first parsed line and the file name. Qwen Code writes the same envelope
 * (uuid, parentUuid, sessionId, type) around Gemini's messages: its records are not Claude Code's.
 */
export function looksLikeClaudeCode(firstLine: unknown, fileName: string): boolean {
  if (!isObject(firstLine) || looksLikeQwenCodeSession(firstLine, fileName)) return false;
  const type = firstLine.type;
  if (typeof type !== "string") return false;
  if (["summary", "file-history-snapshot", "queue-operation", "custom-title", "ai-title", "last-prompt"].includes(type)) return true;
  if (["user", "assistant", "system", "progress"].includes(type))
    return "sessionId" in firstLine || "uuid" in firstLine || /\.jsonl$/i.test(fileName);
  return false;
}

/** Whole-file convenience: both passes over an in-memory list of lines, the second over the entries the first parsed. */
export async function parseClaudeCodeSession(lines: readonly NumberedLine[], source: ClaudeCodeSource): Promise<ParsedSource> {
  const planner = claudeCodePlanner(source);
  const entries: { line: number; entry: JsonObject }[] = [];
  for (const line of lines) {
    const entry = planner.add(line);
    if (entry) entries.push({ line: line.line, entry });
  }
  const plan = planner.plan();
  const threads: ImportedThread[] = plan.threads.map((p) => ({ ...p.thread, turns: [] }));
  const reader = claudeCodeTurnReader(plan);
  for (const { line, entry } of entries)
    for (const { threadIndex, turn } of reader.addEntry(line, entry)) threads[threadIndex]!.turns.push(turn);
  for (const { threadIndex, turn } of reader.end()) threads[threadIndex]!.turns.push(turn);
  return {
    format: "claude-code",
    threads: threads.filter((t) => t.turns.length > 0 || t.relation == null),
    skipped: plan.skipped,
    warnings: plan.warnings,
    ...(plan.compactionRuns ? { compactionRuns: plan.compactionRuns } : {}),
  };
}
