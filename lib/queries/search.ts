import type { SearchPage } from "@/lib/domain/threads/snippet";
import { apiFetch } from "./api-client";

/** Client-safe: the search page's query (GET /api/search), a page of hits at a time. */
export const SEARCH_PAGE_SIZE = 20;

export const searchKeys = {
  all: ["search"] as const,
  hits: (q: string) => [...searchKeys.all, q] as const,
};

export function searchQuery(q: string) {
  return {
    queryKey: searchKeys.hits(q),
    queryFn: ({ pageParam, signal }: { pageParam: string | null; signal: AbortSignal }) => fetchSearchPage(q, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: SearchPage) => last.nextCursor,
  };
}

async function fetchSearchPage(q: string, cursor: string | null, signal?: AbortSignal): Promise<SearchPage> {
  const params = new URLSearchParams({ q, limit: String(SEARCH_PAGE_SIZE) });
  if (cursor) params.set("cursor", cursor);
  return apiFetch<SearchPage>(`/api/search?${params}`, { signal, fallback: "Searching failed" });
}

/** Where a hit opens: the thread at its turn, with the words kept for find in thread. */
export function hitHref(hit: { threadId: string; turnIndex: number }, q: string): string {
  return `/threads/${hit.threadId}?${new URLSearchParams({ q })}#turn-${hit.turnIndex}`;
}
