import "server-only";
import { collectChain, MAX_CHAIN_DEPTH, type ChainStop } from "@/lib/domain/threads/chain";
import { offsetOf, slicesOf } from "@/lib/domain/threads/chain-window";
import type { Thread, Turn } from "@/lib/domain/types";
import { db } from "../engine/client";
import { toThread, toTurn, WITH_SNAPSHOTS } from "../engine/mappers";

export type ChainView = {
  /**
   * Ancestors oldest first, the thread itself, then its continuations while they do not branch;
   * each thread once. Their turns are read a window at a time (chainTurns): a long chain has tens
   * of thousands.
   */
  path: Thread[];
  /**
   * Why the ancestors end where they do, and the parent id named there (null at a root): a parent
   * not in the database, a loop back to a thread already on the path, or MAX_CHAIN_DEPTH.
   */
  ancestorsEnd: { stoppedBy: ChainStop; parentId: string | null };
  /** Continuations of the path's last thread when there are two or more (the path stops there). */
  branches: Thread[];
  /** Whether continuations go on past MAX_CHAIN_DEPTH after the thread. */
  continuationsCut: boolean;
};

/**
 * The chain page's threads, expired ones included. Safe for data that loops (imports once
 * accepted A -> B -> A): every walk stops at a thread already on the path, so none is shown twice.
 */
export async function getChainView(thread: Thread): Promise<ChainView> {
  const client = await db();
  const { chain: ancestors, stoppedBy } = await collectChain(thread.id, async (id) => {
    if (id === thread.id) return thread;
    const row = await client.thread.findUnique({ where: { id } });
    return row ? toThread(row) : null;
  });
  const onPath = new Set(ancestors.map((t) => t.id));

  const continuations: Thread[] = [];
  let branches: Thread[] = [];
  let continuationsCut = false;
  for (let last = thread; ;) {
    const rows = await client.thread.findMany({ where: { parentThreadId: last.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const children = rows.filter((row) => !onPath.has(row.id)).map((row) => toThread(row));
    if (children.length > 1) branches = children;
    if (children.length !== 1) break;
    if (continuations.length >= MAX_CHAIN_DEPTH) {
      continuationsCut = true;
      break;
    }
    last = children[0]!;
    continuations.push(last);
    onPath.add(last.id);
  }

  return {
    path: [...ancestors, ...continuations],
    ancestorsEnd: { stoppedBy, parentId: ancestors[0]?.parentThreadId ?? null },
    branches,
    continuationsCut,
  };
}

/** A turn of the chain with its offset across it (0-based: the oldest thread's first turn is 0). */
export type ChainTurn = { offset: number; thread: Thread; turn: Turn };

/**
 * The turns at chain offsets [start, end) of a path, in order: each thread's share is read by its
 * (threadId, index) range, so a window costs the same at the end of a 10,000-turn chain as at its
 * start. Turns are numbered by the threads' turn counts (indexes run 0..turnCount-1).
 */
export async function chainTurns(path: Thread[], start: number, end: number): Promise<ChainTurn[]> {
  const slices = slicesOf(
    path.map((t) => t.turnCount),
    start,
    end,
  );
  if (slices.length === 0) return [];
  const rows = await (
    await db()
  ).turn.findMany({
    where: { OR: slices.map((s) => ({ threadId: path[s.thread]!.id, index: { gte: s.from, lt: s.to } })) },
    include: WITH_SNAPSHOTS,
  });
  const position = new Map(slices.map((s) => [path[s.thread]!.id, s]));
  return rows
    .map((row) => {
      const slice = position.get(row.threadId)!;
      return { offset: slice.firstOffset + row.index - slice.from, thread: path[slice.thread]!, turn: toTurn(row) };
    })
    .sort((a, b) => a.offset - b.offset);
}

/** Where a turn is across the chain (its offset), or null when it is not one of the path's turns. */
export async function chainOffsetOfTurn(path: Thread[], turnId: string): Promise<number | null> {
  const row = await (await db()).turn.findUnique({ where: { id: turnId }, select: { threadId: true, index: true } });
  if (!row) return null;
  return offsetOf(
    path.map((t) => t.turnCount),
    path.findIndex((t) => t.id === row.threadId),
    row.index,
  );
}
