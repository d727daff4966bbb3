import type { Metadata } from "next";
import { maskDeep } from "@/lib/domain/secrets/detect";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChainPager, CHAIN_TURNS_ID } from "@/components/chain/chain-pager";
import { TurnLinksAcrossWindows } from "@/components/chain/turn-links-across-windows";
import { buildToolIndex, type ToolIndex } from "@/components/threads/tool-index";
import { TurnView } from "@/components/threads/turn-view";
import { describeCompaction } from "@/components/compaction/compaction-lineage";
import { chainOffsetOfTurn, chainTurns, getChainView, type ChainTurn } from "@/lib/db/threads/chain-view";
import { compactionsTouching } from "@/lib/db/threads/compactions";
import { MAX_CHAIN_DEPTH } from "@/lib/domain/threads/chain";
import { CHAIN_WINDOW, chainPosition, parseTurnParam, windowAt } from "@/lib/domain/threads/chain-window";
import { normalizeId } from "@/lib/domain/ids";
import { displayTitle, shownTitle } from "@/lib/domain/threads/title";
import { isSubagentThread } from "@/lib/domain/threads/links";
import { sourceLabel } from "@/lib/domain/display/source";
import { namesATool } from "@/lib/domain/threads/thread-tools";
import { formatInteger, plural } from "@/lib/format";
import { findThreadOnce } from "../thread-data";

export const metadata: Metadata = { title: "Chain" };

/** Turns read either side of the window, so a call and its result pair across the window's edge. */
const TOOL_MARGIN = 25;

/**
 * The chain as one path: ancestors (as PAL's get_thread_chain walks them), this thread, then its
 * continuations while they do not branch. Branches are listed where they start. The turns of the
 * whole path follow, merged in order and numbered across the chain, a window of CHAIN_WINDOW at a
 * time (?turn=N opens the window holding turn N, ?at=<turn id> the one holding that turn): a chain
 * of 20 threads of 500 turns is 10,000 turns, far too many for one page.
 */
export default async function ChainPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const thread = await findThreadOnce((await params).id);
  if (!thread) notFound();
  const { path, ancestorsEnd, branches, continuationsCut } = maskDeep(await getChainView(thread));
  const compactions = await compactionsTouching(path.map((node) => node.id));
  const oldest = path[0]!;
  const loopsTo = ancestorsEnd.stoppedBy === "cycle" ? path.find((node) => node.id === ancestorsEnd.parentId) : undefined;

  const query = await searchParams;
  const total = path.reduce((sum, node) => sum + node.turnCount, 0);
  const atId = normalizeId(query.at);
  const at = atId ? await chainOffsetOfTurn(path, atId) : null;
  const { start, end } = windowAt(at === null ? parseTurnParam(query.turn) : at + 1, total);
  // Numbered across the chain; calls and results are paired across it too (and a little past the window).
  const read = maskDeep(await chainTurns(path, Math.max(0, start - TOOL_MARGIN), Math.min(total, end + TOOL_MARGIN)));
  const tools = buildToolIndex(read.map(({ offset, turn }) => ({ turn, number: offset + 1 })));
  const groups = byThread(read.filter(({ offset }) => offset >= start && offset < end));
  const chainPath = `/threads/${thread.id}/chain`;
  const pager = total > CHAIN_WINDOW ? { chainPath, threads: path, currentId: thread.id, start, end, total, size: CHAIN_WINDOW } : null;
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
                The parent links loop: “{displayTitle(oldest.title)}” continues from “{displayTitle(loopsTo?.title ?? null)}”, already in
                this chain.
              </>
            ) : (
              <>
                Continues from <span className="font-mono text-xs break-all">{ancestorsEnd.parentId}</span>, which is not in this database.
              </>
            )}
          </p>
        )}
        <ChainPath path={path} currentId={thread.id} />
        {path.length > 1 && (
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600" data-testid="chain-legend">
            <span>
              <span aria-hidden className="mr-1 text-zinc-400">
                →
              </span>
              continues the thread before it
            </span>
            <span>
              <span aria-hidden className="mr-1 inline-block w-5 border-t-2 border-dashed border-amber-700 align-middle" />
              <span className="font-medium text-amber-800">⤷ sub-agent</span>: run by the thread before it
            </span>
          </p>
        )}
        <BranchesAndCompactions branches={branches} compactions={compactions} />
        {continuationsCut && (
          <p className="mt-3 text-sm text-zinc-500" data-testid="chain-end">
            The continuations go on past {MAX_CHAIN_DEPTH} threads; open the last one shown to follow them.
          </p>
        )}
      </section>

      <section aria-labelledby="turns-heading" id={CHAIN_TURNS_ID} className="scroll-mt-4 space-y-3">
        <h2 id="turns-heading" className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Turns across the chain
        </h2>
        {pager && <ChainPager {...pager} jumps />}
        {groups.map(({ node, turns }) => (
          <TurnGroup key={node.id} node={node} turns={turns} path={path} currentId={thread.id} tools={tools} />
        ))}
        {pager && <ChainPager {...pager} jumps={false} />}
        <TurnLinksAcrossWindows chainPath={chainPath} />
      </section>
    </div>
  );
}

