import type { HandoffAnswer, HandoffMessage, SkipCause } from "@/lib/domain/history/handoff";
import { apiFetch } from "./api-client";

/**
 * Client-safe: GET /api/threads/:id/handoff (the orchestrator seed's conversation_history, issue
 * 23) as the thread page's "Copy as task context" and the budget page's "Orchestrator handoff"
 * read it, and what they derive from it.
 */

export type HandoffOptions = { chain: boolean; model?: string };

export function fetchHandoff(threadId: string, options: HandoffOptions, signal?: AbortSignal): Promise<HandoffAnswer> {
  const params = new URLSearchParams({ format: "orchestrator", chain: options.chain ? "1" : "0" });
  if (options.model) params.set("model", options.model);
  return apiFetch<HandoffAnswer>(`/api/threads/${threadId}/handoff?${params}`, { signal, fallback: "Building the handoff failed" });
}

/** One turn of the from..to sequence as the handoff treated it. */
export type HandoffTurn = {
  /** 1-based position in the thread's (or chain's) turns: the budget table's "#". */
  position: number;
  /** Where the turn is. */
  origin: { threadId: string; turnIndex: number };
} & ({ kept: true; message: HandoffMessage } | { kept: false; cause: SkipCause });

/** Every turn of the sequence, kept or skipped, in order: the skipped at their indexes, the kept in the places between. */
export function handoffTurns(answer: HandoffAnswer): HandoffTurn[] {
  const skipped = new Map(answer.skipped.map((s) => [s.index, s]));
  const turns: HandoffTurn[] = [];
  let next = 0;
  for (let index = 0; index < answer.messages.length + answer.skipped.length; index++) {
    const position = answer.range.from + index;
    const skip = skipped.get(index);
    if (skip) {
      turns.push({ position, origin: { threadId: skip.threadId, turnIndex: skip.turnIndex }, kept: false, cause: skip.cause });
    } else if (next < answer.messages.length) {
      turns.push({ position, origin: answer.origins[next]!, kept: true, message: answer.messages[next]! });
      next++;
    }
  }
  return turns;
}

/**
 * The skipped turns as people read them: one sentence per cause ("14 tool turns skipped", "2 empty
 * turns skipped"), each with its turns, in order of first appearance. Never the seed's log lines.
 */
export function skippedGroups(turns: readonly HandoffTurn[]): { sentence: string; turns: HandoffTurn[] }[] {
  const groups = new Map<string, HandoffTurn[]>();
  for (const turn of turns) {
    if (turn.kept) continue;
    const what = turn.cause.kind === "empty" ? "empty turn" : `${turn.cause.role} turn`;
    groups.set(what, [...(groups.get(what) ?? []), turn]);
  }
  return [...groups].map(([what, group]) => ({
    sentence: `${group.length.toLocaleString("en-US")} ${what}${group.length === 1 ? "" : "s"} skipped`,
    turns: group,
  }));
}

/** The link to a turn on its thread's page (`#turn-<n>`, n 1-based, as the reader's anchors). */
export function turnHref(origin: { threadId: string; turnIndex: number }): string {
  return `/threads/${origin.threadId}#turn-${origin.turnIndex + 1}`;
}
