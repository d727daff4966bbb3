import "server-only";
import BetterSqlite3 from "better-sqlite3";
import { decodeSearchCursor, encodeSearchCursor, type SearchCursor } from "@/lib/domain/threads/cursor";
import { AppError } from "@/lib/domain/errors";
import { matchesAsPrefix, searchTerms, toFtsMatch } from "@/lib/domain/threads/search";
import {
  parseMarkedSnippet,
  SNIPPET_CLOSE,
  SNIPPET_OPEN,
  withoutMarkers,
  type SearchHit,
  type SearchPage,
} from "@/lib/domain/threads/snippet";
import type { SearchQuery } from "@/lib/validation/search";
import { db } from "../engine/client";
import { databaseKind, type Database } from "../engine/create-client";
import { ftsMatch, run, toTsQuery, TURN_TSVECTOR, type Statement } from "../engine/dialect";
import { readableCondition } from "../engine/readable";
import type { Reader } from "@/lib/domain/access";

/**
 * Search across every thread's turns, hit by hit (GET /api/search): the turns matching every word
 * (as the thread list's search: a word prefix, or the whole word when short), best first, each
 * with a snippet of the text search reads (Turn.searchContent, the masked copy, else the content:
 * never a secret) and the offsets of its matches in it.
 */

/** What search reads of a turn, as PostgreSQL's words column reads it (its first 256 KiB). */
const SEARCHED_CHARS = 262_144;
const SEARCHED_TEXT = (alias: string) => `substr(COALESCE(${alias}."searchContent", ${alias}."content"), 1, ${SEARCHED_CHARS})`;
/** About how many words a snippet holds. */
const SNIPPET_WORDS = 24;
/**
 * How many matching turns a search ranks: the newest this many (by turn key). Ranking reads each
 * turn it scores (SQLite's bm25 tokenizes its text again: the index keeps no word counts;
 * PostgreSQL's ts_rank unpacks its stored words), so ranking the 30,000 turns of 2,000 sessions
 * that hold "the" took 0.3 s on SQLite and 1.7 s on PostgreSQL. A query matching fewer turns is
 * ranked whole. 1,000 still took 32-40 ms of bm25 on SQLite for a common word ("function",
 * "error"), and the request's p95 went over 50 ms; 500 is 20-23 ms, and 25 pages of hits.
 */
const RANKED_MATCHES = 500;

type HitRow = {
  seq: number | bigint;
  score: number;
  id: string;
  threadId: string;
  index: number | bigint;
  role: string;
  title: string | null;
  text: string;
};

/** `reader`: whose search it is; only the turns of threads they may read (lib/domain/access) are ranked. */
export async function searchTurns(query: SearchQuery, reader: Reader): Promise<SearchPage> {
  const after = query.cursor === undefined ? null : decodeSearchCursor(query.cursor);
  if (query.cursor !== undefined && after === null) {
    throw new AppError("validation_failed", "cursor: not a cursor returned by this API", [
      { field: "cursor", message: "not a cursor returned by this API" },
    ]);
  }
  const terms = searchTerms(query.q);
  const client = await db();
  const { sql, params } = await rankedHitsStatement(client, terms, after, query.limit + 1, reader);
  const rows = await run<HitRow[]>(client, databaseKind(client), sql, ...params);
  const page = rows.slice(0, query.limit);
  const snippets =
    databaseKind(client) === "postgres"
      ? page.map((row) => row.text)
      : sqliteSnippets(
          page.map((row) => row.text),
          toFtsMatch(terms),
        );
  const items = page.map((row, i): SearchHit => {
    const { snippet, highlights } = parseMarkedSnippet(snippets[i] ?? "");
    return {
      threadId: row.threadId,
      threadTitle: row.title,
      turnId: row.id,
      turnIndex: Number(row.index) + 1,
      role: row.role,
      snippet,
      highlights,
    };
  });
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeSearchCursor({ score: Number(last.score), seq: Number(last.seq) }) : null;
  return { items, nextCursor };
}

