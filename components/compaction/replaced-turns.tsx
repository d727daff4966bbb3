"use client";

import { useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { formatInteger } from "@/lib/format";
import type { CompactionPreview } from "@/lib/queries/compactions";
import { useTurnSummaries } from "@/lib/queries/use-turn-summaries";
import { TurnLabel } from "./workbench-parts";

/** A row's height before it is measured: the label and two lines of excerpt. */
const ROW_HEIGHT = 68;
/** The list's height (max-h-[32rem]). */
const BOX_HEIGHT = 512;

/**
 * The turns a plan replaces (or whose tool outputs it trims). A sliding window over 10,000 turns
 * replaces nearly all of them: only the rows in view are in the document, each loaded with its
 * neighbours when it comes into view, and two empty items stand in for the others (padding would
 * not do: a box's padding is not held in by its max-height).
 */
export function ReplacedTurns({ threadId, plan }: { threadId: string; plan: CompactionPreview["plan"] }) {
  const box = useRef<HTMLOListElement>(null);
  const replacing = plan.replaced.length > 0;
  const count = replacing ? plan.replaced.length : plan.trimmed.length;
  const indexAt = (row: number) => (replacing ? plan.replaced[row]! : plan.trimmed[row]!.index);
  // The React Compiler (not enabled here) would skip this component: nothing to memoise anyway.
  // eslint-disable-next-line react-hooks/incompatible-library -- useVirtualizer is meant to be called like this
  const rows = useVirtualizer({
    count,
    getScrollElement: () => box.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: { width: 0, height: BOX_HEIGHT },
  });
  const items = rows.getVirtualItems();
  const turnAt = useTurnSummaries(
    threadId,
    items.map((item) => indexAt(item.index)),
  );
  const before = items[0]?.start ?? 0;
  const after = rows.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <ol
      ref={box}
      // Scrolls on its own: reachable by keyboard (Tab, then the arrow keys).
      tabIndex={0}
      aria-label={replacing ? "Turns the summary replaces" : "Tool outputs shortened"}
      className="max-h-[32rem] divide-y divide-zinc-100 overflow-y-auto text-sm"
      data-testid="replaced-turns"
    >
      {before > 0 && <li aria-hidden style={{ height: before }} />}
      {items.map((item) => {
        const index = indexAt(item.index);
        const turn = turnAt(index);
        const trim = replacing ? null : plan.trimmed[item.index]!;
        return (
          <li
            key={item.key}
            ref={rows.measureElement}
            data-index={item.index}
            aria-posinset={item.index + 1}
            aria-setsize={count}
            className="px-3 py-2"
          >
            <TurnLabel index={index} turn={turn} />
            {trim ? (
              <>
                {" "}
                {formatInteger(trim.charsBefore)} → {formatInteger(trim.charsAfter)} characters
              </>
            ) : (
              <p className="mt-0.5 line-clamp-2 break-words whitespace-pre-wrap text-zinc-600">
                {turn ? turn.excerpt || <em>(empty)</em> : <span className="text-zinc-400">…</span>}
              </p>
            )}
          </li>
        );
      })}
      {after > 0 && <li aria-hidden style={{ height: after }} />}
    </ol>
  );
}
