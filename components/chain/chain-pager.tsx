import Link from "next/link";
import { displayTitle } from "@/lib/domain/threads/title";
import { threadStarts, windowLinks } from "@/lib/domain/threads/chain-window";
import type { Thread } from "@/lib/domain/types";
import { formatInteger } from "@/lib/format";

/** The id of the chain page's turn section: page links land on it. */
export const CHAIN_TURNS_ID = "chain-turns";

const turnHref = (turn: number) => `?turn=${turn}#${CHAIN_TURNS_ID}`;

function PageLink({ turn, label, rel }: { turn: number | null; label: string; rel?: "prev" | "next" }) {
  if (turn === null) return <span className="rounded border border-zinc-200 px-2 py-1 text-zinc-400">{label}</span>;
  return (
    <Link href={turnHref(turn)} rel={rel} className="rounded border border-zinc-300 bg-white px-2 py-1 text-indigo-700 hover:bg-zinc-50">
      {label}
    </Link>
  );
}

/**
 * Moves through a long chain a window of turns at a time: first, previous, next and last, and
 * (with `jumps`) straight to a turn number or to a thread's first turn. Plain links and GET forms:
 * each window is a server-rendered page, so the page holds one window's turns however long the chain.
 */
export function ChainPager({
  chainPath,
  threads,
  currentId,
  start,
  end,
  total,
  size,
  jumps,
}: {
  chainPath: string;
  threads: Thread[];
  currentId: string;
  start: number;
  end: number;
  total: number;
  size: number;
  jumps: boolean;
}) {
  const links = windowLinks(start, total, size);
  const starts = threadStarts(threads.map((t) => t.turnCount));
  return (
    <nav aria-label={jumps ? "Pages of turns" : "Pages of turns (end)"} className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
      <span className="text-zinc-600" data-testid={jumps ? "chain-window" : undefined}>
        Turns {formatInteger(start + 1)}–{formatInteger(end)} of {formatInteger(total)}
      </span>
      <span className="flex flex-wrap gap-1">
        <PageLink turn={links.previous === null ? null : 1} label="« First" />
        <PageLink turn={links.previous} label="‹ Previous" rel="prev" />
        <PageLink turn={links.next} label="Next ›" rel="next" />
        <PageLink turn={links.last} label="Last »" />
      </span>
      {jumps && (
        <>
          {/* The fragment stays on a GET form's action: the new window opens at its turns. */}
          <form method="get" action={`${chainPath}#${CHAIN_TURNS_ID}`} className="flex items-center gap-1">
            <label className="flex items-center gap-1">
              <span className="text-zinc-600">Go to turn</span>
              <input type="number" name="turn" min={1} max={total} required className="w-24 rounded border border-zinc-300 px-2 py-1" />
            </label>
            <button type="submit" className="rounded border border-zinc-300 bg-white px-2 py-1 hover:bg-zinc-50">
              Go
            </button>
          </form>
          <form method="get" action={`${chainPath}#${CHAIN_TURNS_ID}`} className="flex min-w-0 items-center gap-1">
            <label className="flex min-w-0 items-center gap-1">
              <span className="text-zinc-600">Thread</span>
              <select
                name="turn"
                defaultValue={String(starts[threads.findIndex((t) => t.id === currentId)] ?? 1)}
                className="max-w-64 min-w-0 rounded border border-zinc-300 bg-white px-2 py-1"
              >
                {threads.map((t, i) =>
                  t.turnCount === 0 ? null : (
                    <option key={t.id} value={starts[i]}>
                      {`${i + 1}. ${displayTitle(t.title)}${t.id === currentId ? " (this thread)" : ""} · turns ${formatInteger(starts[i]!)}–${formatInteger(starts[i]! + t.turnCount - 1)}`}
                    </option>
                  ),
                )}
              </select>
            </label>
            <button type="submit" className="rounded border border-zinc-300 bg-white px-2 py-1 hover:bg-zinc-50">
              Open
            </button>
          </form>
        </>
      )}
    </nav>
  );
}
