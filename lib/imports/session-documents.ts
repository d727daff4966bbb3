import "server-only";
// What every reader of an agent's session store shares: the document of one session, stored as
// one import (lib/imports/agent-databases.ts for databases, the folder readers for JSON trees),
// and the byte limits of a session read from database rows.
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { previousImport, type FileImportReport } from "@/lib/db/imports/imports";
import { storeParsedSource } from "@/lib/db/imports/turn-stream-import";
import { documentTooLarge, longRecordEntry, type ImportLimits } from "@/lib/importers/long-lines";
import type { ImportFormat, ParsedSource, SkippedEntry } from "@/lib/importers/types";

/** How one agent's database is read. */
export type DatabaseReader = {
  format: ImportFormat;
  /** The database as people say it: "an OpenCode database". */
  label: string;
  /** The tables a database must have to be this agent's. */
  tables: readonly string[];
  /** Whether `fileName` is the name this agent gives its database (opencode.db): a database so named is this agent's or refused. */
  namedBy(fileName: string): boolean;
  /** Why this agent's database is of a schema version the reader does not know (refused whole), or null. */
  unknownVersion?(db: Database.Database, tables: ReadonlySet<string>): string | null;
  /** Its sessions' ids, in a stable order. */
  sessionIds(db: Database.Database, tables: ReadonlySet<string>): string[];
  /**
   * One session as a document for `parse`, read inside one read transaction; null when it was
   * deleted since it was listed, or is too large (the reason then goes to `rows.skipped`).
   */
  readSession(db: Database.Database, id: string, rows: RowBudget, tables: ReadonlySet<string>): unknown;
  /**
   * A cheap fingerprint of one session (its rows' count and sizes, its last update), read in the
   * same transaction as the session would be: while it is what the last import in this process
   * saw, the session is not read again (its import is confirmed from the database). For agents
   * that write their database every few seconds (Cursor).
   */
  sessionStamp?(db: Database.Database, id: string, tables: ReadonlySet<string>): string | null;
  /** The agent's pure parser, for one session's document. */
  parse(doc: unknown, source: { name: string }): ParsedSource;
};

/**
 * The byte limits of one session's rows: a row over the line limit is left in the database (a
 * reader selects only its size, see `sizedColumn`), and past the document limit the session is left out.
 */
export class RowBudget {
  readonly skipped: SkippedEntry[] = [];
  private total = 0;
  constructor(
    private readonly sessionId: string,
    private readonly limits: ImportLimits,
    private readonly what: string,
  ) {}

  /** The line limit, for the SQL that leaves a longer value unread. */
  get maxRowBytes(): number {
    return this.limits.maxLineBytes;
  }

  /** Counts a row of `bytes`; true (and reported) when it is too large to read. */
  tooLarge(bytes: unknown, where: string): boolean {
    const size = typeof bytes === "number" ? bytes : 0;
    if (size <= this.limits.maxLineBytes) {
      this.total += size;
      return false;
    }
    this.skipped.push(longRecordEntry(`${this.sessionId}/${where}`, size, this.limits));
    return true;
  }

  /** Whether the rows read so far exceed the document limit (reported once, when they do). */
  sessionTooLarge(): boolean {
    if (this.total <= this.limits.maxDocumentBytes) return false;
    if (!this.skipped.some((entry) => entry.path === this.sessionId))
      this.skipped.push({
        path: this.sessionId,
        bytes: this.total,
        reason: documentTooLarge("the session", this.total, this.limits, this.what).replace(/^the session: /, "session too large: "),
      });
    return true;
  }
}

/** `column`, or NULL when longer than the row limit (the first `?`), and its length in bytes as `bytes`. */
export function sizedColumn(column: string): string {
  return `CASE WHEN octet_length(${column}) > ? THEN NULL ELSE ${column} END AS ${column}, octet_length(${column}) AS bytes`;
}

/**
 * A session's stamp by `sql`, one text value from its `@id` (the session's last update, its rows'
 * count and sizes, where the tables' indexes find them without reading the rows); null when the
 * session is gone or the database has no such column (then it is read).
 */
export function stampBy(db: Database.Database, sql: string, id: string): string | null {
  try {
    const stamp = db.prepare(sql).pluck().get({ id }) as unknown;
    return typeof stamp === "string" ? stamp : null;
  } catch {
    return null;
  }
}

/** A session's document as stored: its JSON text and that text's SHA-256 (the import's digest). */
export function documentDigest(doc: unknown): { text: string; sha256: string } {
  const text = JSON.stringify(doc);
  return { text, sha256: createHash("sha256").update(text).digest("hex") };
}

/** Stores one session's document under `name` (skipped when exactly this content was imported before). */
export async function importSessionDocument(
  doc: unknown,
  name: string,
  skipped: SkippedEntry[],
  parse: (doc: unknown, source: { name: string }) => ParsedSource,
  digest = documentDigest(doc),
): Promise<FileImportReport> {
  const previous = await previousImport(digest.sha256, name);
  if (previous) return previous;
  const parsed = parse(doc, { name });
  return storeParsedSource(
    { ...parsed, skipped: [...skipped, ...parsed.skipped] },
    { name, sha256: digest.sha256, size: Buffer.byteLength(digest.text) },
  );
}
