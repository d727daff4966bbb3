import BetterSqlite3 from "better-sqlite3";
import { statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { checkpointSoon, checkpointsOffThread, FALLBACK_CHECKPOINT_PAGES } from "../engine/checkpoints";
import { WRITE_WAIT_MS } from "../engine/create-client";
import { containsPattern, type RawReader } from "../engine/dialect";
import { sqliteFilePath } from "../../env/database-url";
import { beginPostgresImport } from "./import-writer-postgres";
import { currentBulkRun, inLoneTransaction, type BeginTransaction, type ImportTransaction, type TransactionEnd } from "./import-batch";
import { deferSearchIndex, type DeferredSearch } from "./deferred-search";
import { importFindings, type ImportFindings } from "./import-findings";
import { isPostgresUrl } from "../engine/postgres-adapter";
import type { ImportWriter, ThreadWriteRow } from "./import-rows";
import { databaseLock } from "../engine/serialized-adapter";

const TURN_COLUMNS = [
  "id",
  "threadId",
  "index",
  "role",
  "content",
  "searchContent",
  "timestamp",
  "files",
  "images",
  "toolName",
  "modelProvider",
  "modelName",
  "modelMetadata",
  "parts",
  "tokenEstimate",
] as const;
const THREAD_COLUMNS = [
  "id",
  "parentThreadId",
  "title",
  "searchTitle",
  "toolName",
  "source",
  "project",
  "initialContext",
  "metadata",
  "createdAt",
  "lastUpdatedAt",
  "expiresAt",
  "turnCount",
  "tokenEstimate",
  "modelsUsed",
] as const;
/** Written when a thread is created, never by an update: an import does not change whose a thread is. */
const OWNER_COLUMNS = ["ownerId", "visibility", "machine"] as const;
const THREAD_INSERT_COLUMNS = [...THREAD_COLUMNS, ...OWNER_COLUMNS];

const RUN_COLUMNS = [
  "id",
  "threadId",
  "runId",
  "afterTurnKey",
  "modelProvider",
  "modelName",
  "responses",
  "sourceSha256",
  "importedAt",
] as const;

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(", ");
const placeholders = (columns: readonly string[]) => columns.map(() => "?").join(", ");

/**
 * DateTime as Prisma's SQLite adapter stores it, so both read each other's rows alike.
 * @internal exported for its tests
 */
export function sqliteDateTime(date: Date): string {
  return date.toISOString().replace(/Z$/, "+00:00");
}

/**
 * Runs `work` with a writer whose statements form one transaction, committed when `work` resolves
 * and rolled back when it throws (PostgreSQL: lib/db/imports/import-writer-postgres.ts); `end`
 * takes what is to happen once it has committed, or has been rolled back. Inside a bulk run
 * (import-batch.ts) it is a part of the run's batch, which commits later: `end` tells when
 * (`bytes`, the size of the file imported, decides whether it shares the batch). On SQLite it
 * holds this process's lock on the database file throughout (Prisma's queries wait meanwhile)
 * and SQLite's write lock, which it waits for without blocking the event loop when another
 * process holds it.
 */
export async function withImportWriter<T>(
  databaseUrl: string,
  work: (writer: ImportWriter, end: TransactionEnd) => Promise<T>,
  bytes = 0,
): Promise<T> {
  const begin: BeginTransaction = isPostgresUrl(databaseUrl)
    ? () => beginPostgresImport(databaseUrl)
    : (options) => beginSqliteImport(sqliteFilePath(databaseUrl), options);
  const run = currentBulkRun();
  return run ? run.join(databaseUrl, begin, work, bytes) : inLoneTransaction(begin, work);
}

/** A transaction on this process's import connection to `file`; a batch's fills the search index at its end (deferred-search.ts). */
async function beginSqliteImport(file: string, { batch }: { batch: boolean }): Promise<ImportTransaction> {
  const lock = databaseLock(file);
  const release = await lock.acquire();
  const open = await openAndBegin(file, release);
  const { connection } = open;
  const ended = () => {
    lock.whenAsked(null);
    open.deferred.search = null;
    open.findings.reset();
    keepOpen(file, open);
    release();
  };
  const rollback = () => {
    if (connection.inTransaction) connection.exec("ROLLBACK");
  };
  try {
    open.deferred.search = batch ? deferSearchIndex(connection) : null;
  } catch (error) {
    rollback();
    ended();
    throw error;
  }
  let mark = 0;
  return {
    writer: open.writer,
    reader: rawReader(open),
    async savepoint() {
      connection.exec("SAVEPOINT import_file");
      mark = open.deferred.search?.mark() ?? 0;
    },
    async releaseSavepoint() {
      connection.exec("RELEASE import_file");
    },
    async rollbackToSavepoint() {
      connection.exec("ROLLBACK TO import_file");
      connection.exec("RELEASE import_file");
      open.deferred.search?.restore(mark);
    },
    async commit() {
      try {
        open.deferred.search?.finish();
        open.findings.finish();
        connection.exec("COMMIT");
        if (open.checkpointsOffThread) checkpointSoon(file);
      } catch (error) {
        rollback();
        throw error;
      } finally {
        ended();
      }
    },
    async rollback() {
      try {
        rollback();
      } catch {
        // A connection that cannot roll back is closed (keepOpen), which rolls back.
      } finally {
        ended();
      }
    },
    whenContended: (listener) => lock.whenAsked(listener),
  };
}

/** The kept (or a new) connection, in a transaction holding SQLite's write lock; `release` is called when that fails. */
async function openAndBegin(file: string, release: () => void): Promise<OpenWriter> {
  let open: OpenWriter | undefined;
  try {
    open = openWriter(file);
    await beginImmediate(open.connection);
    return open;
  } catch (error) {
    if (open) keepOpen(file, open);
    release();
    throw error;
  }
}

/**
 * Runs `read` with this process's import connection to the SQLite database at `databaseUrl` (the
 * one kept between imports, else a new one, kept likewise), outside any transaction (SQLite
 * only). An import of many small files first asks whether each was imported before
 * (previousImport): through Prisma, each such question waited in its queue and cost more than
 * SQLite's work. The connection is this call's alone until `read` ends, so no import's
 * uncommitted rows are read; except inside a bulk run, which reads on its open batch's
 * connection what it wrote so far.
 */
export async function withImportReader<T>(databaseUrl: string, read: (reader: RawReader) => Promise<T>): Promise<T> {
  if (isPostgresUrl(databaseUrl)) throw new Error("withImportReader: SQLite only");
  const batchReader = currentBulkRun()?.batchReader(databaseUrl);
  if (batchReader) return read(batchReader);
  const file = sqliteFilePath(databaseUrl);
  const open = openWriter(file);
  try {
    return await read(rawReader(open));
  } finally {
    keepOpen(file, open);
  }
}

/**
 * Runs `work` in a write transaction on a connection of its own to the SQLite database at
 * `databaseUrl` (SQLite only), with raw statements straight through the driver: for the
 * background passes that read and write thousands of rows in a few statements (the usage sums,
 * lib/db/usage/usage-aggregates.ts). Through Prisma, a 2,000-session first sync's sums spent a
 * second compiling and running its query pipeline, on top of SQLite's own work. The connection is
 * closed at the end, which frees its statements: some hold thousands of parameters and are used
 * once, and kept on the import connection they stayed in memory through the token counts after a
 * sync. It waits for this process's lock on the file, as Prisma's queries do.
 */
export async function withImportTransaction<T>(databaseUrl: string, work: (tx: RawReader) => Promise<T>): Promise<T> {
  if (isPostgresUrl(databaseUrl)) throw new Error("withImportTransaction: SQLite only");
  const file = sqliteFilePath(databaseUrl);
  const release = await databaseLock(file).acquire();
  let connection: BetterSqlite3.Database | null = null;
  try {
    connection = new BetterSqlite3(file, { timeout: 0 });
    const offThread = prepareImportConnection(connection);
    await beginImmediate(connection);
    let result: T;
    try {
      result = await work(rawStatements(connection, new Map()));
      connection.exec("COMMIT");
    } catch (error) {
      if (connection.inTransaction) connection.exec("ROLLBACK");
      throw error;
    }
    if (offThread) checkpointSoon(file);
    return result;
  } finally {
    connection?.close();
    release();
  }
}

const rawReader = (open: OpenWriter): RawReader => rawStatements(open.connection, open.reads);

/**
 * Raw statements on a connection, each prepared once into `prepared`: rows for a statement that
 * returns them, none for one that does not; parameters bound as Prisma binds them (DateTime as it
 * stores them, booleans as 1 and 0).
 */
function rawStatements(connection: BetterSqlite3.Database, prepared: Map<string, BetterSqlite3.Statement>): RawReader {
  return {
    $queryRawUnsafe: async <R>(sql: string, ...params: unknown[]) => {
      let statement = prepared.get(sql);
      if (!statement) prepared.set(sql, (statement = connection.prepare(sql)));
      const values = params.map(bindRaw);
      if (statement.reader) return statement.all(...values) as R;
      statement.run(...values);
      return [] as R;
    },
  };
}

const bindRaw = (value: unknown) => (typeof value === "boolean" ? (value ? 1 : 0) : bind(value));

/**
 * A writer's connection with its statements prepared, kept between imports for a moment: an
 * import of many small files opened a connection, set its pragmas and prepared a dozen statements
 * for each. Closed after KEEP_OPEN_MS without use, and not reused once the file at the path is
 * another one (a database deleted and created again: tests do). `reads`: withImportReader's statements.
 */
type OpenWriter = {
  connection: BetterSqlite3.Database;
  writer: ImportWriter;
  inode: number;
  reads: Map<string, BetterSqlite3.Statement>;
  /** Its commits leave checkpoints to lib/db/engine/checkpoints.ts. */
  checkpointsOffThread: boolean;
  /** In a batch's transaction: the search index filled at its end (the writer indexes what is pending before deleting turns). */
  deferred: { search: DeferredSearch | null };
  /** The findings of secrets its turns carry, and the scan's cursor moved past them (import-findings.ts). */
  findings: ImportFindings;
  timer?: NodeJS.Timeout;
};
const openWriters = new Map<string, OpenWriter>();
const KEEP_OPEN_MS = 2_000;

function openWriter(file: string): OpenWriter {
  const kept = openWriters.get(file);
  openWriters.delete(file);
  if (kept) {
    clearTimeout(kept.timer);
    if (kept.inode === statSync(file).ino) return kept;
    kept.connection.close();
  }
  const connection = new BetterSqlite3(file, { timeout: 0 });
  try {
    const offThread = prepareImportConnection(connection);
    const deferred: OpenWriter["deferred"] = { search: null };
    const findings = importFindings(connection, bind);
    return {
      connection,
      writer: sqliteImportWriter(connection, deferred, findings),
      findings,
      inode: statSync(file).ino,
      reads: new Map(),
      checkpointsOffThread: offThread,
      deferred,
    };
  } catch (error) {
    connection.close();
    throw error;
  }
}

/**
 * The settings of a connection that writes outside Prisma (the import writer's, a raw
 * transaction's): true when its commits leave checkpoints to the worker (checkpointSoon).
 */
function prepareImportConnection(connection: BetterSqlite3.Database): boolean {
  connection.pragma("foreign_keys = ON");
  connection.pragma("synchronous = NORMAL");
  // A batch's savepoints keep their copies of the pages they change here (import-batch.ts join: a small file's few).
  connection.pragma("temp_store = MEMORY");
  const offThread = checkpointsOffThread();
  if (offThread) connection.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  return offThread;
}

function keepOpen(file: string, open: OpenWriter): void {
  if (open.connection.inTransaction || !open.connection.open) {
    if (open.connection.open) open.connection.close();
    return;
  }
  open.timer = setTimeout(() => {
    if (openWriters.get(file) === open) openWriters.delete(file);
    open.connection.close();
  }, KEEP_OPEN_MS);
  open.timer.unref();
  openWriters.set(file, open);
}

/** Takes the write lock, polling while another process holds it, for up to WRITE_WAIT_MS. */
async function beginImmediate(connection: BetterSqlite3.Database): Promise<void> {
  const deadline = Date.now() + WRITE_WAIT_MS;
  for (;;) {
    try {
      connection.exec("BEGIN IMMEDIATE");
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === "SQLITE_BUSY";
      if (!busy || Date.now() >= deadline) throw error;
      await sleep(25);
    }
  }
}

const bind = (value: unknown) => (value instanceof Date ? sqliteDateTime(value) : value);

function sqliteImportWriter(connection: BetterSqlite3.Database, deferred: OpenWriter["deferred"], findings: ImportFindings): ImportWriter {
  const threadExists = connection.prepare<[string], { id: string }>(`SELECT "id" FROM "Thread" WHERE "id" = ?`);
  const turnIds = connection
    .prepare<[string, number], { id: string }>(`SELECT "id" FROM "Turn" WHERE "threadId" = ? AND "index" >= ? ORDER BY "index"`)
    .pluck();
  const insertThread = connection.prepare(
    `INSERT INTO "Thread" (${quoted(THREAD_INSERT_COLUMNS)}) VALUES (${placeholders(THREAD_INSERT_COLUMNS)})`,
  );
  const ownerOf = connection.prepare<[string], { ownerId: string | null }>(`SELECT "ownerId" FROM "Thread" WHERE "id" = ?`);
  const updateThread = connection.prepare(
    `UPDATE "Thread" SET ${THREAD_COLUMNS.filter((c) => c !== "id")
      .map((c) => `"${c}" = ?`)
      .join(", ")} WHERE "id" = ?`,
  );
  const deleteTurns = connection.prepare(`DELETE FROM "Turn" WHERE "threadId" = ? AND "index" >= ?`);
  // Turns or runs rewritten in place may leave the count and the last update as they were: the
  // thread's usage is summed again (lib/db/usage/usage-aggregates.ts).
  // So are the tools it used (lib/db/threads/thread-tools.ts).
  const forgetUsageState = connection.prepare(`UPDATE "UsageThread" SET "turnCount" = -1 WHERE "threadId" = ?`);
  const forgetToolsState = connection.prepare(`DELETE FROM "ThreadToolState" WHERE "threadId" = ?`);
  const forgetUsage = { run: (threadId: string) => void (forgetUsageState.run(threadId), forgetToolsState.run(threadId)) };
  const insertTurn = connection
    .prepare(`INSERT INTO "Turn" (${quoted(TURN_COLUMNS)}) VALUES (${placeholders(TURN_COLUMNS)}) RETURNING "seq"`)
    .pluck();
  const insertCount = connection.prepare(
    `INSERT INTO "TurnTokenCount" ("turnSeq", "threadId", "tokenizer", "tokens", "estimated")
     SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM "Turn" WHERE "seq" = ? AND "id" = ?) ON CONFLICT DO NOTHING`,
  );
  const upsertFile = connection.prepare(
    `INSERT INTO "ImportedFile" ("sha256", "name", "size", "format", "importedAt", "threadIds") VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT ("sha256") DO UPDATE SET "name" = excluded."name", "importedAt" = excluded."importedAt", "threadIds" = excluded."threadIds"`,
  );
  const upsertRun = connection.prepare(
    `INSERT INTO "CompactionRun" (${quoted(RUN_COLUMNS)}) VALUES (${placeholders(RUN_COLUMNS)})
     ON CONFLICT ("id") DO UPDATE SET ${RUN_COLUMNS.filter((c) => c !== "id")
       .map((c) => `"${c}" = excluded."${c}"`)
       .join(", ")}`,
  );
  const partsLike = connection
    .prepare<[string, string], string>(`SELECT "parts" FROM "Turn" WHERE "threadId" = ? AND "parts" LIKE ? ESCAPE '\\' ORDER BY "index"`)
    .pluck();
  const children = connection.prepare<[string], { id: string; metadata: string | null }>(
    `SELECT "id", "metadata" FROM "Thread" WHERE "parentThreadId" = ? ORDER BY "createdAt", "id"`,
  );
  const setMetadata = connection.prepare(`UPDATE "Thread" SET "metadata" = ? WHERE "id" = ?`);
  const threadValues = (row: ThreadWriteRow) => THREAD_COLUMNS.filter((c) => c !== "id").map((c) => bind(row[c]));

  return {
    async storedTurnIds(threadId, fromIndex = 0) {
      if (!threadExists.get(threadId)) return null;
      return turnIds.all(threadId, fromIndex) as unknown as string[];
    },
    async threadOwnerId(threadId) {
      return ownerOf.get(threadId)?.ownerId ?? null;
    },
    async createThread(row) {
      insertThread.run(...THREAD_INSERT_COLUMNS.map((c) => bind(row[c])));
    },
    async updateThread(row) {
      updateThread.run(...threadValues(row), row.id);
      forgetUsage.run(row.id);
    },
    async deleteTurnsFrom(threadId, index) {
      deferred.search?.indexPending();
      deleteTurns.run(threadId, index);
      forgetUsage.run(threadId);
    },
    async insertTurns(rows) {
      return rows.map((row) => {
        const seq = Number(insertTurn.get(...TURN_COLUMNS.map((c) => bind(row[c]))));
        findings.record(row, seq);
        return seq;
      });
    },
    async insertTokenCounts(rows) {
      for (const row of rows)
        insertCount.run(row.turnSeq, row.threadId, row.tokenizer, row.tokens, row.estimated ? 1 : 0, row.turnSeq, row.turnId);
    },
    async recordFile(row) {
      upsertFile.run(row.sha256, row.name, row.size, row.format, sqliteDateTime(row.importedAt), row.threadIds);
    },
    async upsertCompactionRun(row) {
      upsertRun.run(...RUN_COLUMNS.map((c) => bind(row[c])));
      forgetUsage.run(row.threadId);
    },
    async partsContaining(threadId, needle) {
      return partsLike.all(threadId, containsPattern(needle)) as unknown as string[];
    },
    async childThreads(parentId) {
      return children.all(parentId);
    },
    async setThreadMetadata(threadId, metadata) {
      setMetadata.run(metadata, threadId);
    },
  };
}
