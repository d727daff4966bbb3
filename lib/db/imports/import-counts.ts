import type { ImportWriter, TokenCountRow } from "./import-rows";
import { withImportWriter } from "./import-writer";

/**
 * Token counts that an import's transaction committed without, written just after it: in bulk
 * runs only (startBulkImports).
 *
 * An import writes its turns' o200k counts in its own transaction, counted on another core while
 * it parses and writes (lib/tokenizers/background-counter.ts), and waits at the end for the last
 * batch's. For a run of small files that wait was most of each import: a 26 KB session waited
 * about a millisecond, the counting core's whole work for that file, while this one sat idle. So
 * in a bulk run (the import CLI's, over its folders) an import commits without the counts still
 * on their way (storeTurnStream hands them here once its COMMIT has succeeded: a rolled-back
 * import has none here) and goes on to the next file while they are counted. They are written
 * with the next import's transaction, before its COMMIT (and put back when that one rolls back),
 * or, when no import follows, in a transaction of their own a moment later; the run's `finish`
 * returns once all are written. A count is written only for the turn it was counted for, still
 * stored (same seq and id, the id names the content), and never over a count stored meanwhile
 * (lib/db/threads/token-counts.ts stores what a reader found missing). Until its count is written, a
 * reader treats a turn as it does any turn without one: it counts it (history-source.ts,
 * token-counts.ts) or falls back to its estimate. Outside a bulk run (an upload, a test) an
 * import commits with every count, as a reader right after it expects.
 */

/** Bulk runs in progress in this process (startBulkImports): imports started meanwhile commit before their last counts. */
let bulkRuns = 0;

/**
 * Starts a run of many imports one after another (the import CLI's, over its folders): until
 * `finish`, each import's last counts are written after its commit (see above), and `finish`
 * waits for them all. An import elsewhere in the process meanwhile (an upload during the run)
 * does the same.
 */
export function startBulkImports(): { finish(): Promise<void> } {
  bulkRuns += 1;
  let finished = false;
  return {
    async finish() {
      if (!finished) bulkRuns -= 1;
      finished = true;
      await lateCountsWritten();
    },
  };
}

/** Whether an import starting now commits before its last counts (during a bulk run). */
export function countsFollowCommit(): boolean {
  return bulkRuns > 0;
}

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
 * when the transaction commits and return to it when it does not.
 */
export async function withEarlierCounts<T>(
  databaseUrl: string,
  work: (writeReady: (writer: ImportWriter) => Promise<void>) => Promise<T>,
): Promise<T> {
  importing.set(databaseUrl, (importing.get(databaseUrl) ?? 0) + 1);
  lastImportAt = performance.now();
  let taken: Late[] = [];
  try {
    const result = await work(async (writer) => {
      taken = takeReady(databaseUrl);
      await writer.insertTokenCounts(taken.flatMap((entry) => entry.rows!));
    });
    taken = [];
    return result;
  } finally {
    late.unshift(...taken);
    const left = (importing.get(databaseUrl) ?? 1) - 1;
    if (left > 0) importing.set(databaseUrl, left);
    else importing.delete(databaseUrl);
    lastImportAt = performance.now();
    scheduleIdleWrite();
  }
}

/**
 * Waits until every count handed over so far is written (or has failed to count).
 * @internal exported for its tests
 */
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
      // While imports follow one another, the next one takes the counts along.
      if (performance.now() - lastImportAt < IDLE_WRITE_MS) scheduleIdleWrite();
      else {
        const write = writeReady({ evenWhileImporting: false }).finally(() => idleWrites.delete(write));
        idleWrites.add(write);
      }
    },
    Math.max(1, lastImportAt + IDLE_WRITE_MS - performance.now()),
  );
}

/** Writes the ready counts of each database in a transaction of their own (unless an import there will take them). */
async function writeReady({ evenWhileImporting }: { evenWhileImporting: boolean }): Promise<void> {
  const databases = new Set(late.filter((entry) => entry.rows !== null).map((entry) => entry.databaseUrl));
  for (const databaseUrl of databases) {
    if (!evenWhileImporting && importing.has(databaseUrl)) continue;
    const taken = takeReady(databaseUrl);
    try {
      await withImportWriter(databaseUrl, (writer) => writer.insertTokenCounts(taken.flatMap((entry) => entry.rows!)));
    } catch (error) {
      // The database is gone or refuses the write: readers count these turns when asked.
      console.error(
        `[threadline] token counts of imported turns could not be written: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  scheduleIdleWrite();
}
