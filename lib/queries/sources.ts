import type { SourcesStatus } from "@/lib/domain/sources";
import { apiFetch } from "./api-client";

/** Client-safe: the followed sources' API (GET /api/sources, POST /api/sources/sync). */
export const sourceKeys = {
  all: ["sources"] as const,
  status: () => [...sourceKeys.all, "status"] as const,
};

export function fetchSourcesStatus(signal?: AbortSignal): Promise<SourcesStatus> {
  return apiFetch<SourcesStatus>("/api/sources", { signal });
}

/** Starts a full sync; answers the status with `syncing` set. */
export function requestSourcesSync(): Promise<SourcesStatus> {
  return apiFetch<SourcesStatus>("/api/sources/sync", { json: {} });
}

/** How often the page asks for the status while a sync runs. */
export const SYNC_POLL_MS = 1000;
