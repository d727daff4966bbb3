"use client";

import { useId, useRef, type ReactNode } from "react";

/**
 * A button that opens a modal <dialog>: the browser moves focus in, Escape closes it, and focus
 * goes back to the button (browsers restore it on close, but not all of them yet). The reader's
 * keys (j, k, ?, /) listen on the document: they are kept from it while it is open.
 * `onOpenChange` lets the caller load what the dialog shows only while it is open.
 */
export function ModalDialog({
  label,
  title,
  description,
  buttonClassName,
  widthClassName,
  testId,
  onOpenChange,
  children,
}: Readonly<{
  label: string;
  title: string;
  description: ReactNode;
  buttonClassName: string;
  /** Tailwind width, such as "w-[40rem]". */
  widthClassName: string;
  testId: string;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}>) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const show = () => {
    onOpenChange(true);
    dialog.current?.showModal();
  };
  const onClose = () => {
    onOpenChange(false);
    trigger.current?.focus();
  };
  return (
    <>
      <button ref={trigger} type="button" onClick={show} className={buttonClassName} aria-haspopup="dialog">
        {label}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClose={onClose}
        onKeyDown={(event) => event.stopPropagation()}
        className={`m-auto ${widthClassName} max-w-[95vw] rounded-lg border border-zinc-200 p-0 shadow-lg backdrop:bg-zinc-900/30`}
        data-testid={testId}
      >
        <div className="flex max-h-[85vh] flex-col gap-3 overflow-y-auto p-4">
          <div className="flex items-start gap-3">
            <div className="min-w-0 flex-1">
              <h2 id={titleId} className="text-base font-semibold">
                {title}
              </h2>
              <p className="text-sm text-zinc-600">{description}</p>
            </div>
            <form method="dialog">
              <button type="submit" className="rounded border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-50">
                Close
              </button>
            </form>
          </div>
          {children}
        </div>
      </dialog>
    </>
  );
}
