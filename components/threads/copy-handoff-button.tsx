"use client";

import { useId, useMemo, useRef, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { handoffTurns } from "@/lib/queries/handoff";
import { useHandoff } from "@/lib/queries/hooks";
import { HandoffCounts } from "./handoff-counts";

const BUTTON = "shrink-0 whitespace-nowrap rounded border border-zinc-300 bg-white px-2 py-0.5 text-xs text-zinc-700 hover:bg-zinc-100";

/**
 * "Copy as task context": the thread as the conversation history an orchestrator hands the agent
 * that takes the task next (GET /api/threads/:id/handoff). Unlike "Copy as prompt" it does not
 * copy blind: the seed cuts user turns to 150 characters and drops tool turns, so it first shows
 * what will be copied and what was cut, in a modal <dialog> (the browser moves focus in, Escape
 * closes it, focus goes back to this button). The text is conversation content: shown as text only.
 */
export function CopyHandoffButton({ threadId, hasParent }: { threadId: string; hasParent: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [wholeChain, setWholeChain] = useState(false);
  const chain = hasParent && wholeChain;
  const handoff = useHandoff(threadId, { chain }, open);
  const data = handoff.data;
  const turns = useMemo(() => (data ? handoffTurns(data) : []), [data]);
  // Until the answer for the current choice is in, the text shown is the previous one's: not copyable.
  const current = data && !handoff.isPlaceholderData ? data : null;

  const show = () => {
    setOpen(true);
    dialog.current?.showModal();
  };
  const onClose = () => {
    setOpen(false);
    // Browsers restore focus on close, but not all of them yet: put it back on the button that opened it.
    trigger.current?.focus();
  };

  return (
    <>
      <button ref={trigger} type="button" onClick={show} className={BUTTON} aria-haspopup="dialog">
        Copy as task context
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClose={onClose}
        // The reader's keys (j, k, ?, /) listen on the document: not while this is open.
        onKeyDown={(event) => event.stopPropagation()}
        className="m-auto w-[48rem] max-w-[95vw] rounded-lg border border-zinc-200 p-0 shadow-lg backdrop:bg-zinc-900/30"
        data-testid="handoff-dialog"
      >
        <div className="flex max-h-[85vh] flex-col gap-3 p-4">
          <div className="flex items-start gap-3">
            <div className="min-w-0 flex-1">
              <h2 id={titleId} className="text-base font-semibold">
                Copy as task context
              </h2>
              <p className="text-xs text-zinc-500">
                The conversation history an orchestrator gives the agent that takes the task next: tool turns and empty ones are skipped,
                user turns cut to 150 characters, assistant turns to 8,192.
              </p>
            </div>
            <form method="dialog">
              <button type="submit" className={BUTTON}>
                Close
              </button>
            </form>
          </div>
          {hasParent && (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={wholeChain} onChange={(e) => setWholeChain(e.target.checked)} /> Whole chain (the threads this
              one continues, oldest first)
            </label>
          )}
          {handoff.isError && (
            <p role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800">
              {handoff.error.message}
            </p>
          )}
          {!data && handoff.isFetching && <p className="text-sm text-zinc-500">Building the handoff…</p>}
          {data && (
            <>
              <div aria-live="polite">
                {handoff.isPlaceholderData && <p className="text-xs text-zinc-500">Updating…</p>}
                <HandoffCounts answer={data} turns={turns} />
              </div>
              <pre
                tabIndex={0}
                data-testid="handoff-text"
                aria-label="The text that will be copied"
                className="min-h-16 overflow-auto rounded bg-zinc-50 p-3 font-mono text-xs whitespace-pre-wrap break-words text-zinc-800"
              >
                {data.text}
              </pre>
              {data.text === "" && <p className="text-sm text-zinc-500">No message is kept: there is nothing to copy.</p>}
            </>
          )}
          <div className="flex justify-end">
            <CopyButton text={current?.text ?? ""} label="Copy" disabled={!current || current.text === ""} />
          </div>
        </div>
      </dialog>
    </>
  );
}
