import pg from "pg";
import { containsPattern, POSTGRES_WRITE_LOCK } from "../engine/dialect";
import { decodeStoredText, encodeParameter } from "../engine/postgres-text";
import { SCAN_CURSOR_KEY } from "../secrets/scan-cursor";
import type { ImportTransaction } from "./import-batch";
import type { ImportWriter, ThreadWriteRow, TurnInsertRow } from "./import-rows";

/**
 * The import writer's transaction on PostgreSQL, on its own connection holding the write lock,
 * each batch of turns one INSERT over arrays (unnest): one round trip however many turns it holds.
 * The connection comes from a small pool kept for imports: a sync of thousands of small files
 * opened (and authenticated) a connection for each, which cost more than most files' writes.
 * (A batch, import-batch.ts, needs nothing more: the search vector is a generated column.)
 */
export async function beginPostgresImport(databaseUrl: string): Promise<ImportTransaction> {
  const client = await importPool(databaseUrl).connect();
  // Back to the pool only once its transaction has ended cleanly; a connection that failed (BEGIN, COMMIT, ROLLBACK) is closed.
  let released = false;
  const release = (clean: boolean) => {
    if (!released) client.release(!clean);
    released = true;
  };
  try {
    await client.query("BEGIN");
    // Other writers (lib/db/engine/dialect.ts lockForWrite) wait for the import, as they do on SQLite.
    await client.query(`SELECT pg_advisory_xact_lock(${POSTGRES_WRITE_LOCK})`);
  } catch (error) {
    release(false);
    throw error;
  }
  const { writer, sendPendingThreads, dropPendingThreads, moveScanCursor, forgetInsertedSeqs } = postgresImportWriter(client);
  const rollback = async () => {
    dropPendingThreads();
    forgetInsertedSeqs();
    const clean = await client.query("ROLLBACK").then(
      () => true,
      () => false,
    );
    release(clean);
  };
  // A file's savepoint is released with the next file's SAVEPOINT, in one round trip (or by the
  // COMMIT or ROLLBACK that ends the batch). See postgresImportWriter on round trips.
  let releasePending = false;
  return {
    writer,
    reader: null,
    async savepoint() {
      await sendPendingThreads();
      await client.query(releasePending ? "RELEASE SAVEPOINT import_file; SAVEPOINT import_file" : "SAVEPOINT import_file");
      releasePending = false;
    },
    async releaseSavepoint() {
      await sendPendingThreads(); // a file's rows are all sent by its end (its last write carries them)
      releasePending = true;
    },
    async rollbackToSavepoint() {
      dropPendingThreads();
      await client.query("ROLLBACK TO SAVEPOINT import_file");
      await client.query("RELEASE SAVEPOINT import_file");
    },
    async commit() {
      try {
        await sendPendingThreads();
        await moveScanCursor();
        await client.query("COMMIT");
      } catch (error) {
        await rollback();
        throw error;
      }
      release(true);
    },
    rollback,
    // Other writers wait in the server, unseen: a batch ends by its age or idleness alone.
    whenContended: () => undefined,
  };
}

/** Connections idle this long are closed; an idle one never keeps the process alive (a script ends at once). */
const POOL_IDLE_MS = 2_000;
/** Imports in one process rarely overlap (a sync is one at a time; an upload or the late counts beside it). */
const POOL_MAX = 4;
const pools = new Map<string, pg.Pool>();

function importPool(databaseUrl: string): pg.Pool {
  let pool = pools.get(databaseUrl);
  if (!pool) {
    pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_MAX, idleTimeoutMillis: POOL_IDLE_MS, allowExitOnIdle: true });
    // An idle connection the server ended (a restart): the pool drops it, and the next import opens another.
    pool.on("error", () => undefined);
    pools.set(databaseUrl, pool);
  }
  return pool;
}

/** A Date as the UTC text PostgreSQL reads into the timestamp(3) columns Prisma writes in UTC. */
const utc = (date: Date | null) => (date === null ? null : date.toISOString());

