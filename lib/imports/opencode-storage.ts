import "server-only";
// OpenCode's local storage, read as `opencode export` documents and imported with the same parser
// (lib/importers/opencode): the JSON tree of older builds (storage/session, message, part, todo;
// read by ./opencode-files.ts) and the SQLite database of newer ones (opencode.db). See
// lib/importers/opencode/paths.ts for which file is what.
import { createHash } from "node:crypto";
import { lstat } from "node:fs/promises";
import Database from "better-sqlite3";
import { realInside } from "@/lib/files/inside";
import { previousImport, unchangedReport, type FileImportReport } from "@/lib/db/imports/imports";
import { storeParsedSource } from "@/lib/db/imports/turn-stream-import";
import { parseOpenCodeSessions } from "@/lib/importers/opencode";
import { documentTooLarge, longRecordEntry, type ImportLimits } from "@/lib/importers/long-lines";
import { ImportFormatError, isObject, type SkippedEntry } from "@/lib/importers/types";
import { assembleStorageSession, type SessionDocument } from "./opencode-files";

export { openCodeSourceOf } from "./opencode-files";

type Json = Record<string, unknown>;

function parsedJson(text: unknown): unknown {
  if (typeof text !== "string") return text ?? undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * One session of the database as an export document. The session row's columns become its info
 * record (OpenCode's own JSON migration maps them the other way); message and part rows hold
 * their record as JSON in `data`, without the ids their columns carry.
 */
function databaseSession(
  db: Database.Database,
  sessionId: string,
  skipped: SkippedEntry[],
  hasTodo: boolean,
  limits: ImportLimits,
): SessionDocument | null {
  const row = db.prepare("SELECT * FROM session WHERE id = ?").get(sessionId) as Json | undefined;
  if (!row) return null; // deleted since it was listed
  const info: Json = {
    id: row.id,
    slug: row.slug,
    projectID: row.project_id,
    directory: row.directory ?? undefined,
    title: row.title,
    version: row.version,
  };
  if (row.parent_id) info.parentID = row.parent_id;
  if (row.share_url) info.share = { url: row.share_url };
  if (row.summary_additions != null || row.summary_deletions != null || row.summary_files != null || row.summary_diffs != null) {
    info.summary = {
      additions: row.summary_additions ?? 0,
      deletions: row.summary_deletions ?? 0,
      files: row.summary_files ?? 0,
      ...(row.summary_diffs != null ? { diffs: parsedJson(row.summary_diffs) } : {}),
    };
  }
  if (row.revert != null) info.revert = parsedJson(row.revert);
  if (row.permission != null) info.permission = parsedJson(row.permission);
  info.time = {
    created: row.time_created,
    updated: row.time_updated,
    ...(row.time_compacting != null ? { compacting: row.time_compacting } : {}),
    ...(row.time_archived != null ? { archived: row.time_archived } : {}),
  };
  const partsOf = new Map<string, Json[]>();
  // A row's data over the line limit is left in the database (only its size is read), and a
  // session's rows together may hold the document limit: past it, the session is left out.
  const dataColumn = "CASE WHEN octet_length(data) > ? THEN NULL ELSE data END AS data, octet_length(data) AS bytes";
  let total = 0;
  const tooLarge = (row: Json, what: string): boolean => {
    const bytes = typeof row.bytes === "number" ? row.bytes : 0;
    if (bytes <= limits.maxLineBytes) {
      total += bytes;
      return false;
    }
    skipped.push(longRecordEntry(`${sessionId}/${what}/${String(row.id)}`, bytes, limits));
    return true;
  };
  const sessionTooLarge = (): boolean => {
    if (total <= limits.maxDocumentBytes) return false;
    skipped.push({
      path: sessionId,
      bytes: total,
      reason: documentTooLarge("the session", total, limits, "an OpenCode session's rows together").replace(
        /^the session: /,
        "session too large: ",
      ),
    });
    return true;
  };
  for (const part of db
    .prepare(`SELECT id, message_id, ${dataColumn} FROM part WHERE session_id = ? ORDER BY message_id, id`)
    .iterate(limits.maxLineBytes, sessionId) as Iterable<Json>) {
    if (tooLarge(part, "part")) continue;
    if (sessionTooLarge()) return null;
    const data = parsedJson(part.data);
    if (!isObject(data)) {
      skipped.push({ path: `${sessionId}/part/${String(part.id)}`, reason: "part row whose data is not a JSON object" });
      continue;
    }
    const list = partsOf.get(String(part.message_id)) ?? [];
    list.push({ id: part.id, sessionID: sessionId, messageID: part.message_id, ...data });
    partsOf.set(String(part.message_id), list);
  }
  const messages: SessionDocument["messages"] = [];
  for (const message of db
    .prepare(`SELECT id, ${dataColumn} FROM message WHERE session_id = ? ORDER BY id`)
    .iterate(limits.maxLineBytes, sessionId) as Iterable<Json>) {
    if (tooLarge(message, "message")) continue;
    if (sessionTooLarge()) return null;
    const data = parsedJson(message.data);
    if (!isObject(data)) {
      skipped.push({ path: `${sessionId}/message/${String(message.id)}`, reason: "message row whose data is not a JSON object" });
      continue;
    }
    messages.push({ info: { id: message.id, sessionID: sessionId, ...data }, parts: partsOf.get(String(message.id)) ?? [] });
  }
  const doc: SessionDocument = { info, messages };
  if (hasTodo) {
    const todos = db.prepare("SELECT content, status, priority, position FROM todo WHERE session_id = ? ORDER BY position").all(sessionId);
    if (todos.length > 0) doc.todos = todos;
  }
  return doc;
}

/** Sums the per-session reports of one source into the report of the file. */
function mergeReports(name: string, reports: FileImportReport[]): FileImportReport {
  const merged = unchangedReport(name, "opencode");
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

/** Stores one session document under `name` (skipped when exactly this content was imported before). */
async function importSessionDocument(doc: SessionDocument, name: string, skipped: SkippedEntry[]): Promise<FileImportReport> {
  const text = JSON.stringify(doc);
  const sha256 = createHash("sha256").update(text).digest("hex");
  const previous = await previousImport(sha256, name);
  if (previous) return previous;
  const parsed = parseOpenCodeSessions([doc], { name });
  return storeParsedSource({ ...parsed, skipped: [...skipped, ...parsed.skipped] }, { name, sha256, size: Buffer.byteLength(text) });
}

/**
 * Imports every session of an opencode.db, one at a time (each read in one read transaction, so a
 * session being written is seen whole, and stored in its own import under `<name>#<session id>`):
 * only one session's rows are in memory at once, and a session unchanged since the last import
 * is skipped after reading it. Opened read-only; a database in WAL mode being written by OpenCode
 * is read as of each transaction's start. `within` (ImportOptions.within): the database, its
 * write-ahead log and its index must really be inside, else nothing is opened.
 */
export async function importOpenCodeDatabase(file: string, name: string, limits: ImportLimits, within?: string): Promise<FileImportReport> {
  const opened = within === undefined ? file : await databaseInside(file, within);
  let db: Database.Database;
  try {
    db = new Database(opened, { readonly: true, fileMustExist: true, timeout: 5000 });
  } catch (error) {
    throw new ImportFormatError(`${name}: cannot open as an SQLite database (${error instanceof Error ? error.message : String(error)})`);
  }
  const reports: FileImportReport[] = [];
  try {
    let tables: Set<string>;
    try {
      tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
    } catch (error) {
      throw new ImportFormatError(`${name}: not an SQLite database (${error instanceof Error ? error.message : String(error)})`);
    }
    const missing = ["session", "message", "part"].filter((table) => !tables.has(table));
    if (missing.length > 0) throw new ImportFormatError(`${name}: not an OpenCode database: no ${missing.join(", ")} table`);
    const hasTodo = tables.has("todo");
    const ids = (db.prepare("SELECT id FROM session ORDER BY id").all() as { id: string }[]).map((row) => row.id);
    const read = db.transaction((id: string, skipped: SkippedEntry[]) => databaseSession(db, id, skipped, hasTodo, limits));
    for (const id of ids) {
      const skipped: SkippedEntry[] = [];
      const doc = read(id, skipped);
      if (doc) reports.push(await importSessionDocument(doc, `${name}#${id}`, skipped));
      else if (skipped.length > 0) reports.push({ ...unchangedReport(`${name}#${id}`, "opencode"), skipped }); // too large to read
    }
  } finally {
    db.close();
  }
  return mergeReports(name, reports);
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

/** Imports one JSON-tree session, its record file named by `file`. */
export async function importStorageSession(file: string, name: string, limits: ImportLimits, within?: string): Promise<FileImportReport> {
  const { doc, skipped } = await assembleStorageSession(file, limits, within);
  return importSessionDocument(doc, name, skipped);
}
