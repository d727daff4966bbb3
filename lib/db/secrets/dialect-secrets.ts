import type { Database } from "../engine/create-client";
import { databaseKind } from "../engine/create-client";
import { run } from "../engine/dialect";

/**
 * Raw SQL of the scan for secrets, for both databases (see dialect.ts). Raw because the scan reads
 * every byte of every turn once: through Prisma's query compiler the reads of a 40 MB import took
 * twice as long.
 */

/** `searchMasked`: search reads a masked copy of the content (Turn.searchContent is set). */
export type ScanRow = {
  seq: number;
  id: string;
  threadId: string;
  index: number;
  content: string;
  parts: string | null;
  searchMasked: boolean;
  snapshots: { position: number; content: string }[];
};

/**
 * The next turns after seq `after`, in seq order, with their file snapshots' contents: at most
 * `maxTurns`, and no more than `maxBytes` of content and parts (always at least one turn). Sizes
 * are read first (octet_length needs no text in JavaScript), so a batch is as large as memory
 * allows: each read has a fixed cost, and batches of 200 small turns spent half the scan on it.
 * `full`: the batch stopped at a bound, so more turns may follow it; otherwise it holds every turn
 * stored when it was read.
 */
export async function turnsAfter(
  db: Database,
  after: number,
  maxTurns: number,
  maxBytes: number,
): Promise<{ turns: ScanRow[]; full: boolean }> {
  const kind = databaseKind(db);
  const sizes = await run<{ seq: number | bigint; size: number | bigint | null }[]>(
    db,
    kind,
    `SELECT "seq" AS seq, octet_length("content") + coalesce(octet_length("parts"), 0) AS size
       FROM "Turn" WHERE "seq" > ? ORDER BY "seq" LIMIT ?`,
    after,
    maxTurns,
  );
  if (sizes.length === 0) return { turns: [], full: false };
  let through = Number(sizes[0]!.seq);
  let bytes = Number(sizes[0]!.size ?? 0);
  let full = sizes.length === maxTurns;
  for (const row of sizes.slice(1)) {
    bytes += Number(row.size ?? 0);
    if (bytes > maxBytes) {
      full = true;
      break;
    }
    through = Number(row.seq);
  }
  const rows = await run<
    {
      seq: number | bigint;
      id: string;
      threadId: string;
      index: number | bigint;
      content: string;
      parts: string | null;
      masked: number | bigint;
    }[]
  >(
    db,
    kind,
    `SELECT "seq" AS seq, "id" AS id, "threadId" AS "threadId", "index" AS "index", "content" AS content, "parts" AS parts,
            CASE WHEN "searchContent" IS NULL THEN 0 ELSE 1 END AS masked
       FROM "Turn" WHERE "seq" > ? AND "seq" <= ? ORDER BY "seq"`,
    after,
    through,
  );
  const turns: ScanRow[] = rows.map((r) => ({
    seq: Number(r.seq),
    id: r.id,
    threadId: r.threadId,
    index: Number(r.index),
    content: r.content,
    parts: r.parts,
    searchMasked: Number(r.masked) === 1,
    snapshots: [],
  }));
  if (turns.length === 0) return { turns, full };
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
  return { turns, full };
}

/**
 * Turns and titles stored before search read masked copies, which the migration hid from search
 * (their copy is ""), after `after` in key order: the scan writes their copies (lib/db/secrets/search-texts.ts).
 */
export async function hiddenSearchTurns(
  db: Database,
  after: number,
  limit: number,
): Promise<{ seq: number; content: string; parts: string | null }[]> {
  const rows = await run<{ seq: number | bigint; content: string; parts: string | null }[]>(
    db,
    databaseKind(db),
    `SELECT "seq" AS seq, "content" AS content, "parts" AS parts FROM "Turn" WHERE "seq" > ? AND "searchContent" = '' ORDER BY "seq" LIMIT ?`,
    after,
    limit,
  );
  return rows.map((r) => ({ seq: Number(r.seq), content: r.content, parts: r.parts }));
}

export async function hiddenSearchTitles(db: Database, after: string, limit: number): Promise<{ id: string; title: string | null }[]> {
  return run(
    db,
    databaseKind(db),
    `SELECT "id" AS id, "title" AS title FROM "Thread" WHERE "id" > ? AND "searchTitle" = '' ORDER BY "id" LIMIT ?`,
    after,
    limit,
  );
}
