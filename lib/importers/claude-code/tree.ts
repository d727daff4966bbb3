// The uuid tree of a session (the first pass's skeletons): its active path, the rewinds on it, and
// which lines go to the main thread, to a fork or to an inline sidechain.
import { CONVERSATIONAL } from "./entries";
import type { Skeleton } from "./shapes";

export type SessionTree = {
  nodes: Map<string, Skeleton>;
  /** Child uuids by parent uuid, in file order. */
  children: Map<string, string[]>;
};

/** A rewound prompt's subtree: its root, the node it was rewound at, and its conversational lines. */
export type Fork = { root: string; at: string; lines: Set<number> };

/** The active path (main, non-sidechain entries only): from last-prompt's leaf, else the newest conversational entry, up the parents. */
export function activePath({ nodes }: SessionTree, lastPromptLeaf: string | null): Set<string> {
  let leaf: Skeleton | undefined = lastPromptLeaf ? nodes.get(lastPromptLeaf) : undefined;
  if (!leaf || leaf.sidechain) {
    for (const node of nodes.values()) {
      if (node.sidechain || !CONVERSATIONAL.has(node.kind)) continue;
      if (!leaf || node.time > leaf.time || (node.time === leaf.time && node.line > leaf.line)) leaf = node;
    }
  }
  const onPath = new Set<string>();
  for (let node = leaf, guard = 0; node && guard <= nodes.size; guard++) {
    if (onPath.has(node.uuid)) break; // a loop in parent links: stop
    onPath.add(node.uuid);
    node = node.parent ? nodes.get(node.parent) : undefined;
  }
  return onPath;
}

/** Real rewinds: a node on the path with two or more prompt children; each child off the path roots a fork, in file order. */
export function forksOf({ nodes, children }: SessionTree, onPath: Set<string>): { forks: Fork[]; forkOf: Map<string, number> } {
  const isPrompt = (uuid: string) => nodes.get(uuid)?.kind === "prompt";
  const forkRoots: { root: string; at: string }[] = [];
  for (const uuid of onPath) {
    const prompts = (children.get(uuid) ?? []).filter(isPrompt);
    if (prompts.length < 2) continue;
    for (const child of prompts) if (!onPath.has(child)) forkRoots.push({ root: child, at: uuid });
  }
  const forkOf = new Map<string, number>(); // uuid -> index in forks
  const forks: Fork[] = [];
  for (const { root, at } of forkRoots.sort((a, b) => nodes.get(a.root)!.line - nodes.get(b.root)!.line)) {
    const index = forks.length;
    const lines = new Set<number>();
    const stack = [root];
    while (stack.length > 0) {
      const uuid = stack.pop()!;
      if (forkOf.has(uuid)) continue;
      const node = nodes.get(uuid);
      if (!node) continue;
      forkOf.set(uuid, index);
      if (CONVERSATIONAL.has(node.kind)) lines.add(node.line);
      stack.push(...(children.get(uuid) ?? []));
    }
    forks.push({ root, at, lines });
  }
  return { forks, forkOf };
}

/**
 * The conversational lines outside the forks: the main thread's, and each inline sidechain's by its
 * root. In an agent file the sidechain is the thread itself: all its lines are main.
 */
export function linesOutsideForks(
  { nodes }: SessionTree,
  forkOf: Map<string, number>,
  agentFile: boolean,
): { mainLines: Set<number>; sidechains: Map<string, Set<number>> } {
  const sidechainRootOf = (node: Skeleton): string => {
    let current = node;
    for (let guard = 0; guard < nodes.size; guard++) {
      const parent = current.parent ? nodes.get(current.parent) : undefined;
      if (!parent || !parent.sidechain) return current.uuid;
      current = parent;
    }
    return current.uuid;
  };
  const mainLines = new Set<number>();
  const sidechains = new Map<string, Set<number>>();
  for (const node of nodes.values()) {
    if (!CONVERSATIONAL.has(node.kind)) continue;
    if (node.sidechain && !agentFile) {
      const root = sidechainRootOf(node);
      const lines = sidechains.get(root) ?? new Set<number>();
      lines.add(node.line);
      sidechains.set(root, lines);
    } else if (!forkOf.has(node.uuid)) {
      mainLines.add(node.line);
    }
  }
  return { mainLines, sidechains };
}
