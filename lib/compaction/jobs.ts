import "server-only";
import { AppError } from "@/lib/domain/errors";
import type { JsonObject } from "@/lib/domain/types";
import { createJob, findJob, finishJob, latestJob, markJobApplied, setJobProgress, touchJob } from "@/lib/db/threads/compactions";
import { type CompactionJobRecord } from "@/lib/domain/compaction/records";
import { purgeThread } from "@/lib/db/threads/threads";
import { parseOrThrow } from "@/lib/domain/parse";
import { compactionRequestSchema, type CompactionRequest } from "@/lib/validation/compactions";
import type { CompactionPreview } from "@/lib/domain/compaction/types";
import { applyCompaction, checkSummarizer, previewCompaction, publicPreview } from "./service";

/**
 * LLM summarisation as a background job: the page starts it, polls it, may cancel it, and finds
 * its result after being closed and reopened (jobs are rows; only the abort handles live here).
 * Several app processes may share the database, and a poll or a cancel may reach one that does
 * not run the job: the process running it touches the row every JOB_HEARTBEAT_MS (and stops when
 * it finds it cancelled), and only a running job untouched for JOB_STALE_MS counts as cut off.
 * The handles are kept on globalThis: the server renders pages and answers API routes from
 * separately bundled module copies, and each would otherwise see its own empty map (and take a
 * job the other runs for one cut off by a restart).
 */
const globalForJobs = globalThis as unknown as { threadlineCompactionJobs?: Map<string, AbortController> };
const running = (globalForJobs.threadlineCompactionJobs ??= new Map<string, AbortController>());

/** @internal exported for its tests */
export const JOB_HEARTBEAT_MS = 5_000;
/** @internal exported for its tests */
export const JOB_STALE_MS = 30_000;

/** Logged, not thrown: a job's bookkeeping failing must not become an unhandled rejection. */
const logFailure = (what: string) => (error: unknown) => console.error(`[threadline] compaction job: ${what} failed`, error);

/**
 * Starts a summary in the background, after checking at once what would make it fail anyway
 * (unknown thread, bad options, a plan that changes nothing, no usable model): those answer
 * 400/404/422 here instead of becoming failed jobs.
 */
export async function startCompactionJob(threadId: string, request: CompactionRequest): Promise<CompactionJobRecord> {
  await previewCompaction(threadId, { ...request, summarizer: "marker", model: undefined, summary: undefined });
  const model = await checkSummarizer(request);
  const job = await createJob(threadId, { ...request, model } as unknown as JsonObject, "Starting");
  const controller = new AbortController();
  running.set(job.id, controller);
  const heartbeat = setInterval(() => {
    touchJob(job.id)
      .then((stillRunning) => {
        if (!stillRunning) controller.abort(); // cancelled through another process
      })
      .catch(logFailure("heartbeat"));
  }, JOB_HEARTBEAT_MS);
  heartbeat.unref?.();
  void run(job.id, threadId, { ...request, model }, controller.signal)
    .catch(logFailure("recording the end"))
    .finally(() => {
      clearInterval(heartbeat);
      running.delete(job.id);
    });
  return job;
}

async function run(jobId: string, threadId: string, request: CompactionRequest, signal: AbortSignal): Promise<void> {
  try {
    const preview = await previewCompaction(threadId, request, {
      signal,
      onProgress: (text) => void setJobProgress(jobId, text).catch(logFailure("progress")),
    });
    await finishJob(jobId, { status: "succeeded", result: publicPreview(preview) as unknown as JsonObject, progress: "Done" });
  } catch (error) {
    if (signal.aborted) return; // cancel() already recorded it
    const failure =
      error instanceof AppError
        ? {
            kind: typeof error.details === "object" && error.details && "kind" in error.details ? String(error.details.kind) : error.code,
            message: error.message,
          }
        : { kind: "internal", message: "The summariser failed unexpectedly; see the server log." };
    if (!(error instanceof AppError)) console.error("[threadline] compaction job failed", error);
    await finishJob(jobId, { status: "failed", error: failure, progress: "Failed" });
  }
}

/**
 * A job as stored. One still "running" that no process has touched for JOB_STALE_MS was cut off
 * (its server restarted or died), and is marked so.
 */
export async function getCompactionJob(jobId: string): Promise<CompactionJobRecord> {
  const job = await findJob(jobId);
  if (!job) throw new AppError("not_found", `Compaction job ${jobId} not found`);
  if (job.status === "running" && !running.has(job.id) && Date.now() - Date.parse(job.updatedAt) > JOB_STALE_MS) {
    await finishJob(job.id, {
      status: "failed",
      error: { kind: "interrupted", message: "The server restarted while this summary was being written; start it again." },
    });
    return (await findJob(jobId))!;
  }
  return job;
}

export async function cancelCompactionJob(jobId: string): Promise<CompactionJobRecord> {
  const job = await getCompactionJob(jobId);
  if (job.status !== "running") return job;
  await finishJob(jobId, { status: "cancelled", progress: "Cancelled" });
  running.get(jobId)?.abort();
  return (await findJob(jobId))!;
}

/** The thread's newest job, unless it was applied already (the page then starts afresh). */
export async function latestCompactionJob(threadId: string): Promise<CompactionJobRecord | null> {
  const job = await latestJob(threadId);
  return job && job.revisionThreadId === null ? getCompactionJob(job.id) : null;
}

/**
 * Applies what a finished LLM job previewed, with the summary as the user left it: the summariser
 * is not asked again (its answer would differ, and it costs). Refused when the job was applied
 * already, or when the thread changed since (the summary would stand for turns it never saw).
 */
export async function applyCompactionJob(threadId: string, jobId: string, summary: string | undefined) {
  const job = await getCompactionJob(jobId);
  if (job.threadId !== threadId)
    throw new AppError("validation_failed", "jobId: that job belongs to another thread", [
      { field: "jobId", message: "belongs to another thread" },
    ]);
  if (job.revisionThreadId)
    throw new AppError("conflict", `Compaction job ${jobId} was applied already, as thread ${job.revisionThreadId}`);
  if (job.status !== "succeeded" || !job.result) {
    throw new AppError("conflict", `Compaction job ${jobId} is ${job.status}; only a finished summary can be applied`);
  }
  const generated = job.result as unknown as CompactionPreview;
  const request = parseOrThrow(compactionRequestSchema, {
    ...job.request,
    apply: true,
    summary: summary ?? generated.summary ?? undefined,
    jobId: undefined,
  });
  const applied = await applyCompaction(threadId, request, {
    summary: generated.summary,
    durationMs: generated.durationMs,
    expected: { turnsBefore: generated.turnsBefore, replaced: generated.plan.replaced },
  });
  if (!(await markJobApplied(jobId, applied.thread.id))) {
    // Applied twice at once: the other request won; this revision goes again.
    await purgeThread(applied.thread.id);
    throw new AppError("conflict", `Compaction job ${jobId} was applied already`);
  }
  return applied;
}
