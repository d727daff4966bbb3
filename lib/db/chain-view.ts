import "server-only";
import { collectChain, MAX_CHAIN_DEPTH, type ChainStop } from "@/lib/domain/chain";
import type { Thread, ThreadWithTurns, Turn } from "@/lib/domain/types";
import { db } from "./client";
import { toThread, toTurn, WITH_SNAPSHOTS } from "./mappers";

export type ChainView = {
  /** Ancestors oldest first, the thread itself, then its continuations while they do not branch; each thread once. */
  path: ThreadWithTurns[];
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
 * The chain page's data, expired threads included. Safe for data that loops (imports once
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
  for (let last = thread; ; ) {
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

  const threads = [...ancestors, ...continuations];
  const turns = await client.turn.findMany({
    where: { threadId: { in: threads.map((t) => t.id) } },
    orderBy: [{ threadId: "asc" }, { index: "asc" }],
    include: WITH_SNAPSHOTS,
  });
  const byThread = new Map<string, Turn[]>();
  for (const row of turns) {
    const list = byThread.get(row.threadId) ?? [];
    list.push(toTurn(row));
    byThread.set(row.threadId, list);
  }
  return {
    path: threads.map((t) => ({ thread: t, turns: byThread.get(t.id) ?? [] })),
    ancestorsEnd: { stoppedBy, parentId: ancestors[0]?.parentThreadId ?? null },
    branches,
    continuationsCut,
  };
}
