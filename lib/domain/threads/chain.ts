export const MAX_CHAIN_DEPTH = 20;

export type ChainLink = { id: string; parentThreadId: string | null };

/** Why a walk up the parent links ended: at a root, a parent not found, a loop, or MAX_CHAIN_DEPTH. */
export type ChainStop = "root" | "missing" | "cycle" | "depth";

/**
 * Walks parent links from `startId` and returns the chain oldest first, as PAL's
 * get_thread_chain: at most `maxDepth` threads, stopping at a missing parent or at a cycle.
 */
export async function collectChain<T extends ChainLink>(
  startId: string,
  load: (id: string) => Promise<T | null>,
  maxDepth: number = MAX_CHAIN_DEPTH,
): Promise<{ chain: T[]; stoppedBy: ChainStop }> {
  const chain: T[] = [];
  const seen = new Set<string>();
  let currentId: string | null = startId;
  let stoppedBy: ChainStop = "root";
  while (currentId) {
    if (chain.length >= maxDepth) {
      stoppedBy = "depth";
      break;
    }
    if (seen.has(currentId)) {
      stoppedBy = "cycle";
      break;
    }
    seen.add(currentId);
    const link = await load(currentId);
    if (!link) {
      stoppedBy = "missing";
      break;
    }
    chain.push(link);
    currentId = link.parentThreadId;
  }
  return { chain: chain.reverse(), stoppedBy };
}

/**
 * The first loop in parent links that passes through one of `startIds` (a thread that is its own
 * parent, or A -> B -> A), as the ids on it, each followed by its parent; null when there is none.
 * A loop among other threads that a start merely leads into does not count. `parentOf` gives a
 * thread's parent id, null for a root or an unknown thread. Each thread is looked up at most once
 * over all starts, so long chains cost linear time.
 */
export async function findParentCycle(
  startIds: Iterable<string>,
  parentOf: (id: string) => string | null | Promise<string | null>,
): Promise<string[] | null> {
  const starts = new Set(startIds);
  const done = new Set<string>(); // walked before: on no loop, or on one that does not count
  for (const start of starts) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let id: string | null = start;
    while (id !== null && !done.has(id) && !onPath.has(id)) {
      path.push(id);
      onPath.add(id);
      id = await parentOf(id);
    }
    if (id !== null && onPath.has(id)) {
      const loop = path.slice(path.indexOf(id));
      if (loop.some((member) => starts.has(member))) return loop;
    }
    for (const walked of path) done.add(walked);
  }
  return null;
}
