import type BetterSqlite3 from "better-sqlite3";

/** The trigger that puts each inserted turn in the full-text index, one row at a time (prisma/migrations). */
const INSERT_TRIGGER = "Turn_search_insert";

/**
 * The full-text index of a batch's turns (import-batch.ts), filled in one statement instead of
 * row by row: the batch's transaction drops the trigger that indexes each inserted turn, and
 * before its COMMIT indexes every turn inserted since and creates the trigger again with the SQL
 * it had. SQLite's DDL is transactional: no other connection ever sees the index without the
 * trigger or a committed turn missing from it, and a batch rolled back leaves the trigger as it
 * was. (A 2,000-session first sync: the trigger cost more than the rest of the turns' inserts.)
 *
 * Turns are only inserted under it: the writer indexes what is pending (indexPending) before it
 * deletes any (the delete trigger takes a turn out of the index, which must hold it by then).
 */
export type DeferredSearch = {
  /** Indexes the turns inserted since the last time. */
  indexPending(): void;
  /** Where indexing stands, for a savepoint; `restore` takes it back when the savepoint is rolled back. */
  mark(): number;
  restore(mark: number): void;
  /** Indexes what is pending and recreates the trigger: right before COMMIT. */
  finish(): void;
};

/** Drops the insert trigger for the rest of `connection`'s transaction; null (nothing done) when the database has none. */
export function deferSearchIndex(connection: BetterSqlite3.Database): DeferredSearch | null {
  const trigger = connection
    .prepare<[string], string>(`SELECT "sql" FROM "sqlite_master" WHERE "type" = 'trigger' AND "name" = ?`)
    .pluck()
    .get(INSERT_TRIGGER);
  if (!trigger) return null;
  const lastSeq = connection.prepare<[], number>(`SELECT COALESCE(MAX("seq"), 0) FROM "Turn"`).pluck();
  let indexedUpTo = lastSeq.get()!;
  connection.exec(`DROP TRIGGER "${INSERT_TRIGGER}"`);
  // The trigger's own statement, for every turn past those indexed.
  const fill = connection.prepare<[number]>(
    `INSERT INTO "TurnSearch"(rowid, content) SELECT "seq", COALESCE("searchContent", "content") FROM "Turn" WHERE "seq" > ? ORDER BY "seq"`,
  );
  const indexPending = () => {
    const upTo = lastSeq.get()!;
    if (upTo > indexedUpTo) fill.run(indexedUpTo);
    indexedUpTo = upTo;
  };
  return {
    indexPending,
    mark: () => indexedUpTo,
    restore: (mark) => void (indexedUpTo = mark),
    finish() {
      indexPending();
      connection.exec(trigger);
    },
  };
}
