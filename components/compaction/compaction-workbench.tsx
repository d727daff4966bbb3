"use client";

import { useWorkbench, type WorkbenchProps } from "./use-workbench";
import { WorkbenchOptions } from "./workbench-options";
import { WorkbenchPreview } from "./workbench-preview";
import { ErrorBox, JobStatus } from "./workbench-parts";

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