type ChainPathNode = Awaited<ReturnType<typeof getChainView>>["path"][number];

/** The threads of the path, oldest first: each a link to its own chain page, marked as a continuation or a sub-agent. */
function ChainPath({ path, currentId }: { path: ChainPathNode[]; currentId: string }) {
  return (
    <ol className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-stretch" aria-label="Threads in the chain, oldest first">
      {path.map((node, i) => {
        const current = node.id === currentId;
        const subagent = i > 0 && isSubagentThread(node);
        return (
          <li key={node.id} className="flex items-center gap-2" data-link={i === 0 ? undefined : subagent ? "subagent" : "continues"}>
            {i > 0 && !subagent && (
              <span aria-hidden className="text-zinc-400 sm:rotate-0">
                →
              </span>
            )}
            {subagent && (
              <span className="shrink-0 text-xs font-medium text-amber-800">
                <span aria-hidden>⤷ </span>sub-agent
              </span>
            )}
            <Link
              href={`/threads/${node.id}/chain`}
              aria-current={current ? "page" : undefined}
              className={`block max-w-64 rounded-lg border px-3 py-2 text-sm ${current ? "border-indigo-500 bg-indigo-50 ring-1 ring-indigo-500" : subagent ? "border-dashed border-amber-700 bg-amber-50/40 hover:border-amber-900" : "border-zinc-200 bg-white hover:border-zinc-400"}`}
            >
              <span className="block truncate font-medium" title={displayTitle(node.title)}>
                {shownTitle(node.title).text}
              </span>
              <span className="block text-xs break-all text-zinc-600">
                {namesATool(node.source) ? <span className="font-mono">{node.toolName}</span> : sourceLabel(node.source)} ·{" "}
                {plural(node.turnCount, "turn")}
                {node.expired ? " · expired" : ""}
              </span>
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

/** Where the chain branches, and the compactions of its threads. */
function BranchesAndCompactions({
  branches,
  compactions,
}: {
  branches: Awaited<ReturnType<typeof getChainView>>["branches"];
  compactions: Awaited<ReturnType<typeof compactionsTouching>>;
}) {
  return (
    <>
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
    </>
  );
}

/** One thread's turns in the window, numbered across the chain. */
function TurnGroup({
  node,
  turns,
  path,
  currentId,
  tools,
}: {
  node: ChainTurn["thread"];
  turns: ChainTurn[];
  path: ChainPathNode[];
  currentId: string;
  tools: ToolIndex;
}) {
  return (
    <section aria-label={`Turns of ${displayTitle(node.title)}`} className="space-y-3">
      {path.length > 1 && (
        <h3 className="text-xs text-zinc-500">
          Thread {chainPosition(path, node.id)} of {path.length}:{" "}
          <span className="font-medium text-zinc-700" title={displayTitle(node.title)}>
            {shownTitle(node.title).text}
          </span>
          , its turns {formatInteger(turns[0]!.turn.index + 1)}–{formatInteger(turns.at(-1)!.turn.index + 1)} of{" "}
          {formatInteger(node.turnCount)}
        </h3>
      )}
      <ol className="space-y-3">
        {turns.map(({ turn, offset }) => (
          <li key={turn.id}>
            <TurnView
              turn={turn}
              number={offset + 1}
              threadLabel={node.id === currentId ? "this thread" : displayTitle(node.title)}
              tools={tools}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Consecutive turns of one thread together, in order. */
function byThread(turns: ChainTurn[]): { node: ChainTurn["thread"]; turns: ChainTurn[] }[] {
  const groups: { node: ChainTurn["thread"]; turns: ChainTurn[] }[] = [];
  for (const turn of turns) {
    const last = groups.at(-1);
    if (last && last.node.id === turn.thread.id) last.turns.push(turn);
    else groups.push({ node: turn.thread, turns: [turn] });
  }
  return groups;
}
