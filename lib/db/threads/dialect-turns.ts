import { chunked, IN_LIST_CHUNK } from "../engine/chunks";
import { databaseKind, type Database, type DatabaseKind } from "../engine/create-client";
import { containsPattern, ftsMatch, run, toTsQuery, TURN_TSVECTOR, type RawReader } from "../engine/dialect";

/**
 * Raw reads of turns, for both databases (see dialect.ts): a thread's turn outlines, contents and
 * snapshots, the flags of its outline, and the rows usage is summed from.
 */

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
 * The context an estimated usage starts a page of turns with (lib/domain/usage/usage.ts turnUsages):
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

// Parts are stored as JSON.stringify wrote them (lib/db/engine/mappers.ts storedParts): a key and its
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
  const params =
    kind === "postgres" ? [threadId, toTsQuery(terms), limit] : [threadId, await ftsMatch(db, terms), threadId, threadId, limit];
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

/** A turn with no count yet under some tokenizer: what the count backlog counts. */
export type UncountedTurn = { seq: number; threadId: string; id: string; content: string };

const NOT_COUNTED = `NOT EXISTS (SELECT 1 FROM "TurnTokenCount" c WHERE c."turnSeq" = t."seq" AND c."tokenizer" = ?)`;

/**
 * The newest turns with seqs in [`from`, `before`) and no count under `tokenizer`, newest first:
 * at most `maxTurns`, and no more than `maxBytes` of content (always at least one). Sizes are
 * read first, as turnsAfter does for the scan, so no content is read that the batch will not hold.
 */
export async function uncountedTurns(
  db: RawReader,
  kind: DatabaseKind,
  tokenizer: string,
  seqs: { from: number; before: number },
  batch: { maxTurns: number; maxBytes: number },
): Promise<UncountedTurn[]> {
  const sizes = await run<{ seq: number | bigint; size: number | bigint | null }[]>(
    db,
    kind,
    `SELECT t."seq" AS seq, octet_length(t."content") AS size FROM "Turn" t
      WHERE t."seq" >= ? AND t."seq" < ? AND ${NOT_COUNTED} ORDER BY t."seq" DESC LIMIT ?`,
    seqs.from,
    seqs.before,
    tokenizer,
    batch.maxTurns,
  );
  if (sizes.length === 0) return [];
  let from = Number(sizes[0]!.seq);
  let bytes = Number(sizes[0]!.size ?? 0);
  for (const row of sizes.slice(1)) {
    bytes += Number(row.size ?? 0);
    if (bytes > batch.maxBytes) break;
    from = Number(row.seq);
  }
  const rows = await run<{ seq: number | bigint; threadId: string; id: string; content: string }[]>(
    db,
    kind,
    `SELECT t."seq" AS seq, t."threadId" AS "threadId", t."id" AS id, t."content" AS content FROM "Turn" t
      WHERE t."seq" >= ? AND t."seq" < ? AND ${NOT_COUNTED} ORDER BY t."seq" DESC`,
    from,
    seqs.before,
    tokenizer,
  );
  return rows.map((row) => ({ seq: Number(row.seq), threadId: row.threadId, id: row.id, content: row.content }));
}
