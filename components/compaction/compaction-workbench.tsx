"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useMemo, useState } from "react";
import { formatInteger, plural } from "@/lib/format";
import {
  compactionKeys,
  fetchCompactionJob,
  fetchCompactionPreview,
  requestCompactionApply,
  requestJobCancel,
  requestJobStart,
  type CompactionJobRecord,
  type CompactionPreview,
  type CompactionRequestBody,
} from "@/lib/queries/compactions";
import { threadKeys } from "@/lib/queries/threads";
import { RangeTurnField } from "./range-turn-field";
import { ReplacedTurns } from "./replaced-turns";
import { describeKept, formFromJob, requestOf, STRATEGIES, SUMMARIZERS, type Form } from "./workbench-form";
import { ErrorBox, Figure, JobStatus } from "./workbench-parts";

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
  /** The thread's newest LLM job, so a result that finished while the page was closed is not lost. */
  initialJob: CompactionJobRecord | null;
  /** A range preset from a turn's "Summarise up to here / from here". */
  initialRange: { direction: "up-to" | "from"; at: number } | null;
};

/** A debounced copy of a value: the summary is re-measured when typing pauses, not per keystroke. */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The compaction workbench: choose a strategy and summariser, see exactly what would be replaced
 * and by what, edit the summary, and apply it as a new revision (the original stays as it is).
 */
