import { countsFollowCommit, outsideBulkRuns, type TransactionEnd } from "./import-batch";
import type { ImportWriter, TokenCountRow } from "./import-rows";
import { withImportWriter } from "./import-writer";

/**
 * Token counts that an import's transaction committed without, written just after it: in bulk
 * runs only (lib/db/imports/import-batch.ts startBulkImports).
 *
 * An import writes its turns' o200k counts in its own transaction, counted on another core while
 * it parses and writes (lib/tokenizers/background-counter.ts), and waits at the end for the last
 * batch's. For a run of small files that wait was most of each import: a 26 KB session waited
 * about a millisecond, the counting core's whole work for that file, while this one sat idle. So
 * in a bulk run (a folder's full sync, the import CLI's) an import commits without the counts still
 * on their way (storeTurnStream hands them here once its COMMIT has succeeded: a rolled-back
 * import has none here) and goes on to the next file while they are counted. They are written
 * with a later import's transaction, before its COMMIT (and put back when that one rolls back),
 * or, when no import follows and the run has ended, in a transaction of their own a moment later. The run does not wait
 * for them (they are no part of a synced folder; lateCountsWritten does, for the CLI and tests).
 * A count is written only for the turn it was counted for, still
 * stored (same seq and id, the id names the content), and never over a count stored meanwhile
 * (lib/db/threads/token-counts.ts stores what a reader found missing). Until its count is written, a
 * reader treats a turn as it does any turn without one: it counts it (history-source.ts,
 * token-counts.ts) or falls back to its estimate. Outside a bulk run (an upload, a test) an
 * import commits with every count, as a reader right after it expects.
 */

/** How long written counts wait for an import that would take them along before they get a transaction of their own. */
const IDLE_WRITE_MS = 20;

type Late = { databaseUrl: string; rows: TokenCountRow[] | null; counting: Promise<void> };

const late: Late[] = [];
/** Imports in progress, per database: they write what is ready before they commit. */
const importing = new Map<string, number>();
/** When an import last began or ended (performance.now()): while imports follow each other, they take the counts along. */
let lastImportAt = 0;
let timer: NodeJS.Timeout | null = null;

/** Counts of turns a committed import wrote, on their way (see above). */
export function writeCountsLater(databaseUrl: string, counts: Promise<TokenCountRow[]>[]): void {
  for (const promise of counts) {
    const entry: Late = { databaseUrl, rows: null, counting: Promise.resolve() };
    entry.counting = promise.then(
      (rows) => {
        entry.rows = rows;
        scheduleIdleWrite();
      },
      (error: unknown) => {
        // The counting worker failed (it had counted the rest); readers count these turns when asked.
        const at = late.indexOf(entry);
        if (at >= 0) late.splice(at, 1);
        console.error(
          `[threadline] token counts of imported turns could not be counted: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
    late.push(entry);
  }
}

/**
 * Runs an import's transaction (`work`, which calls withImportWriter) with the counts of earlier
 * imports that are ready: `writeReady` writes them with the import's writer; they leave the queue
 * then, and return to it when the transaction (or the batch it is in) is rolled back.
 */
export async function withEarlierCounts<T>(
  databaseUrl: string,
  work: (writeReady: (writer: ImportWriter, end: TransactionEnd) => Promise<void>) => Promise<T>,
): Promise<T> {
  importing.set(databaseUrl, (importing.get(databaseUrl) ?? 0) + 1);
  lastImportAt = performance.now();
  try {
    return await work((writer, end) => writeTaken(databaseUrl, writer, end));
  } finally {
    const left = (importing.get(databaseUrl) ?? 1) - 1;
    if (left > 0) importing.set(databaseUrl, left);
    else importing.delete(databaseUrl);
    lastImportAt = performance.now();
    scheduleIdleWrite();
  }
}

/** Writes the ready counts of `databaseUrl` with `writer`; they go back to the queue if its transaction is rolled back. */
async function writeTaken(databaseUrl: string, writer: ImportWriter, end: TransactionEnd): Promise<void> {
  const taken = takeReady(databaseUrl);
  if (taken.length === 0) return;
  end.afterRollback(() => {
    late.unshift(...taken);
    scheduleIdleWrite();
  });
  await writer.insertTokenCounts(taken.flatMap((entry) => entry.rows!));
}

/** Waits until every count handed over so far is written (or has failed to count): the import CLI before it ends, tests. */
export async function lateCountsWritten(): Promise<void> {
  // Counts an idle write has taken are out of the queue but not yet committed: wait for those too.
  while (late.length > 0 || idleWrites.size > 0) {
    await Promise.all(late.map((entry) => entry.counting));
    await Promise.all(idleWrites);
    if (late.length > 0) await writeReady({ evenWhileImporting: true });
  }
}

/** Idle writes in progress (scheduleIdleWrite): nobody else awaits them. */
const idleWrites = new Set<Promise<void>>();

function takeReady(databaseUrl: string): Late[] {
  const ready: Late[] = [];
  for (let i = 0; i < late.length;) {
    if (late[i]!.databaseUrl === databaseUrl && late[i]!.rows !== null) ready.push(...late.splice(i, 1));
    else i++;
  }
  return ready;
}

function scheduleIdleWrite(): void {
  if (timer || !late.some((entry) => entry.rows !== null)) return;
  // Keeps the process alive until they are written: a script that imports and ends loses none.
  timer = setTimeout(
    () => {
      timer = null;
      // An import in progress takes them along, or schedules this again when it ends.
      if (importing.size > 0) return;
      // While imports follow one another (a bulk run goes on), the next one takes the counts along:
      // a transaction of their own would make the run's batch commit early (import-batch.ts).
      if (countsFollowCommit() || performance.now() - lastImportAt < IDLE_WRITE_MS) scheduleIdleWrite();
      else {
        const write = writeReady({ evenWhileImporting: false }).finally(() => idleWrites.delete(write));
        idleWrites.add(write);
      }
    },
    countsFollowCommit() ? IDLE_WRITE_MS : Math.max(1, lastImportAt + IDLE_WRITE_MS - performance.now()),
  );
}

/** Writes the ready counts of each database in a transaction of their own (unless an import there will take them). */
async function writeReady({ evenWhileImporting }: { evenWhileImporting: boolean }): Promise<void> {
  const databases = new Set(late.filter((entry) => entry.rows !== null).map((entry) => entry.databaseUrl));
  for (const databaseUrl of databases) {
    if (!evenWhileImporting && importing.has(databaseUrl)) continue;
    try {
      // In a transaction of their own even when a bulk run scheduled them: committed when this resolves.
      await outsideBulkRuns(() => withImportWriter(databaseUrl, (writer, end) => writeTaken(databaseUrl, writer, end)));
    } catch (error) {
      // The database is gone or refuses the write: readers count these turns when asked.
      console.error(
        `[threadline] token counts of imported turns could not be written: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  scheduleIdleWrite();
}
