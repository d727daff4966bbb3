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
 * messages only; a skipped turn's is filled in only where it is certain. The thread alone:
 * position p is turn p. A chain (oldest first, ending with this thread) holds each thread's turns
 * whole and in order, so the turns just before a kept turn (T, k) are T's k-1, k-2, … down to 0,
 * and the turns after a kept turn of this thread are its next ones. Otherwise (a skipped turn at
 * the start of a thread the answer shows no turn of) it stays unknown rather than guessed.
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
  for (let i = 0; i < turns.length; i++) {
    if (turns[i]!.kept) continue;
    const after = turns.findIndex((turn, j) => j > i && turn.kept);
    const next = after >= 0 ? turns[after]!.origin : null;
    if (next && next.turnIndex - (after - i) >= 0) {
      turns[i] = { ...turns[i]!, origin: { threadId: next.threadId, turnIndex: next.turnIndex - (after - i) } };
      continue;
    }
    const before = turns.findLastIndex((turn, j) => j < i && turn.kept);
    const previous = before >= 0 ? turns[before]!.origin : null;
    if (previous && previous.threadId === threadId) turns[i] = { ...turns[i]!, origin: { threadId, turnIndex: previous.turnIndex + (i - before) } };
  }
  return turns;
}

/** The link to a turn on its thread's page (`#turn-<n>`, n 1-based, as the reader's anchors). */
export function turnHref(origin: { threadId: string; turnIndex: number }): string {
  return `/threads/${origin.threadId}#turn-${origin.turnIndex + 1}`;
}