export function CompactionWorkbench(props: WorkbenchProps) {
  const { threadId, turnCount } = props;
  const router = useRouter();
  const queryClient = useQueryClient();
  const ids = useId();
  const initialForm: Form = {
    strategy: props.initialRange ? "range" : turnCount > 44 ? "window" : "full",
    summarizer: "extractive",
    llmModel: props.defaultLlmModel ?? "",
    targetModel: props.initialTargetModel,
    instructions: "",
    window: { trigger: "turns", maxTurns: "40", maxTokens: "" },
    range: props.initialRange ?? { direction: "up-to", at: Math.max(0, Math.floor(turnCount / 2) - 1) },
    trim: { maxChars: "2000" },
  };
  const restorable =
    props.initialJob && (props.initialJob.status === "running" || props.initialJob.status === "succeeded") ? props.initialJob : null;
  const [form, setForm] = useState<Form>(() => (restorable ? formFromJob(restorable, initialForm) : initialForm));
  const [jobId, setJobId] = useState<string | null>(restorable?.id ?? null);
  const [draft, setDraft] = useState<string | null>(null);
  // Typing in a field asks for one preview when it pauses, not one per keystroke.
  const current = useMemo(() => requestOf(form, props.models), [form, props.models]);
  const request = useDebounced(current, 300);
  const currentKey = JSON.stringify(current);

  const update = (change: Partial<Form>) => setForm((f) => ({ ...f, ...change }));
  const llm = form.summarizer === "llm" && form.strategy !== "trim-tool-output";

  const job = useQuery({
    queryKey: compactionKeys.job(jobId ?? "none"),
    queryFn: ({ signal }) => fetchCompactionJob(jobId!, signal),
    enabled: jobId !== null,
    initialData: restorable && jobId === restorable.id ? restorable : undefined,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
    retry: false,
  });
  const jobResult = llm && job.data?.status === "succeeded" ? (job.data.result as unknown as CompactionPreview) : null;

  // A different request makes a different summary: the edits and the LLM job of the old one are
  // dropped at once (not when the debounced request catches up, which could wipe an edit begun
  // meanwhile), and a job still running for it is cancelled. Adjusted while rendering, as React
  // advises for state that follows a change; the cancel request goes out from an effect.
  const [lastKey, setLastKey] = useState(currentKey);
  const [orphan, setOrphan] = useState<string | null>(null);
  if (lastKey !== currentKey) {
    setLastKey(currentKey);
    setDraft(null);
    if (jobId && job.data?.status === "running") setOrphan(jobId);
    setJobId(null);
  }
  useEffect(() => {
    if (!orphan) return;
    // Best effort: it ends on its own otherwise. Each orphan is a job id seen once, so it is cancelled once.
    void requestJobCancel(orphan).catch(() => {});
  }, [orphan]);

  // With the LLM chosen, the plan and figures are shown with the static marker standing in for its
  // summary, so nothing is paid for before the user sees what would be replaced.
  const planRequest: CompactionRequestBody = llm
    ? { ...request, summarizer: "marker", model: undefined, instructions: undefined }
    : request;
  const incomplete = form.strategy === "window" && form.window.trigger === "tokens" && form.window.maxTokens === "";
  const base = useQuery({
    queryKey: compactionKeys.preview(threadId, planRequest),
    queryFn: ({ signal }) => fetchCompactionPreview(threadId, planRequest, signal),
    enabled: !incomplete,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });
  const awaitingLlm = llm && jobResult === null;
  const generated = llm ? (jobResult ?? base.data ?? null) : (base.data ?? null);
  const generatedSummary = awaitingLlm ? null : (generated?.summary ?? null);
  const editedSummary = useDebounced(draft, 400);
  const edited = editedSummary !== null && editedSummary !== generatedSummary;
  const remeasured = useQuery({
    queryKey: compactionKeys.preview(threadId, { ...request, summary: editedSummary ?? "" }),
    queryFn: ({ signal }) => fetchCompactionPreview(threadId, { ...request, summary: editedSummary! }, signal),
    enabled: edited && !awaitingLlm && generated !== null && editedSummary!.trim() !== "",
    placeholderData: keepPreviousData,
    retry: false,
  });
  const preview = edited ? (remeasured.data ?? generated) : generated;
  const previewError = incomplete ? null : base.error;
  // The preview on screen is for the form as it is now (not a debounced or placeholder one).
  const showsCurrent = !base.isPlaceholderData && JSON.stringify(request) === currentKey;

  const start = useMutation({
    // What the form says now: the debounced copy may lag a click that follows typing.
    mutationFn: () => requestJobStart(threadId, current),
    onSuccess: (started) => {
      queryClient.setQueryData(compactionKeys.job(started.id), started);
      setDraft(null);
      setJobId(started.id);
    },
  });
  const cancel = useMutation({
    mutationFn: () => requestJobCancel(jobId!),
    onSuccess: (cancelled) => queryClient.setQueryData(compactionKeys.job(cancelled.id), cancelled),
  });
  const apply = useMutation({
    mutationFn: () =>
      requestCompactionApply(threadId, {
        ...request,
        ...(draft !== null && draft !== generatedSummary ? { summary: draft } : {}),
        ...(llm && jobId ? { jobId } : {}),
      }),
    onSuccess: ({ thread }) => {
      queryClient.removeQueries({ queryKey: threadKeys.all });
      router.push(`/threads/${thread.id}`);
      router.refresh();
    },
  });

  const summaryText = draft ?? generatedSummary ?? "";
  const replaced = new Set(preview?.plan.replaced ?? []);
  const refusal = preview?.refusal ?? null;
  const lost = preview ? [...preview.lostReferences.paths, ...preview.lostReferences.tools] : [];
  const canApply =
    preview !== null &&
    !awaitingLlm &&
    showsCurrent &&
    refusal === null &&
    !apply.isPending &&
    (preview.summary === null || summaryText.trim() !== "");

  return (
    <div className="space-y-6">
      <form
        className="grid gap-4 rounded-lg border border-zinc-200 bg-white p-4 lg:grid-cols-2"
        onSubmit={(e) => e.preventDefault()}
        aria-label="Compaction options"
      >
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-semibold">Strategy</legend>
          {STRATEGIES.map((s) => (
            <label key={s.id} className="flex cursor-pointer gap-2 text-sm">
              <input
                type="radio"
                name="strategy"
                value={s.id}
                checked={form.strategy === s.id}
                onChange={() => update({ strategy: s.id })}
                className="mt-1"
              />
              <span>
                <span className="font-medium">{s.label}</span>
                <span className="block text-zinc-500">{s.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>

        <div className="space-y-3 text-sm">
          {form.strategy === "window" && (
            <fieldset className="flex flex-wrap items-end gap-3">
              <legend className="mb-1 font-semibold">Window</legend>
              <label className="flex flex-col">
                <span className="mb-1 text-zinc-600">Trigger</span>
                <select
                  value={form.window.trigger}
                  onChange={(e) => update({ window: { ...form.window, trigger: e.target.value as "turns" | "tokens" } })}
                  className="rounded border border-zinc-300 bg-white px-2 py-1.5"
                >
                  <option value="turns">over a number of turns</option>
                  <option value="tokens">over a number of tokens</option>
                </select>
              </label>
              {form.window.trigger === "turns" ? (
                <label className="flex w-32 flex-col">
                  <span className="mb-1 text-zinc-600">Max turns</span>
                  <input
                    inputMode="numeric"
                    value={form.window.maxTurns}
                    onChange={(e) => update({ window: { ...form.window, maxTurns: e.target.value.replace(/\D/g, "") } })}
                    className="rounded border border-zinc-300 px-2 py-1.5"
                  />
                </label>
              ) : (
                <label className="flex w-40 flex-col">
                  <span className="mb-1 text-zinc-600">Max tokens</span>
                  <input
                    inputMode="numeric"
                    value={form.window.maxTokens}
                    onChange={(e) => update({ window: { ...form.window, maxTokens: e.target.value.replace(/\D/g, "") } })}
                    placeholder="e.g. 50000"
                    className="rounded border border-zinc-300 px-2 py-1.5"
                  />
                </label>
              )}
              <p className="w-full text-xs text-zinc-500">0 disables. Over the trigger, the newest max(4, half) are kept.</p>
            </fieldset>
          )}
          {form.strategy === "range" && (
            <fieldset className="flex flex-wrap items-end gap-3">
              <legend className="mb-1 font-semibold">Range</legend>
              <label className="flex flex-col">
                <span className="mb-1 text-zinc-600">Summarise</span>
                <select
                  value={form.range.direction}
                  onChange={(e) => update({ range: { ...form.range, direction: e.target.value as "up-to" | "from" } })}
                  className="rounded border border-zinc-300 bg-white px-2 py-1.5"
                >
                  <option value="up-to">up to and including</option>
                  <option value="from">from this turn on</option>
                </select>
              </label>
              <RangeTurnField
                threadId={threadId}
                count={turnCount}
                at={form.range.at}
                onChange={(at) => update({ range: { ...form.range, at } })}
              />
            </fieldset>
          )}
          {form.strategy === "trim-tool-output" && (
            <label className="flex w-48 flex-col">
              <span className="mb-1 font-semibold">Character limit</span>
              <input
                inputMode="numeric"
                value={form.trim.maxChars}
                onChange={(e) => update({ trim: { maxChars: e.target.value.replace(/\D/g, "") } })}
                className="rounded border border-zinc-300 px-2 py-1.5"
              />
              <span className="mt-1 text-xs text-zinc-500">0 disables. The last exchange is never trimmed.</span>
            </label>
          )}

          {form.strategy !== "trim-tool-output" && (
            <fieldset>
              <legend className="mb-1 font-semibold">Summariser</legend>
              <div className="flex flex-wrap overflow-hidden rounded border border-zinc-300">
                {SUMMARIZERS.map((s) => (
                  <label
                    key={s.id}
                    className={`cursor-pointer px-3 py-1.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-inset ${form.summarizer === s.id ? "bg-indigo-600 text-white" : "bg-white"}`}
                  >
                    <input
                      type="radio"
                      name="summarizer"
                      value={s.id}
                      checked={form.summarizer === s.id}
                      onChange={() => update({ summarizer: s.id })}
                      className="sr-only"
                    />
                    {s.label}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {llm && (
            <label className="flex flex-col">
              <span className="mb-1 text-zinc-600">LLM model (provider:model)</span>
              <input
                value={form.llmModel}
                onChange={(e) => update({ llmModel: e.target.value })}
                placeholder="openai:gpt-4o-mini"
                className="rounded border border-zinc-300 px-2 py-1.5 font-mono"
              />
              <span className="mt-1 text-xs text-zinc-500">
                {props.configuredProviders.length > 0
                  ? `Configured: ${props.configuredProviders.join(", ")}.`
                  : "No provider is configured yet: set one in Settings or by environment variables."}
              </span>
            </label>
          )}
          {form.strategy !== "trim-tool-output" && form.summarizer !== "marker" && (
            <label className="flex flex-col">
              <span className="mb-1 text-zinc-600">Focus instructions (optional)</span>
              <textarea
                value={form.instructions}
                onChange={(e) => update({ instructions: e.target.value })}
                rows={2}
                maxLength={2000}
                placeholder="e.g. keep the database migration decisions"
                className="rounded border border-zinc-300 px-2 py-1.5"
              />
            </label>
          )}
          <label className="flex flex-col">
            <span className="mb-1 text-zinc-600">Target model (its tokenizer measures)</span>
            <input
              list={`${ids}-models`}
              value={form.targetModel}
              onChange={(e) => update({ targetModel: e.target.value })}
              className="rounded border border-zinc-300 px-2 py-1.5"
            />
            {form.targetModel.trim() !== "" && !props.models.includes(form.targetModel.trim()) && (
              <span className="mt-1 text-xs text-amber-800">Not a known model: measuring with o200k_base until one is chosen.</span>
            )}
            <datalist id={`${ids}-models`}>
              {props.models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </label>
          {llm && (
            <div className="flex flex-wrap items-center gap-2">
              <button
                type="button"
                onClick={() => start.mutate()}
                disabled={start.isPending || job.data?.status === "running"}
                className="rounded bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
              >
                {jobId && job.data?.status !== "running" ? "Summarise again" : "Summarise with the LLM"}
              </button>
              {job.data?.status === "running" && (
                <button
                  type="button"
                  onClick={() => cancel.mutate()}
                  disabled={cancel.isPending}
                  className="rounded border border-zinc-300 px-3 py-1.5 hover:bg-zinc-50"
                >
                  Cancel
                </button>
              )}
            </div>
          )}
        </div>
      </form>

      {llm && (
        <JobStatus
          job={job.data ?? null}
          startError={start.error}
          onUse={(summarizer) => update({ summarizer })}
          onRetry={() => start.mutate()}
        />
      )}

      {previewError && <ErrorBox error={previewError} />}
      {incomplete && <p className="text-sm text-zinc-500">Enter a token threshold to see the plan.</p>}
      {!preview && !previewError && !incomplete && (
        <p className="text-sm text-zinc-500" aria-live="polite">
          Working out the preview…
        </p>
      )}

      {preview && (
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
            {remeasured.isFetching ? <span aria-live="polite">Re-measuring the edited summary…</span> : null}
          </p>
          {refusal && (
            <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="refusal">
              {refusal}
            </p>
          )}
          {lost.length > 0 && (
            <div
              role="status"
              className="rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
              data-testid="lost-references"
            >
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

          <div className="grid gap-4 lg:grid-cols-2">
            <section aria-label="Turns replaced" className="rounded-lg border border-zinc-200 bg-white">
              <h3 className="border-b border-zinc-200 px-3 py-2 text-sm font-semibold">
                {preview.plan.replaced.length > 0
                  ? `Replaced: ${plural(preview.plan.replaced.length, "turn")}`
                  : `Trimmed: ${plural(preview.plan.trimmed.length, "tool output")}`}
              </h3>
              <ReplacedTurns threadId={threadId} plan={preview.plan} />
            </section>
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
                  <button type="button" onClick={() => setDraft(null)} className="text-xs text-indigo-700 underline">
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
                  value={summaryText}
                  onChange={(e) => setDraft(e.target.value)}
                  rows={18}
                  className="block w-full resize-y border-0 px-3 py-2 font-mono text-xs leading-5 focus:ring-2 focus:ring-indigo-500"
                />
              )}
            </section>
          </div>
          <p className="text-sm text-zinc-600" data-testid="kept-verbatim">
            Kept verbatim: {describeKept(preview, turnCount, replaced)}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              onClick={() => apply.mutate()}
              disabled={!canApply}
              className="rounded bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-50"
            >
              {apply.isPending ? "Applying…" : "Apply as a new revision"}
            </button>
            <span className="text-xs text-zinc-500">The original thread is kept exactly as it is; undo deletes the revision.</span>
            {apply.error && <ErrorBox error={apply.error} />}
          </div>
        </section>
      )}
    </div>
  );
}
