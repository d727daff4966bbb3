"use client";

import { useMemo, useState } from "react";
import { ModalDialog } from "@/components/ui/modal-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { handoffTurns } from "@/lib/queries/handoff";
import { useHandoff } from "@/lib/queries/hooks";
import { HandoffCounts } from "./handoff-counts";

const BUTTON = "shrink-0 whitespace-nowrap rounded border border-zinc-300 bg-white px-2 py-0.5 text-xs text-zinc-700 hover:bg-zinc-100";

/**
 * "Copy as task context": the thread as the conversation history an orchestrator hands the agent
 * that takes the task next (GET /api/threads/:id/handoff). Unlike "Copy as prompt" it does not
 * copy blind: the seed cuts user turns to 150 characters and drops tool turns, so it first shows
 * what will be copied and what was cut, in a modal dialog. The text is conversation content: shown as text only.
 */
export function CopyHandoffButton({ threadId, hasParent }: { threadId: string; hasParent: boolean }) {
  const [open, setOpen] = useState(false);
  const [wholeChain, setWholeChain] = useState(false);
  const chain = hasParent && wholeChain;
  const handoff = useHandoff(threadId, { chain }, open);
  const data = handoff.data;
  const turns = useMemo(() => (data ? handoffTurns(data) : []), [data]);
  // Until the answer for the current choice is in, the text shown is the previous one's: not copyable.
  const current = data && !handoff.isPlaceholderData ? data : null;

  return (
    <ModalDialog
      label="Copy as task context"
      title="Copy as task context"
      description="The conversation history an orchestrator gives the agent that takes the task next: tool turns and empty ones are skipped, user turns cut to 150 characters, assistant turns to 8,192."
      buttonClassName={BUTTON}
      widthClassName="w-[48rem]"
      testId="handoff-dialog"
      onOpenChange={setOpen}
    >
      {hasParent && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={wholeChain} onChange={(e) => setWholeChain(e.target.checked)} /> Whole chain (the threads this one
          continues, oldest first)
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
    </ModalDialog>
  );
}
