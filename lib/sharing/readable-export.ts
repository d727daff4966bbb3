import "server-only";
// The readable exports (HTML, Markdown): gathers a thread or its chain, the sub-agent threads its
// tool calls started when asked (recursively), their usage as the thread page shows it, redacts
// the whole of it when asked, and hands it to the pure renderers in lib/export.
import { redactDeep } from "@/lib/domain/secrets/detect";
import { subagentsOfTurns } from "@/lib/domain/threads/subagents";
import type { ThreadWithTurns } from "@/lib/domain/types";
import { turnUsages } from "@/lib/domain/usage/usage";
import { getChain, getThreadLinks, getThreadWithTurns } from "@/lib/db/threads/threads";
import { sessionFiguresOf } from "@/lib/db/usage/session-figures";
import { withTurnCosts } from "@/lib/db/usage/session-usage";
import { renderHtml } from "@/lib/export/html";
import { renderMarkdown } from "@/lib/export/markdown";
import type { ReadableThread } from "@/lib/export/types";

export type ReadableFormat = "html" | "md";
export type ReadableExportOptions = { redact: boolean; subagents: boolean; chain: boolean; includeExpired?: boolean; shared?: boolean };

/** Enough children to tie every sub-agent of a long agent session to its call (as the thread page). */
const CHILD_LIMIT = 1_000;
/** Sub-agents nest rarely: the walk stops this deep, or at this many threads, whatever the data says. */
const MAX_SUBAGENT_DEPTH = 20;
const MAX_SUBAGENTS = 2_000;

/** A thread or its chain as one file people read: its bytes and the name to save it under. */
export async function readableExport(
  threadId: string,
  format: ReadableFormat,
  options: ReadableExportOptions,
): Promise<{ body: string; filename: string }> {
  const visibility = { includeExpired: options.includeExpired ?? false };
  const read = options.chain ? await getChain(threadId, visibility) : [await getThreadWithTurns(threadId, visibility)];
  const budget = { threads: MAX_SUBAGENTS, seen: new Set(read.map(({ thread }) => thread.id)) };
  const threads: ReadableThread[] = [];
  // One after the other: the budget (and which thread a shared sub-agent shows under) is the same every time.
  for (const entry of read) threads.push(await readable(entry, options.subagents ? MAX_SUBAGENT_DEPTH : 0, budget));
  const document = { threads, redacted: options.redact, shared: options.shared ?? false };
  const shown = options.redact ? redactDeep(document) : document;
  const body = format === "html" ? renderHtml(shown) : renderMarkdown(shown);
  return { body, filename: `threadline-${threadId}${options.chain ? "-chain" : ""}${options.redact ? "-redacted" : ""}.${format}` };
}

type Budget = { threads: number; seen: Set<string> };

/**
 * A thread with its responses' usage and prices and its session's figures; with `depth` left, the
 * sub-agent threads its calls started, each once (`seen` guards against loops in the links).
 */
async function readable({ thread, turns }: ThreadWithTurns, depth: number, budget: Budget): Promise<ReadableThread> {
  const usages = turnUsages(turns);
  const [priced, figures] = await Promise.all([
    withTurnCosts(turns.map((turn, i) => ({ ...turn, usage: usages[i] ?? null }))),
    sessionFiguresOf([thread.id]).then((all) => all.get(thread.id) ?? null),
  ]);
  const subagents: ReadableThread["subagents"] = [];
  if (depth > 0) {
    // The sub-agents its calls started (paired below by call) came with it from the same session:
    // whoever made the link may show them.
    const { children } = await getThreadLinks(thread, null, { childLimit: CHILD_LIMIT });
    for (const [callId, paired] of subagentsOfTurns(turns, children)) {
      for (const child of paired) {
        if (budget.seen.has(child.id) || budget.threads <= 0) continue;
        budget.seen.add(child.id);
        budget.threads--;
        // A sub-agent is read with its parent, expired or not (the parent was found).
        const entry = await getThreadWithTurns(child.id, { includeExpired: true });
        subagents.push({ callId, thread: await readable(entry, depth - 1, budget) });
      }
    }
  }
  return { thread, turns: priced, figures, subagents };
}
