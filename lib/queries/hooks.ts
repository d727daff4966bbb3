"use client";

/**
 * One hook per query or mutation the browser runs, over the keys and fetchers in threads.ts and
 * compactions.ts. Mutations are the server actions (lib/actions), run through useMutation so
 * their pending state and errors are React Query's, and each drops exactly the queries it makes
 * stale: purging, forking or undoing a compaction changes the thread list and lineage, so every
 * query under threadKeys.all goes (the list refetches its first page from the server).
 */
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  useSuspenseQuery,
  type UseQueryResult,
} from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { threadGrew } from "@/lib/domain/threads/live";
import { createThrottle } from "@/lib/domain/event-bus";
import { undoCompactionAction } from "@/lib/actions/compactions";
import { forkThreadAction } from "@/lib/actions/forks";
import type { ActionResult } from "@/lib/actions/result";
import { purgeThreadAction } from "@/lib/actions/threads";
import type { Turn } from "@/lib/domain/types";
import { decodeOutline } from "@/lib/domain/threads/turn-outline";
import { fetchHandoff, type HandoffOptions } from "./handoff";
import { browserTimers, useLiveEvents, useOnLiveOpen } from "./live-events";
import { searchQuery } from "./search";
import { fetchSourcesStatus, requestSourcesSync, sourceKeys, SOURCES_POLL_MS } from "./sources";
import {
  fetchContextPreview,
  fetchFind,
  fetchOutline,
  fetchThreadLiveState,
  fetchThreadPage,
  fetchTurn,
  fetchTurnBlock,
  requestDemoRemoval,
  threadKeys,
  threadListQuery,
  TURN_BLOCK,
  type ContextSelection,
  type ThreadFilters,
} from "./threads";

export function useThreadList(filters: ThreadFilters) {
  return useInfiniteQuery(threadListQuery(filters));
}

/** The search page's hits for `q`, a page at a time (the first comes with the page: app/search/page.tsx). */
export function useSearchHits(q: string) {
  return useInfiniteQuery(searchQuery(q));
}

/**
 * How often the thread list reads its first page again (while the tab is visible): at `polled`
 * without the live event stream; with it, on each thread event (at most every `event`) and at
 * `streamed` for writes of another instance.
 */
const LIST_POLL_MS = { polled: 3_000, streamed: 15_000, event: 1_000 };

/**
 * The list's first page as it is now: the threads written to since the list was read (an agent's
 * session, a new import) come first in it.
 */
export function useThreadListHead(filters: ThreadFilters) {
  const queryClient = useQueryClient();
  const [throttle] = useState(() =>
    createThrottle(() => void queryClient.invalidateQueries({ queryKey: threadKeys.listHeads() }), LIST_POLL_MS.event, browserTimers),
  );
  useEffect(() => () => throttle.cancel(), [throttle]);
  const connected = useLiveEvents((event) => event.type === "thread" && throttle.request());
  useOnLiveOpen(connected, () => throttle.request());
  return useQuery({
    queryKey: threadKeys.listHead(filters),
    queryFn: ({ signal }) => fetchThreadPage(filters, null, signal),
    refetchInterval: connected ? LIST_POLL_MS.streamed : LIST_POLL_MS.polled,
    retry: false,
  }).data?.items;
}

/**
 * A turn in full, fetched only once `load` is called (the page carries a long turn's start only),
 * then kept for the session: collapsing and expanding again does not refetch.
 */
export function useTurn(url: string | undefined) {
  const [wanted, setWanted] = useState(false);
  const query = useQuery({
    queryKey: threadKeys.turn(url ?? ""),
    queryFn: ({ signal }) => fetchTurn(url!, signal),
    enabled: wanted && url !== undefined,
    staleTime: Infinity,
    retry: false,
  });
  const load = () => {
    if (!wanted) setWanted(true);
    else if (query.isError) void query.refetch();
  };
  return { turn: (query.data ?? null) as Turn | null, loading: query.isFetching, error: query.error?.message ?? null, load };
}

/** What useTurnBlocks answers: each asked block's turns (undefined until loaded) and the first error. */
export type TurnBlocks = { turns: (Turn[] | undefined)[]; error: string | null };

function combineBlocks(results: UseQueryResult<Turn[]>[]): TurnBlocks {
  return { turns: results.map((r) => r.data), error: results.find((r) => r.error)?.error?.message ?? null };
}

/**
 * Blocks of a thread's turns (threadKeys.turnBlock), in the order asked: the thread page asks for
 * those on screen and their neighbours. A block is read once; the page drops the last ones when
 * the thread grows.
 */
export function useTurnBlocks(threadId: string, blocks: readonly number[]): TurnBlocks {
  return useQueries({
    queries: blocks.map((block) => ({
      queryKey: threadKeys.turnBlock(threadId, block),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchTurnBlock(threadId, block, signal),
      staleTime: Infinity,
    })),
    combine: combineBlocks,
  });
}

/**
 * How often an open thread page asks whether the thread grew (only while the page is visible).
 * With the live event stream open, a write in this process is announced at once, and the page
 * asks every `streamed` for another instance's. Without it, twice a second while the thread is
 * active (written to in the last ACTIVE_MS), else once: a session followed from its file can
 * wake at any time.
 */
const LIVE_POLL_MS = { active: 500, quiet: 1_000, streamed: 5_000 };
const ACTIVE_MS = 10 * 60_000;

/**
 * Whether the thread now holds more than `turnCount` turns: an agent or an import wrote to it
 * since the page was rendered (`lastUpdatedAt` then). Told by the live event stream, or found by
 * the poll (GET /api/threads/:id/live); a failed check is tried again at the next.
 */
