"use client";

import { usePathname } from "next/navigation";
import { useEffect, useId, useMemo, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { formatCount } from "@/lib/format";
import type { ContextPreviewWithTurns } from "@/lib/domain/history/context-preview";
import { useContextPreview } from "@/lib/queries/hooks";
import { CumulativeChart } from "./cumulative-chart";
import { OrchestratorHandoff } from "./orchestrator-handoff";
import { TurnTable } from "./turn-table";
import type { ContextSelection } from "@/lib/queries/threads";
import { budgetSelectionQuery } from "@/lib/queries/url-state";

type ModelOption = { id: string; provider: string; contextWindow: number; maxOutputTokens: number };
type Selection = ContextSelection;

const CATEGORIES = [
  { key: "files", label: "Files", color: "bg-sky-500" },
  { key: "userTurns", label: "User turns", color: "bg-indigo-500" },
  { key: "assistantTurns", label: "Assistant turns", color: "bg-emerald-500" },
  { key: "toolOutput", label: "Tool output", color: "bg-amber-500" },
  { key: "systemTurns", label: "System turns", color: "bg-fuchsia-500" },
  { key: "notes", label: "Headers and notes", color: "bg-zinc-400" },
  { key: "free", label: "Free", color: "bg-zinc-100" },
  { key: "reservedForResponse", label: "Reserved for response", color: "bg-zinc-300" },
] as const;

/** The budget preview: what exactly a model would be sent to continue this thread, and what was cut. */
export function BudgetView({
  threadId,
  expired,
  hasParent = false,
  models,
  initial,
  defaultModel,
}: {
  threadId: string;
  expired: boolean;
  /** Whether the thread continues another: the orchestrator section then offers the whole chain. */
  hasParent?: boolean;
  models: ModelOption[];
  initial: Selection;
  /** The model the page opens on for this thread (its own last one, or the fallback), and the sentence that says so where it is not simply the thread's. */
  defaultModel?: { id: string; note: string | null };
}) {
  const pathname = usePathname();
  const [selection, setSelection] = useState<Selection>(initial);
  const [modelText, setModelText] = useState(initial.model);
  const [windowText, setWindowText] = useState(initial.contextWindow);
  const listId = useId();

  useEffect(() => {
    // Only the URL changes: the preview fetches its own data. router.replace re-rendered the page
    // on the server for every choice, and the document's title was gone until it came back.
    window.history.replaceState(null, "", `${pathname}${budgetSelectionQuery(selection)}`);
  }, [selection, pathname]);

  const preview = useContextPreview(threadId, selection, !expired);

  const applyModel = (value: string) => {
    setModelText(value);
    if (models.some((m) => m.id === value)) setSelection((s) => ({ ...s, model: value }));
  };

  if (expired) {
    return (
      <p className="rounded border border-amber-200 bg-amber-50 p-4 text-amber-900">
        This thread has expired: agents would get 404 for it, so there is nothing to preview.
      </p>
    );
  }

  const data = preview.data;
  return (
    <div className="space-y-6">
      {defaultModel?.note && selection.model === defaultModel.id && (
        <p className="text-sm text-zinc-700" data-testid="budget-model-note">
          {defaultModel.note}
        </p>
      )}
      <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
        <label className="flex min-w-56 flex-col text-sm">
          <span className="mb-1 text-zinc-600">Model</span>
          <input
            list={listId}
            value={modelText}
            onChange={(e) => applyModel(e.target.value)}
            onBlur={() => setSelection((s) => ({ ...s, model: modelText.trim() }))}
            onKeyDown={(e) => e.key === "Enter" && setSelection((s) => ({ ...s, model: modelText.trim() }))}
            placeholder="Search models"
            className="rounded border border-zinc-300 bg-white px-3 py-2"
            aria-describedby={`${listId}-hint`}
          />
          <datalist id={listId}>
            {models.map((m) => (
              <option key={m.id} value={m.id}>{`${m.provider} · ${formatCount(m.contextWindow)} window`}</option>
            ))}
          </datalist>
        </label>
        <label className="flex w-44 flex-col text-sm">
          <span className="mb-1 text-zinc-600">or context window</span>
          <input
            inputMode="numeric"
            value={windowText}
            onChange={(e) => setWindowText(e.target.value.replace(/[^0-9]/g, ""))}
            onBlur={() => setSelection((s) => ({ ...s, contextWindow: windowText }))}
            onKeyDown={(e) => e.key === "Enter" && setSelection((s) => ({ ...s, contextWindow: windowText }))}
            placeholder="e.g. 128000"
            className="rounded border border-zinc-300 bg-white px-3 py-2"
          />
        </label>
        <fieldset className="flex flex-col text-sm">
          <legend className="mb-1 text-zinc-600">Mode</legend>
          <div className="flex overflow-hidden rounded border border-zinc-300">
            {(["exact", "pal"] as const).map((mode) => (
              <label key={mode} className={`cursor-pointer px-3 py-2 ${selection.mode === mode ? "bg-indigo-600 text-white" : "bg-white"}`}>
                <input
                  type="radio"
                  name="mode"
                  value={mode}
                  checked={selection.mode === mode}
                  onChange={() => setSelection((s) => ({ ...s, mode }))}
                  className="sr-only"
                />
                {mode === "exact" ? "Exact (model tokenizer)" : "PAL (identical prompt)"}
              </label>
            ))}
          </div>
        </fieldset>
        <p id={`${listId}-hint`} className="w-full text-xs text-zinc-500">
          A context window, when given, overrides the model&apos;s. {preview.isFetching ? <span aria-live="polite">Updating…</span> : null}
        </p>
      </form>

      {preview.isError && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {preview.error.message}
        </p>
      )}
      {preview.isPending && !data && <p className="text-zinc-500">Building the preview…</p>}
      {data && <PreviewBody data={data} />}
      <OrchestratorHandoff threadId={threadId} model={selection.model} hasParent={hasParent} />
    </div>
  );
}

