import { AsyncLocalStorage } from "node:async_hooks";
import { FifoLock } from "../engine/serialized-adapter";
import type { ImportWriter } from "./import-rows";
import type { RawReader } from "../engine/dialect";

/**
 * Bulk runs of imports (a followed folder's full sync, the import CLI): their files share
 * transactions, many files to one, each file in a savepoint of its own.
 *
 * A first sync of 2,000 small sessions committed 2,800 transactions: on SQLite each COMMIT wrote
 * its own copy of every page it touched (the search index's and the indexes' pages again and
 * again: 2.4 GB written for a 150 MB database), and each file's turns went into the search index
 * one row at a time through its trigger. Here a batch stays open while files follow one another
 * and commits once it has been open a second (a run's first batch: 250 ms), once another writer in the process asks for the
 * lock, once no file follows within 50 ms (batchLimits), or when the run ends: the write lock is
 * never held long, and a chat reply or an upload gets in after the file being imported. On SQLite a batch fills the search
 * index in one statement before its COMMIT (import-writer.ts), so no committed turn is ever
 * missing from search.
 *
 * A file that fails rolls back to its savepoint and takes no other file with it. What a run
 * remembers of its files (which were imported) it learns through whenCommitted: a batch that is
 * rolled back (its COMMIT failed, the process ended) leaves the database as if it never began,
 * and its files are imported again by the next sync.
 */

/**
 * `batchMs`: a batch commits at the end of the first import that finds it open this long;
 * `firstBatchMs` for a run's first batch, which holds the newest sessions (a sync reads them
 * first): they show within a quarter of a second. Later batches of 250 ms too cost a first sync of
 * 2,000 sessions 5-6 s of CPU more (35-38 s against 29-31 s, probe): each COMMIT wrote the search
 * index's and the indexes' pages again, and each batch filled the search index in a statement.
 * `idleMs`: a batch no import joined for this long commits (the run reads a large file, or does something else).
 * `aloneBytes`: an import of a file larger than this has a batch of its own (see join).
 * @internal exported for its tests, which hold a whole run in one batch
 */
export const batchLimits = { firstBatchMs: 250, batchMs: 1000, idleMs: 50, aloneBytes: 1024 * 1024 };

/** What an import's transaction does once its writes have committed, or have been rolled back. */
export type TransactionEnd = {
  afterCommit(done: () => void): void;
  afterRollback(undone: () => void): void;
};

/** An open transaction of the import writer's (SQLite: import-writer.ts, PostgreSQL: import-writer-postgres.ts). */
export type ImportTransaction = {
  writer: ImportWriter;
  /** SQLite: reads on the transaction's connection (see withImportReader). */
  reader: RawReader | null;
  savepoint(): Promise<void>;
  releaseSavepoint(): Promise<void>;
  /** Undoes what was written since the savepoint and ends it. */
  rollbackToSavepoint(): Promise<void>;
  /** Commits and lets go of the connection and the locks; rolls back when the COMMIT fails, and throws. */
  commit(): Promise<void>;
  /** Rolls back and lets go of the connection and the locks; never throws. */
  rollback(): Promise<void>;
  /** Calls `listener` when another writer in this process asks for the lock the transaction holds (SQLite). */
  whenContended(listener: () => void): void;
};

/** `batch`: the transaction takes many files (each in a savepoint); lone otherwise. */
export type BeginTransaction = (options: { batch: boolean }) => Promise<ImportTransaction>;

/** The callbacks of one import's transaction (or of one whenCommitted), run when its batch ends. */
class Ends implements TransactionEnd {
  private readonly done: (() => void)[] = [];
  private readonly undone: (() => void)[] = [];

  afterCommit(done: () => void): void {
    this.done.push(done);
  }

  afterRollback(undone: () => void): void {
    this.undone.push(undone);
  }

  committed(): void {
    for (const done of this.done) done();
  }

  rolledBack(): void {
    for (const undone of this.undone) undone();
  }
}

