import { createHash } from "node:crypto";
import { databaseKind, type Database } from "./create-client";
import { snapshotReads } from "./transactions";

/**
 * Every table, parents before children, with the key its rows are read in order by. A test
 * checks that this lists every model of prisma/schema.prisma, so a new table cannot be left out.
 * @internal exported for its tests
 */
export const COPIED_TABLES = [
  // People first: threads name their owner.
  { model: "user", table: "User", key: ["id"] },
  { model: "projectVisibility", table: "ProjectVisibility", key: ["userId", "project"] },
  { model: "thread", table: "Thread", key: ["id"] },
  { model: "turn", table: "Turn", key: ["seq"] },
  { model: "turnTokenCount", table: "TurnTokenCount", key: ["turnSeq", "tokenizer"] },
  { model: "fileSnapshot", table: "FileSnapshot", key: ["turnSeq", "position"] },
  { model: "appSetting", table: "AppSetting", key: ["key"] },
  { model: "customModel", table: "CustomModel", key: ["id"] },
  { model: "importedFile", table: "ImportedFile", key: ["sha256"] },
  { model: "compaction", table: "Compaction", key: ["id"] },
  { model: "compactionJob", table: "CompactionJob", key: ["id"] },
  { model: "fork", table: "Fork", key: ["id"] },
  { model: "compactionRun", table: "CompactionRun", key: ["id"] },
  { model: "replyLease", table: "ReplyLease", key: ["threadId"] },
  { model: "idempotencyKey", table: "IdempotencyKey", key: ["threadId", "key"] },
  { model: "jobLease", table: "JobLease", key: ["name"] },
  { model: "sourceFile", table: "SourceFile", key: ["path"] },
  // Derived from the turns (lib/db/usage/usage-aggregates.ts); copied so the copy need not sum them again.
  { model: "usageBucket", table: "UsageBucket", key: ["threadId", "quarter", "modelProvider", "modelName"] },
  { model: "usageHour", table: "UsageHour", key: ["hour", "modelProvider", "modelName"] },
  { model: "usageDay", table: "UsageDay", key: ["day", "modelProvider", "modelName"] },
  { model: "usageThreadSpan", table: "UsageThreadSpan", key: ["threadId", "halfDay", "modelName"] },
  { model: "usageThread", table: "UsageThread", key: ["threadId"] },
  { model: "insightsActivity", table: "InsightsActivity", key: ["threadId", "quarter", "modelName"] },
  { model: "insightsToolCall", table: "InsightsToolCall", key: ["threadId", "callId"] },
  { model: "insightsTool", table: "InsightsTool", key: ["threadId", "quarter", "modelName", "name"] },
  { model: "insightsHour", table: "InsightsHour", key: ["hour", "source", "modelName"] },
  { model: "insightsToolHour", table: "InsightsToolHour", key: ["hour", "source", "modelName", "name"] },
  { model: "insightsSession", table: "InsightsSession", key: ["threadId"] },
  // Derived from the turns too (lib/db/threads/thread-tools.ts).
  { model: "threadTool", table: "ThreadTool", key: ["threadId", "key"] },
  { model: "threadToolState", table: "ThreadToolState", key: ["threadId"] },
  // Share links: a thread's, after it.
  { model: "shareLink", table: "ShareLink", key: ["id"] },
  // Sign-in: what refers to people.
  { model: "session", table: "Session", key: ["id"] },
  { model: "account", table: "Account", key: ["id"] },
  { model: "verification", table: "Verification", key: ["id"] },
  { model: "rateLimit", table: "RateLimit", key: ["id"] },
  { model: "apiToken", table: "ApiToken", key: ["id"] },
  // What laptops pushed: its copies are files in the push folder, which moves with the database.
  { model: "pushedFile", table: "PushedFile", key: ["userId", "machine", "path"] },
  { model: "serverSecret", table: "ServerSecret", key: ["name"] },
  { model: "secretFinding", table: "SecretFinding", key: ["id"] },
  { model: "secretRedaction", table: "SecretRedaction", key: ["id"] },
] as const;