/** The Thread columns an import writes, each with its type and its value of a row: the one list the statements below are made from. */
const THREAD_FIELDS: [column: string, type: string, value: (row: ThreadWriteRow) => unknown][] = [
  ["id", "text", (row) => row.id],
  ["parentThreadId", "text", (row) => row.parentThreadId],
  ["title", "text", (row) => row.title],
  ["toolName", "text", (row) => row.toolName],
  ["source", "text", (row) => row.source],
  ["project", "text", (row) => row.project],
  ["initialContext", "text", (row) => row.initialContext],
  ["metadata", "text", (row) => row.metadata],
  ["createdAt", "timestamp(3)", (row) => utc(row.createdAt)],
  ["lastUpdatedAt", "timestamp(3)", (row) => utc(row.lastUpdatedAt)],
  ["expiresAt", "timestamp(3)", (row) => utc(row.expiresAt)],
  ["turnCount", "int", (row) => row.turnCount],
  ["tokenEstimate", "int", (row) => row.tokenEstimate],
  ["modelsUsed", "text", (row) => row.modelsUsed],
  ["searchTitle", "text", (row) => row.searchTitle],
];

/** Written when a thread is created, never by an update: an import does not change whose a thread is. */
const OWNER_FIELDS: typeof THREAD_FIELDS = [
  ["ownerId", "text", (row) => row.ownerId],
  ["visibility", "text", (row) => row.visibility],
  ["machine", "text", (row) => row.machine],
];
const INSERT_FIELDS = [...THREAD_FIELDS, ...OWNER_FIELDS];

/** An INSERT of threads, each column bound as an array from parameter $`first` on, and its parameters. */
function threadsInsert(rows: readonly ThreadWriteRow[], first: number): { sql: string; params: unknown[] } {
  const columns = INSERT_FIELDS.map(([column]) => `"${column}"`).join(", ");
  const arrays = INSERT_FIELDS.map(([, type], i) => `$${first + i}::${type}[]`).join(", ");
  return {
    sql: `INSERT INTO "Thread" (${columns}) SELECT * FROM unnest(${arrays})`,
    params: INSERT_FIELDS.map(([, , value]) => rows.map(value)),
  };
}

/** Every column but the id set from $2 on, in THREAD_FIELDS' order (the id is $1). */
const THREAD_SET = THREAD_FIELDS.slice(1)
  .map(([column, type], i) => `"${column}" = $${i + 2}${type === "timestamp(3)" ? "::timestamp(3)" : ""}`)
  .join(", ");

const threadParams = (row: ThreadWriteRow): unknown[] => THREAD_FIELDS.map(([, , value]) => value(row));

/**
 * Moves the scan for secrets' cursor past a transaction's turns ($2, the last $3), run right before
 * its COMMIT. As on SQLite (import-findings.ts), only when no turn before them is left to scan.
 * Here other writers may hold turns not committed yet (not every writer takes the write lock), so
 * also only when no other transaction is writing, and when every turn up to the last of ours is
 * ours: a turn of another's committed meanwhile is left to the scan. (NOT IN over a subquery is
 * planned as a hashed set: linear in the turns, however many.)
 */
const SCAN_CURSOR_MOVE = `WITH "cursor" AS (SELECT COALESCE((SELECT CAST("value" AS INTEGER) FROM "AppSetting" WHERE "key" = $1), 0) AS "scanned")
  INSERT INTO "AppSetting" ("key", "value")
  SELECT $1, CAST($3::int AS TEXT) FROM "cursor"
   WHERE $3::int > "scanned"
     AND NOT EXISTS (SELECT 1 FROM "Turn" WHERE "seq" > "scanned" AND "seq" <= $3::int AND "seq" NOT IN (SELECT unnest($2::int[])))
     AND NOT EXISTS (SELECT 1 FROM pg_snapshot_xip(pg_current_snapshot()))
  ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"`;

