// What the bench asks of the filled database (sizes, selectivity, stored threads), on SQLite or PostgreSQL.
import { existsSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { containsPattern, toTsQuery, TURN_TSVECTOR } from "../../lib/db/engine/dialect";
import { searchTerms, toFtsMatch } from "../../lib/domain/threads/search";

// ---------------------------------------------------------------------------------------------
// Database facts
// ---------------------------------------------------------------------------------------------

type DbSizes = { fileBytes: number; walBytes: number; objects: Record<string, number> };
export type Selectivity = { turns: number; threads: number; titleThreads: number };
type StoredThread = { turnCount: number; tokenEstimate: number; turns: { id: string; index: number }[] };

/**
 * What the bench reads straight from the database, beside the API: sizes, how many rows a search
 * matches (the same match the API runs), the appends' verification, stored token counts.
 */
export type BenchStore = {
  kind: "sqlite" | "postgres";
  url: string;
  sizes(): Promise<DbSizes>;
  selectivity(q: string): Promise<Selectivity>;
  storedThread(threadId: string): Promise<StoredThread>;
  storedTokenCounts(threadIds: string[], tokenizer: string): Promise<number>;
  /** Turns with no count under `tokenizer` yet: what the server's count backlog has left. */
  uncountedTurns(tokenizer: string): Promise<number>;
  close(): Promise<void>;
};

export function sqliteStore(file: string): BenchStore {
  const read = <T>(work: (sqlite: Database.Database) => T): T => {
    // A connection per read: WAL lets it read while the server writes.
    const sqlite = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return work(sqlite);
    } finally {
      sqlite.close();
    }
  };
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  return {
    kind: "sqlite",
    url: `file:${file}`,
    sizes: async () =>
      read((sqlite) => {
        const objects: Record<string, number> = {};
        // Group each table with its indexes (and the FTS table with its shadow tables).
        const owners = new Map<string, string>();
        for (const row of sqlite.prepare(`SELECT name, tbl_name AS tbl FROM sqlite_schema`).all() as { name: string; tbl: string }[]) {
          owners.set(row.name, row.tbl.startsWith("TurnSearch") ? "TurnSearch (FTS)" : row.tbl);
        }
        for (const row of sqlite.prepare(`SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name`).all() as {
          name: string;
          bytes: number;
        }[]) {
          const owner = owners.get(row.name) ?? row.name;
          objects[owner] = (objects[owner] ?? 0) + row.bytes;
        }
        return { fileBytes: size(file), walBytes: size(`${file}-wal`), objects };
      }),
    selectivity: async (q) =>
      read((sqlite) => {
        const match = toFtsMatch(searchTerms(q));
        const like = containsPattern(q);
        const turns = (sqlite.prepare(`SELECT count(*) AS n FROM "TurnSearch" WHERE "TurnSearch" MATCH ?`).get(match) as { n: number }).n;
        const titleThreads = (
          sqlite.prepare(`SELECT count(*) AS n FROM "Thread" WHERE "title" LIKE ? ESCAPE '\\'`).get(like) as { n: number }
        ).n;
        const threads = (
          sqlite
            .prepare(
              `SELECT count(*) AS n FROM "Thread" t WHERE t."title" LIKE ? ESCAPE '\\' OR t."id" IN (SELECT u."threadId" FROM "Turn" u WHERE u."seq" IN (SELECT rowid FROM "TurnSearch" WHERE "TurnSearch" MATCH ?))`,
            )
            .get(like, match) as { n: number }
        ).n;
        return { turns, threads, titleThreads };
      }),
    storedThread: async (threadId) =>
      read((sqlite) => {
        const thread = sqlite.prepare(`SELECT "turnCount" AS c, "tokenEstimate" AS t FROM "Thread" WHERE "id" = ?`).get(threadId) as {
          c: number;
          t: number;
        };
        const turns = sqlite.prepare(`SELECT "id", "index" FROM "Turn" WHERE "threadId" = ? ORDER BY "index"`).all(threadId) as {
          id: string;
          index: number;
        }[];
        return { turnCount: thread.c, tokenEstimate: thread.t, turns };
      }),
    storedTokenCounts: async (threadIds, tokenizer) =>
      read((sqlite) => {
        const marks = threadIds.map(() => "?").join(", ");
        return (
          sqlite
            .prepare(`SELECT count(*) AS n FROM "TurnTokenCount" WHERE "tokenizer" = ? AND "threadId" IN (${marks})`)
            .get(tokenizer, ...threadIds) as { n: number }
        ).n;
      }),
    uncountedTurns: async (tokenizer) =>
      read(
        (sqlite) =>
          (
            sqlite
              .prepare(`SELECT (SELECT count(*) FROM "Turn") - (SELECT count(*) FROM "TurnTokenCount" WHERE "tokenizer" = ?) AS n`)
              .get(tokenizer) as { n: number }
          ).n,
      ),
    close: async () => {},
  };
}

