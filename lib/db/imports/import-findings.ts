import type BetterSqlite3 from "better-sqlite3";
import { SCAN_CURSOR_KEY } from "../secrets/scan-cursor";
import type { TurnInsertRow } from "./import-rows";

/**
 * An import's turns arrive with the secrets in them already found (TurnInsertRow.secrets, by the
 * parse worker): the SQLite writer stores those findings with the turns, as the scan for secrets
 * would (lib/secrets/scan.ts), and before its COMMIT moves the scan's cursor past its turns when
 * no turn before them was left to scan. A first sync's 50,000 turns were read back and searched
 * for secrets a second time, on the importing thread, once it had ended.
 *
 * When the scan is behind (turns before these not scanned yet), the cursor stays: the scan reads
 * these turns too, and recording a turn's findings again replaces them. The transaction holds
 * SQLite's write lock, so no other connection adds a turn between the check and the COMMIT, and
 * the scan moves the cursor only in write transactions. (The PostgreSQL writer does the same in
 * its own statements: import-writer-postgres.ts.)
 */
export type ImportFindings = {
  /** Stores the findings of a turn just inserted as `seq`. */
  record(row: TurnInsertRow, seq: number): void;
  /** Moves the scan's cursor past this transaction's turns when nothing before them is unscanned: right before COMMIT. */
  finish(): void;
  /** Forgets this transaction's turns: once it has ended. */
  reset(): void;
};

export function importFindings(connection: BetterSqlite3.Database, bind: (value: unknown) => unknown): ImportFindings {
  const insert = connection.prepare(
    `INSERT INTO "SecretFinding" ("threadId", "turnSeq", "turnId", "turnIndex", "field", "kind", "rules", "start", "end", "fingerprint", "foundAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const cursor = connection.prepare<[string], number>(`SELECT CAST("value" AS INTEGER) FROM "AppSetting" WHERE "key" = ?`).pluck();
  const unscannedBefore = connection
    .prepare<[number, number], number>(`SELECT EXISTS (SELECT 1 FROM "Turn" WHERE "seq" > ? AND "seq" < ?)`)
    .pluck();
  const lastSeq = connection.prepare<[], number>(`SELECT COALESCE(MAX("seq"), 0) FROM "Turn"`).pluck();
  const moveCursor = connection.prepare<[string, string]>(
    `INSERT INTO "AppSetting" ("key", "value") VALUES (?, ?) ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"`,
  );
  /** The seq of this transaction's first turn. */
  let firstSeq: number | null = null;
  return {
    record(row, seq) {
      firstSeq ??= seq;
      if (row.secrets.length === 0) return;
      const foundAt = bind(new Date());
      for (const { field, match } of row.secrets)
        insert.run(
          row.threadId,
          seq,
          row.id,
          row.index,
          field,
          match.kind,
          match.rules.join(","),
          match.start,
          match.end,
          match.fingerprint,
          foundAt,
        );
    },
    finish() {
      if (firstSeq === null) return;
      const scannedThrough = cursor.get(SCAN_CURSOR_KEY) ?? 0;
      const through = lastSeq.get()!;
      if (through > scannedThrough && unscannedBefore.get(scannedThrough, firstSeq) === 0) moveCursor.run(SCAN_CURSOR_KEY, String(through));
    },
    reset() {
      firstSeq = null;
    },
  };
}