/**
 * One INSERT of a batch of turns, each column bound as an array, answering their seqs and ids. The
 * secrets found where the turns were prepared (the parse worker) are stored with them in the same
 * statement, as the scan would store them: then the scan need not read them back.
 */
function turnsInsert(rows: readonly TurnInsertRow[]): { sql: string; params: unknown[]; ctes: string[] } {
  const column = <K extends keyof TurnInsertRow>(key: K) => rows.map((row) => row[key]);
  const params: unknown[] = [
    column("id"),
    column("threadId"),
    column("index"),
    column("role"),
    column("content"),
    rows.map((row) => utc(row.timestamp)),
    column("files"),
    column("images"),
    column("toolName"),
    column("modelProvider"),
    column("modelName"),
    column("modelMetadata"),
    column("parts"),
    column("tokenEstimate"),
    column("searchContent"),
  ];
  const insert = `INSERT INTO "Turn" ("id", "threadId", "index", "role", "content", "timestamp", "files", "images", "toolName", "modelProvider", "modelName", "modelMetadata", "parts", "tokenEstimate", "searchContent")
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::timestamp(3)[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::int[], $15::text[])
    RETURNING "seq", "id"`;
  const found = rows.flatMap((row) => row.secrets.map(({ field, match }) => ({ row, field, match })));
  if (found.length === 0) return { sql: insert, params, ctes: [] };
  params.push(
    found.map((f) => f.row.id),
    found.map((f) => f.row.threadId),
    found.map((f) => f.row.index),
    found.map((f) => f.field),
    found.map((f) => f.match.kind),
    found.map((f) => f.match.rules.join(",")),
    found.map((f) => f.match.start),
    found.map((f) => f.match.end),
    found.map((f) => f.match.fingerprint),
    utc(new Date()),
  );
  const findings = `INSERT INTO "SecretFinding" ("threadId", "turnSeq", "turnId", "turnIndex", "field", "kind", "rules", "start", "end", "fingerprint", "foundAt")
    SELECT f."threadId", i."seq", f."turnId", f."turnIndex", f."field", f."kind", f."rules", f."start", f."end", f."fingerprint", $25::timestamp(3)
      FROM unnest($16::text[], $17::text[], $18::int[], $19::text[], $20::text[], $21::text[], $22::int[], $23::int[], $24::text[])
           AS f("turnId", "threadId", "turnIndex", "field", "kind", "rules", "start", "end", "fingerprint")
      JOIN "insertedTurns" i ON i."id" = f."turnId"`;
  return {
    sql: `SELECT "seq", "id" FROM "insertedTurns"`,
    params,
    ctes: [`"insertedTurns" AS (${insert})`, `"findings" AS (${findings})`],
  };
}

/**
 * The writer on the transaction's connection. Each statement is a round trip to the server, which
 * costs both processes about a quarter of a millisecond of CPU on a 2-core machine, and a first
 * sync of 2,000 sessions made 34,000 of them. So statements that go together are sent together: a
 * thread row rides with the statement that next writes its turns (or a file or run of it, as a
 * common table expression), and what a write makes stale is forgotten in the write's own statement.
 */
