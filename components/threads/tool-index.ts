/**
 * What the conversation view needs to pair structured parts across turns: each tool call with its
 * result (by tool-call id; imported transcripts put results in later "tool" turns) and with the
 * sub-agent thread it started. Pure: built from the turns a page has read (all of a short thread,
 * the window of a long one, `partial`).
 */
import type { ChildThreadLink } from "@/lib/domain/threads/links";
import { pairSubagents } from "@/lib/domain/threads/subagents";
import type { Turn, TurnPart } from "@/lib/domain/types";

export type ToolCallPart = Extract<TurnPart, { type: "tool_call" }>;
export type ToolResultPart = Extract<TurnPart, { type: "tool_result" }>;

/** Where a turn is on the page: its number as shown (#N) and what loads it in full. */
export type TurnRef = { turnId: string; number: number; threadId: string; index: number };

export type ToolIndex = {
  calls: Map<string, TurnRef & { part: ToolCallPart }>;
  results: Map<string, TurnRef & { part: ToolResultPart; partIndex: number }>;
  /** Sub-agent threads by the id of the tool call that started them. */
  subagents: Map<string, { id: string; title: string | null }[]>;
  /**
   * Built from some of the thread's turns only (a long thread's page holds a window of them): a
   * call without a result may have one in a turn not read, and a result without a call its call.
   */
  partial: boolean;
};

/** The element id of a turn on the page (by turn id: the chain page numbers turns across threads). */
export function turnAnchor(turnId: string): string {
  return `turn-${turnId}`;
}

/**
 * Pairs calls and results by id (the first of each wins) and ties sub-agents to their call
 * (lib/domain/threads/subagents.ts, as the readable export does).
 */
export function buildToolIndex(
  turns: readonly { turn: Turn; number: number }[],
  children: readonly ChildThreadLink[] = [],
  { partial = false }: { partial?: boolean } = {},
): ToolIndex {
  const index: ToolIndex = { calls: new Map(), results: new Map(), subagents: new Map(), partial };
  for (const { turn, number } of turns) {
    const ref = { turnId: turn.id, number, threadId: turn.threadId, index: turn.index };
    (turn.parts ?? []).forEach((part, partIndex) => {
      if (part.type === "tool_call" && !index.calls.has(part.id)) index.calls.set(part.id, { ...ref, part });
      if (part.type === "tool_result" && !index.results.has(part.toolCallId))
        index.results.set(part.toolCallId, { ...ref, part, partIndex });
    });
  }
  const results = [...index.results.values()].map(({ part }) => part);
  for (const [callId, paired] of pairSubagents(index.calls, results, children)) {
    index.subagents.set(
      callId,
      paired.map(({ id, title }) => ({ id, title })),
    );
  }
  return index;
}
