import { chunked, IN_LIST_CHUNK } from "../engine/chunks";
import { databaseKind, type Database } from "../engine/create-client";
import { containsPattern, numberedFor, run, type RawReader } from "../engine/dialect";

/**
 * Raw SQL of imports and followed folders, for both databases (see dialect.ts): what an import of
 * a file recorded, and what the syncs of followed folders remember of each file.
 */

/**
 * What an import of a file with this content recorded: the threads it made or updated (their ids
 * in its order, titles and metadata) and, when it made none, how many compaction runs it gave.
 * Raw, because an import of many small files asks for each; `db` is the Prisma client or, on
 * SQLite, the import's own connection (withImportReader).
 */
export async function importedFileRecord(
  db: RawReader,
  sha256: string,
): Promise<{
  name: string;
  format: string;
  threadIds: string[];
  threads: { id: string; title: string | null; metadata: string | null }[];
  compactionRuns: number;
} | null> {
  const kind = databaseKind(db);
  const [record] = await run<{ name: string; format: string; threadIds: string }[]>(
    db,
    kind,
    `SELECT "name", "format", "threadIds" FROM "ImportedFile" WHERE "sha256" = ?`,
    sha256,
  );
  if (!record) return null;
  const threadIds = JSON.parse(record.threadIds) as string[];
  const threads: { id: string; title: string | null; metadata: string | null }[] = [];
  for (const chunk of chunked(threadIds, IN_LIST_CHUNK)) {
    threads.push(
      ...(await run<typeof threads>(
        db,
        kind,
        `SELECT "id", "title", "metadata" FROM "Thread" WHERE "id" IN (${chunk.map(() => "?").join(", ")})`,
        ...chunk,
      )),
    );
  }
  let compactionRuns = 0;
  if (threadIds.length === 0) {
    const [counted] = await run<{ n: number | bigint }[]>(
      db,
      kind,
      `SELECT COUNT(*) AS n FROM "CompactionRun" WHERE "sourceSha256" = ?`,
      sha256,
    );
    compactionRuns = Number(counted?.n ?? 0);
  }
  return { name: record.name, format: record.format, threadIds, threads, compactionRuns };
}

/** `mtime` is stat's mtimeMs as String(mtimeMs) writes it. */
export type SourceFileRow = { path: string; size: number; mtime: string; failure: string | null; warning: string | null };

/** The remembered files whose path starts with `prefix` (a folder, ending in "/"). */
export async function sourceFileRowsUnder(db: Database, prefix: string): Promise<SourceFileRow[]> {
  const rows = await run<SourceFileRow[]>(
    db,
    databaseKind(db),
    `SELECT "path", "size", "mtime", "failure", "warning" FROM "SourceFile" WHERE "path" LIKE ? ESCAPE '\\'`,
    `${containsPattern(prefix).slice(1)}`,
  );
  // LIKE ignores ASCII case in SQLite: /home/User/ is not /home/user/.
  return rows
    .filter((row) => row.path.startsWith(prefix))
    .map((row) => ({ path: row.path, size: Number(row.size), mtime: row.mtime, failure: row.failure, warning: row.warning }));
}

/** Remembers files as a sync left them, a chunk of rows per statement. */
export async function saveSourceFileRows(db: Database, rows: SourceFileRow[]): Promise<void> {
  for (const chunk of chunked(rows, Math.floor(IN_LIST_CHUNK / 5))) {
    await db.$executeRawUnsafe(
      numberedFor(
        db,
        `INSERT INTO "SourceFile" ("path", "size", "mtime", "failure", "warning") VALUES ${chunk.map(() => "(?, ?, ?, ?, ?)").join(", ")}
        ON CONFLICT ("path") DO UPDATE SET "size" = excluded."size", "mtime" = excluded."mtime", "failure" = excluded."failure", "warning" = excluded."warning"`,
      ),
      ...chunk.flatMap((row) => [row.path, row.size, row.mtime, row.failure, row.warning]),
    );
  }
}

/** Forgets files that are gone (their threads stay). */
export async function forgetSourceFileRows(db: Database, paths: string[]): Promise<void> {
  for (const chunk of chunked(paths, IN_LIST_CHUNK)) {
    await db.$executeRawUnsafe(numberedFor(db, `DELETE FROM "SourceFile" WHERE "path" IN (${chunk.map(() => "?").join(", ")})`), ...chunk);
  }
}
