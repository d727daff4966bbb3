"use client";

import { useId, useState } from "react";
import { formatInteger } from "@/lib/format";
import { AnsiText } from "./ansi";
import { DiffText } from "./diff-text";
import { refText, type TextRef } from "./part-text";
import { useTurn } from "@/lib/queries/hooks";

/**
 * A long part's text (tool arguments, a tool result, thinking) or a long block of a turn (terminal
 * output) as plain text: the page carries only its start; "Show all" loads the turn from `fullUrl`
 * and shows the whole text `textRef` points at, "Show less" goes back to the start. Never Markdown,
 * never HTML: the text is untrusted; terminal escape codes are styled (AnsiText).
 */
export function LongText({
  preview,
  total,
  fullUrl,
  textRef,
  className,
  diff = false,
}: {
  preview: string;
  total: number;
  fullUrl: string;
  textRef: TextRef;
  className: string;
  /** Shown as a coloured diff (an edit's lines) rather than as terminal text. */
  diff?: boolean;
}) {
  const [expanded, setExpanded] = useState(false);
  const full = useTurn(fullUrl);
  const id = useId();
  const text = full.turn === null ? null : refText(full.turn, textRef);
  const error = full.error ?? (full.turn !== null && text === null ? "The turn no longer has this part" : null);
  // The whole text once it is loaded; until then the start, with the toggle saying it is loading.
  const open = expanded && text !== null;
  const expand = () => {
    setExpanded(true);
    if (text === null) full.load();
  };
  const shown = open ? text : preview;
  return (
    <div>
      <pre id={id} className={className}>
        {diff ? <DiffText text={shown} /> : <AnsiText text={shown} />}
        {!open && <span className="text-zinc-400">{"\n"}…</span>}
      </pre>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-busy={full.loading}
        onClick={() => (open ? setExpanded(false) : expand())}
        className="mt-1 text-xs font-medium text-indigo-700 hover:underline"
      >
        {full.loading ? "Loading…" : open ? "Show less" : `Show all (${formatInteger(total)} characters)`}
      </button>
      {error && (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
