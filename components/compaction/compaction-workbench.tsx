"use client";

import { useWorkbench } from "./use-workbench";
import { WorkbenchOptions } from "./workbench-options";
import { WorkbenchPreview } from "./workbench-preview";
import { ErrorBox, JobStatus } from "./workbench-parts";

export type WorkbenchProps = {
  threadId: string;
  /** The thread's turns are loaded as the workbench shows them (a long session has tens of thousands). */
  turnCount: number;
  models: string[];
  initialTargetModel: string;
  /** The configured compaction model ("<provider>:<model>"), if any. */
  defaultLlmModel: string | null;
  /** Providers with what they need configured (no secrets). */
  configuredProviders: string[];
  /**
   * A range preset from a turn's "Summarise up to here / from here". Without one, the thread's
   * newest LLM job (prefetched by the page) is restored, so a result that finished while the page
   * was closed is not lost.
   */
  initialRange: { direction: "up-to" | "from"; at: number } | null;
};

/**
 * The compaction workbench: choose a strategy and summariser, see exactly what would be replaced
 * and by what, edit the summary, and apply it as a new revision (the original stays as it is).
 */
export function CompactionWorkbench(props: WorkbenchProps) {
  const workbench = useWorkbench(props);
  const { llm, preview, previewError, incomplete } = workbench;
  return (
    <div className="space-y-6">
      <WorkbenchOptions props={props} workbench={workbench} />

      {llm && (
        <JobStatus
          job={workbench.job}
          startError={workbench.start.error}
          onUse={(summarizer) => workbench.update({ summarizer })}
          onRetry={workbench.start.run}
        />
      )}

      {previewError && <ErrorBox error={previewError} />}
      {incomplete && <p className="text-sm text-zinc-500">Enter a token threshold to see the plan.</p>}
      {!preview && !previewError && !incomplete && (
        <p className="text-sm text-zinc-500" aria-live="polite">
          Working out the preview…
        </p>
      )}

      {preview && <WorkbenchPreview threadId={props.threadId} turnCount={props.turnCount} preview={preview} workbench={workbench} />}
    </div>
  );
}
