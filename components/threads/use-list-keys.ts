"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { usePageKeys } from "@/components/ui/use-page-keys";
import { stepSelection, type KeyBinding } from "@/lib/domain/display/keys";

export type ListAction = "next" | "previous" | "open" | "search" | "help";

/** The thread list's keys, for its "?" dialog and its handler alike (the thread page has its own, reader-nav.ts). */
export const LIST_KEYS: readonly KeyBinding<ListAction>[] = [
  { keys: ["j"], action: "next", label: "Select the next thread" },
  { keys: ["k"], action: "previous", label: "Select the previous thread" },
  { keys: ["Enter"], action: "open", label: "Open the selected thread" },
  { keys: ["/"], action: "search", label: "Search titles and turns" },
  { keys: ["?"], action: "help", label: "Show these shortcuts" },
];

/** A row of the list, found by the thread it shows (its title link takes the focus). */
const rowLink = (id: string) => document.querySelector<HTMLAnchorElement>(`li[data-thread-id="${CSS.escape(id)}"] a`);

/**
 * The thread list by keyboard: j/k move the selection (the row is marked and its link focused, so
 * Enter opens it as any link would), Enter with nothing focused opens the selected thread, / goes
 * to the search box and ? shows the keys. A row focused by Tab or a click becomes the selection.
 */
export function useListKeys(ids: readonly string[]) {
  const router = useRouter();
  const [selected, setSelected] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  usePageKeys(LIST_KEYS, (action) => {
    if (action === "next" || action === "previous") {
      const id = stepSelection(ids, selected, action === "next" ? 1 : -1);
      setSelected(id);
      if (id) rowLink(id)?.focus();
    } else if (action === "open") {
      // Enter on a link, a button or a summary does what it does there.
      if (!selected || (document.activeElement && document.activeElement !== document.body)) return false;
      router.push(`/threads/${selected}`);
    } else if (action === "search") {
      // Listed here for the dialog; the app-wide handler (components/ui/search-key.tsx) focuses the box.
      return false;
    } else {
      dialog.current?.showModal();
    }
  });
  return { selected, select: setSelected, dialog };
}
