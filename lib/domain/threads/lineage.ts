/**
 * A thread's lineage as a graph: the threads linked to it by continuation (parentThreadId), fork
 * (the source and turn a fork copies) and compaction (a revision and its original), laid out as
 * a tree in layers, the oldest ancestor on top. Pure: the database gathers the links.
 */
/** "subagent": a child thread an agent ran as a sub-agent (its relation says so), drawn apart from a continuation. */
type LineageEdgeKind = "continuation" | "subagent" | "fork" | "compaction";

export type LineageEdge = { from: string; to: string; kind: LineageEdgeKind; /** For forks: the source's turn index. */ atTurn?: number };

type LaidOutNode = { id: string; depth: number; column: number };
export type LineageLayout = { nodes: LaidOutNode[]; edges: LineageEdge[]; depth: number; width: number };

/**
 * Places the tree under `root`: each node one layer below the node it came from, siblings side by
 * side in the order of `edges`, a parent centred above its children (a tidy tree, in columns).
 * A node reached twice (data from before loops were refused) is placed once; edges to it stay.
 */
export function layoutLineage(root: string, edges: LineageEdge[]): LineageLayout {
  const children = new Map<string, LineageEdge[]>();
  for (const edge of edges) {
    if (edge.from === edge.to) continue;
    children.set(edge.from, [...(children.get(edge.from) ?? []), edge]);
  }
  const placed = new Map<string, LaidOutNode>();
  const kept: LineageEdge[] = [];
  let nextColumn = 0;
  let depth = 0;

  // Depth first, iteratively: leaves take the next free column, parents the middle of theirs.
  type Frame = { id: string; depth: number; pending: LineageEdge[]; columns: number[] };
  const stack: Frame[] = [{ id: root, depth: 0, pending: [...(children.get(root) ?? [])], columns: [] }];
  placed.set(root, { id: root, depth: 0, column: -1 });
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    const edge = frame.pending.shift();
    if (edge) {
      kept.push(edge);
      if (placed.has(edge.to)) continue;
      placed.set(edge.to, { id: edge.to, depth: frame.depth + 1, column: -1 });
      depth = Math.max(depth, frame.depth + 1);
      stack.push({ id: edge.to, depth: frame.depth + 1, pending: [...(children.get(edge.to) ?? [])], columns: [] });
      continue;
    }
    stack.pop();
    const node = placed.get(frame.id)!;
    node.column = frame.columns.length === 0 ? nextColumn++ : (frame.columns[0]! + frame.columns.at(-1)!) / 2;
    stack.at(-1)?.columns.push(node.column);
  }
  return { nodes: [...placed.values()], edges: kept, depth, width: Math.max(1, nextColumn) };
}
