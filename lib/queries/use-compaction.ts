"use client";

/**
 * The compaction workbench's queries and mutations, over the keys and fetchers in compactions.ts:
 * the thread's newest job (prefetched with the page), a job followed while it runs, the previews,
 * and starting, cancelling and applying.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Thread } from "@/lib/domain/types";
import {
  compactionKeys,
  fetchCompactionJob,
  fetchCompactionPreview,
  fetchLatestCompactionJob,
  requestCompactionApply,
  requestJobCancel,
  requestJobStart,
  type CompactionJobRecord,
  type CompactionRequestBody,
} from "./compactions";
import { threadKeys } from "./threads";

/**
 * The thread's newest job when it is worth restoring (running, or succeeded: a result that finished
 * while the page was closed is not lost); null otherwise, or when not `enabled` (a range preset opens
 * the workbench fresh). Read once: the page's server prefetched it (app/threads/[id]/compact/page.tsx).
 */
export function useRestorableJob(threadId: string, enabled: boolean): CompactionJobRecord | null {
  const latest = useQuery({
    queryKey: compactionKeys.latestJob(threadId),
    queryFn: ({ signal }) => fetchLatestCompactionJob(threadId, signal),
    enabled,
    staleTime: Infinity,
  }).data;
  return enabled && latest && (latest.status === "running" || latest.status === "succeeded") ? latest : null;
}

/** A job, read every second while it runs; the restorable one is known from the start. */
export function useCompactionJob(jobId: string | null, restorable: CompactionJobRecord | null) {
  return useQuery({
    queryKey: compactionKeys.job(jobId ?? "none"),
    queryFn: ({ signal }) => fetchCompactionJob(jobId!, signal),
    enabled: jobId !== null,
    initialData: restorable && jobId === restorable.id ? restorable : undefined,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
    retry: false,
  });
}

/** What `body` would do to the thread; the last answer stays on screen while the next is worked out. */
export function useCompactionPreview(threadId: string, body: CompactionRequestBody, enabled: boolean, staleTime?: number) {
  return useQuery({
    queryKey: compactionKeys.preview(threadId, body),
    queryFn: ({ signal }) => fetchCompactionPreview(threadId, body, signal),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
    // Left out rather than undefined: an undefined option would override the client's default.
    ...(staleTime === undefined ? {} : { staleTime }),
  });
}

/** Starts an LLM summary in the background; the started job is cached under its key at once. */
export function useStartCompactionJob(threadId: string, onStarted: (job: CompactionJobRecord) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompactionRequestBody) => requestJobStart(threadId, body),
    onSuccess: (started) => {
      queryClient.setQueryData(compactionKeys.job(started.id), started);
      onStarted(started);
    },
  });
}

export function useCancelCompactionJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestJobCancel,
    onSuccess: (cancelled) => queryClient.setQueryData(compactionKeys.job(cancelled.id), cancelled),
  });
}

/** Applies a compaction as a new revision: every thread query goes (the list and lineage changed). */
export function useApplyCompaction(threadId: string, onApplied: (revision: Thread) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompactionRequestBody & { jobId?: string }) => requestCompactionApply(threadId, body),
    onSuccess: ({ thread }) => {
      queryClient.removeQueries({ queryKey: threadKeys.all });
      onApplied(thread);
    },
  });
}