/** Rows of the skipped-file list shown before "Show all" (the turn table scrolls through all its rows). */
const ROWS_SHOWN = 100;

function PreviewBody({ data }: { data: ContextPreviewWithTurns }) {
  const total = data.allocation.total;
  const [sortBySize, setSortBySize] = useState(true);
  const [showAllSkipped, setShowAllSkipped] = useState(false);
  const turns = useMemo(() => {
    const list = [...data.perTurn];
    return sortBySize ? list.sort((a, b) => b.tokens - a.tokens) : list;
  }, [data.perTurn, sortBySize]);

  return (
    <>
      <section aria-labelledby="breakdown-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
        <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
          <h2 id="breakdown-heading" className="text-lg font-semibold">
            {formatCount(data.totalTokens)} of {formatCount(total)} tokens
          </h2>
          <span className="text-sm text-zinc-600">
            {data.model ? `${data.model.id} (${data.model.provider})` : "custom window"} · counted with {data.tokenizer.label}{" "}
            <span
              className={`rounded px-1.5 py-0.5 text-xs ${data.exact ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-800"}`}
              data-testid="exactness"
            >
              {data.exact ? "exact" : "estimate"}
            </span>
          </span>
        </div>
        <div
          className="mt-3 flex h-6 w-full overflow-hidden rounded border border-zinc-200"
          role="img"
          aria-label="Context window by category"
        >
          {CATEGORIES.map((c) => {
            const value = data.sections[c.key];
            return value > 0 ? (
              <div key={c.key} className={c.color} style={{ width: `${(value / total) * 100}%` }} title={`${c.label}: ${value}`} />
            ) : null;
          })}
        </div>
        <table className="mt-3 w-full text-sm">
          <tbody>
            {CATEGORIES.map((c) => (
              <tr key={c.key} className="border-t border-zinc-100">
                <td className="py-1">
                  <span className={`mr-2 inline-block h-3 w-3 rounded-sm align-middle ${c.color} border border-zinc-200`} />
                  {c.label}
                </td>
                <td className="py-1 text-right font-mono">{data.sections[c.key].toLocaleString("en-US")}</td>
                <td className="w-20 py-1 text-right text-zinc-500">{((data.sections[c.key] / total) * 100).toFixed(1)}%</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-2 text-xs text-zinc-500">
          Allocation (PAL&apos;s rules): content {data.allocation.content.toLocaleString("en-US")} (files{" "}
          {data.allocation.file.toLocaleString("en-US")}, history {data.allocation.history.toLocaleString("en-US")}), response{" "}
          {data.allocation.response.toLocaleString("en-US")}.
        </p>
      </section>

      <CumulativeChart data={data} />

      <section aria-labelledby="turns-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="turns-heading" className="text-lg font-semibold">
            Turns: {data.turns.includedCount.toLocaleString("en-US")} sent, {data.turns.excludedCount.toLocaleString("en-US")} cut
          </h2>
          <label className="ml-auto flex items-center gap-2 text-sm">
            <input type="checkbox" checked={sortBySize} onChange={(e) => setSortBySize(e.target.checked)} /> Largest first
          </label>
        </div>
        <TurnTable turns={turns} />
      </section>

      <section aria-labelledby="files-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
        <h2 id="files-heading" className="text-lg font-semibold">
          Files: {data.files.included.length} embedded, {data.files.skipped.length} skipped
        </h2>
        {data.files.included.length + data.files.skipped.length === 0 && (
          <p className="text-sm text-zinc-500">No turn in this chain references a file.</p>
        )}
        <ul className="mt-2 space-y-1 text-sm">
          {data.files.included.map((f) => (
            <li key={f.path}>
              <span className="font-mono">{f.path}</span>{" "}
              <span className="text-zinc-500">
                {f.tokens.toLocaleString("en-US")} tokens, from {f.source === "snapshot" ? "the stored snapshot" : "an allowed root"}
              </span>
            </li>
          ))}
          {(showAllSkipped ? data.files.skipped : data.files.skipped.slice(0, ROWS_SHOWN)).map((f) => (
            <li key={f.path} className="text-red-800">
              <span className="font-mono">{f.path}</span> skipped: {f.reason}
            </li>
          ))}
        </ul>
        {data.files.skipped.length > ROWS_SHOWN && (
          <button type="button" onClick={() => setShowAllSkipped((v) => !v)} className="mt-2 text-sm text-indigo-700 hover:underline">
            {showAllSkipped
              ? `Show the first ${ROWS_SHOWN} skipped`
              : `Show all ${data.files.skipped.length.toLocaleString("en-US")} skipped files`}
          </button>
        )}
      </section>

      <section aria-labelledby="text-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
        <div className="flex items-center gap-3">
          <h2 id="text-heading" className="text-lg font-semibold">
            The exact text sent
          </h2>
          <CopyButton text={data.text} label="Copy text" />
        </div>
        <pre
          data-testid="prompt-text"
          tabIndex={0}
          aria-label="The prompt text"
          className="mt-2 max-h-[32rem] overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-3 font-mono text-xs text-zinc-800"
        >
          {data.text || "(no turns: nothing would be sent)"}
        </pre>
      </section>
    </>
  );
}
