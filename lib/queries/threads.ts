import type { ContextPreviewWithTurns } from "@/lib/domain/history/context-preview";
import type { ThreadLiveState } from "@/lib/domain/threads/live";
import type { ThreadPage, Turn } from "@/lib/domain/types";
import type { ThreadOutline } from "@/lib/domain/threads/turn-outline";
import { apiFetch } from "./api-client";

/** Client-safe: query keys and fetchers for the thread list. */
export type ThreadFilters = { q?: string; tool?: string; model?: string; source?: string; project?: string };

export const FILTER_KEYS = ["q", "tool", "model", "source", "project"] as const;

/** Every query about threads starts with threadKeys.all, so a purge or a fork can drop them at once. */
export const threadKeys = {
  all: ["threads"] as const,
  list: (filters: ThreadFilters) => [...threadKeys.all, "list", filters] as const,
  /** The list's first page read again and again, to show what is new or updated since the list was read. */
  listHeads: () => [...threadKeys.all, "list-head"] as const,
  listHead: (filters: ThreadFilters) => [...threadKeys.listHeads(), filters] as const,
  /** A turn loaded in full from its API address (a long turn's page carries only its start). */
  turn: (url: string) => [...threadKeys.all, "turn", url] as const,
  context: (threadId: string, selection: ContextSelection) => [...threadKeys.all, "context", threadId, selection] as const,
  /** The orchestrator handoff (handoff.ts): under `all`, so a purge or a fork drops it with the rest. */
  handoff: (threadId: string, options: { chain: boolean; model?: string }) => [...threadKeys.all, "handoff", threadId, options] as const,
  /** What the thread page has read of one thread: its blocks of turns, its outline, its finds. */
  reader: (threadId: string) => [...threadKeys.all, "reader", threadId] as const,
  /** Block `block` of a thread's turns: indexes block × TURN_BLOCK up to the next block. */
  turnBlock: (threadId: string, block: number) => [...threadKeys.reader(threadId), "block", block] as const,
  outline: (threadId: string) => [...threadKeys.reader(threadId), "outline"] as const,
  find: (threadId: string, q: string) => [...threadKeys.reader(threadId), "find", q] as const,
  /** Whether the thread holds turns past the first `turnCount` (an agent writing to it). */
  growth: (threadId: string, turnCount: number) => [...threadKeys.reader(threadId), "growth", turnCount] as const,
};

/** The thread page reads a long thread's turns in blocks of this many, as it scrolls or jumps. */
export const TURN_BLOCK = 50;

/** What the budget page previews: a model, or a context window, and PAL's or the model's own counting. */
export type ContextSelection = { model: string; contextWindow: string; mode: "exact" | "pal" };

export const PAGE_SIZE = 25;

/** The thread list's query, the same on the server (prefetched into the page) and in the browser. */
export function threadListQuery(filters: ThreadFilters) {
  return {
    queryKey: threadKeys.list(filters),
    queryFn: ({ pageParam, signal }: { pageParam: string | null; signal: AbortSignal }) => fetchThreadPage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ThreadPage) => last.nextCursor,
  };
}

export async function fetchThreadPage(filters: ThreadFilters, cursor: string | null, signal?: AbortSignal): Promise<ThreadPage> {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (cursor) params.set("cursor", cursor);
  return apiFetch<ThreadPage>(`/api/threads?${params}`, { signal, fallback: "Loading threads failed" });
}

export async function fetchTurn(url: string, signal?: AbortSignal): Promise<Turn> {
  const body = await apiFetch<{ turn?: Turn }>(url, { signal, fallback: "Loading the turn failed" });
  if (!body.turn) throw new Error("Loading the turn failed: the answer holds no turn");
  return body.turn;
}

/** The query GET /api/threads/:id/context reads for the budget page's selection. */
function contextPreviewParams(selection: ContextSelection): URLSearchParams {
  // The page draws every turn, so it asks for them (perTurn=1); other callers leave them out.
  const params = new URLSearchParams({ mode: selection.mode, perTurn: "1" });
  if (selection.contextWindow) params.set("contextWindow", selection.contextWindow);
  else params.set("model", selection.model);
  if (selection.contextWindow && selection.model) params.set("model", selection.model);
  return params;
}

export function fetchContextPreview(threadId: string, selection: ContextSelection, signal: AbortSignal): Promise<ContextPreviewWithTurns> {
  const params = contextPreviewParams(selection);
  return apiFetch<ContextPreviewWithTurns>(`/api/threads/${threadId}/context?${params}`, { signal, fallback: "The preview failed" });
}

/** One block of a thread's turns (threadKeys.turnBlock), expired threads included: the page shows them. */
export async function fetchTurnBlock(threadId: string, block: number, signal?: AbortSignal): Promise<Turn[]> {
  const params = new URLSearchParams({ from: String(block * TURN_BLOCK), limit: String(TURN_BLOCK), includeExpired: "1" });
  const page = await apiFetch<{ items: Turn[] }>(`/api/threads/${threadId}/turns?${params}`, { signal, fallback: "Loading turns failed" });
  return page.items;
}

/** The thread's turnCount and lastUpdatedAt as they are now (GET /api/threads/:id/live: one cheap read). */
export function fetchThreadLiveState(threadId: string, signal?: AbortSignal): Promise<ThreadLiveState> {
  return apiFetch<ThreadLiveState>(`/api/threads/${threadId}/live`, { signal, fallback: "Checking for new turns failed" });
}

export function fetchOutline(threadId: string, signal?: AbortSignal): Promise<ThreadOutline> {
  return apiFetch<ThreadOutline>(`/api/threads/${threadId}/outline?includeExpired=1`, {
    signal,
    fallback: "Loading the thread's outline failed",
  });
}

export type FindResult = { terms: string[]; indexes: number[]; capped: boolean };

export function fetchFind(threadId: string, q: string, signal?: AbortSignal): Promise<FindResult> {
  const params = new URLSearchParams({ q, includeExpired: "1" });
  return apiFetch<FindResult>(`/api/threads/${threadId}/find?${params}`, { signal, fallback: "Finding failed" });
}

/** Removes the demo threads `npm start` seeded (DELETE /api/demo-threads): how many went. */
export async function requestDemoRemoval(): Promise<number> {
  return (
    await apiFetch<{ removed: number }>("/api/demo-threads", { method: "DELETE", fallback: "The demo threads could not be removed." })
  ).removed;
}

/** Where a link to a turn by id points: its 0-based index. */
export async function fetchTurnIndex(threadId: string, turnId: string, signal?: AbortSignal): Promise<number> {
  const turn = await fetchTurn(`/api/threads/${threadId}/turns/${turnId}?includeExpired=1`, signal);
  return turn.index;
}
