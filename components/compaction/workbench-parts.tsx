import type { CompactionJobRecord } from "@/lib/queries/compactions";
import type { Summarizer, WorkbenchTurn } from "./workbench-form";

export function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded border border-zinc-200 bg-white p-3">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** "#12 assistant · tool": a turn's number, then (once its summary is loaded) its role and tool. */
export function TurnLabel({ index, turn }: { index: number; turn: WorkbenchTurn | undefined }) {
  return (
    <span className="font-medium">
      #{index + 1} {turn?.role}
      {turn?.toolName ? <span className="font-mono text-xs text-zinc-500"> · {turn.toolName}</span> : null}
    </span>
  );
}

export function ErrorBox({ error }: { error: Error }) {
  return (
    <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      {error.message}
    </p>
  );
}

export function JobStatus({
  job,
  startError,
  onUse,
  onRetry,
}: {
  job: CompactionJobRecord | null;
  startError: Error | null;
  onUse: (s: Summarizer) => void;
  onRetry: () => void;
}) {
  if (startError) return <ErrorBox error={startError} />;
  if (!job)
    return (
      <p className="text-sm text-zinc-500">The LLM writes the summary in the background; you can leave this page and come back to it.</p>
    );
  if (job.status === "running") {
    return (
      <p role="status" className="text-sm text-zinc-700" data-testid="job-status">
        <span className="mr-2 inline-block h-2 w-2 animate-pulse rounded-full bg-indigo-500" aria-hidden />
        {job.progress ?? "Working"}…
      </p>
    );
  }
  if (job.status === "failed" || job.status === "cancelled") {
    const message =
      job.status === "cancelled" ? "The summary was cancelled." : `The summariser failed: ${job.error?.message ?? "unknown error"}`;
    return (
      <div role="alert" className="space-y-2 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="job-status">
        <p>{message}</p>
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={onRetry} className="rounded border border-red-300 bg-white px-2 py-1 hover:bg-red-100">
            Retry
          </button>
          <button
            type="button"
            onClick={() => onUse("extractive")}
            className="rounded border border-red-300 bg-white px-2 py-1 hover:bg-red-100"
          >
            Use the extractive summariser
          </button>
          <button
            type="button"
            onClick={() => onUse("marker")}
            className="rounded border border-red-300 bg-white px-2 py-1 hover:bg-red-100"
          >
            Accept the static marker
          </button>
        </div>
      </div>
    );
  }
  return (
    <p role="status" className="text-sm text-emerald-800" data-testid="job-status">
      Summary ready ({new Date(job.updatedAt).toLocaleTimeString()}).
    </p>
  );
}
