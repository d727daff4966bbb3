import "server-only";
import { layoutLineage, type LineageEdge, type LineageLayout } from "@/lib/domain/threads/lineage";
import type { Reader } from "@/lib/domain/access";
import { db } from "../engine/client";
import { readableWhere } from "../engine/readable";
import { inChunks } from "../engine/chunks";
import { relationOf } from "@/lib/domain/threads/links";

type LineageNode = { id: string; title: string | null; turnCount: number; tokenEstimate: number; expired: boolean; source: string };
export type LineageGraph = LineageLayout & { root: string; current: string; threads: Record<string, LineageNode>; truncated: boolean };

/** Enough for any real lineage; a larger one is cut, and says so. */
const MAX_NODES = 200;
const MAX_UP = 50;

/**
 * The lineage of a thread: up from it to the oldest thread it descends from (through the fork or
 * compaction it was made by, else its parent link), then down from there through continuations,
 * forks and compacted revisions, laid out as a tree. Only threads `reader` may read are in it: the
 * walk up stops below one they may not, and one below is left out with what hangs under it.
 */
export async function lineageGraph(threadId: string, reader: Reader): Promise<LineageGraph> {
  const client = await db();
  let root = threadId;
  const seen = new Set([root]);
  for (let i = 0; i < MAX_UP; i++) {
    const [fork, compaction, thread] = await Promise.all([
      client.fork.findUnique({ where: { forkThreadId: root }, select: { sourceThreadId: true } }),
      client.compaction.findUnique({ where: { revisionThreadId: root }, select: { originalThreadId: true } }),
      client.thread.findUnique({ where: { id: root }, select: { parentThreadId: true } }),
    ]);
    const up = fork?.sourceThreadId ?? compaction?.originalThreadId ?? thread?.parentThreadId ?? null;
    if (!up || seen.has(up) || !(await client.thread.findFirst({ where: { id: up, ...readableWhere(reader) }, select: { id: true } })))
      break;
    seen.add(up);
    root = up;
  }

  const edges: LineageEdge[] = [];
  const ids = new Set([root]);
  let layer = [root];
  let truncated = false;
  while (layer.length > 0 && !truncated) {
    const [forks, compactions, children] = await Promise.all([
      inChunks(layer, (chunk) => client.fork.findMany({ where: { sourceThreadId: { in: chunk } }, orderBy: { createdAt: "asc" } })),
      inChunks(layer, (chunk) => client.compaction.findMany({ where: { originalThreadId: { in: chunk } }, orderBy: { createdAt: "asc" } })),
      inChunks(layer, (chunk) =>
        // Forks and revisions carry their source's parent link too: they hang under their source.
        client.thread.findMany({
          where: { parentThreadId: { in: chunk }, forkedFrom: null, compaction: null },
          orderBy: { createdAt: "asc" },
          select: { id: true, parentThreadId: true, metadata: true },
        }),
      ),
    ]);
    const next: string[] = [];
    const add = (edge: LineageEdge) => {
      edges.push(edge);
      if (ids.has(edge.to)) return;
      if (ids.size >= MAX_NODES) return void (truncated = true);
      ids.add(edge.to);
      next.push(edge.to);
    };
    for (const child of children)
      add({
        from: child.parentThreadId!,
        to: child.id,
        kind: relationOf(child.metadata)?.kind === "subagent" ? "subagent" : "continuation",
      });
    for (const fork of forks) add({ from: fork.sourceThreadId, to: fork.forkThreadId, kind: "fork", atTurn: fork.atTurn });
    for (const compaction of compactions) add({ from: compaction.originalThreadId, to: compaction.revisionThreadId, kind: "compaction" });
    layer = next;
  }

  const rows = await inChunks([...ids], (chunk) =>
    client.thread.findMany({
      where: { id: { in: chunk }, ...readableWhere(reader) },
      select: { id: true, title: true, turnCount: true, tokenEstimate: true, expiresAt: true, source: true },
    }),
  );
  const now = Date.now();
  const threads = Object.fromEntries(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        title: row.title,
        turnCount: row.turnCount,
        tokenEstimate: row.tokenEstimate,
        expired: row.expiresAt !== null && row.expiresAt.getTime() <= now,
        source: row.source,
      },
    ]),
  );
  return {
    ...layoutLineage(
      root,
      edges.filter((e) => threads[e.to] && threads[e.from]),
    ),
    root,
    current: threadId,
    threads,
    truncated,
  };
}
