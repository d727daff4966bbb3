"use client";

import { useId, useState, type ReactNode } from "react";

/**
 * What an agent recorded, as recorded (a tool call's JSON arguments), behind a disclosure button:
 * closed until asked for, opened and closed by click, Enter or Space. Kept in the page while
 * closed (hidden), so find-in-page and the reader's search still reach it.
 */
export function RawToggle({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="rounded border border-zinc-200 bg-white" data-testid={testId}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center gap-1 px-2 py-1 text-left text-xs text-zinc-600 hover:text-zinc-900"
      >
        <span aria-hidden className={`inline-block text-zinc-400 transition-transform ${open ? "rotate-90" : ""}`}>
          ▸
        </span>
        {label}
      </button>
      <div id={id} hidden={!open} className="space-y-1 border-t border-zinc-200 p-2">
        {children}
      </div>
    </div>
  );
}
