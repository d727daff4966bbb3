import type { Ref } from "react";
import type { KeyBinding } from "@/lib/domain/display/keys";

const BUTTON = "rounded border border-zinc-300 bg-white px-2 py-0.5 text-zinc-700 hover:bg-zinc-50";
const KBD = "rounded border border-zinc-300 bg-zinc-50 px-1.5 font-mono text-xs";

/**
 * The "?" overlay of a page's keys (a modal dialog; Escape or Close shuts it), from the same
 * table its key handler reads (usePageKeys). `more` adds rows for keys handled elsewhere.
 */
export function ShortcutsDialog<A extends string>({
  ref,
  titleId,
  bindings,
  more = [],
  note = "Not while typing in a field.",
}: {
  ref: Ref<HTMLDialogElement>;
  titleId: string;
  bindings: readonly KeyBinding<A>[];
  more?: readonly { keys: string[]; label: string }[];
  note?: string;
}) {
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto w-80 max-w-[90vw] rounded-lg border border-zinc-200 p-0 shadow-lg backdrop:bg-zinc-900/30"
    >
      <div className="p-4">
        <h2 id={titleId} className="mb-3 text-base font-semibold">
          Keyboard shortcuts
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          {[...bindings, ...more].map((entry) => (
            <div key={`${entry.keys.join(" ")} ${entry.label}`} className="contents">
              <dt>
                {entry.keys.map((key) => (
                  <kbd key={key} className={KBD}>
                    {key}
                  </kbd>
                ))}
              </dt>
              <dd className="text-zinc-700">{entry.label}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-xs text-zinc-500">{note}</p>
        <form method="dialog" className="mt-4 text-right">
          <button type="submit" className={BUTTON}>
            Close
          </button>
        </form>
      </div>
    </dialog>
  );
}