export function useThreadGrowth(threadId: string, turnCount: number, lastUpdatedAt: string): boolean {
  // The count an event announced: kept apart from the poll's answer, which an older check in flight could overwrite.
  const [announced, setAnnounced] = useState(0);
  const connected = useLiveEvents((event) => {
    if (threadGrew(event, threadId, turnCount) && event.type === "thread") setAnnounced(event.thread.turnCount);
  });
  const query = useQuery({
    queryKey: threadKeys.growth(threadId, turnCount),
    queryFn: async ({ signal }) => (await fetchThreadLiveState(threadId, signal)).turnCount > turnCount,
    refetchInterval: (q) =>
      q.state.data
        ? false
        : connected
          ? LIVE_POLL_MS.streamed
          : Date.now() - Date.parse(lastUpdatedAt) < ACTIVE_MS
            ? LIVE_POLL_MS.active
            : LIVE_POLL_MS.quiet,
    retry: false,
  });
  // Writes made while the stream was closed were not announced: ask once it opens.
  useOnLiveOpen(connected, () => void query.refetch());
  return query.data === true || announced > turnCount;
}

/**
 * Once the thread holds more turns than `turnCount` was (a reply was stored, the page refreshed):
 * its last blocks from the old end on, its outline and its finds are read again.
 */
export function useReadGrownThreadAgain(threadId: string, turnCount: number) {
  const queryClient = useQueryClient();
  const counted = useRef(turnCount);
  useEffect(() => {
    const before = counted.current;
    if (before === turnCount) return;
    counted.current = turnCount;
    const from = Math.floor(Math.max(0, Math.min(before, turnCount) - 1) / TURN_BLOCK);
    const prefix = threadKeys.reader(threadId);
    void queryClient.invalidateQueries({
      queryKey: prefix,
      predicate: ({ queryKey }) => queryKey[prefix.length] !== "block" || Number(queryKey[prefix.length + 1]) >= from,
    });
  }, [queryClient, threadId, turnCount]);
}

/** The thread's outline (which turns are tool calls, errors, ...), read once it is first needed. */
export function useThreadOutline(threadId: string, enabled: boolean) {
  return useQuery({
    queryKey: threadKeys.outline(threadId),
    queryFn: async ({ signal }) => decodeOutline(await fetchOutline(threadId, signal)),
    enabled,
    staleTime: Infinity,
  });
}

/** The turns of the thread matching `q` (null: no search yet). */
export function useFindInThread(threadId: string, q: string | null) {
  return useQuery({
    queryKey: threadKeys.find(threadId, q ?? ""),
    queryFn: ({ signal }) => fetchFind(threadId, q!, signal),
    enabled: q !== null,
    staleTime: Infinity,
    retry: false,
  });
}

export function useContextPreview(threadId: string, selection: ContextSelection, enabled: boolean) {
  return useQuery({
    queryKey: threadKeys.context(threadId, selection),
    queryFn: ({ signal }) => fetchContextPreview(threadId, selection, signal),
    placeholderData: keepPreviousData,
    enabled,
    retry: false,
  });
}

/**
 * The orchestrator handoff of a thread (or its chain), read while `enabled` (the preview open, the
 * budget page shown). Always refetched when it comes back into use: turns may have been added.
 */
export function useHandoff(threadId: string, options: HandoffOptions, enabled: boolean) {
  return useQuery({
    queryKey: threadKeys.handoff(threadId, options),
    queryFn: ({ signal }) => fetchHandoff(threadId, options, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
    retry: false,
  });
}

/** A server action as a mutation that drops every thread query once it succeeded. */
function useThreadAction<I, T>(action: (input: I) => Promise<ActionResult<T>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: I) => {
      const result = await action(input);
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: () => queryClient.removeQueries({ queryKey: threadKeys.all }),
  });
}

export const usePurgeThread = () => useThreadAction(purgeThreadAction);

/** Removing the demo threads: the thread queries read again (not awaited: the page says "Removed" at once). */
export function useRemoveDemoThreads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestDemoRemoval,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: threadKeys.all }),
  });
}
export const useForkThread = () => useThreadAction(forkThreadAction);
export const useUndoCompaction = () => useThreadAction(undoCompactionAction);

/**
 * The followed sources' status (the server page prefetched it: app/sources/page.tsx): the live
 * event stream carries each change (a sync started by the folder watch too), and sends the status
 * first when it opens. Without the stream, the status is asked every second while a sync runs,
 * and every few seconds otherwise (SOURCES_POLL_MS).
 */
export function useSourcesStatus() {
  const queryClient = useQueryClient();
  const connected = useLiveEvents((event) => {
    if (event.type === "sources") queryClient.setQueryData(sourceKeys.status(), event.status);
  });
  // A suspense query: the prefetched status is there from the first render, so its data is never undefined.
  const query = useSuspenseQuery({
    queryKey: sourceKeys.status(),
    queryFn: ({ signal }) => fetchSourcesStatus(signal),
    refetchInterval: (q) =>
      connected
        ? q.state.data?.syncing
          ? SOURCES_POLL_MS.streamedSyncing
          : false
        : q.state.data?.syncing
          ? SOURCES_POLL_MS.syncing
          : SOURCES_POLL_MS.idle,
  });
  return { ...query, connected };
}

/**
 * "Sync now". Without the stream, its answer (syncing) replaces the status, which starts the
 * polling above; with it, the stream's own event of the sync's start is the newer word (the
 * answer could arrive after the sync's end).
 */
export function useSyncSources(connected: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestSourcesSync,
    onSuccess: (status) => {
      if (!connected) queryClient.setQueryData(sourceKeys.status(), status);
    },
  });
}
