"use client";

import { useId, useMemo, useState } from "react";
import { HandoffCounts, LISTED_TURNS, TurnNumber } from "@/components/threads/handoff-counts";
import { CopyButton } from "@/components/ui/copy-button";
import { handoffTurns } from "@/lib/queries/handoff";
import { useHandoff } from "@/lib/queries/hooks";

/**
 * The budget page's other policy, beside PAL's: what an orchestrator would inject into a sub-agent's
 * prompt (the fourth seed's conversation_history), its size under the chosen model's tokenizer,
 * and which turns its rules truncate or skip. Its own query and its own section: nothing in PAL's
 * view above depends on it. The whole chain by default, as PAL's history is.
 */
export function OrchestratorHandoff({ threadId, model, hasParent }: { threadId: string; model: string; hasParent: boolean }) {
  const headingId = useId();
  const [wholeChain, setWholeChain] = useState(true);
  const chain = hasParent && wholeChain;
  const handoff = useHandoff(threadId, { chain, model: model || undefined }, true);
  const data = handoff.data;
  const turns = useMemo(() => (data ? handoffTurns(data) : []), [data]);
  const truncated = turns.filter((turn) => turn.kept && turn.message.truncated);

  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="orchestrator-handoff">
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h2 id={headingId} className="text-lg font-semibold">
          Orchestrator handoff
        </h2>
        {data?.tokens && (
          <span className="text-sm text-zinc-600" data-testid="handoff-tokens">
            {data.tokens.count.toLocaleString("en-US")} tokens injected · counted with {data.tokens.tokenizer}{" "}
            <span
              className={`rounded px-1.5 py-0.5 text-xs ${data.tokens.exact ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-800"}`}
            >
              {data.tokens.exact ? "exact" : "estimate"}
            </span>
          </span>
        )}
        {handoff.isFetching && data && (
          <span className="text-xs text-zinc-500" aria-live="polite">
            Updating…
          </span>
        )}
      </div>
      <p className="mt-1 text-xs text-zinc-500">
        Another policy than PAL&apos;s: an orchestrator handing this conversation to a sub-agent as task context keeps user, assistant and
        system turns, cuts user turns to 150 characters and assistant turns to 8,192, and skips the rest.
      </p>
      {hasParent && (
        <label className="mt-2 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={wholeChain} onChange={(e) => setWholeChain(e.target.checked)} /> Whole chain
        </label>
      )}
      {handoff.isError && (
        // Polite: an unknown model is already the alert of PAL's view above, with the same message.
        <p role="status" className="mt-2 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="handoff-error">
          {handoff.error.message}
        </p>
      )}
      {!data && handoff.isPending && !handoff.isError && <p className="mt-2 text-sm text-zinc-500">Building the handoff…</p>}
      {data && (
        <div className="mt-2 space-y-2">
          <HandoffCounts answer={data} turns={turns} />
          {truncated.length > 0 && (
            <p className="text-sm" data-testid="handoff-truncated">
              Truncated:{" "}
              {truncated.slice(0, LISTED_TURNS).map((turn, i) => (
                <span key={turn.position}>
                  {i > 0 && ", "}
                  <TurnNumber turn={turn} /> <span className="text-zinc-500">({turn.kept && turn.message.role})</span>
                </span>
              ))}
              {truncated.length > LISTED_TURNS && (
                <span className="text-zinc-500"> and {(truncated.length - LISTED_TURNS).toLocaleString("en-US")} more</span>
              )}
            </p>
          )}
          <details>
            <summary className="cursor-pointer text-sm text-indigo-700">
              The injected text (
              {data.text.length === 0 ? "empty: no message kept" : `${[...data.text].length.toLocaleString("en-US")} characters`})
            </summary>
            <div className="mt-2 flex justify-end">
              <CopyButton text={data.text} label="Copy handoff text" disabled={data.text === "" || handoff.isPlaceholderData} />
            </div>
            <pre
              data-testid="handoff-budget-text"
              tabIndex={0}
              aria-label="The injected text"
              className="mt-2 max-h-[32rem] overflow-auto rounded bg-zinc-50 p-3 font-mono text-xs whitespace-pre-wrap break-words text-zinc-800"
            >
              {data.text}
            </pre>
          </details>
        </div>
      )}
    </section>
  );
}
