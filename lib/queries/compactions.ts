import type { CompactionPreview, SummarizerKind } from "@/lib/domain/compaction/types";
import type { CompactionJobRecord, CompactionRecord } from "@/lib/domain/compaction/records";
import type { Thread, Turn } from "@/lib/domain/types";
import type { CompactionStrategy } from "@/lib/domain/compaction/types";
import { turnPreviewText } from "@/lib/domain/tools/turn-preview";
import { contentPreview } from "@/lib/format";
import { apiFetch } from "./api-client";

/** Client-safe: the compaction API as the workbench calls it. */
/** The body of a preview or job request, as lib/validation/compactions.ts checks it. */
export type CompactionRequestBody = {
  strategy: CompactionStrategy;
  summarizer: SummarizerKind;
  model?: string;
  targetModel?: string;
  instructions?: string;
  options: Record<string, unknown>;
  summary?: string;
};

export type { CompactionPreview, CompactionJobRecord, CompactionRecord };

export const compactionKeys = {
  all: ["compactions"] as const,
  preview: (threadId: string, body: CompactionRequestBody) => [...compactionKeys.all, threadId, "preview", body] as const,
  job: (jobId: string) => [...compactionKeys.all, "job", jobId] as const,
  /** The thread's newest job, finished or not (null: none), as the workbench opened on it. */
  latestJob: (threadId: string) => [...compactionKeys.all, threadId, "latest-job"] as const,
  turns: (threadId: string, from: number, limit: number) => [...compactionKeys.all, threadId, "turns", from, limit] as const,
};

/** A turn as the workbench lists it: where it is, who spoke, and the start of what was said. */
export type TurnSummary = { index: number; role: string; toolName: string | null; excerpt: string; chars: number };

/** Characters of a turn the workbench shows (two lines of the list). */
const EXCERPT_CHARS = 240;

/**
 * Turns `from`..`from + limit - 1` of a thread, summarised (the paged turn API; the full texts are
 * not kept). The excerpt is the turn as the thread page reads it: no JSON, tags or escape codes.
 */
export async function fetchTurnSummaries(threadId: string, from: number, limit: number, signal?: AbortSignal): Promise<TurnSummary[]> {
  const page = await apiFetch<{ items: Turn[] }>(`/api/threads/${threadId}/turns?from=${from}&limit=${limit}`, { signal });
  return page.items.map((t) => ({
    index: t.index,
    role: t.role,
    toolName: t.toolName,
    excerpt: contentPreview(turnPreviewText(t), EXCERPT_CHARS),
    chars: t.content.length,
  }));
}

export function fetchCompactionPreview(threadId: string, body: CompactionRequestBody, signal?: AbortSignal): Promise<CompactionPreview> {
  return apiFetch<{ preview: CompactionPreview }>(`/api/threads/${threadId}/compactions`, { json: { ...body, apply: false }, signal }).then(
    (r) => r.preview,
  );
}

export function requestCompactionApply(
  threadId: string,
  body: CompactionRequestBody & { jobId?: string },
): Promise<{ thread: Thread; compaction: CompactionRecord }> {
  return apiFetch(`/api/threads/${threadId}/compactions`, { json: { ...body, apply: true } });
}

export function requestJobStart(threadId: string, body: CompactionRequestBody): Promise<CompactionJobRecord> {
  return apiFetch<{ job: CompactionJobRecord }>(`/api/threads/${threadId}/compaction-jobs`, { json: body }).then((r) => r.job);
}

export function fetchCompactionJob(jobId: string, signal?: AbortSignal): Promise<CompactionJobRecord> {
  return apiFetch<{ job: CompactionJobRecord }>(`/api/compaction-jobs/${jobId}`, { signal }).then((r) => r.job);
}

export function fetchLatestCompactionJob(threadId: string, signal?: AbortSignal): Promise<CompactionJobRecord | null> {
  return apiFetch<{ job: CompactionJobRecord | null }>(`/api/threads/${threadId}/compaction-jobs`, { signal }).then((r) => r.job);
}

export function requestJobCancel(jobId: string): Promise<CompactionJobRecord> {
  return apiFetch<{ job: CompactionJobRecord }>(`/api/compaction-jobs/${jobId}`, { method: "DELETE" }).then((r) => r.job);
}
