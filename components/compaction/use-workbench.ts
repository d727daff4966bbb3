"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { requestJobCancel, type CompactionPreview, type CompactionRequestBody } from "@/lib/queries/compactions";
import {
  useApplyCompaction,
  useCancelCompactionJob,
  useCompactionJob,
  useCompactionPreview,
  useRestorableJob,
  useStartCompactionJob,
} from "@/lib/queries/use-compaction";
import { formFromJob, requestOf, type Form } from "./workbench-form";

/** What the compact page gives the workbench (app/threads/[id]/compact/page.tsx). */
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

/** A debounced copy of a value: the summary is re-measured when typing pauses, not per keystroke. */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** The form as the workbench opens: the range preset, or the thread's restorable LLM job's choices, or the defaults. */
function useWorkbenchForm(props: WorkbenchProps) {
  const { threadId, turnCount } = props;
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
  const restorable = useRestorableJob(threadId, props.initialRange === null);
  const [form, setForm] = useState<Form>(() => (restorable ? formFromJob(restorable, initialForm) : initialForm));
  const update = (change: Partial<Form>) => setForm((f) => ({ ...f, ...change }));
  return { form, update, restorable };
}

/**
 * The workbench's state: the form, the LLM job, the previews (the plan, and the edited summary
 * re-measured), and starting, cancelling and applying.
 */
export function useWorkbench(props: WorkbenchProps) {
  const { threadId } = props;
  const router = useRouter();
  const { form, update, restorable } = useWorkbenchForm(props);
  const [jobId, setJobId] = useState<string | null>(restorable?.id ?? null);
  const [draft, setDraft] = useState<string | null>(null);
  // Typing in a field asks for one preview when it pauses, not one per keystroke.
  const current = useMemo(() => requestOf(form, props.models), [form, props.models]);
  const request = useDebounced(current, 300);
  const currentKey = JSON.stringify(current);
  const llm = form.summarizer === "llm" && form.strategy !== "trim-tool-output";

  const job = useCompactionJob(jobId, restorable);
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
  const base = useCompactionPreview(threadId, planRequest, !incomplete, 60_000);
  const awaitingLlm = llm && jobResult === null;
  const generated = llm ? (jobResult ?? base.data ?? null) : (base.data ?? null);
  const generatedSummary = awaitingLlm ? null : (generated?.summary ?? null);
  const editedSummary = useDebounced(draft, 400);
  const edited = editedSummary !== null && editedSummary !== generatedSummary;
  const remeasured = useCompactionPreview(
    threadId,
    { ...request, summary: editedSummary ?? "" },
    edited && !awaitingLlm && generated !== null && editedSummary!.trim() !== "",
  );
  const preview = edited ? (remeasured.data ?? generated) : generated;

  const start = useStartCompactionJob(threadId, (started) => {
    setDraft(null);
    setJobId(started.id);
  });
  const cancel = useCancelCompactionJob();
  const apply = useApplyCompaction(threadId, (revision) => {
    router.push(`/threads/${revision.id}`);
    router.refresh();
  });

  const summaryText = draft ?? generatedSummary ?? "";
  return {
    form,
    update,
    llm,
    jobId,
    job: job.data ?? null,
    preview,
    previewError: incomplete ? null : base.error,
    incomplete,
    remeasuring: remeasured.isFetching,
    awaitingLlm,
    draft,
    setDraft,
    generatedSummary,
    summaryText,
    // The preview on screen is for the form as it is now (not a debounced or placeholder one).
    showsCurrent: !base.isPlaceholderData && JSON.stringify(request) === currentKey,
    // What the form says now: the debounced copy may lag a click that follows typing.
    start: { run: () => start.mutate(current), pending: start.isPending, error: start.error },
    cancel: { run: () => cancel.mutate(jobId!), pending: cancel.isPending },
    apply: {
      run: () =>
        apply.mutate({
          ...request,
          ...(draft !== null && draft !== generatedSummary ? { summary: draft } : {}),
          ...(llm && jobId ? { jobId } : {}),
        }),
      pending: apply.isPending,
      error: apply.error,
    },
  };
}

export type Workbench = ReturnType<typeof useWorkbench>;
