import "server-only";
// Agents that keep their sessions in SQLite (OpenCode, the Kilo CLI, Crush, Goose, Cursor): one
// way of reading them all. A database is opened read-only, recognised by its tables, and each of
// its sessions is read in one read transaction into a plain document that the agent's pure parser
// (lib/importers/<agent>) turns into threads. Which file names a walk opens: lib/importers/databases.ts.
import { lstat } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { realInside } from "@/lib/files/inside";
import { unchangedReport, type FileImportReport } from "@/lib/db/imports/imports";
import type { ImportLimits } from "@/lib/importers/long-lines";
import { ImportFormatError, type ImportFormat } from "@/lib/importers/types";
import { crushDatabaseReader } from "./crush-database";
import { gooseDatabaseReader } from "./goose-database";
import { cursorDatabaseReader } from "./cursor-database";
import { kiloDatabaseReader, openCodeDatabaseReader } from "./opencode-storage";
import { importSessionDocument, RowBudget, type DatabaseReader } from "./session-documents";

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
 * unchanged since the last import is skipped after reading it. Opened read-only; a database in
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
    const reader = readerOf(name, path.basename(file), tables);
    const unknown = reader.unknownVersion?.(db, tables);
    if (unknown) throw new ImportFormatError(`${name}: ${unknown}`);
    const read = db.transaction((id: string, rows: RowBudget) => reader.readSession(db, id, rows, tables));
    const reports: FileImportReport[] = [];
    for (const id of reader.sessionIds(db, tables)) {
      const rows = new RowBudget(id, limits, "a session's rows together");
      const doc = read(id, rows) as unknown;
      if (doc !== null && doc !== undefined) reports.push(await importSessionDocument(doc, `${name}#${id}`, rows.skipped, reader.parse));
      else if (rows.skipped.length > 0) reports.push({ ...unchangedReport(`${name}#${id}`, reader.format), skipped: rows.skipped });
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
