import { MIN_PREFIX_LENGTH, toFtsMatch } from "@/lib/domain/search";
import { chunked, IN_LIST_CHUNK } from "./chunks";
import { databaseKind, type Database, type DatabaseKind } from "./create-client";
import type { CustomModel as CustomModelRow, Thread as ThreadRow } from "./generated/client";

/**
 * Raw SQL run through Prisma lives here, one function per need, each with the SQL for both
 * databases: SQLite and PostgreSQL. Statements are written with `?` placeholders, numbered for
 * PostgreSQL by `run`. An import's bulk writes go straight to the driver: lib/db/import-writer.ts.
 */

/** `?` placeholders as PostgreSQL's $1, $2, ... (no statement here has a literal question mark). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** `sql` with PostgreSQL's numbered placeholders when `db` is PostgreSQL. */
export function numberedFor(db: object, sql: string): string {
  return databaseKind(db) === "postgres" ? numbered(sql) : sql;
}

/** What raw reads need: the Prisma client, or a plain SQLite connection (lib/db/import-writer.ts withImportReader). */
export type RawReader = { $queryRawUnsafe<T = unknown>(sql: string, ...params: unknown[]): Promise<T> };

export function run<T>(db: RawReader, kind: DatabaseKind, sql: string, ...params: unknown[]): Promise<T> {
  return db.$queryRawUnsafe<T>(kind === "postgres" ? numbered(sql) : sql, ...params);
}

/**
 * A turn's words for PostgreSQL's full-text search: the generated column with the GIN index that
 * prisma/postgres/migrations add (the words of the first 256 KiB of the content).
 */
export const TURN_TSVECTOR = (alias: string) => `${alias}."searchVector"`;

/**
 * A thread's title as search matches it: its masked copy when it holds a secret, else the title
 * (lib/domain/secrets/detect.ts searchableText). PostgreSQL's trigram index is on this expression.
 */
const SEARCHED_TITLE = (alias: string) => `COALESCE(${alias}."searchTitle", ${alias}."title")`;

/** A tsquery in which every term must occur as a word prefix, or a whole word when short (as toFtsMatch). */
export function toTsQuery(terms: string[]): string {
  // Terms are letters and digits only (searchTerms), quoted all the same.
  return terms.map((term) => `'${term.replaceAll("'", "''")}'${Array.from(term).length >= MIN_PREFIX_LENGTH ? ":*" : ""}`).join(" & ");
}

/** WAL lets readers proceed during a write; foreign keys make turn deletes cascade. PostgreSQL needs nothing. */
export async function prepareConnection(db: Database): Promise<void> {
  if (databaseKind(db) === "postgres") return;
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
}

/**
 * Takes the database write lock at the start of a transaction that reads before it writes (as
 * BEGIN IMMEDIATE would; the adapter begins deferred). In WAL mode a transaction that has read and
 * then writes after another process committed fails at once with SQLITE_BUSY(_SNAPSHOT), whereas
 * a first statement that writes waits for the lock (busy timeout). A write that matches no row.
 * On PostgreSQL, a transaction-scoped advisory lock: such transactions run one at a time.
 */
export const POSTGRES_WRITE_LOCK = 727365;

