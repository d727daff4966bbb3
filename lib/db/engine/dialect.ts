import { matchesAsPrefix, toFtsMatch } from "@/lib/domain/threads/search";
import { chunked, IN_LIST_CHUNK } from "./chunks";
import { checkpointsOffThread, FALLBACK_CHECKPOINT_PAGES } from "./checkpoints";
import { databaseKind, type Database, type DatabaseKind } from "./create-client";
import type { Reader } from "@/lib/domain/access";
import { readableCondition } from "./readable";
import type { CustomModel as CustomModelRow, Thread as ThreadRow } from "../generated/client";

/**
 * Raw SQL run through Prisma lives here and in dialect-*.ts (by subject), one function per need,
 * each with the SQL for both databases: SQLite and PostgreSQL. Statements are written with `?`
 * placeholders, numbered for PostgreSQL by `run`. An import's bulk writes go straight to the
 * driver: lib/db/imports/import-writer.ts.
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

/** What raw reads need: the Prisma client, or a plain SQLite connection (lib/db/imports/import-writer.ts withImportReader). */
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
  return terms.map((term) => `'${term.replaceAll("'", "''")}'${matchesAsPrefix(term) ? ":*" : ""}`).join(" & ");
}

/**
 * The FTS5 MATCH expression for search terms on SQLite, with the same meaning as toFtsMatch (every
 * term a word prefix, or a whole word when short) but cheaper to answer. FTS5 answers a prefix
 * ("error"*) by merging the whole lists of every word that starts with it before it returns its
 * first row: at a million turns, 97-128 ms for "error" whatever the LIMIT, against 0.3 ms for the
 * newest 500 turns holding the word "error". So a prefix is asked as the OR of the index's own
 * words that start with it (TurnSearchVocab), which FTS5 reads lazily and stops at a LIMIT.
 *
 * A term keeps its prefix form when it has no such word (nothing to merge then), more than
 * MAX_WORDS of them (one list per word), or any character that is not a-z or 0-9: the index
 * stores words as its tokenizer folds them (diacritics removed), which the lookup could miss.
 */
const MAX_WORDS = 64;
const PLAIN_TERM = /^[a-z0-9]+$/;

export async function ftsMatch(db: RawReader, terms: string[]): Promise<string> {
  const matches = await Promise.all(terms.map((term) => termMatch(db, term, false)));
  return matches.map((m) => m.match).join(" AND ");
}

/**
 * ftsMatch, and at most how many turns it matches when every term was looked up in the index's
 * words (the fewest of any term's: a turn with one of its words counts once per word), else null.
 */
async function ftsMatchCounted(db: RawReader, terms: string[]): Promise<{ match: string; turns: number | null }> {
  const matches = await Promise.all(terms.map((term) => termMatch(db, term, true)));
  const counted = matches.map((m) => m.turns);
  return {
    match: matches.map((m) => m.match).join(" AND "),
    turns: counted.every((n) => n !== null) ? Math.min(...(counted as number[])) : null,
  };
}

/** `count`: with the turns its words are in (each word's doclist decoded: about 5 ms more for "error" at a million turns). */
async function termMatch(db: RawReader, term: string, count: boolean): Promise<{ match: string; turns: number | null }> {
  const unexpanded = { match: toFtsMatch([term]), turns: null };
  if (!matchesAsPrefix(term) || !PLAIN_TERM.test(term)) return unexpanded;
  // Every word that starts with the term sorts between it and the term with its last character
  // one higher (ASCII; the index compares words byte by byte).
  const upper = term.slice(0, -1) + String.fromCharCode(term.charCodeAt(term.length - 1) + 1);
  const words = await db.$queryRawUnsafe<{ term: string; doc?: number | bigint }[]>(
    `SELECT term${count ? ", doc" : ""} FROM "TurnSearchVocab" WHERE term >= ? AND term < ? LIMIT ${MAX_WORDS + 1}`,
    term,
    upper,
  );
  if (words.length === 0 || words.length > MAX_WORDS) return unexpanded;
  return {
    match: `(${words.map((word) => `"${word.term.replaceAll('"', '""')}"`).join(" OR ")})`,
    turns: count ? words.reduce((sum, word) => sum + Number(word.doc), 0) : null,
  };
}

/**
 * WAL lets readers proceed during a write; foreign keys make turn deletes cascade. PostgreSQL needs
 * nothing. With the checkpoint worker there (checkpoints.ts), this connection leaves the log's
 * checkpoints to it, as the import writer's does: SQLite's own, at 1,000 pages, ran in this
 * connection's commits on the event loop, and during a first sync, with every import batch adding
 * thousands of pages, nearly every commit of a usage sum or the secret scan's progress ran one.
 */
