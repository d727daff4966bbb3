"use client";

import { useId } from "react";
import { RangeTurnField } from "./range-turn-field";
import type { Workbench, WorkbenchProps } from "./use-workbench";
import { STRATEGIES, SUMMARIZERS } from "./workbench-form";

type Parts = { props: WorkbenchProps; workbench: Workbench };

/** The options: the strategy on one side; its settings, the summariser and the target model on the other. */
export function WorkbenchOptions({ props, workbench }: Parts) {
  const { form, update } = workbench;
  return (
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
        <StrategySettings props={props} workbench={workbench} />
        <SummarizerSettings props={props} workbench={workbench} />
        <TargetModelField props={props} workbench={workbench} />
        {workbench.llm && <JobButtons workbench={workbench} />}
      </div>
    </form>
  );
}

/** The chosen strategy's own settings: the window's trigger, the range's turn, the trim's limit. */
function StrategySettings({ props, workbench }: Parts) {
  const { form, update } = workbench;
  return (
    <>
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
            threadId={props.threadId}
            count={props.turnCount}
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
    </>
  );
}

/** Who writes the summary: the summariser, the LLM's model, and focus instructions. */
function SummarizerSettings({ props, workbench }: Parts) {
  const { form, update, llm } = workbench;
  return (
    <>
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
    </>
  );
}

/** The model whose tokenizer measures the figures, from the catalog's list. */
function TargetModelField({ props, workbench }: Parts) {
  const { form, update } = workbench;
  const ids = useId();
  return (
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
  );
}

/** Start (or start again) the LLM's summary, and cancel it while it runs. */
function JobButtons({ workbench }: { workbench: Workbench }) {
  const { job, jobId, start, cancel } = workbench;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        onClick={start.run}
        disabled={start.pending || job?.status === "running"}
        className="rounded bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
      >
        {jobId && job?.status !== "running" ? "Summarise again" : "Summarise with the LLM"}
      </button>
      {job?.status === "running" && (
        <button
          type="button"
          onClick={cancel.run}
          disabled={cancel.pending}
          className="rounded border border-zinc-300 px-3 py-1.5 hover:bg-zinc-50"
        >
          Cancel
        </button>
      )}
    </div>
  );
}
