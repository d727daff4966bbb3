import pg from "pg";
import { containsPattern, POSTGRES_WRITE_LOCK } from "../engine/dialect";
import { decodeStoredText, encodeParameter } from "../engine/postgres-text";
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
  const rollback = async () => {
    const clean = await client.query("ROLLBACK").then(
      () => true,
      () => false,
    );
    release(clean);
  };
  return {
    writer: postgresImportWriter(client),
    reader: null,
    async savepoint() {
      await client.query("SAVEPOINT import_file");
    },
    async releaseSavepoint() {
      await client.query("RELEASE SAVEPOINT import_file");
    },
    async rollbackToSavepoint() {
      await client.query("ROLLBACK TO SAVEPOINT import_file");
      await client.query("RELEASE SAVEPOINT import_file");
    },
    async commit() {
      try {
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

const THREAD_SET = `"parentThreadId" = $2, "title" = $3, "toolName" = $4, "source" = $5, "project" = $6, "initialContext" = $7,
  "metadata" = $8, "createdAt" = $9::timestamp(3), "lastUpdatedAt" = $10::timestamp(3), "expiresAt" = $11::timestamp(3),
  "turnCount" = $12, "tokenEstimate" = $13, "modelsUsed" = $14, "searchTitle" = $15`;

function threadParams(row: ThreadWriteRow): unknown[] {
  return [
    row.id,
    row.parentThreadId,
    row.title,
    row.toolName,
    row.source,
    row.project,
    row.initialContext,
    row.metadata,
    utc(row.createdAt),
    utc(row.lastUpdatedAt),
    utc(row.expiresAt),
    row.turnCount,
    row.tokenEstimate,
    row.modelsUsed,
    row.searchTitle,
  ];
}

function postgresImportWriter(client: pg.ClientBase): ImportWriter {
  // Text parameters are stored as the Prisma client stores them (lib/db/engine/postgres-text.ts).
  const query = <R extends pg.QueryResultRow>(sql: string, params: unknown[]) => client.query<R>(sql, params.map(encodeParameter));
  // Turns or runs rewritten in place may leave the count and the last update as they were: the
  // thread's usage is summed again (lib/db/usage/usage-aggregates.ts), its tools read again (thread-tools.ts).
  const forgetUsage = async (threadId: string) => {
    await query(`UPDATE "UsageThread" SET "turnCount" = -1 WHERE "threadId" = $1`, [threadId]);
    await query(`DELETE FROM "ThreadToolState" WHERE "threadId" = $1`, [threadId]);
  };
  return {
    async storedTurnIds(threadId, fromIndex = 0) {
      const thread = await query(`SELECT 1 FROM "Thread" WHERE "id" = $1`, [threadId]);
      if (thread.rowCount === 0) return null;
      const turns = await query<{ id: string }>(`SELECT "id" FROM "Turn" WHERE "threadId" = $1 AND "index" >= $2 ORDER BY "index"`, [
        threadId,
        fromIndex,
      ]);
      return turns.rows.map((row) => decodeStoredText(row.id));
    },
    async createThread(row) {
      await query(
        `INSERT INTO "Thread" ("id", "parentThreadId", "title", "toolName", "source", "project", "initialContext", "metadata", "createdAt", "lastUpdatedAt", "expiresAt", "turnCount", "tokenEstimate", "modelsUsed", "searchTitle")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamp(3), $10::timestamp(3), $11::timestamp(3), $12, $13, $14, $15)`,
        threadParams(row),
      );
    },
    async updateThread(row) {
      await query(`UPDATE "Thread" SET ${THREAD_SET} WHERE "id" = $1`, threadParams(row));
      await forgetUsage(row.id);
    },
    async deleteTurnsFrom(threadId, index) {
      await query(`DELETE FROM "Turn" WHERE "threadId" = $1 AND "index" >= $2`, [threadId, index]);
      await forgetUsage(threadId);
    },
    async insertTurns(rows) {
      if (rows.length === 0) return [];
      const column = <K extends keyof TurnInsertRow>(key: K) => rows.map((row) => row[key]);
      const inserted = await query<{ seq: number; id: string }>(
        `INSERT INTO "Turn" ("id", "threadId", "index", "role", "content", "timestamp", "files", "images", "toolName", "modelProvider", "modelName", "modelMetadata", "parts", "tokenEstimate", "searchContent")
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::timestamp(3)[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::int[], $15::text[])
         RETURNING "seq", "id"`,
        [
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
        ],
      );
      // RETURNING's order is not promised: match the seqs back by turn id.
      const seqs = new Map(inserted.rows.map((row) => [decodeStoredText(row.id), Number(row.seq)]));
      return rows.map((row) => seqs.get(row.id)!);
    },
    async insertTokenCounts(rows) {
      if (rows.length === 0) return;
      await query(
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
      await query(
        `INSERT INTO "ImportedFile" ("sha256", "name", "size", "format", "importedAt", "threadIds") VALUES ($1, $2, $3, $4, $5::timestamp(3), $6)
         ON CONFLICT ("sha256") DO UPDATE SET "name" = excluded."name", "importedAt" = excluded."importedAt", "threadIds" = excluded."threadIds"`,
        [row.sha256, row.name, row.size, row.format, utc(row.importedAt), row.threadIds],
      );
    },
    async upsertCompactionRun(row) {
      await query(
        `INSERT INTO "CompactionRun" ("id", "threadId", "runId", "afterTurnKey", "modelProvider", "modelName", "responses", "sourceSha256", "importedAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamp(3))
         ON CONFLICT ("id") DO UPDATE SET "threadId" = excluded."threadId", "runId" = excluded."runId", "afterTurnKey" = excluded."afterTurnKey",
           "modelProvider" = excluded."modelProvider", "modelName" = excluded."modelName", "responses" = excluded."responses",
           "sourceSha256" = excluded."sourceSha256", "importedAt" = excluded."importedAt"`,
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
      await forgetUsage(row.threadId);
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
}