type Table = (typeof COPIED_TABLES)[number];
type Row = Record<string, unknown>;
type Delegate = {
  count(): Promise<number>;
  findMany(args: object): Promise<Row[]>;
  createMany(args: { data: Row[] }): Promise<{ count: number }>;
};
type Client = Pick<Database, "$executeRawUnsafe" | "$queryRawUnsafe">;

export type TableCopy = { table: string; rows: number; sourceChecksum: string; copiedChecksum: string };
export type CopyProgress = { table: string; rows: number; total: number };

export class CopyError extends Error {}

const delegate = (client: object, table: Table) => (client as Record<string, Delegate>)[table.model]!;

/**
 * An order-independent checksum of a table's rows: the sum (mod 2^128) of each row's SHA-256 over
 * its canonical JSON (columns sorted, dates as ISO text). The two databases order text keys by
 * different collations, so the rows arrive in different orders; the sum does not care, and unlike
 * XOR it does not cancel out equal rows.
 */
/**
 * Dates as ISO text and big integers (RateLimit.lastRequest) as decimal text: JSON has neither.
 * Fractions at 15 significant digits: a Float written to PostgreSQL through Prisma keeps that many
 * (18.720595499999998 is stored as 18.7205955), and the usage sums' costs end in such digits, so
 * an exact comparison refused every copy of a database with usage into PostgreSQL.
 */
function canonicalValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" && !Number.isInteger(value)) return Number(value.toPrecision(15));
  return typeof value === "bigint" ? value.toString() : value;
}

class TableChecksum {
  #sum = 0n;
  add(row: Row): void {
    const canonical = JSON.stringify(
      Object.keys(row)
        .sort()
        .map((column) => [column, canonicalValue(row[column])]),
    );
    const digest = createHash("sha256").update(canonical).digest();
    this.#sum = (this.#sum + digest.readBigUInt64BE(0) * 2n ** 64n + digest.readBigUInt64BE(8)) % 2n ** 128n;
  }
  toString(): string {
    return this.#sum.toString(16).padStart(32, "0");
  }
}

/** The rows of a table in key order, a batch at a time (keyset: each batch starts after the last key). */
async function* batches(client: object, table: Table, batchSize: number): AsyncGenerator<Row[]> {
  const orderBy = table.key.map((column) => ({ [column]: "asc" }));
  let where: object | undefined;
  for (;;) {
    const rows = await delegate(client, table).findMany({ orderBy, take: batchSize, ...(where ? { where } : {}) });
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    where = after(
      table.key,
      table.key.map((column) => last[column]),
    );
  }
}

/**
 * The rows whose key comes after `values` in key order, as a filter an index on the key serves
 * from that point on: the first column at least its value, less the rows that tie on it and do
 * not come after on the rest. Prisma's own cursor on a compound key compares with subqueries the
 * planner cannot serve from the index: each batch read the table from its start (0.8-4.6 s a batch
 * of 2,000 token counts at a million turns, against 19-73 ms this way).
 */
function after(key: readonly string[], values: readonly unknown[]): object {
  const [column, ...rest] = key;
  if (rest.length === 0) return { [column!]: { gt: values[0] } };
  return { [column!]: { gte: values[0] }, NOT: { [column!]: values[0], NOT: after(rest, values.slice(1)) } };
}

/** @internal shared with test support (lib/testing/table-checksums.ts) */
export async function checksumOf(client: object, table: Table, batchSize: number): Promise<{ rows: number; checksum: string }> {
  const checksum = new TableChecksum();
  let rows = 0;
  for await (const batch of batches(client, table, batchSize)) {
    for (const row of batch) checksum.add(row);
    rows += batch.length;
  }
  return { rows, checksum: checksum.toString() };
}

/** Row counts of every table that holds rows. */
async function nonEmptyTables(client: Database): Promise<{ table: string; rows: number }[]> {
  const counts = await Promise.all(
    COPIED_TABLES.map(async (table) => ({ table: table.table, rows: await delegate(client, table).count() })),
  );
  return counts.filter((count) => count.rows > 0);
}

/**
 * Copies every row from one migrated database into an empty one (either kind, either way), all
 * or nothing: the destination is written in one transaction that commits only after every table
 * read back from it has the source's row count and checksum. The source is read in one snapshot.
 */