function postgresImportWriter(client: pg.ClientBase): {
  writer: ImportWriter;
  /** Sends the threads created and not written yet: before a savepoint or COMMIT. */
  sendPendingThreads: () => Promise<void>;
  /** Forgets them: their file's import is rolled back. */
  dropPendingThreads: () => void;
  /** Moves the scan for secrets past this transaction's turns when it may: right before COMMIT. */
  moveScanCursor: () => Promise<void>;
  /** Forgets this transaction's turns: it was rolled back. */
  forgetInsertedSeqs: () => void;
} {
  // Text parameters are stored as the Prisma client stores them (lib/db/engine/postgres-text.ts).
  const send = <R extends pg.QueryResultRow>(sql: string, params: unknown[]) => client.query<R>(sql, params.map(encodeParameter));
  /** Threads created and not sent yet. */
  let pendingThreads: ThreadWriteRow[] = [];
  /** The INSERT of the pending threads (parameters from $`first` on), which are then no longer pending; null when none are. */
  const takePendingThreads = (first: number) => {
    if (pendingThreads.length === 0) return null;
    const insert = threadsInsert(pendingThreads, first);
    pendingThreads = [];
    return insert;
  };
  /**
   * A statement that inserts rows whose foreign keys may name a pending thread: the threads go in
   * first, in the same statement. Its constraint checks run at the statement's end and see them.
   */
  const insertWithThreads = <R extends pg.QueryResultRow>(sql: string, params: unknown[], ctes: string[] = []) => {
    const threads = takePendingThreads(params.length + 1);
    const all = threads ? [`"createThreads" AS (${threads.sql})`, ...ctes] : ctes;
    const values = threads ? [...params, ...threads.params] : params;
    return send<R>(all.length > 0 ? `WITH ${all.join(",\n")}\n${sql}` : sql, values);
  };
  /** The seqs of this transaction's turns, whose secrets it recorded (see moveScanCursor). */
  let insertedSeqs: number[] = [];
  const sendPendingThreads = async () => {
    const threads = takePendingThreads(1);
    if (threads) await send(threads.sql, threads.params);
  };
  /** Any other statement: what it reads or updates may be a pending thread, so they are sent first. */
  const query = async <R extends pg.QueryResultRow>(sql: string, params: unknown[]) => {
    await sendPendingThreads();
    return send<R>(sql, params);
  };
  // Turns or runs rewritten in place may leave the count and the last update as they were: the
  // thread's usage is summed again (lib/db/usage/usage-aggregates.ts), its tools read again
  // (thread-tools.ts). Said in the same statement as the write (`threadParameter`: the thread id's
  // $n there), so the write and the forgetting are one round trip.
  const forgettingUsage = (threadParameter: string, statement: string) =>
    `WITH "forgetUsage" AS (UPDATE "UsageThread" SET "turnCount" = -1 WHERE "threadId" = ${threadParameter}),
          "forgetTools" AS (DELETE FROM "ThreadToolState" WHERE "threadId" = ${threadParameter})
     ${statement}`;
  const writer: ImportWriter = {
    async storedTurnIds(threadId, fromIndex = 0) {
      // No row: no thread. One row without an id: a thread without turns from `fromIndex`.
      const turns = await query<{ id: string | null }>(
        `SELECT t."id" FROM "Thread" th LEFT JOIN "Turn" t ON t."threadId" = th."id" AND t."index" >= $2 WHERE th."id" = $1 ORDER BY t."index"`,
        [threadId, fromIndex],
      );
      if (turns.rows.length === 0) return null;
      return turns.rows.flatMap((row) => (row.id === null ? [] : [decodeStoredText(row.id)]));
    },
    async threadOwnerId(threadId) {
      const found = await query<{ ownerId: string | null }>(`SELECT "ownerId" FROM "Thread" WHERE "id" = $1`, [threadId]);
      return found.rows[0]?.ownerId ?? null;
    },
    async createThread(row) {
      pendingThreads.push(row);
    },
    async updateThread(row) {
      await query(forgettingUsage("$1", `UPDATE "Thread" SET ${THREAD_SET} WHERE "id" = $1`), threadParams(row));
    },
    async deleteTurnsFrom(threadId, index) {
      await query(forgettingUsage("$1", `DELETE FROM "Turn" WHERE "threadId" = $1 AND "index" >= $2`), [threadId, index]);
    },
    async insertTurns(rows) {
      if (rows.length === 0) return [];
      const statement = turnsInsert(rows);
      const inserted = await insertWithThreads<{ seq: number; id: string }>(statement.sql, statement.params, statement.ctes);
      // RETURNING's order is not promised: match the seqs back by turn id.
      const seqs = new Map(inserted.rows.map((row) => [decodeStoredText(row.id), Number(row.seq)]));
      for (const seq of seqs.values()) insertedSeqs.push(seq);
      return rows.map((row) => seqs.get(row.id)!);
    },
    async insertTokenCounts(rows) {
      if (rows.length === 0) return;
      await insertWithThreads(
        `INSERT INTO "TurnTokenCount" ("turnSeq", "threadId", "tokenizer", "tokens", "estimated")
         SELECT u.seq, u.thread, u.tokenizer, u.tokens, u.estimated
           FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::boolean[], $6::text[]) AS u(seq, thread, tokenizer, tokens, estimated, turn)
          WHERE EXISTS (SELECT 1 FROM "Turn" t WHERE t."seq" = u.seq AND t."id" = u.turn)
         ON CONFLICT DO NOTHING`,
        [
          rows.map((r) => r.turnSeq),
          rows.map((r) => r.threadId),
          rows.map((r) => r.tokenizer),
          rows.map((r) => r.tokens),
          rows.map((r) => r.estimated),
          rows.map((r) => r.turnId),
        ],
      );
    },
    async recordFile(row) {
      await insertWithThreads(
        `INSERT INTO "ImportedFile" ("sha256", "name", "size", "format", "importedAt", "threadIds") VALUES ($1, $2, $3, $4, $5::timestamp(3), $6)
         ON CONFLICT ("sha256") DO UPDATE SET "name" = excluded."name", "importedAt" = excluded."importedAt", "threadIds" = excluded."threadIds"`,
        [row.sha256, row.name, row.size, row.format, utc(row.importedAt), row.threadIds],
      );
    },
    async upsertCompactionRun(row) {
      await query(
        forgettingUsage(
          "$2",
          `INSERT INTO "CompactionRun" ("id", "threadId", "runId", "afterTurnKey", "modelProvider", "modelName", "responses", "sourceSha256", "importedAt")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamp(3))
           ON CONFLICT ("id") DO UPDATE SET "threadId" = excluded."threadId", "runId" = excluded."runId", "afterTurnKey" = excluded."afterTurnKey",
             "modelProvider" = excluded."modelProvider", "modelName" = excluded."modelName", "responses" = excluded."responses",
             "sourceSha256" = excluded."sourceSha256", "importedAt" = excluded."importedAt"`,
        ),
        [
          row.id,
          row.threadId,
          row.runId,
          row.afterTurnKey,
          row.modelProvider,
          row.modelName,
          row.responses,
          row.sourceSha256,
          utc(row.importedAt),
        ],
      );
    },
    async partsContaining(threadId, needle) {
      const rows = await query<{ parts: string }>(`SELECT "parts" FROM "Turn" WHERE "threadId" = $1 AND "parts" LIKE $2 ORDER BY "index"`, [
        threadId,
        containsPattern(needle),
      ]);
      return rows.rows.map((row) => decodeStoredText(row.parts));
    },
    async childThreads(parentId) {
      const rows = await query<{ id: string; metadata: string | null }>(
        `SELECT "id", "metadata" FROM "Thread" WHERE "parentThreadId" = $1 ORDER BY "createdAt", "id"`,
        [parentId],
      );
      return rows.rows.map((row) => ({
        id: decodeStoredText(row.id),
        metadata: row.metadata === null ? null : decodeStoredText(row.metadata),
      }));
    },
    async setThreadMetadata(threadId, metadata) {
      await query(`UPDATE "Thread" SET "metadata" = $2 WHERE "id" = $1`, [threadId, metadata]);
    },
  };
  return {
    writer,
    sendPendingThreads,
    dropPendingThreads: () => {
      pendingThreads = [];
    },
    async moveScanCursor() {
      const seqs = insertedSeqs;
      insertedSeqs = [];
      if (seqs.length > 0) await send(SCAN_CURSOR_MOVE, [SCAN_CURSOR_KEY, seqs, seqs.reduce((a, b) => Math.max(a, b))]);
    },
    forgetInsertedSeqs: () => {
      insertedSeqs = [];
    },
  };
}
