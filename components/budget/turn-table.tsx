"use client";

import Link from "next/link";
import { useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ContextPreviewWithTurns } from "@/lib/domain/history/context-preview";

/** A row's height: one line of text-sm with py-1, and its border. */
const ROW_HEIGHT = 29;
/** The scroll box's height (max-h-96). */
const BOX_HEIGHT = 384;

/**
 * The per-turn table of the budget preview. A chain of 10,000 turns has 10,000 rows: only those in
 * view (and a few either side) are in the document, between two spacer rows that keep the
 * scrollbar true to the whole table; scrolling brings in the others.
 */
export function TurnTable({ turns }: { turns: ContextPreviewWithTurns["perTurn"] }) {
  const box = useRef<HTMLDivElement>(null);
  // The React Compiler (not enabled here) would skip this component: nothing to memoise anyway.
  // eslint-disable-next-line react-hooks/incompatible-library -- useVirtualizer is meant to be called like this
  const rows = useVirtualizer({
    count: turns.length,
    getScrollElement: () => box.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
    initialRect: { width: 0, height: BOX_HEIGHT },
  });
  const items = rows.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = rows.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <div
      ref={box}
      tabIndex={0}
      role="region"
      aria-label="Turns sent and cut"
      className="mt-2 max-h-96 overflow-auto"
      data-testid="turn-table"
    >
      <table className="w-full text-sm" aria-rowcount={turns.length + 1}>
        <thead className="sticky top-0 z-10 bg-white text-left text-zinc-500">
          <tr aria-rowindex={1}>
            <th className="py-1">Turn</th>
            <th className="py-1">Role</th>
            <th className="py-1">Tool</th>
            <th className="py-1 text-right">Tokens</th>
            <th className="py-1 text-right">State</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {items.map((item) => {
            const t = turns[item.index]!;
            return (
              <tr
                key={t.number}
                ref={rows.measureElement}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                className="border-t border-zinc-100"
              >
                <td className="py-1 font-mono">
                  <Link
                    href={`/threads/${t.threadId}#turn-${t.turnId}`}
                    prefetch={false}
                    className="text-indigo-700 hover:underline"
                    title={`Turn ${t.index + 1} of its thread`}
                  >
                    #{t.number}
                  </Link>
                </td>
                <td className="py-1">{t.role}</td>
                <td className="py-1 font-mono text-xs">{t.toolName ?? ""}</td>
                <td className="py-1 text-right font-mono">{t.tokens.toLocaleString("en-US")}</td>
                <td className={`py-1 text-right ${t.included ? "text-emerald-700" : "text-red-700"}`}>{t.included ? "sent" : "cut"}</td>
              </tr>
            );
          })}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </tbody>
      </table>
    </div>
  );
}
