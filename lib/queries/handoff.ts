import type { Handoff, HandoffMessage } from "@/lib/domain/handoff";
import { apiFetch } from "./api-client";

/**
 * Client-safe: GET /api/threads/:id/handoff (the orchestrator seed's conversation_history, issue
 * 23) as the thread page's "Copy as task context" and the budget page's "Orchestrator handoff"
 * read it, and what they derive from it.
 */

/** The answer (lib/db/handoff.ts's, which is server-only): the domain's handoff, the range used, the token count when asked. */
export type HandoffAnswer = Handoff & {
  format: "orchestrator";
  /** 1-based positions used, and the sequence's length (0, 0, 0 for a thread with no turns). */
  range: { from: number; to: number; total: number };
  tokens?: { tokenizer: string; count: number; exact: boolean };
};

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
  /** Where the turn is, when the answer tells (a skipped turn's origin is inferred, see below). */
  origin: { threadId: string; turnIndex: number } | null;
} & ({ kept: true; message: HandoffMessage } | { kept: false; reason: string });

/**
 * Every turn of the sequence, kept or skipped, in order. The answer gives origins for kept
 * messages only; a skipped turn's is certain when the sequence is this thread alone (position p is
 * turn p), or when the kept turns either side of it are in one thread with no gap in between but
 * the skipped ones (a chain's threads are contiguous runs of turns in order). Otherwise it stays
 * unknown rather than guessed.
 */
export function handoffTurns(answer: HandoffAnswer, threadId: string, chain: boolean): HandoffTurn[] {
  const length = answer.range.total === 0 ? 0 : answer.range.to - answer.range.from + 1;
  const reasons = new Map(answer.skipped.map((s) => [s.index, s.reason]));
  const turns: HandoffTurn[] = [];
  let next = 0;
  for (let index = 0; index < length; index++) {
    const position = answer.range.from + index;
    const reason = reasons.get(index);
    if (reason !== undefined) {
      turns.push({ position, origin: chain ? null : { threadId, turnIndex: position - 1 }, kept: false, reason });
      continue;
    }
    const message = answer.messages[next];
    if (!message) break; // an answer that disagrees with itself: show what it does say
    turns.push({ position, origin: answer.origins[next] ?? null, kept: true, message });
    next++;
  }
  if (!chain) return turns;
  // Fill a skipped run's origins from the kept turns that enclose it, when they agree.
  for (let i = 0; i < turns.length; i++) {
    if (turns[i]!.kept) continue;
    let end = i;
    while (end < turns.length && !turns[end]!.kept) end++;
    const before = turns[i - 1]?.origin;
    const after = turns[end]?.origin;
    if (before && after && before.threadId === after.threadId && after.turnIndex - before.turnIndex === end - i + 1) {
      for (let k = i; k < end; k++) turns[k] = { ...turns[k]!, origin: { threadId: before.threadId, turnIndex: before.turnIndex + (k - i + 1) } };
    }
    i = end;
  }
  return turns;
}

/** The link to a turn on its thread's page (`#turn-<n>`, n 1-based, as the reader's anchors). */
export function turnHref(origin: { threadId: string; turnIndex: number }): string {
  return `/threads/${origin.threadId}#turn-${origin.turnIndex + 1}`;
}
