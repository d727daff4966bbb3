import type { ThreadPage } from "@/lib/domain/types";
import { apiFetch } from "./api-client";

/** Client-safe: query keys and fetchers for the thread list. */
export type ThreadFilters = { q?: string; tool?: string; model?: string; source?: string; project?: string };

export const FILTER_KEYS = ["q", "tool", "model", "source", "project"] as const;

export const threadKeys = {
  all: ["threads"] as const,
  list: (filters: ThreadFilters) => [...threadKeys.all, "list", filters] as const,
};

export const PAGE_SIZE = 25;

export async function fetchThreadPage(filters: ThreadFilters, cursor: string | null, signal?: AbortSignal): Promise<ThreadPage> {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (cursor) params.set("cursor", cursor);
  return apiFetch<ThreadPage>(`/api/threads?${params}`, { signal, fallback: "Loading threads failed" });
}
