import type { ContextPreviewWithTurns } from "@/lib/context/types";
import type { ThreadPage, Turn } from "@/lib/domain/types";
import { apiFetch } from "./api-client";

/** Client-safe: query keys and fetchers for the thread list. */
export type ThreadFilters = { q?: string; tool?: string; model?: string; source?: string; project?: string };

export const FILTER_KEYS = ["q", "tool", "model", "source", "project"] as const;

/** Every query about threads starts with threadKeys.all, so a purge or a fork can drop them at once. */
export const threadKeys = {
  all: ["threads"] as const,
  list: (filters: ThreadFilters) => [...threadKeys.all, "list", filters] as const,
  /** A turn loaded in full from its API address (a long turn's page carries only its start). */
  turn: (url: string) => [...threadKeys.all, "turn", url] as const,
  context: (threadId: string, selection: ContextSelection) => [...threadKeys.all, "context", threadId, selection] as const,
};

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

export function fetchContextPreview(threadId: string, selection: ContextSelection, signal: AbortSignal): Promise<ContextPreviewWithTurns> {
  // The page draws every turn, so it asks for them (perTurn=1); other callers leave them out.
  const params = new URLSearchParams({ mode: selection.mode, perTurn: "1" });
  if (selection.contextWindow) params.set("contextWindow", selection.contextWindow);
  else params.set("model", selection.model);
  if (selection.contextWindow && selection.model) params.set("model", selection.model);
  return apiFetch<ContextPreviewWithTurns>(`/api/threads/${threadId}/context?${params}`, { signal, fallback: "The preview failed" });
}
