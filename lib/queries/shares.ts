import type { CreatedShareLink, ShareLinkView } from "@/lib/domain/sharing/share-links";
import { apiFetch } from "./api-client";

/** Client-safe: share links through the REST API (POST /api/threads/:id/shares, GET /api/shares, DELETE /api/shares/:id). */
export const shareKeys = {
  all: ["shares"] as const,
  /** The links the viewer may see: every thread's (Settings), or one thread's (the Share dialog). */
  list: (threadId: string | null) => [...shareKeys.all, "list", threadId ?? "every thread"] as const,
};

export async function fetchShares(threadId: string | null, signal?: AbortSignal): Promise<ShareLinkView[]> {
  const query = threadId ? `?threadId=${encodeURIComponent(threadId)}` : "";
  return (await apiFetch<{ items: ShareLinkView[] }>(`/api/shares${query}`, { signal, fallback: "Loading the share links failed." })).items;
}

/** Makes a link; answers it with its URL in full, which the server never shows again. */
export function requestShare(input: { threadId: string; expiresInHours: number; subagents: boolean }): Promise<CreatedShareLink> {
  const { threadId, ...body } = input;
  return apiFetch<CreatedShareLink>(`/api/threads/${encodeURIComponent(threadId)}/shares`, { json: body });
}

export async function requestShareRevoke(id: string): Promise<void> {
  await apiFetch(`/api/shares/${encodeURIComponent(id)}`, { method: "DELETE" });
}
