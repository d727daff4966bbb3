import { apiFetch } from "./api-client";

/** Client-safe: Settings -> API tokens through the REST API (GET/POST /api/tokens, DELETE /api/tokens/:id). */
export type ApiToken = {
  id: string;
  name: string;
  prefix: string;
  userEmail: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
};

export const apiTokenKeys = {
  all: ["api-tokens"] as const,
  /** The signed-in person's tokens (an admin's list: everyone's). */
  list: () => [...apiTokenKeys.all, "list"] as const,
};

export async function fetchApiTokens(signal?: AbortSignal): Promise<ApiToken[]> {
  return (await apiFetch<{ tokens: ApiToken[] }>("/api/tokens", { signal, fallback: "Loading the API tokens failed." })).tokens;
}

/** Creates a token; answers it in full, which the server never shows again. `expiresAt`: ISO, or null for never. */
export async function requestApiToken(input: { name: string; expiresAt: string | null }): Promise<string> {
  return (await apiFetch<{ token: string }>("/api/tokens", { json: input })).token;
}

export async function requestTokenRevoke(tokenId: string): Promise<void> {
  await apiFetch(`/api/tokens/${encodeURIComponent(tokenId)}`, { method: "DELETE" });
}
