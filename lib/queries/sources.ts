import type { SourcesStatus } from "@/lib/domain/sources/sources";
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

/**
 * How often a page asks for the status when the live event stream is not open: while a sync runs,
 * and otherwise (a sync the folder watch starts). While it is open, the stream carries the status
 * and the page asks only now and then during a sync, in case an event was missed.
 */
export const SOURCES_POLL_MS = { syncing: 1_000, idle: 5_000, streamedSyncing: 5_000 };
