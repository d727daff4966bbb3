import "server-only";
// Agents that keep their sessions in SQLite (OpenCode, the Kilo CLI, Crush, Goose, Cursor): one
// way of reading them all. A database is opened read-only, recognised by its tables, and each of
// its sessions is read in one read transaction into a plain document that the agent's pure parser
// (lib/importers/<agent>) turns into threads. Which file names a walk opens: lib/importers/databases.ts.
import { lstat } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { realInside } from "@/lib/files/inside";
import { previousImport, unchangedReport, type FileImportReport } from "@/lib/db/imports/imports";
import { serverSettings } from "@/lib/env";
import type { ImportLimits } from "@/lib/importers/long-lines";
import { ImportFormatError, type ImportFormat } from "@/lib/importers/types";
import { crushDatabaseReader } from "./crush-database";
import { gooseDatabaseReader } from "./goose-database";
import { cursorDatabaseReader } from "./cursor-database";
import { kiloDatabaseReader, openCodeDatabaseReader } from "./opencode-storage";
import { documentDigest, importSessionDocument, RowBudget, type DatabaseReader } from "./session-documents";

/**
 * What the last import of each database session in this process saw (by Threadline database, the read limits and
 * `<file>#<session id>`): the session's stamp and its document's digest. Memory only: after a
 * restart every session is read once more.
 */
const lastSeen = new Map<string, { stamp: string; sha256: string }>();

/** The readers, in the order they are asked. */
const READERS: readonly DatabaseReader[] = [
  openCodeDatabaseReader,
  kiloDatabaseReader,
  crushDatabaseReader,
  gooseDatabaseReader,
  cursorDatabaseReader,
];

/**
 * The reader of a database: the one its file name is given by (refused, naming the tables it
 * lacks, when they are missing), else the first whose tables it has.
 */
function readerOf(name: string, fileName: string, tables: ReadonlySet<string>): DatabaseReader {
  const missing = (reader: DatabaseReader) => reader.tables.filter((table) => !tables.has(table));
  const named = READERS.find((reader) => reader.namedBy(fileName));
  if (named) {
    const lacking = missing(named);
    if (lacking.length > 0) throw new ImportFormatError(`${name}: not ${named.label}: no ${lacking.join(", ")} table`);
    return named;
  }
  const fitting = READERS.find((reader) => missing(reader).length === 0);
  if (fitting) return fitting;
  const expected = READERS.map((reader) => `${reader.label} (tables ${reader.tables.join(", ")})`).join("; or ");
  throw new ImportFormatError(`${name}: an SQLite database of no agent Threadline reads. Expected ${expected}`);
}

/** Sums the per-session reports of one database into the report of the file. */
function mergeReports(name: string, format: ImportFormat, reports: FileImportReport[]): FileImportReport {
  const merged = unchangedReport(name, format);
  for (const report of reports) {
    if (report.status === "imported") merged.status = "imported";
    merged.threads.created += report.threads.created;
    merged.threads.updated += report.threads.updated;
    merged.threads.unchanged += report.threads.unchanged;
    merged.turnsAdded += report.turnsAdded;
    merged.threadIds.push(...report.threadIds);
    merged.threadResults.push(...report.threadResults);
    merged.skipped.push(...report.skipped);
    merged.warnings.push(...report.warnings);
  }
  return merged;
}

/**
 * Imports every session of an agent's database, one at a time: each is read in one read
 * transaction (a session being written is seen whole) and stored in its own import under
 * `<name>#<session id>`, so only one session's rows are in memory at once, and a session
 * unchanged since the last import is skipped after reading it (before, where its reader has a
 * stamp that did not change). Opened read-only; a database in
 * WAL mode being written by its agent is read as of each transaction's start. `within`
 * (ImportOptions.within): the database, its write-ahead log and its index must really be inside,
 * else nothing is opened. A database of no agent Threadline reads, or of a schema version its
 * reader does not know, is refused whole, naming what was expected.
 */
export async function importAgentDatabase(file: string, name: string, limits: ImportLimits, within?: string): Promise<FileImportReport> {
  const opened = within === undefined ? file : await databaseInside(file, within);
  let db: Database.Database;
  try {
    db = new Database(opened, { readonly: true, fileMustExist: true, timeout: 5000 });
  } catch (error) {
    throw new ImportFormatError(`${name}: cannot open as an SQLite database (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    let tables: Set<string>;
    try {
      tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
    } catch (error) {
      throw new ImportFormatError(`${name}: not an SQLite database (${error instanceof Error ? error.message : String(error)})`);
    }
    const reader = readerOf(name, path.basename(name), tables);
    const unknown = reader.unknownVersion?.(db, tables);
    if (unknown) throw new ImportFormatError(`${name}: ${unknown}`);
    const read = db.transaction((id: string, rows: RowBudget, seenStamp: string | null) => {
      const stamp = reader.sessionStamp?.(db, id, tables) ?? null;
      if (stamp !== null && stamp === seenStamp) return { stamp, doc: undefined, same: true };
      return { stamp, doc: reader.readSession(db, id, rows, tables), same: false };
    });
    const reports: FileImportReport[] = [];
    const database = serverSettings().databaseUrl;
    for (const id of reader.sessionIds(db, tables)) {
      const sessionName = `${name}#${id}`;
      const key = `${database}\n${limits.maxLineBytes}:${limits.maxDocumentBytes}\n${sessionName}`;
      const last = lastSeen.get(key);
      let rows = new RowBudget(id, limits, "a session's rows together");
      let found = read(id, rows, last?.stamp ?? null);
      if (found.same) {
        const previous = await previousImport(last!.sha256, sessionName);
        if (previous) {
          reports.push(previous);
          continue;
        }
        // Not in the database as last seen (a thread deleted since): read it again.
        rows = new RowBudget(id, limits, "a session's rows together");
        found = read(id, rows, null);
      }
      const doc = found.doc as unknown;
      if (doc === null || doc === undefined) {
        if (rows.skipped.length > 0) reports.push({ ...unchangedReport(sessionName, reader.format), skipped: rows.skipped });
        continue;
      }
      const digest = documentDigest(doc);
      const report = await importSessionDocument(doc, sessionName, rows.skipped, reader.parse, digest);
      reports.push(report);
      if (found.stamp !== null && report.status !== "failed") lastSeen.set(key, { stamp: found.stamp, sha256: digest.sha256 });
    }
    return mergeReports(name, reader.format, reports);
  } finally {
    db.close();
  }
}

/**
 * The database's real path, checked with the -wal and -shm files SQLite opens beside it (by that
 * path): any of them leading out of `within` throws RefusedPathError.
 */
async function databaseInside(file: string, within: string): Promise<string> {
  const real = await realInside(file, within);
  for (const side of [`${real}-wal`, `${real}-shm`]) {
    const there = await lstat(side).catch(() => null);
    if (there) await realInside(side, within);
  }
  return real;
}
