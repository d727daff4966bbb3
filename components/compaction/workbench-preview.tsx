"use client";

import { useId } from "react";
import { formatInteger, plural } from "@/lib/format";
import type { CompactionPreview } from "@/lib/queries/compactions";
import { ReplacedTurns } from "./replaced-turns";
import type { Workbench } from "./use-workbench";
import { describeKept } from "./workbench-form";
import { ErrorBox, Figure } from "./workbench-parts";

/** The preview: the figures, what stands in the way, the turns replaced beside the summary, and Apply. */
export function WorkbenchPreview({
  threadId,
  turnCount,
  preview,
  workbench,
}: {
  threadId: string;
  turnCount: number;
  preview: CompactionPreview;
  workbench: Workbench;
}) {
  const ids = useId();
  const { apply } = workbench;
  const replaced = new Set(preview.plan.replaced);
  const canApply =
    !workbench.awaitingLlm &&
    workbench.showsCurrent &&
    preview.refusal === null &&
    !apply.pending &&
    (preview.summary === null || workbench.summaryText.trim() !== "");
  return (
    <section aria-labelledby={`${ids}-preview`} className="space-y-4">
      <h2 id={`${ids}-preview`} className="text-lg font-semibold">
        Preview
      </h2>
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="compaction-figures">
        <Figure label="Tokens before" value={formatInteger(preview.tokensBefore)} testId="tokens-before" />
        <Figure label="Tokens after" value={formatInteger(preview.tokensAfter)} testId="tokens-after" />
        <Figure
          label="Saved"
          value={preview.tokensBefore > 0 ? `${Math.round((1 - preview.tokensAfter / preview.tokensBefore) * 100)}%` : "-"}
        />
        <Figure label="Turns" value={`${preview.turnsBefore} → ${preview.turnsAfter}`} />
      </dl>
      <p className="text-xs text-zinc-500">
        Measured with {preview.tokenizer.label}
        {preview.tokenizer.exact ? "" : " (an estimate)"} over this thread&apos;s turns.{" "}
        {workbench.remeasuring ? <span aria-live="polite">Re-measuring the edited summary…</span> : null}
      </p>
      <PreviewNotices preview={preview} />

      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-label="Turns replaced" className="rounded-lg border border-zinc-200 bg-white">
          <h3 className="border-b border-zinc-200 px-3 py-2 text-sm font-semibold">
            {preview.plan.replaced.length > 0
              ? `Replaced: ${plural(preview.plan.replaced.length, "turn")}`
              : `Trimmed: ${plural(preview.plan.trimmed.length, "tool output")}`}
          </h3>
          <ReplacedTurns threadId={threadId} plan={preview.plan} />
        </section>
        <SummaryPanel preview={preview} workbench={workbench} />
      </div>
      <p className="text-sm text-zinc-600" data-testid="kept-verbatim">
        Kept verbatim: {describeKept(preview, turnCount, replaced)}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={apply.run}
          disabled={!canApply}
          className="rounded bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-50"
        >
          {apply.pending ? "Applying…" : "Apply as a new revision"}
        </button>
        <span className="text-xs text-zinc-500">The original thread is kept exactly as it is; undo deletes the revision.</span>
        {apply.error && <ErrorBox error={apply.error} />}
      </div>
    </section>
  );
}

/** Why it cannot be applied, references the summary loses, and how the plan was adjusted. */
function PreviewNotices({ preview }: { preview: CompactionPreview }) {
  const lost = [...preview.lostReferences.paths, ...preview.lostReferences.tools];
  return (
    <>
      {preview.refusal && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="refusal">
          {preview.refusal}
        </p>
      )}
      {lost.length > 0 && (
        <div role="status" className="rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="lost-references">
          <p className="font-medium">The summary does not mention {plural(lost.length, "reference")} the replaced turns make:</p>
          <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 font-mono text-xs">
            {lost.map((ref) => (
              <li key={ref}>{ref}</li>
            ))}
          </ul>
        </div>
      )}
      {preview.plan.adjustments.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-zinc-600">
          {preview.plan.adjustments.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The summary that replaces the turns, editable once written (the LLM's only after its job). */
function SummaryPanel({ preview, workbench }: { preview: CompactionPreview; workbench: Workbench }) {
  const { awaitingLlm, draft, generatedSummary } = workbench;
  return (
    <section aria-label="Summary" className="rounded-lg border border-zinc-200 bg-white">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2">
        <h3 className="flex-1 text-sm font-semibold">
          {preview.summary === null
            ? "No summary: outputs are cut in place"
            : awaitingLlm
              ? "Summary (not written yet)"
              : "Summary (editable)"}
        </h3>
        {draft !== null && draft !== generatedSummary && (
          <button type="button" onClick={() => workbench.setDraft(null)} className="text-xs text-indigo-700 underline">
            Reset to the generated summary
          </button>
        )}
      </div>
      {awaitingLlm && preview.plan.replaced.length > 0 && (
        <p className="px-3 py-3 text-sm text-zinc-600" data-testid="awaiting-llm">
          The figures above use the static marker as a stand-in. Summarise with the LLM to see, edit and apply its summary.
        </p>
      )}
      {!awaitingLlm && preview.summary !== null && (
        <textarea
          aria-label="Summary"
          value={workbench.summaryText}
          onChange={(e) => workbench.setDraft(e.target.value)}
          rows={18}
          className="block w-full resize-y border-0 px-3 py-2 font-mono text-xs leading-5 focus:ring-2 focus:ring-indigo-500"
        />
      )}
    </section>
  );
}
