import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TurnView } from "@/components/threads/turn-view";
import { findThread, getChain, getDescendants, type DescendantNode } from "@/lib/db/threads";
import { MAX_CHAIN_DEPTH } from "@/lib/domain/chain";
import { displayTitle } from "@/lib/domain/title";
import type { Thread } from "@/lib/domain/types";

export const metadata: Metadata = { title: "Chain" };

/**
 * The chain as one path: ancestors (as PAL's get_thread_chain walks them), this thread, then its
 * continuations while they do not branch. Branches are listed where they start. The turns of the
 * whole path follow, merged in order and numbered across the chain.
 */
export default async function ChainPage({ params }: { params: Promise<{ id: string }> }) {
  const thread = await findThread((await params).id);
  if (!thread) notFound();
  const [ancestry, descendants] = await Promise.all([getChain(thread.id, { includeExpired: true }), getDescendants(thread.id)]);

  const linear: Thread[] = [];
  let branches: DescendantNode[] = descendants;
  while (branches.length === 1 && branches[0]) {
    linear.push(branches[0].thread);
    branches = branches[0].children;
  }
  const continuations = linear.length > 0 ? await Promise.all(linear.map((t) => getChain(t.id, { includeExpired: true }).then((c) => c.at(-1)))) : [];
  const path = [...ancestry, ...continuations.flatMap((entry) => (entry ? [entry] : []))];
  const firstParentMissing = ancestry[0]?.thread.parentThreadId ?? null;

  let number = 0;
  return (
    <div className="space-y-6">
      <section aria-labelledby="path-heading">
        <h2 id="path-heading" className="mb-2 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Chain ({path.length} thread{path.length === 1 ? "" : "s"})
        </h2>
        {firstParentMissing && (
          <p className="mb-2 text-sm text-zinc-500">
            {ancestry.length >= MAX_CHAIN_DEPTH
              ? `Showing the newest ${MAX_CHAIN_DEPTH} threads of a longer chain.`
              : <>Continues from <span className="font-mono text-xs">{firstParentMissing}</span>, which is not in this database.</>}
          </p>
        )}
        <ol className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-stretch" aria-label="Threads in the chain, oldest first">
          {path.map(({ thread: node, turns }, i) => {
            const current = node.id === thread.id;
            return (
              <li key={node.id} className="flex items-center gap-2">
                {i > 0 && <span aria-hidden className="text-zinc-400 sm:rotate-0">→</span>}
                <Link
                  href={`/threads/${node.id}/chain`}
                  aria-current={current ? "page" : undefined}
                  className={`block max-w-64 rounded-lg border px-3 py-2 text-sm ${current ? "border-indigo-500 bg-indigo-50 ring-1 ring-indigo-500" : "border-zinc-200 bg-white hover:border-zinc-400"}`}
                >
                  <span className="block truncate font-medium">{displayTitle(node.title)}</span>
                  <span className="block text-xs text-zinc-500">
                    <span className="font-mono">{node.toolName}</span> · {turns.length} turns{node.expired ? " · expired" : ""}
                  </span>
                </Link>
              </li>
            );
          })}
        </ol>
        {branches.length > 1 && (
          <div className="mt-3 text-sm">
            <p className="text-zinc-600">The chain branches here into {branches.length} continuations:</p>
            <ul className="mt-1 list-disc pl-6">
              {branches.map((b) => (
                <li key={b.thread.id}>
                  <Link href={`/threads/${b.thread.id}/chain`} className="text-indigo-700 underline">
                    {displayTitle(b.thread.title)}
                  </Link>{" "}
                  <span className="text-zinc-500">({b.thread.turnCount} turns)</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>

      <section aria-labelledby="turns-heading">
        <h2 id="turns-heading" className="mb-2 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Turns across the chain
        </h2>
        <ol className="space-y-3">
          {path.flatMap(({ thread: node, turns }) =>
            turns.map((turn) => {
              number += 1;
              return (
                <li key={turn.id}>
                  <TurnView turn={turn} number={number} threadLabel={node.id === thread.id ? "this thread" : displayTitle(node.title)} />
                </li>
              );
            }),
          )}
        </ol>
      </section>
    </div>
  );
}
