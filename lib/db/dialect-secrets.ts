import type { Database } from "./create-client";
import { databaseKind } from "./create-client";
import { run } from "./dialect";

/**
 * Raw SQL of the scan for secrets, for both databases (see dialect.ts). Raw because the scan reads
 * every byte of every turn once: through Prisma's query compiler the reads of a 40 MB import took
 * twice as long.
 */

export type ScanRow = { seq: number; id: string; threadId: string; index: number; content: string; parts: string | null; snapshots: { position: number; content: string }[] };

/** The next `limit` turns after seq `after`, in seq order, with their file snapshots' contents. */
export async function turnsAfter(db: Database, after: number, limit: number): Promise<ScanRow[]> {
  const kind = databaseKind(db);
  const rows = await run<{ seq: number | bigint; id: string; threadId: string; index: number | bigint; content: string; parts: string | null }[]>(
    db,
    kind,
    `SELECT "seq" AS seq, "id" AS id, "threadId" AS "threadId", "index" AS "index", "content" AS content, "parts" AS parts
       FROM "Turn" WHERE "seq" > ? ORDER BY "seq" LIMIT ?`,
    after,
    limit,
  );
  const turns: ScanRow[] = rows.map((r) => ({ seq: Number(r.seq), id: r.id, threadId: r.threadId, index: Number(r.index), content: r.content, parts: r.parts, snapshots: [] }));
  if (turns.length === 0) return turns;
  // One range read: the snapshots of the turns read, by their seqs' span.
  const snapshots = await run<{ turnSeq: number | bigint; position: number | bigint; content: string }[]>(
    db,
    kind,
    `SELECT "turnSeq" AS "turnSeq", "position" AS position, "content" AS content FROM "FileSnapshot"
      WHERE "turnSeq" > ? AND "turnSeq" <= ? ORDER BY "turnSeq", "position"`,
    after,
    turns.at(-1)!.seq,
  );
  const bySeq = new Map(turns.map((t) => [t.seq, t]));
  for (const s of snapshots) bySeq.get(Number(s.turnSeq))?.snapshots.push({ position: Number(s.position), content: s.content });
  return turns;
}