/**
 * PostgreSQL's ts_headline parses the whole text it is given, and the best-ranked turns are the
 * long ones (a page of "error" held 340,000 characters: 35-41 ms of the request's 55). It is given
 * this window around the first place a term starts a word instead, found by a regular expression
 * (a few ms); the whole text only when that finds none or the window holds no match the text
 * search parser agrees with (a term at the start of a URL's path, say, which the parser reads as
 * one word with the path). Each of the three steps is a LATERAL subquery with OFFSET 0, so it is
 * computed once rather than copied into each expression that reads it (the headline twice).
 */
const HEADLINE_BEFORE = 300;
const HEADLINE_WINDOW = 1_000;
/** The text with any character a snippet marks matches with replaced, so that only ts_headline's marks are read as such. */
const unmarked = (text: string) => `translate(${text}, ?, ?)`;
const markers = [`${SNIPPET_OPEN}${SNIPPET_CLOSE}`, "\uFFFD\uFFFD"];
const headline = (text: string) => `ts_headline('threadline'::regconfig, ${text}, to_tsquery('threadline'::regconfig, ?), ?)`;

/** A PostgreSQL regular expression for where any term starts a word (a short term: is one), as toTsQuery matches them. */
function firstMatchPattern(terms: string[]): string {
  // Terms are letters and digits only (searchTerms): nothing in them is read as regex syntax.
  return `\\m(?:${terms.map((term) => (matchesAsPrefix(term) ? term : `${term}\\M`)).join("|")})`;
}

/**
 * The page of hits after `after` among the newest RANKED_MATCHES matching turns, ordered by score
 * (lower is better: SQLite's bm25, PostgreSQL's ts_rank negated), then turn key, so pages neither
 * repeat nor skip a hit while the index stays as it is. The match is read from the full-text index
 * first (FTS5 walks its list of matching turns newest first and stops; PostgreSQL's planner walks
 * the turns newest first for a common word, or takes the GIN index's matches for a rarer one). On
 * PostgreSQL the text comes back as the snippet already (ts_headline, only for the page's turns,
 * over HEADLINE_WINDOW); on SQLite as the searched text, cut by sqliteSnippets. With a `reader`,
 * the walk checks each match's thread and skips those they may not read, so the window holds their
 * newest RANKED_MATCHES, however many others' turns match.
 * @internal exported for its tests
 */
