import type { Metadata } from "next";
import { headers } from "next/headers";
import { readerFrom } from "@/lib/auth/reader";
import { maskDeep } from "@/lib/domain/secrets/detect";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TokenCount } from "@/components/ui/token-count";
import { lineageGraph } from "@/lib/db/threads/lineage";
import { findThread } from "@/lib/db/threads/threads";
import { displayTitle, shownTitle } from "@/lib/domain/threads/title";
import { plural } from "@/lib/format";

export const metadata: Metadata = { title: "Lineage" };

const CARD_W = 208;
const CARD_H = 88;
const GAP_X = 24;
const GAP_Y = 56;

const EDGE_STYLE = {
  continuation: { stroke: "#a1a1aa", dash: undefined, label: null },
  subagent: { stroke: "#b45309", dash: "10 3 2 3", label: "sub-agent" },
  fork: { stroke: "#0284c7", dash: "6 4", label: "fork" },
  compaction: { stroke: "#7c3aed", dash: "2 4", label: "compacted" },
} as const;

/**
 * The thread's lineage drawn as a tree: the chain it belongs to, its continuations, forks (at which
 * turn) and compacted revisions, the oldest thread on top. Each card opens its thread.
 */
export default async function LineagePage({ params }: { params: Promise<{ id: string }> }) {
  const thread = maskDeep(await findThread((await params).id));
  if (!thread) notFound();
  const graph = maskDeep(await lineageGraph(thread.id, await readerFrom(await headers())));
  const x = (column: number) => column * (CARD_W + GAP_X);
  const y = (depth: number) => depth * (CARD_H + GAP_Y);
  const place = new Map(graph.nodes.map((n) => [n.id, n]));
  const width = graph.width * (CARD_W + GAP_X) - GAP_X;
  const height = (graph.depth + 1) * (CARD_H + GAP_Y) - GAP_Y;
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-600">
        {plural(graph.nodes.length, "thread")} linked by continuations, sub-agents, forks and compactions.{" "}
        <span className="inline-flex flex-wrap gap-3 text-xs" data-testid="lineage-legend">
          <span>
            <span aria-hidden className="mr-1 inline-block w-6 border-t-2 border-zinc-400 align-middle" />
            continues
          </span>
          <span>
            <span aria-hidden className="mr-1 inline-block w-6 border-t-2 border-dashed border-amber-700 align-middle" />
            sub-agent (run by the thread above)
          </span>
          <span>
            <span aria-hidden className="mr-1 inline-block w-6 border-t-2 border-dashed border-sky-600 align-middle" />
            fork
          </span>
          <span>
            <span aria-hidden className="mr-1 inline-block w-6 border-t-2 border-dotted border-violet-600 align-middle" />
            compacted revision
          </span>
        </span>
        {graph.truncated && <span className="block text-amber-800">Only the first 200 threads are drawn.</span>}
      </p>
      <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white p-4" data-testid="lineage">
        <div className="relative" style={{ width, height }}>
          <svg className="absolute inset-0" width={width} height={height} aria-hidden>
            {graph.edges.map((edge) => {
              const from = place.get(edge.from);
              const to = place.get(edge.to);
              if (!from || !to) return null;
              const style = EDGE_STYLE[edge.kind];
              const x1 = x(from.column) + CARD_W / 2;
              const y1 = y(from.depth) + CARD_H;
              const x2 = x(to.column) + CARD_W / 2;
              const y2 = y(to.depth);
              const mid = (y1 + y2) / 2;
              const label = edge.kind === "fork" && edge.atTurn !== undefined ? `fork at turn ${edge.atTurn + 1}` : style.label;
              return (
                <g key={`${edge.from}-${edge.to}-${edge.kind}`}>
                  <path
                    d={`M ${x1} ${y1} V ${mid} H ${x2} V ${y2}`}
                    fill="none"
                    stroke={style.stroke}
                    strokeWidth={2}
                    strokeDasharray={style.dash}
                  />
                  {label && (
                    <text x={x2 + 6} y={y2 - 8} fontSize={11} fill={style.stroke}>
                      {label}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
          <ol aria-label="Threads in this lineage">
            {graph.nodes.map((node) => {
              const info = graph.threads[node.id];
              if (!info) return null;
              const current = node.id === graph.current;
              return (
                <li key={node.id} className="absolute" style={{ left: x(node.column), top: y(node.depth), width: CARD_W, height: CARD_H }}>
                  <Link
                    href={`/threads/${node.id}`}
                    aria-current={current ? "page" : undefined}
                    className={`flex h-full flex-col justify-between rounded-lg border px-3 py-2 text-sm ${current ? "border-indigo-500 bg-indigo-50 ring-1 ring-indigo-500" : "border-zinc-200 bg-white hover:border-zinc-400"}`}
                  >
                    <span className="line-clamp-2 font-medium break-words" title={displayTitle(info.title)}>
                      {shownTitle(info.title).text}
                    </span>
                    <span className="text-xs text-zinc-600">
                      {plural(info.turnCount, "turn")} · <TokenCount tokens={undefined} estimate={info.tokenEstimate} />
                      {info.expired ? " · expired" : ""}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ol>
        </div>
      </div>
    </div>
  );
}