export async function postgresStore(url: string): Promise<BenchStore> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const one = async (sql: string, params: unknown[]) => Number((await client.query<{ n: string }>(sql, params)).rows[0]!.n);
  const matches = `${TURN_TSVECTOR("u")} @@ to_tsquery('threadline'::regconfig, $1)`;
  return {
    kind: "postgres",
    url,
    sizes: async () => {
      const objects: Record<string, number> = {};
      const { rows } = await client.query<{ name: string; bytes: string }>(
        `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'public'`,
      );
      for (const row of rows) objects[row.name] = Number(row.bytes);
      const total = await one(`SELECT pg_database_size(current_database()) AS n`, []);
      return { fileBytes: total, walBytes: 0, objects };
    },
    selectivity: async (q) => {
      const match = toTsQuery(searchTerms(q));
      const like = containsPattern(q);
      const turns = await one(`SELECT count(*) AS n FROM "Turn" u WHERE ${matches}`, [match]);
      const titleThreads = await one(`SELECT count(*) AS n FROM "Thread" WHERE "title" ILIKE $1 ESCAPE '\\'`, [like]);
      // A union, not "title ILIKE ... OR id IN (...)": PostgreSQL plans that OR as a scan per thread.
      const threads = await one(
        `SELECT count(*) AS n FROM (SELECT "id" FROM "Thread" WHERE "title" ILIKE $2 ESCAPE '\\' UNION SELECT u."threadId" FROM "Turn" u WHERE ${matches}) matched`,
        [match, like],
      );
      return { turns, threads, titleThreads };
    },
    storedThread: async (threadId) => {
      const thread = (
        await client.query<{ c: number; t: number }>(`SELECT "turnCount" AS c, "tokenEstimate" AS t FROM "Thread" WHERE "id" = $1`, [
          threadId,
        ])
      ).rows[0]!;
      const turns = (
        await client.query<{ id: string; index: number }>(`SELECT "id", "index" FROM "Turn" WHERE "threadId" = $1 ORDER BY "index"`, [
          threadId,
        ])
      ).rows;
      return { turnCount: thread.c, tokenEstimate: thread.t, turns };
    },
    storedTokenCounts: (threadIds, tokenizer) =>
      one(`SELECT count(*) AS n FROM "TurnTokenCount" WHERE "tokenizer" = $1 AND "threadId" = ANY($2)`, [tokenizer, threadIds]),
    uncountedTurns: (tokenizer) =>
      one(`SELECT (SELECT count(*) FROM "Turn") - (SELECT count(*) FROM "TurnTokenCount" WHERE "tokenizer" = $1) AS n`, [tokenizer]),
    close: () => client.end(),
  };
}

/** A new, empty database on the PostgreSQL server of BENCH_POSTGRES_URL (dropped first if it exists); its URL. */
export async function freshPostgresDatabase(admin: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPostgresDatabase(admin: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
