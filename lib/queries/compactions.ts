import type { CompactionPreview } from "@/lib/compaction/service";
import type { CompactionJobRecord, CompactionRecord } from "@/lib/domain/compaction/records";
import type { Thread } from "@/lib/domain/types";
import type { CompactionStrategy } from "@/lib/domain/compaction/types";
import type { SummarizerKind } from "@/lib/validation/compactions";

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

/** An API error, with the guard or summariser failure kind when there is one. */
export class CompactionApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly kind: string | null,
  ) {
    super(message);
  }
}

async function call<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, cache: "no-store", headers: init.body ? { "content-type": "application/json" } : undefined });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = body?.error ?? {};
    const details = error.details && !Array.isArray(error.details) ? error.details : null;
    throw new CompactionApiError(error.message ?? `Request failed (${response.status})`, response.status, error.code ?? "unknown", details?.kind ?? details?.guard ?? null);
  }
  return body as T;
}

export const compactionKeys = {
  preview: (threadId: string, body: CompactionRequestBody) => ["compactions", threadId, "preview", body] as const,
  job: (jobId: string) => ["compactions", "job", jobId] as const,
};

export function fetchCompactionPreview(threadId: string, body: CompactionRequestBody, signal?: AbortSignal): Promise<CompactionPreview> {
  return call<{ preview: CompactionPreview }>(`/api/threads/${threadId}/compactions`, { method: "POST", body: JSON.stringify({ ...body, apply: false }), signal }).then((r) => r.preview);
}

export function requestCompactionApply(threadId: string, body: CompactionRequestBody & { jobId?: string }): Promise<{ thread: Thread; compaction: CompactionRecord }> {
  return call(`/api/threads/${threadId}/compactions`, { method: "POST", body: JSON.stringify({ ...body, apply: true }) });
}

export function requestJobStart(threadId: string, body: CompactionRequestBody): Promise<CompactionJobRecord> {
  return call<{ job: CompactionJobRecord }>(`/api/threads/${threadId}/compaction-jobs`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.job);
}

export function fetchCompactionJob(jobId: string, signal?: AbortSignal): Promise<CompactionJobRecord> {
  return call<{ job: CompactionJobRecord }>(`/api/compaction-jobs/${jobId}`, { method: "GET", signal }).then((r) => r.job);
}

export function requestJobCancel(jobId: string): Promise<CompactionJobRecord> {
  return call<{ job: CompactionJobRecord }>(`/api/compaction-jobs/${jobId}`, { method: "DELETE" }).then((r) => r.job);
}