/** Runs `work` in a transaction of its own (begun by `begin`), committed when it resolves, rolled back when it throws. */
export async function inLoneTransaction<T>(
  begin: BeginTransaction,
  work: (writer: ImportWriter, end: TransactionEnd) => Promise<T>,
): Promise<T> {
  const transaction = await begin({ batch: false });
  const ends = new Ends();
  let result: T;
  try {
    result = await work(transaction.writer, ends);
  } catch (error) {
    await transaction.rollback();
    ends.rolledBack();
    throw error;
  }
  try {
    await transaction.commit();
  } catch (error) {
    ends.rolledBack();
    throw error;
  }
  ends.committed();
  return result;
}

/** `imports`: how many imports wrote in it (its `ends` also hold whenCommitted's callbacks). */
type Batch = { databaseUrl: string; transaction: ImportTransaction; openedAt: number; ends: Ends[]; imports: number };

/**
 * Bulk runs in progress in this process (imports started meanwhile store their turns uncounted),
 * and who waits for the last to end (bulkRunsEnded). On globalThis: the start-up hook's bundle
 * runs the followed folders' syncs, the route handlers' bundle the uploads, and both must agree.
 */
const bulk = ((globalThis as unknown as { threadlineBulkRuns?: { active: number; endWaiters: (() => void)[] } }).threadlineBulkRuns ??= {
  active: 0,
  endWaiters: [],
});

/**
 * Whether a bulk run is in progress in this process: an import starting now leaves its token
 * counts to the backlog (lib/db/threads/count-backlog.ts), which waits for the run to end.
 */
export function bulkRunsActive(): boolean {
  return bulk.active > 0;
}

/** Resolves once no bulk run is in progress in this process (and the last one's writes have committed). */
export function bulkRunsEnded(): Promise<void> {
  if (bulk.active === 0) return Promise.resolve();
  return new Promise((resolve) => bulk.endWaiters.push(resolve));
}

/**
 * Calls `fire` now, or, while a bulk run is in progress in this process, once none is: however
 * often it is asked meanwhile, it then fires once. For the background passes that writes wake
 * (the secret scan, the usage sums): run beside a first sync on the same thread, their rounds
 * every few seconds made every thread listed and searchable only as late as everything else (a
 * 2,000-session first sync imported in 25-28 s with them, in 15-17 s without them and the passes
 * 6-8 s after, done at about the same time). Pages do not wait for them: they sum the threads
 * they show (refreshUsageOf), reports run a pass of their own, and secrets are masked wherever
 * text is shown, exported or sent, by detection there, not by the scan's findings.
 */
export function afterBulkRuns(state: { heldForBulkRuns: boolean }, fire: () => void): void {
  if (!bulkRunsActive()) return fire();
  if (state.heldForBulkRuns) return;
  state.heldForBulkRuns = true;
  void bulkRunsEnded().then(() => {
    state.heldForBulkRuns = false;
    fire();
  });
}

/** The bulk run whose `run` the caller is inside of, while it has not finished. */
const current = new AsyncLocalStorage<BulkRun>();

export function currentBulkRun(): BulkRun | null {
  const run = current.getStore();
  return run && !run.finished ? run : null;
}

/**
 * Starts a run of many imports one after another (a folder's full sync, the import CLI's): the
 * imports inside `run` share its batches, and until `finish` every import in the process (an
 * upload meanwhile too) stores its turns without token counts, which the backlog counts once the
 * run has ended (bulkRunsEnded). `finish` commits what is open.
 */
export function startBulkImports(): BulkRun {
  bulk.active += 1;
  return new BulkRun();
}

export class BulkRun {
  finished = false;
  private batch: Batch | null = null;
  /** One file in the batch at a time (the run's imports follow one another). */
  private readonly turn = new FifoLock();
  private idle: NodeJS.Timeout | null = null;
  private batchesCommitted = 0;

  /** Runs `work` (imports, and what the run does around them) with its imports in the run's batches. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return current.run(this, work);
  }

  /** Calls `done` once everything imported in the run so far has committed, or `undone` when it was rolled back instead. */
  whenCommitted(done: () => void, undone: () => void): void {
    if (!this.batch) return done();
    const ends = new Ends();
    ends.afterCommit(done);
    ends.afterRollback(undone);
    this.batch.ends.push(ends);
  }