export async function copyDatabase(
  source: Database,
  destination: Database,
  { batchSize = 2_000, onProgress }: { batchSize?: number; onProgress?: (progress: CopyProgress) => void } = {},
): Promise<TableCopy[]> {
  const occupied = await nonEmptyTables(destination);
  if (occupied.length > 0) {
    const held = occupied.map((count) => `${count.rows} rows in ${count.table}`).join(", ");
    throw new CopyError(`the destination is not empty (${held}): db:copy only fills an empty database`);
  }
  const long = { maxWait: 60_000, timeout: 24 * 60 * 60_000 };
  return source.$transaction(
    (from) =>
      destination.$transaction(async (to) => {
        const report: TableCopy[] = [];
        for (const table of COPIED_TABLES) {
          const total = await delegate(from, table).count();
          const sourceChecksum = new TableChecksum();
          let rows = 0;
          const insert = await rowInserter(to as Client, databaseKind(destination), table);
          for await (const batch of batches(from, table, batchSize)) {
            for (const row of batch) sourceChecksum.add(row);
            await insert(batch);
            rows += batch.length;
            onProgress?.({ table: table.table, rows, total });
          }
          const copied = await checksumOf(to, table, batchSize);
          const entry = { table: table.table, rows, sourceChecksum: sourceChecksum.toString(), copiedChecksum: copied.checksum };
          if (copied.rows !== rows || copied.checksum !== entry.sourceChecksum) {
            throw new CopyError(
              `${table.table}: read back ${copied.rows} rows with checksum ${copied.checksum}, expected ${rows} with ${entry.sourceChecksum}; nothing was written`,
            );
          }
          report.push(entry);
        }
        await continueSequences(to as Client, databaseKind(destination));
        return report;
      }, long),
    { ...long, ...snapshotReads(databaseKind(source)) },
  );
}

/**
 * How a batch of rows is written. PostgreSQL: one INSERT over arrays (unnest), a column each, typed
 * from the catalog; Prisma's createMany there binds every value separately and managed ~1,500
 * turns a second. SQLite: createMany, whose statements the driver runs in-process.
 */
async function rowInserter(client: Client, kind: "sqlite" | "postgres", table: Table): Promise<(rows: Row[]) => Promise<void>> {
  if (kind !== "postgres") return async (rows) => void (await delegate(client, table).createMany({ data: rows }));
  const columns = await client.$queryRawUnsafe<{ name: string; type: string }[]>(
    `SELECT column_name::text AS name, udt_name::text AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    table.table,
  );
  const names = columns.map((column) => `"${column.name}"`).join(", ");
  const arrays = columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(", ");
  const sql = `INSERT INTO "${table.table}" (${names}) SELECT * FROM unnest(${arrays})`;
  // Dates as UTC text: the timestamp(3) columns hold UTC, as Prisma writes them.
  const value = (cell: unknown) => (cell instanceof Date ? cell.toISOString() : (cell ?? null));
  return async (rows) => {
    await client.$executeRawUnsafe(sql, ...columns.map((column) => rows.map((row) => value(row[column.name]))));
  };
}

/**
 * Readies a freshly filled database for queries: statistics for the planner, and on PostgreSQL
 * the GIN indexes' pending entries merged (until then every search scans them: a common word took
 * 3 times as long). What autovacuum would do some minutes later. Outside any transaction.
 */
export async function settleCopiedDatabase(client: Database): Promise<void> {
  await client.$executeRawUnsafe(databaseKind(client) === "postgres" ? `VACUUM (ANALYZE)` : `ANALYZE`);
}

/**
 * Turn.seq was copied as it was; PostgreSQL's sequence behind it does not know, so the next new
 * turn would collide. SQLite's AUTOINCREMENT follows the largest rowid written by itself.
 */
async function continueSequences(client: Client, kind: "sqlite" | "postgres"): Promise<void> {
  if (kind !== "postgres") return;
  await client.$executeRawUnsafe(
    `SELECT setval(pg_get_serial_sequence('"Turn"', 'seq'), COALESCE((SELECT MAX("seq") FROM "Turn"), 0) + 1, false)`,
  );
}