export async function prepareConnection(db: Database): Promise<void> {
  if (databaseKind(db) === "postgres") return;
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  if (checkpointsOffThread()) await db.$queryRawUnsafe(`PRAGMA wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
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
  /** A tool's key (lib/domain/threads/thread-tools.ts toolKey): threads that used it (ThreadTool). */
  toolKey?: string;
  modelName?: string;
  source?: string;
  project?: string;
  after?: { lastUpdatedAt: Date; id: string };
  limit: number;
  /** Whose search it is: only the threads they may read (lib/domain/access). */
  reader: Reader;
  /** False: never the widespread plan (the plans test compares them). */
  widespread?: boolean;
};

/** Above this many matching turns, walking threads newest first beats listing every match's thread. */
const COMMON_MATCH_TURNS = 5_000;
/**
 * A word in at least this share of all turns ("error" in 36% of a million) is in most threads: the
 * walk then asks the index for each thread's own matches instead of listing every match first
 * (367,038 seqs for "error", 88 ms), and finds a page within the newest threads. The newest
 * WIDESPREAD_WINDOW pages' worth of threads are walked that way; a page not found there (a word
 * common in a few long threads only) is searched again with the common plan.
 */
const WIDESPREAD_SHARE = 0.15;
const WIDESPREAD_WINDOW = 4;

/**
 * Ids of threads whose title contains the query or whose turns match it in the full-text index,
 * most recent activity first, after the keyset position.
 *
 * Plans chosen by how many turns match (counted on the index, a few ms): a rare term looks up the
 * thread of each matching turn; a common one ("error" in 70k turns) walks threads newest first and
 * stops at the page size, checking each thread's turns against the matches; on SQLite a word in
 * most turns is looked up in each walked thread's own part of the index (WIDESPREAD_SHARE).
 */
export async function searchThreadIds(db: Database, search: ThreadSearch): Promise<string[]> {
  const statement = await threadSearchStatement(db, search);
  const kind = databaseKind(db);
  let rows = await run<{ id: string }[]>(db, kind, statement.sql, ...statement.params);
  if (statement.unlessFull && rows.length < search.limit)
    rows = await run<{ id: string }[]>(db, kind, statement.unlessFull.sql, ...statement.unlessFull.params);
  return rows.map((row) => row.id);
}

/** A statement with `?` placeholders (numbered for PostgreSQL by `run`) and its parameters. */
export type Statement = { sql: string; params: unknown[] };

/** A list search's statement; `unlessFull`: the one to run instead when it answers less than a page (the widespread plan's window). */
type ThreadSearchStatement = Statement & { unlessFull?: Statement };

/**
 * The statement searchThreadIds runs, its plan chosen (the plans test reads it with EXPLAIN).
 * @internal exported for its tests
 */
export async function threadSearchStatement(db: Database, search: ThreadSearch): Promise<ThreadSearchStatement> {
  const kind = databaseKind(db);
  const pg = kind === "postgres";
  const where: string[] = [];
  const params: unknown[] = [];
  // SQLite's LIKE ignores ASCII case; PostgreSQL's needs ILIKE for the same.
  // Titles are matched as search may read them: masked where they hold a secret (searchTitle).
  const textMatch: string[] = [`${SEARCHED_TITLE("t")} ${pg ? "ILIKE" : "LIKE"} ? ESCAPE '\\'`];
  params.push(search.titlePattern);
  /** The text condition of the widespread plan, when it is chosen. */
  let widespreadText: string | null = null;
  if (search.terms.length > 0) {
    const counted = pg ? { match: toTsQuery(search.terms), turns: null } : await ftsMatchCounted(db, search.terms);
    const match = counted.match;
    const matchingTurns = pg
      ? `SELECT 1 FROM "Turn" m WHERE ${TURN_TSVECTOR("m")} @@ to_tsquery('threadline'::regconfig, ?) LIMIT ${COMMON_MATCH_TURNS}`
      : `SELECT 1 FROM "TurnSearch" WHERE "TurnSearch" MATCH ? LIMIT ${COMMON_MATCH_TURNS}`;
    const [found] = await run<{ n: number | bigint }[]>(db, kind, `SELECT count(*) AS n FROM (${matchingTurns}) matched`, match);
    const common = Number(found?.n ?? 0) >= COMMON_MATCH_TURNS;
    if (common && counted.turns !== null && search.widespread !== false) {
      const [last] = await run<{ seq: number | bigint | null }[]>(db, kind, `SELECT max("seq") AS seq FROM "Turn"`);
      // The thread's own matches: the index read from its first turn's seq to its last, each match's thread checked.
      if (counted.turns >= WIDESPREAD_SHARE * Number(last?.seq ?? 0))
        widespreadText = `(${textMatch[0]} OR EXISTS (SELECT 1 FROM "TurnSearch" s JOIN "Turn" u ON u."seq" = s.rowid
          WHERE s."TurnSearch" MATCH ? AND u."threadId" = t."id"
            AND s.rowid >= (SELECT min(u."seq") FROM "Turn" u WHERE u."threadId" = t."id")
            AND s.rowid <= (SELECT max(u."seq") FROM "Turn" u WHERE u."threadId" = t."id")))`;
    }
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
  // PostgreSQL: OFFSET 0 keeps a filter a check of each thread the search finds. As a semi-join
  // the planner could begin with it instead: every thread that used the tool (9,000 of 50,000),
  // or every turn by the model in the Turn index, then searched and sorted (a million turns:
  // "migration" with a model 39.8 ms, now 13.7; "error" with a tool 6.4 ms, now 3.5).
  const perThread = pg ? " OFFSET 0" : "";
  if (search.toolKey) {
    where.push(`EXISTS (SELECT 1 FROM "ThreadTool" k WHERE k."key" = ? AND k."threadId" = t."id"${perThread})`);
    params.push(search.toolKey);
  }
  if (search.modelName) {
    where.push(`EXISTS (SELECT 1 FROM "Turn" u WHERE u."modelName" = ? AND u."threadId" = t."id"${perThread})`);
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
  const readable = readableCondition(search.reader, "t");
  if (readable) {
    where.push(readable.sql);
    params.push(...readable.params);
  }
  if (search.after) {
    const at = pg ? `CAST(? AS timestamp(3))` : "?";
    where.push(`(t."lastUpdatedAt" < ${at} OR (t."lastUpdatedAt" = ${at} AND t."id" < ?))`);
    // SQLite: the adapter binds a Date in the stored text form. PostgreSQL: the UTC instant as
    // text, read as the timestamp without time zone that Prisma stores (UTC).
    const value = pg ? search.after.lastUpdatedAt.toISOString() : search.after.lastUpdatedAt;
    params.push(value, value, search.after.id);
  }
  const order = `ORDER BY t."lastUpdatedAt" DESC, t."id" DESC`;
  const statement = {
    sql: `SELECT t."id" AS id FROM "Thread" t WHERE ${where.join(" AND ")} ${order} LIMIT ?`,
    params: [...params, search.limit],
  };
  if (widespreadText === null) return statement;
  // The filters (every condition after the text's) choose the walked window; the text is matched in it.
  const [titlePattern, match, ...filterParams] = params;
  const filters = where.slice(1);
  const window = `SELECT * FROM "Thread" t${filters.length > 0 ? ` WHERE ${filters.join(" AND ")}` : ""} ${order} LIMIT ?`;
  return {
    sql: `SELECT t."id" AS id FROM (${window}) t WHERE ${widespreadText} ${order} LIMIT ?`,
    params: [...filterParams, WIDESPREAD_WINDOW * search.limit, titlePattern, match, search.limit],
    unlessFull: statement,
  };
}

/** Whether a containsPattern() pattern holds a trigram (3 characters) for PostgreSQL's title index. */
function titleTrigrams(pattern: string): boolean {
  return Array.from(pattern.slice(1, -1).replace(/\\(.)/g, "$1")).length >= 3;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
  { withExtents, closed }: { withExtents: E; closed: boolean },
): Promise<(ChainRow & (E extends true ? TurnExtent : unknown))[]> {
  // `closed` (sign-in on): the walk goes on to a parent only if whoever may read the thread asked
  // for may read the parent too: a shared thread's parents must be shared, a private thread's
  // parents shared or its owner's. Whatever the reader, a chain never shows more than its start.
  const readableParent = closed
    ? ` AND (t."visibility" = 'team' OR (s."visibility" = 'private' AND (t."ownerId" = s."ownerId" OR (t."ownerId" IS NULL AND s."ownerId" IS NULL))))`
    : "";
  const rows = await run<(ChainRow & Partial<TurnExtent>)[]>(
    db,
    databaseKind(db),
    `WITH RECURSIVE up(id, parent, depth) AS (
       SELECT "id", "parentThreadId", 1 FROM "Thread" WHERE "id" = ?
       UNION ALL
       SELECT t."id", t."parentThreadId", up.depth + 1 FROM "Thread" t JOIN up ON t."id" = up.parent
         JOIN "Thread" s ON s."id" = ? WHERE up.depth < ?${readableParent}
     )
     SELECT t.*, up.depth AS "chainDepth"${withExtents ? `, ${TURN_EXTENT("t")}` : ""}
       FROM up JOIN "Thread" t ON t."id" = up.id
      ORDER BY up.depth`,
    id,
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
export async function threadLiveRows(
  db: Database,
  ids: string[],
): Promise<{ id: string; turnCount: number; lastUpdatedAt: Date; ownerId: string | null; visibility: string }[]> {
  const rows: {
    id: string;
    turnCount: number | bigint;
    lastUpdatedAt: Date | string | number;
    ownerId: string | null;
    visibility: string;
  }[] = [];
  for (const chunk of chunked(ids, IN_LIST_CHUNK)) {
    rows.push(
      ...(await run<typeof rows>(
        db,
        databaseKind(db),
        `SELECT "id", "turnCount", "lastUpdatedAt", "ownerId", "visibility" FROM "Thread" WHERE "id" IN (${chunk.map(() => "?").join(", ")})`,
        ...chunk,
      )),
    );
  }
  return rows.map((row) => ({ ...row, turnCount: Number(row.turnCount), lastUpdatedAt: new Date(row.lastUpdatedAt) }));
}

/** Every custom model, by id: raw, because a preview for a model reads them on every request. */
export async function customModelRows(db: Database): Promise<CustomModelRow[]> {
  return run<CustomModelRow[]>(db, databaseKind(db), `SELECT * FROM "CustomModel" ORDER BY "id"`);
}