export async function rankedHitsStatement(
  db: Database,
  terms: string[],
  after: SearchCursor | null,
  limit: number,
  reader: Reader,
): Promise<Statement> {
  const pg = databaseKind(db) === "postgres";
  const readable = readableCondition(reader, "rt");
  const readableJoin = (turnSeq: string) =>
    readable ? `JOIN "Turn" ru ON ru."seq" = ${turnSeq} JOIN "Thread" rt ON rt."id" = ru."threadId" AND ${readable.sql}` : "";
  const readableParams = readable?.params ?? [];
  const [score, seq] = pg ? ["CAST(? AS double precision)", "CAST(? AS integer)"] : ["?", "?"];
  const keyset = after ? `WHERE m.score > ${score} OR (m.score = ${score} AND m.seq > ${seq})` : "";
  const keysetParams = after ? [after.score, after.score, after.seq] : [];
  if (pg) {
    const tsquery = toTsQuery(terms);
    const options = `StartSel=${SNIPPET_OPEN}, StopSel=${SNIPPET_CLOSE}, MaxWords=${SNIPPET_WORDS}, MinWords=${Math.floor(SNIPPET_WORDS / 2)}, ShortWord=0, MaxFragments=1, FragmentDelimiter=" … "`;
    return {
      // Ranked after the window is taken: the planner would compute ts_rank for every match it sorts.
      sql: `WITH recent AS (
         SELECT u."seq" AS seq FROM "Turn" u ${readableJoin(`u."seq"`)}
          WHERE ${TURN_TSVECTOR("u")} @@ to_tsquery('threadline'::regconfig, ?)
          ORDER BY u."seq" DESC LIMIT ${RANKED_MATCHES}
       ), matched AS (
         SELECT r.seq, -ts_rank(${TURN_TSVECTOR("u")}, to_tsquery('threadline'::regconfig, ?))::float8 AS score
           FROM recent r JOIN "Turn" u ON u."seq" = r.seq
       ), page AS (
         SELECT m.seq, m.score FROM matched m ${keyset}
          ORDER BY m.score, m.seq LIMIT ?
       )
       SELECT p.seq AS seq, p.score AS score, t."id" AS id, t."threadId" AS "threadId", t."index" AS "index", t."role" AS role, th."title" AS title,
              CASE WHEN strpos(w.headline, ?) > 0 THEN w.headline ELSE ${headline(unmarked("s.text"))} END AS text
         FROM page p JOIN "Turn" t ON t."seq" = p.seq JOIN "Thread" th ON th."id" = t."threadId"
        CROSS JOIN LATERAL (SELECT ${SEARCHED_TEXT("t")} AS text OFFSET 0) s
        CROSS JOIN LATERAL (SELECT regexp_instr(s.text, ?, 1, 1, 0, 'i') AS at OFFSET 0) f
        CROSS JOIN LATERAL (SELECT CASE WHEN f.at > 0 THEN ${headline(unmarked(`substr(s.text, greatest(1, f.at - ${HEADLINE_BEFORE}), ${HEADLINE_WINDOW})`))} END AS headline OFFSET 0) w
        ORDER BY p.score, p.seq`,
      params: [
        ...readableParams,
        tsquery,
        tsquery,
        ...keysetParams,
        limit,
        SNIPPET_OPEN,
        ...markers,
        tsquery,
        options,
        firstMatchPattern(terms),
        ...markers,
        tsquery,
        options,
      ],
    };
  }
  return {
    sql: `WITH page AS (
       SELECT m.seq AS seq, m.score AS score FROM (
         SELECT "TurnSearch".rowid AS seq, bm25("TurnSearch") AS score FROM "TurnSearch" ${readableJoin(`"TurnSearch".rowid`)}
          WHERE "TurnSearch" MATCH ? ORDER BY "TurnSearch".rowid DESC LIMIT ${RANKED_MATCHES}
       ) m ${keyset}
        ORDER BY m.score, m.seq LIMIT ?
     )
     SELECT p.seq AS seq, p.score AS score, t."id" AS id, t."threadId" AS "threadId", t."index" AS "index", t."role" AS role, th."title" AS title,
            ${SEARCHED_TEXT("t")} AS text
       FROM page p JOIN "Turn" t ON t."seq" = p.seq JOIN "Thread" th ON th."id" = t."threadId"
      ORDER BY p.score, p.seq`,
    params: [...readableParams, await ftsMatch(db, terms), ...keysetParams, limit],
  };
}

/**
 * SQLite's snippets, cut by FTS5's snippet() with the same tokenizer as the index. The index
 * keeps no word positions (detail=none: a third of its size), so snippet() cannot find matches
 * there; the page's texts are indexed with positions in a small in-memory FTS5 table instead, one
 * page at a time, and emptied after (synchronous: no other request runs in between).
 */
let snippetTable: BetterSqlite3.Database | null = null;

function sqliteSnippets(texts: string[], match: string): string[] {
  if (texts.length === 0) return [];
  if (!snippetTable) {
    snippetTable = new BetterSqlite3(":memory:");
    snippetTable.exec(`CREATE VIRTUAL TABLE "Snippet" USING fts5(content, tokenize='unicode61 remove_diacritics 2')`);
  }
  const table = snippetTable;
  return table.transaction(() => {
    const insert = table.prepare(`INSERT INTO "Snippet" (rowid, content) VALUES (?, ?)`);
    texts.forEach((text, i) => insert.run(i + 1, withoutMarkers(text)));
    const rows = table
      .prepare(`SELECT rowid AS i, snippet("Snippet", 0, ?, ?, '…', ?) AS snippet FROM "Snippet" WHERE "Snippet" MATCH ?`)
      .all(SNIPPET_OPEN, SNIPPET_CLOSE, SNIPPET_WORDS, match) as { i: number; snippet: string }[];
    table.prepare(`DELETE FROM "Snippet"`).run();
    const byRow = new Map(rows.map((row) => [row.i, row.snippet]));
    // A text that no longer matches (rewritten since the index was read): its start, unmarked.
    return texts.map((text, i) => byRow.get(i + 1) ?? withoutMarkers(text.slice(0, 200)));
  })();
}
