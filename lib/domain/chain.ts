export const MAX_CHAIN_DEPTH = 20;

export type ChainLink = { id: string; parentThreadId: string | null };

/**
 * Walks parent links from `startId` and returns the chain oldest first, as PAL's
 * get_thread_chain: at most `maxDepth` threads, stopping at a missing parent or at a cycle.
 */
export async function collectChain<T extends ChainLink>(
  startId: string,
  load: (id: string) => Promise<T | null>,
  maxDepth: number = MAX_CHAIN_DEPTH,
): Promise<{ chain: T[]; stoppedBy: "root" | "missing" | "cycle" | "depth" }> {
  const chain: T[] = [];
  const seen = new Set<string>();
  let currentId: string | null = startId;
  let stoppedBy: "root" | "missing" | "cycle" | "depth" = "root";
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
