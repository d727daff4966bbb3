import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { buildToolIndex } from "@/components/threads/tool-index";
import { TurnView } from "@/components/threads/turn-view";
import { describeCompaction } from "@/components/compaction/compaction-lineage";
import { getChainView } from "@/lib/db/chain-view";
import { compactionsTouching } from "@/lib/db/compactions";
import { MAX_CHAIN_DEPTH } from "@/lib/domain/chain";
import { displayTitle } from "@/lib/domain/title";
import { plural } from "@/lib/format";
import { findThreadOnce } from "../thread-data";

export const metadata: Metadata = { title: "Chain" };

/**
 * The chain as one path: ancestors (as PAL's get_thread_chain walks them), this thread, then its
 * continuations while they do not branch. Branches are listed where they start. The turns of the
 * whole path follow, merged in order and numbered across the chain.
 */
export default async function ChainPage({ params }: { params: Promise<{ id: string }> }) {
  const thread = await findThreadOnce((await params).id);
  if (!thread) notFound();
  const { path, ancestorsEnd, branches, continuationsCut } = await getChainView(thread);
  const compactions = await compactionsTouching(path.map((entry) => entry.thread.id));
  const oldest = path[0]!.thread;
  const loopsTo = ancestorsEnd.stoppedBy === "cycle" ? path.find((entry) => entry.thread.id === ancestorsEnd.parentId)?.thread : undefined;

  // Numbered across the chain; calls and results are paired across it too.
  const numbered = path.flatMap(({ thread: node, turns }) => turns.map((turn) => ({ node, turn })));
  const tools = buildToolIndex(numbered.map(({ turn }, i) => ({ turn, number: i + 1 })));
  return (
    <div className="space-y-6">
      <section aria-labelledby="path-heading">
        <h2 id="path-heading" className="mb-2 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Chain ({plural(path.length, "thread")})
        </h2>
        {ancestorsEnd.stoppedBy !== "root" && (
          <p className="mb-2 text-sm break-words text-zinc-500" data-testid="chain-start">
            {ancestorsEnd.stoppedBy === "depth" ? (
              `Showing the newest ${MAX_CHAIN_DEPTH} threads of a longer chain.`
            ) : ancestorsEnd.stoppedBy === "cycle" ? (
              // Only data from before imports refused loops can get here.
              <>
                The parent links loop: “{displayTitle(oldest.title)}” continues from “{displayTitle(loopsTo?.title ?? null)}”, already in this
                chain.
              </>
            ) : (
              <>
                Continues from <span className="font-mono text-xs break-all">{ancestorsEnd.parentId}</span>, which is not in this database.
              </>
            )}
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
                  <span className="block text-xs break-all text-zinc-500">
                    <span className="font-mono">{node.toolName}</span> · {plural(turns.length, "turn")}
                    {node.expired ? " · expired" : ""}
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
              {branches.map((branch) => (
                <li key={branch.id}>
                  <Link href={`/threads/${branch.id}/chain`} className="text-indigo-700 underline">
                    {displayTitle(branch.title)}
                  </Link>{" "}
                  <span className="text-zinc-500">({plural(branch.turnCount, "turn")})</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {compactions.length > 0 && (
          <div className="mt-3 text-sm" data-testid="chain-compactions">
            <p className="text-zinc-600">Compactions of threads in this chain:</p>
            <ul className="mt-1 list-disc pl-6">
              {compactions.map((c) => (
                <li key={c.id} className="break-words">
                  <Link href={`/threads/${c.originalThreadId}/chain`} className="text-indigo-700 underline">
                    {displayTitle(c.originalTitle)}
                  </Link>{" "}
                  compacted into{" "}
                  <Link href={`/threads/${c.revisionThreadId}/chain`} className="text-indigo-700 underline">
                    {displayTitle(c.revisionTitle)}
                  </Link>{" "}
                  <span className="text-zinc-500">({describeCompaction(c)})</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {continuationsCut && (
          <p className="mt-3 text-sm text-zinc-500" data-testid="chain-end">
            The continuations go on past {MAX_CHAIN_DEPTH} threads; open the last one shown to follow them.
          </p>
        )}
      </section>

      <section aria-labelledby="turns-heading">
        <h2 id="turns-heading" className="mb-2 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Turns across the chain
        </h2>
        <ol className="space-y-3">
          {numbered.map(({ node, turn }, i) => (
            <li key={turn.id}>
              <TurnView turn={turn} number={i + 1} threadLabel={node.id === thread.id ? "this thread" : displayTitle(node.title)} tools={tools} />
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