  /** Commits what is open and ends the run (a failed COMMIT is told to whenCommitted's callbacks and logged). */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    bulk.active -= 1;
    await this.turn.run(() => this.commitOrLog());
    if (bulk.active === 0) for (const resolve of bulk.endWaiters.splice(0)) resolve();
  }

  /**
   * Runs one import's transaction (`work`) in the open batch, beginning a batch when none is open
   * (import-writer.ts withImportWriter, for imports inside `run`). A throw of `work` undoes what it
   * wrote: back to its savepoint, or the whole batch when it was the batch's first import (which
   * needs no savepoint). A COMMIT that fails at the end of the import throws too. An import of
   * `bytes` over batchLimits.aloneBytes begins a batch of its own: on SQLite a savepoint keeps a copy of every
   * page it changes that the batch had before (its sub-journal), which a large file would make large.
   * @internal for withImportWriter
   */
  async join<T>(
    databaseUrl: string,
    begin: BeginTransaction,
    work: (writer: ImportWriter, end: TransactionEnd) => Promise<T>,
    bytes: number,
  ): Promise<T> {
    const release = await this.turn.acquire();
    try {
      if (this.idle) clearTimeout(this.idle);
      this.idle = null;
      const open = this.batch;
      if (open && (open.databaseUrl !== databaseUrl || this.due(open) || (bytes > batchLimits.aloneBytes && open.imports > 0)))
        await this.commitOrLog();
      this.batch ??= await this.open(databaseUrl, begin);
      const batch = this.batch;
      const first = batch.imports === 0;
      const ends = new Ends();
      batch.ends.push(ends);
      batch.imports += 1;
      let result: T;
      try {
        if (!first) await batch.transaction.savepoint();
        result = await work(batch.transaction.writer, ends);
        if (!first) await batch.transaction.releaseSavepoint();
      } catch (error) {
        batch.ends.pop();
        batch.imports -= 1;
        if (first) await this.rollBack();
        else await batch.transaction.rollbackToSavepoint().catch(() => this.rollBack());
        ends.rolledBack();
        throw error;
      }
      if (this.due(batch) || bytes > batchLimits.aloneBytes) await this.commit();
      else this.idle = setTimeout(() => void this.turn.run(() => this.commitOrLog()), batchLimits.idleMs);
      return result;
    } finally {
      release();
    }
  }

  /** SQLite: a reader on the open batch's connection, which sees what the run wrote and has not committed yet. */
  batchReader(databaseUrl: string): RawReader | null {
    return this.batch?.databaseUrl === databaseUrl ? this.batch.transaction.reader : null;
  }

  private due(batch: Batch): boolean {
    return performance.now() - batch.openedAt >= (this.batchesCommitted === 0 ? batchLimits.firstBatchMs : batchLimits.batchMs);
  }

  /** Begins a batch, committed as soon as the import in progress ends (at once between imports) when another writer asks for the lock. */
  private async open(databaseUrl: string, begin: BeginTransaction): Promise<Batch> {
    const transaction = await begin({ batch: true });
    transaction.whenContended(() => void this.turn.run(() => this.commitOrLog()));
    return { databaseUrl, transaction, openedAt: performance.now(), ends: [], imports: 0 };
  }

  /** Commits the open batch; when that fails, everything in it is rolled back (its callbacks told) and the error thrown. */
  private async commit(): Promise<void> {
    const batch = this.batch;
    if (!batch) return;
    this.batch = null;
    this.batchesCommitted += 1;
    try {
      await batch.transaction.commit();
    } catch (error) {
      for (const ends of batch.ends) ends.rolledBack();
      throw error;
    }
    for (const ends of batch.ends) ends.committed();
  }

  private async commitOrLog(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    await this.commit().catch((error: unknown) =>
      console.error(
        `[threadline] a batch of imports could not be committed (its files are imported again by the next sync): ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }

  private async rollBack(): Promise<void> {
    const batch = this.batch;
    if (!batch) return;
    this.batch = null;
    await batch.transaction.rollback();
    for (const ends of batch.ends) ends.rolledBack();
  }
}
