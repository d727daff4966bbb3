"use client";

import { useQueries } from "@tanstack/react-query";
import { compactionKeys, fetchTurnSummaries, type TurnSummary } from "./compactions";

/** Turns asked for at a time: a screenful of the list, and its neighbours. */
const SUMMARY_PAGE = 50;

/**
 * The workbench's turns, loaded as they are shown: the pages of SUMMARY_PAGE turns that hold
 * `indexes` (the rows in view, the range's turn), each once and kept a minute. A thread of 10,000
 * turns sends none of them with the page.
 */
export function useTurnSummaries(threadId: string, indexes: readonly number[]): (index: number) => TurnSummary | undefined {
  const pages = [...new Set(indexes.filter((i) => i >= 0).map((i) => Math.floor(i / SUMMARY_PAGE) * SUMMARY_PAGE))];
  const results = useQueries({
    queries: pages.map((from) => ({
      queryKey: compactionKeys.turns(threadId, from, SUMMARY_PAGE),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchTurnSummaries(threadId, from, SUMMARY_PAGE, signal),
      staleTime: 60_000,
    })),
  });
  const byIndex = new Map<number, TurnSummary>();
  for (const result of results) for (const turn of result.data ?? []) byIndex.set(turn.index, turn);
  return (index) => byIndex.get(index);
}