export async function lockForWrite(tx: Pick<Database, "$executeRawUnsafe" | "$queryRawUnsafe">, kind: DatabaseKind): Promise<void> {
  // executeRaw: the lock function returns void, a type query results cannot carry.
  if (kind === "postgres") await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${POSTGRES_WRITE_LOCK})`);
  else await tx.$executeRawUnsafe(`DELETE FROM "AppSetting" WHERE 0`);
}

export type ThreadSearch = {
  /** Words to find in turns (searchTerms); none searches titles only. */
  terms: string[];
  titlePattern: string;
  /** A tool's key (lib/domain/thread-tools.ts toolKey): threads that used it (ThreadTool). */
  toolKey?: string;
  modelName?: string;
  source?: string;
  project?: string;
  after?: { lastUpdatedAt: Date; id: string };
  limit: number;
};

/** Above this many matching turns, walking threads newest first beats listing every match's thread. */
const COMMON_MATCH_TURNS = 5_000;

/**
 * Ids of threads whose title contains the query or whose turns match it in the full-text index,
 * most recent activity first, after the keyset position.
 *
 * Two plans, chosen by how many turns match (counted on the index, a few ms): a rare term looks
 * up the thread of each matching turn; a common one ("error" in 70k turns) walks threads newest
 * first and stops at the page size, checking each thread's turns against the matches.
 */
export async function searchThreadIds(db: Database, search: ThreadSearch): Promise<string[]> {
  const kind = databaseKind(db);
  const pg = kind === "postgres";
  const where: string[] = [];
  const params: unknown[] = [];
  // SQLite's LIKE ignores ASCII case; PostgreSQL's needs ILIKE for the same.
  // Titles are matched as search may read them: masked where they hold a secret (searchTitle).
  const textMatch: string[] = [`${SEARCHED_TITLE("t")} ${pg ? "ILIKE" : "LIKE"} ? ESCAPE '\\'`];
  params.push(search.titlePattern);
  if (search.terms.length > 0) {
    const match = pg ? toTsQuery(search.terms) : toFtsMatch(search.terms);
    const matchingTurns = pg
      ? `SELECT 1 FROM "Turn" m WHERE ${TURN_TSVECTOR("m")} @@ to_tsquery('threadline'::regconfig, ?) LIMIT ${COMMON_MATCH_TURNS}`
      : `SELECT 1 FROM "TurnSearch" WHERE "TurnSearch" MATCH ? LIMIT ${COMMON_MATCH_TURNS}`;
    const [counted] = await run<{ n: number | bigint }[]>(db, kind, `SELECT count(*) AS n FROM (${matchingTurns}) matched`, match);
    const common = Number(counted?.n ?? 0) >= COMMON_MATCH_TURNS;
    const turnMatches = pg
      ? `${TURN_TSVECTOR("u")} @@ to_tsquery('threadline'::regconfig, ?)`
      : `u."seq" IN (SELECT rowid FROM "TurnSearch" WHERE "TurnSearch" MATCH ?)`;
    if (common) {
      // OFFSET 0 keeps PostgreSQL from turning the EXISTS into one hash of every matching turn
      // (75,000 for "error": 354 ms) instead of checking the few threads the walk needs (2 ms).
      textMatch.push(`EXISTS (SELECT 1 FROM "Turn" u WHERE u."threadId" = t."id" AND ${turnMatches}${pg ? " OFFSET 0" : ""})`);
    } else if (pg && titleTrigrams(search.titlePattern)) {
      // One set from both indexes (trigram on titles, GIN on words): "title ILIKE ... OR id IN
      // (...)" makes PostgreSQL test the title of every thread (150 ms at 50,000 threads). A
      // shorter query has no trigram to look up, and the newest-first walk below serves it better.
      textMatch[0] = `t."id" IN (SELECT "id" FROM "Thread" WHERE ${SEARCHED_TITLE(`"Thread"`)} ILIKE ? ESCAPE '\\' UNION SELECT u."threadId" FROM "Turn" u WHERE ${turnMatches})`;
    } else {
      textMatch.push(`t."id" IN (SELECT u."threadId" FROM "Turn" u WHERE ${turnMatches})`);
    }
    params.push(match);
  }
  where.push(`(${textMatch.join(" OR ")})`);
  if (search.toolKey) {
    where.push(`EXISTS (SELECT 1 FROM "ThreadTool" k WHERE k."key" = ? AND k."threadId" = t."id")`);
    params.push(search.toolKey);
  }
  if (search.modelName) {
    where.push(`EXISTS (SELECT 1 FROM "Turn" u WHERE u."modelName" = ? AND u."threadId" = t."id")`);
    params.push(search.modelName);
  }
  if (search.source) {
    where.push(`t."source" = ?`);
    params.push(search.source);
  }
  if (search.project) {
    where.push(`t."project" = ?`);
    params.push(search.project);
  }
  if (search.after) {
    const at = pg ? `CAST(? AS timestamp(3))` : "?";
    where.push(`(t."lastUpdatedAt" < ${at} OR (t."lastUpdatedAt" = ${at} AND t."id" < ?))`);
    // SQLite: the adapter binds a Date in the stored text form. PostgreSQL: the UTC instant as
    // text, read as the timestamp without time zone that Prisma stores (UTC).
    const value = pg ? search.after.lastUpdatedAt.toISOString() : search.after.lastUpdatedAt;
    params.push(value, value, search.after.id);
  }
  const sql = `SELECT t."id" AS id FROM "Thread" t WHERE ${where.join(" AND ")} ORDER BY t."lastUpdatedAt" DESC, t."id" DESC LIMIT ?`;
  params.push(search.limit);
  const rows = await run<{ id: string }[]>(db, kind, sql, ...params);
  return rows.map((row) => row.id);
}

/** Whether a containsPattern() pattern holds a trigram (3 characters) for PostgreSQL's title index. */
function titleTrigrams(pattern: string): boolean {
  return Array.from(pattern.slice(1, -1).replace(/\\(.)/g, "$1")).length >= 3;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type TurnOutlineRow = {
  seq: number;
  id: string;
  index: number;
  role: string;
  /** The files JSON, null for none. */
  files: string | null;
  toolName: string | null;
  modelProvider: string | null;
  modelName: string | null;
  /** The stored count under the asked tokenizer; null when not counted yet. */
  tokens: number | null;
  /** Whether that count is estimated (counted in pieces); false when not counted. */
  estimated: boolean;
};

/**
 * One thread's turns without their content, in order (from index `fromIndex` on), each with its
 * stored count under `tokenizer`: what a budget preview plans with. One query per thread (a 10,000-turn chain is read
 * in about a third of the time Prisma's relation loading took).
 */
export async function turnOutlines(db: Database, threadId: string, tokenizer: string, fromIndex = 0): Promise<TurnOutlineRow[]> {
  const rows = await run<TurnOutlineRow[]>(
    db,
    databaseKind(db),
    `SELECT t."seq" AS seq, t."id" AS id, t."index" AS "index", t."role" AS role, NULLIF(t."files", '[]') AS files,
            t."toolName" AS "toolName", t."modelProvider" AS "modelProvider", t."modelName" AS "modelName", c."tokens" AS tokens,
            c."estimated" AS estimated
       FROM "Turn" t LEFT JOIN "TurnTokenCount" c ON c."turnSeq" = t."seq" AND c."tokenizer" = ?
      WHERE t."threadId" = ? AND t."index" >= ?
      ORDER BY t."index"`,
    tokenizer,
    threadId,
    fromIndex,
  );
  for (const row of rows) {
    row.seq = Number(row.seq);
    row.index = Number(row.index);
    if (row.tokens !== null) row.tokens = Number(row.tokens);
    row.estimated = Boolean(Number(row.estimated ?? 0)); // SQLite answers 0 or 1, PostgreSQL a boolean
  }
  return rows;
}

/** A thread row of a chain, with its distance from the start (1 for the start itself). */
export type ChainRow = ThreadRow & { chainDepth: number };

/**
 * The seqs of a thread's first and last turn (by index), null without turns: with its turnCount
 * and lastUpdatedAt they change whenever its turns do. Turns are appended (a new last seq),
 * rewritten from an index on by an import (new seqs for the tail) or deleted with their thread;
 * seqs are never reused. Read from the index on (threadId, index): two probes per thread.
 */
export type TurnExtent = { firstTurnSeq: number | null; lastTurnSeq: number | null };

const TURN_EXTENT = (alias: string) =>
  `(SELECT x."seq" FROM "Turn" x WHERE x."threadId" = ${alias}."id" ORDER BY x."index" ASC LIMIT 1) AS "firstTurnSeq",
   (SELECT x."seq" FROM "Turn" x WHERE x."threadId" = ${alias}."id" ORDER BY x."index" DESC LIMIT 1) AS "lastTurnSeq"`;

/**
 * The thread rows on the parent links up from `id` (itself first, chainDepth 1), at most
 * `maxDepth` links, in one query; with their TurnExtent when asked. A loop repeats rows until the
 * depth runs out; callers walk the links themselves (collectChain).
 */
export async function chainRows<E extends boolean>(
  db: Database,
  id: string,
  maxDepth: number,
  { withExtents }: { withExtents: E },
): Promise<(ChainRow & (E extends true ? TurnExtent : unknown))[]> {
  const rows = await run<(ChainRow & Partial<TurnExtent>)[]>(
    db,
    databaseKind(db),
    `WITH RECURSIVE up(id, parent, depth) AS (
       SELECT "id", "parentThreadId", 1 FROM "Thread" WHERE "id" = ?
       UNION ALL
       SELECT t."id", t."parentThreadId", up.depth + 1 FROM "Thread" t JOIN up ON t."id" = up.parent WHERE up.depth < ?
     )
     SELECT t.*, up.depth AS "chainDepth"${withExtents ? `, ${TURN_EXTENT("t")}` : ""}
       FROM up JOIN "Thread" t ON t."id" = up.id
      ORDER BY up.depth`,
    id,
    maxDepth,
  );
  const seq = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  for (const row of rows) {
    row.chainDepth = Number(row.chainDepth);
    if (withExtents) Object.assign(row, { firstTurnSeq: seq(row.firstTurnSeq), lastTurnSeq: seq(row.lastTurnSeq) });
  }
  return rows as (ChainRow & (E extends true ? TurnExtent : unknown))[];
}

/**
 * Each thread's turnCount and lastUpdatedAt, expired ones included (missing ids are left out):
 * what an open page polls and what the live events carry. Raw: one statement, where the Prisma
 * client compiles a query per call.
 */
export async function threadLiveRows(db: Database, ids: string[]): Promise<{ id: string; turnCount: number; lastUpdatedAt: Date }[]> {
  const rows: { id: string; turnCount: number | bigint; lastUpdatedAt: Date | string | number }[] = [];
  for (const chunk of chunked(ids, IN_LIST_CHUNK)) {
    rows.push(
      ...(await run<typeof rows>(
        db,
        databaseKind(db),
        `SELECT "id", "turnCount", "lastUpdatedAt" FROM "Thread" WHERE "id" IN (${chunk.map(() => "?").join(", ")})`,
        ...chunk,
      )),
    );
  }
  return rows.map((row) => ({ id: row.id, turnCount: Number(row.turnCount), lastUpdatedAt: new Date(row.lastUpdatedAt) }));
}

/** Every custom model, by id: raw, because a preview for a model reads them on every request. */
export async function customModelRows(db: Database): Promise<CustomModelRow[]> {
  return run<CustomModelRow[]>(db, databaseKind(db), `SELECT * FROM "CustomModel" ORDER BY "id"`);
}

/** Where the snapshots stored with the turns of `threadId` are: no contents. */
export async function snapshotStubs(db: Database, threadId: string): Promise<{ turnSeq: number; position: number; path: string }[]> {
  const rows = await run<{ turnSeq: number | bigint; position: number | bigint; path: string }[]>(
    db,
    databaseKind(db),
    `SELECT s."turnSeq" AS "turnSeq", s."position" AS position, s."path" AS path
       FROM "FileSnapshot" s JOIN "Turn" t ON t."seq" = s."turnSeq"
      WHERE t."threadId" = ?`,
    threadId,
  );
  return rows.map((row) => ({ turnSeq: Number(row.turnSeq), position: Number(row.position), path: row.path }));
}

/** The contents of the snapshots at `[turnSeq, position]`, a chunk per statement. */
export async function snapshotContents(
  db: Database,
  keys: { turnSeq: number; position: number }[],
): Promise<{ turnSeq: number; position: number; content: string }[]> {
  const out: { turnSeq: number; position: number; content: string }[] = [];
  for (const chunk of chunked(keys, IN_LIST_CHUNK / 2)) {
    const rows = await run<{ turnSeq: number | bigint; position: number | bigint; content: string }[]>(
      db,
      databaseKind(db),
      `SELECT "turnSeq" AS "turnSeq", "position" AS position, "content" AS content FROM "FileSnapshot"
        WHERE ${chunk.map(() => `("turnSeq" = ? AND "position" = ?)`).join(" OR ")}`,
      ...chunk.flatMap((key) => [key.turnSeq, key.position]),
    );
    for (const row of rows) out.push({ turnSeq: Number(row.turnSeq), position: Number(row.position), content: row.content });
  }
  return out;
}

/** Turn contents by seq, a chunk of seqs per statement. */
export async function turnContents(db: Database, seqs: number[]): Promise<{ seq: number; content: string }[]> {
  const out: { seq: number; content: string }[] = [];
  for (const chunk of chunked(seqs, IN_LIST_CHUNK)) {
    const rows = await run<{ seq: number | bigint; content: string }[]>(
      db,
      databaseKind(db),
      `SELECT "seq" AS seq, "content" AS content FROM "Turn" WHERE "seq" IN (${chunk.map(() => "?").join(", ")})`,
      ...chunk,
    );
    for (const row of rows) out.push({ seq: Number(row.seq), content: row.content });
  }
  return out;
}

/**
 * The context an estimated usage starts a page of turns with (lib/domain/usage.ts turnUsages):
 * the tokens of the thread's turns before `start` since its last compaction marker (the marker
 * included), each its stored `tokenizer` count, else its estimate. Zero at the thread's start.
 */
export async function contextTokensBefore(
  db: RawReader,
  threadId: string,
  start: number,
  tokenizer: string,
  kind: DatabaseKind = databaseKind(db),
): Promise<number> {
  if (start <= 0) return 0;
  const [row] = await run<{ tokens: number | bigint | null }[]>(
    db,
    kind,
    `SELECT SUM(COALESCE(c."tokens", t."tokenEstimate")) AS tokens
       FROM "Turn" t LEFT JOIN "TurnTokenCount" c ON c."turnSeq" = t."seq" AND c."tokenizer" = ?
      WHERE t."threadId" = ? AND t."index" < ?
        AND t."index" >= COALESCE((SELECT MAX(m."index") FROM "Turn" m WHERE m."threadId" = ? AND m."index" < ? AND m."parts" LIKE ?), 0)`,
    tokenizer,
    threadId,
    start,
    threadId,
    start,
    containsPattern(`"type":"compaction"`),
  );
  return Number(row?.tokens ?? 0);
}

/** What the outline reads of a turn: its role and whether its parts hold a tool call, a failed result, a compaction. */
export type TurnFlagRow = { index: number; role: string; toolCall: boolean; error: boolean; compaction: boolean };

// Parts are stored as JSON.stringify wrote them (lib/db/mappers.ts storedParts): a key and its
// value with no space between. Inside a JSON string every quote is escaped, so text that merely
// mentions these (a tool result quoting a transcript) cannot match.
const TOOL_CALL_MARK = `"type":"tool_call"`;
const ERROR_MARK = `"isError":true`;
const COMPACTION_MARK = `"type":"compaction"`;

/**
 * Every turn of a thread in order with its role and three flags read from its stored parts (a
 * substring test in the database, so no content or parts reach the application): the outline
 * of a 35,000-turn thread in one query.
 */
export async function turnFlags(db: Database, threadId: string): Promise<TurnFlagRow[]> {
  const kind = databaseKind(db);
  const has = (mark: string) =>
    kind === "postgres" ? `COALESCE(strpos("parts", '${mark}') > 0, false)` : `COALESCE(instr("parts", '${mark}') > 0, 0)`;
  const rows = await run<{ index: number | bigint; role: string; toolCall: unknown; error: unknown; compaction: unknown }[]>(
    db,
    kind,
    `SELECT "index" AS "index", "role" AS role, ${has(TOOL_CALL_MARK)} AS "toolCall", ${has(ERROR_MARK)} AS error, ${has(COMPACTION_MARK)} AS compaction
       FROM "Turn" WHERE "threadId" = ? ORDER BY "index"`,
    threadId,
  );
  // SQLite answers 0 or 1, PostgreSQL a boolean.
  const flag = (value: unknown) => value === true || Number(value) === 1;
  return rows.map((row) => ({
    index: Number(row.index),
    role: row.role,
    toolCall: flag(row.toolCall),
    error: flag(row.error),
    compaction: flag(row.compaction),
  }));
}

/**
 * The turns (0-based indexes, in order) holding a tool call that started a sub-agent: a call whose
 * id is one of `toolCallIds`, or whose result names one of `agentIds` (Claude Code's agent files
 * are tied to their call that way). Parts are read as JSON in the database, and only those of turns
 * that hold a tool call (or a result naming an agent).
 */
export async function subagentCallTurns(
  db: Database,
  threadId: string,
  { toolCallIds, agentIds }: { toolCallIds: string[]; agentIds: string[] },
): Promise<number[]> {
  if (toolCallIds.length === 0 && agentIds.length === 0) return [];
  const kind = databaseKind(db);
  const pg = kind === "postgres";
  // A turn's parts are a list, or {contentAt, parts} when a part shares the turn's content.
  const elements = pg
    ? `json_array_elements(CASE WHEN json_typeof(t."parts"::json) = 'object' THEN t."parts"::json -> 'parts' ELSE t."parts"::json END) p`
    : `json_each(t."parts", CASE WHEN json_type(t."parts") = 'object' THEN '$.parts' ELSE '$' END) p`;
  const field = (name: string) => (pg ? `p ->> '${name}'` : `p.value ->> '${name}'`);
  const inList = pg ? `IN (SELECT json_array_elements_text(?::json))` : `IN (SELECT value FROM json_each(?))`;
  const contains = (mark: string) => (pg ? `strpos(t."parts", '${mark}') > 0` : `instr(t."parts", '${mark}') > 0`);
  const ids = new Set(toolCallIds);
  if (agentIds.length > 0) {
    const named = await run<{ id: string | null }[]>(
      db,
      kind,
      `SELECT ${field("toolCallId")} AS id FROM "Turn" t, ${elements}
        WHERE t."threadId" = ? AND ${contains(`"agentId":`)} AND ${field("type")} = 'tool_result' AND ${field("agentId")} ${inList}`,
      threadId,
      JSON.stringify(agentIds),
    );
    for (const { id } of named) if (id) ids.add(id);
  }
  if (ids.size === 0) return [];
  const rows = await run<{ index: number | bigint }[]>(
    db,
    kind,
    `SELECT DISTINCT t."index" AS "index" FROM "Turn" t, ${elements}
      WHERE t."threadId" = ? AND ${contains(TOOL_CALL_MARK)} AND ${field("type")} = 'tool_call' AND ${field("id")} ${inList}
      ORDER BY t."index"`,
    threadId,
    JSON.stringify([...ids]),
  );
  return rows.map((row) => Number(row.index));
}

/**
 * The 0-based indexes of a thread's turns that match every term (as the thread list's search: a
 * word prefix, or a whole word when short), in order, at most `limit`. The full-text index is
 * asked only about the thread's own turns (its range of turn keys on SQLite).
 */
export async function findTurnIndexes(db: Database, threadId: string, terms: string[], limit: number): Promise<number[]> {
  if (terms.length === 0) return [];
  const kind = databaseKind(db);
  const sql =
    kind === "postgres"
      ? `SELECT t."index" AS "index" FROM "Turn" t
          WHERE t."threadId" = ? AND ${TURN_TSVECTOR("t")} @@ to_tsquery('threadline'::regconfig, ?)
          ORDER BY t."index" LIMIT ?`
      : `SELECT t."index" AS "index" FROM "Turn" t
          WHERE t."threadId" = ? AND t."seq" IN (
            SELECT rowid FROM "TurnSearch" WHERE "TurnSearch" MATCH ?
               AND rowid BETWEEN (SELECT min("seq") FROM "Turn" WHERE "threadId" = ?) AND (SELECT max("seq") FROM "Turn" WHERE "threadId" = ?))
          ORDER BY t."index" LIMIT ?`;
  const params = kind === "postgres" ? [threadId, toTsQuery(terms), limit] : [threadId, toFtsMatch(terms), threadId, threadId, limit];
  const rows = await run<{ index: number | bigint }[]>(db, kind, sql, ...params);
  return rows.map((row) => Number(row.index));
}

export type UsageRow = {
  threadId: string;
  role: string;
  modelProvider: string | null;
  modelName: string | null;
  /** When the turn was written (a response's price is the one in force then). */
  timestamp: Date;
  modelMetadata: string | null;
  tokenEstimate: number;
  /** The stored count under the asked tokenizer; null when not counted. */
  tokens: number | null;
  /** Whether the turn is a compaction marker (its parts hold one). */
  compaction: boolean;
};

/**
 * What usage and its price need of each turn of some threads, in order, without their content or
 * parts (a 35,000-turn session's parts are megabytes of tool output): role, model, time, metadata,
 * counts, and whether the turn is a compaction marker.
 */
export async function usageRows(
  db: RawReader,
  threadIds: string[],
  tokenizer: string,
  kind: DatabaseKind = databaseKind(db),
  fromIndex = 0,
): Promise<UsageRow[]> {
  if (threadIds.length === 0) return [];
  const rows = await run<UsageRow[]>(
    db,
    kind,
    `SELECT t."threadId" AS "threadId", t."role" AS role, t."modelProvider" AS "modelProvider", t."modelName" AS "modelName", t."timestamp" AS timestamp,
            t."modelMetadata" AS "modelMetadata", t."tokenEstimate" AS "tokenEstimate",
            c."tokens" AS tokens, CASE WHEN t."parts" LIKE ? THEN 1 ELSE 0 END AS compaction
       FROM "Turn" t LEFT JOIN "TurnTokenCount" c ON c."turnSeq" = t."seq" AND c."tokenizer" = ?
      WHERE t."threadId" IN (${threadIds.map(() => "?").join(", ")}) AND t."index" >= ?
      ORDER BY t."threadId", t."index"`,
    containsPattern(`"type":"compaction"`),
    tokenizer,
    ...threadIds,
    fromIndex,
  );
  for (const row of rows) {
    row.timestamp = row.timestamp instanceof Date ? row.timestamp : new Date(row.timestamp as unknown as string | number);
    row.tokenEstimate = Number(row.tokenEstimate);
    if (row.tokens !== null) row.tokens = Number(row.tokens);
    row.compaction = Boolean(Number(row.compaction));
  }
  return rows;
}

/** The stored parts of the turns of some threads whose parts contain `needle`, in order. */
export async function partsContaining(db: Database, threadIds: string[], needle: string): Promise<{ threadId: string; parts: string }[]> {
  if (threadIds.length === 0) return [];
  return run<{ threadId: string; parts: string }[]>(
    db,
    databaseKind(db),
    `SELECT "threadId" AS "threadId", "parts" AS parts FROM "Turn"
      WHERE "threadId" IN (${threadIds.map(() => "?").join(", ")}) AND "parts" LIKE ?
      ORDER BY "threadId", "index"`,
    ...threadIds,
    containsPattern(needle),
  );
}
