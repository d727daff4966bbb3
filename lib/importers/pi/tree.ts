// The session tree split into threads: the active branch, then one fork per abandoned branch.
import { collapse } from "../text";
import type { ImportedThread } from "../types";
import type { PiNode } from "./entries";

export type Branch = {
  /** The branch's own nodes, root side first. */
  nodes: PiNode[];
  /** Index (into the branches) of the branch it left; -1 for the active branch. */
  parent: number;
  /** Key of the last turn-making node the branch shares with its parent branch; null when it shares none. */
  atKey: string | null;
};

/**
 * The active branch is the path from the file's last entry to its root (pi moves its leaf to the
 * last entry it loads). Every other leaf ends an abandoned branch: its nodes are those up from the
 * leaf until a node already given to a branch. Leaves are taken in file order, so a stretch two
 * abandoned branches share stays with the older one and the newer becomes its fork: a branch added
 * later never takes turns away from a fork imported before (only a move of the active branch can).
 * The branch point is the nearest node up the parent links that makes a turn (`makesTurn`); the
 * branch it belongs to is the fork's parent. Linear in the number of nodes.
 */
export function splitBranches(
  nodes: PiNode[],
  makesTurn: (node: PiNode) => boolean,
  warnings: string[],
): { branches: Branch[]; unreached: PiNode[] } {
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const hasChild = new Set<string>();
  for (const node of nodes) {
    if (node.parentKey === null) continue;
    if (byKey.has(node.parentKey)) hasChild.add(node.parentKey);
    else warnings.push(`line ${node.line}: parent ${node.parentKey} is not in the file: the entry starts a branch of its own`);
  }
  const parentOf = (node: PiNode): PiNode | undefined => (node.parentKey === null ? undefined : byKey.get(node.parentKey));
  // The nearest turn-making node at or above each node, in file order (a parent comes first).
  const nearestTurn = new Map<string, PiNode | null>();
  for (const node of nodes) {
    const parent = parentOf(node);
    nearestTurn.set(node.key, makesTurn(node) ? node : parent ? (nearestTurn.get(parent.key) ?? null) : null);
  }
  const branchOf = new Map<string, number>();
  const branches: Branch[] = [];

  const claim = (leaf: PiNode, index: number): PiNode | undefined => {
    const own: PiNode[] = [];
    let node: PiNode | undefined = leaf;
    // A parent loop (a broken file) ends the walk: each node is claimed once.
    while (node && !branchOf.has(node.key)) {
      branchOf.set(node.key, index);
      own.push(node);
      node = parentOf(node);
    }
    branches.push({ nodes: own.reverse(), parent: -1, atKey: null });
    return node;
  };

  const last = nodes.at(-1);
  if (!last) return { branches: [{ nodes: [], parent: -1, atKey: null }], unreached: [] };
  claim(last, 0);
  const leaves = nodes.filter((node) => !hasChild.has(node.key) && !branchOf.has(node.key));
  for (const leaf of leaves) {
    if (branchOf.has(leaf.key)) continue; // claimed by an earlier leaf's walk (a parent loop)
    const index = branches.length;
    const left = claim(leaf, index);
    const point = left ? nearestTurn.get(left.key) : null;
    const branch = branches[index]!;
    branch.parent = point ? branchOf.get(point.key)! : 0;
    branch.atKey = point?.key ?? null;
  }
  // Only entries in a parent loop that no leaf leads into are left: a broken file.
  return { branches, unreached: nodes.filter((node) => !branchOf.has(node.key)) };
}

/**
 * Ties each branch's thread (`threadOfBranch[i]`; -1: the branch made none) to its parent branch's
 * as a fork at its branch point, titled after the main thread and the branch's first turn. The
 * first branch is the main thread's own. A branch whose parent branch made no thread cannot exist
 * (a parent branch holds its branch point's turn); the main thread stands in for it all the same.
 */
export function linkBranchThreads(
  branches: readonly Branch[],
  threadOfBranch: readonly number[],
  threads: ImportedThread[],
  main: ImportedThread,
  untitled: string,
): void {
  branches.forEach((branch, index) => {
    const at = threadOfBranch[index]!;
    if (index === 0 || at === -1) return;
    const thread = threads[at]!;
    const parent = threads[threadOfBranch[branch.parent] ?? 0] ?? main;
    thread.parentKey = parent.key;
    thread.relation = { kind: "fork", atTurnKey: branch.atKey };
    const first = thread.turns[0]!;
    thread.title = `${main.title ?? untitled} — branch: ${collapse(first.content, 60) || first.role}`;
  });
}
