import "server-only";
// OpenCode's local storage, read as `opencode export` documents and imported with the same parser
// (lib/importers/opencode): the JSON tree of older builds (storage/session, message, part, todo;
// read by ./opencode-files.ts) and the SQLite database of newer ones (opencode.db, read through
// ./agent-databases.ts). The Kilo CLI, an OpenCode fork, writes both the same way (kilo.db,
// ~/.local/share/kilo/storage). See lib/importers/opencode/paths.ts for which file is what.
import type Database from "better-sqlite3";
import type { FileImportReport } from "@/lib/db/imports/imports";
import { DATABASE_NAMES, openCodeFamilyOf } from "@/lib/importers/databases";
import { parseOpenCodeSessions } from "@/lib/importers/opencode";
import type { ImportLimits } from "@/lib/importers/long-lines";
import { isObject } from "@/lib/importers/types";
import { assembleStorageSession, type SessionDocument } from "./opencode-files";
import { importSessionDocument, sizedColumn, stampBy, type DatabaseReader, type RowBudget } from "./session-documents";

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
function databaseSession(db: Database.Database, sessionId: string, rows: RowBudget, hasTodo: boolean): SessionDocument | null {
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
  for (const part of db
    .prepare(`SELECT id, message_id, ${sizedColumn("data")} FROM part WHERE session_id = ? ORDER BY message_id, id`)
    .iterate(rows.maxRowBytes, sessionId) as Iterable<Json>) {
    if (rows.tooLarge(part.bytes, `part/${String(part.id)}`)) continue;
    if (rows.sessionTooLarge()) return null;
    const data = parsedJson(part.data);
    if (!isObject(data)) {
      rows.skipped.push({ path: `${sessionId}/part/${String(part.id)}`, reason: "part row whose data is not a JSON object" });
      continue;
    }
    const list = partsOf.get(String(part.message_id)) ?? [];
    list.push({ id: part.id, sessionID: sessionId, messageID: part.message_id, ...data });
    partsOf.set(String(part.message_id), list);
  }
  const messages: SessionDocument["messages"] = [];
  for (const message of db
    .prepare(`SELECT id, ${sizedColumn("data")} FROM message WHERE session_id = ? ORDER BY id`)
    .iterate(rows.maxRowBytes, sessionId) as Iterable<Json>) {
    if (rows.tooLarge(message.bytes, `message/${String(message.id)}`)) continue;
    if (rows.sessionTooLarge()) return null;
    const data = parsedJson(message.data);
    if (!isObject(data)) {
      rows.skipped.push({ path: `${sessionId}/message/${String(message.id)}`, reason: "message row whose data is not a JSON object" });
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

/** A session's stamp: its last update, and the count and sizes of its message and part rows (their session indexes). */
const OPENCODE_STAMP_SQL = `SELECT (SELECT time_updated FROM session WHERE id = @id) || '|' ||
  (SELECT count(*) || ':' || ifnull(sum(octet_length(data)), 0) FROM message WHERE session_id = @id) || '|' ||
  (SELECT count(*) || ':' || ifnull(sum(octet_length(data)), 0) FROM part WHERE session_id = @id)`;

function openCodeReader(agent: "opencode" | "kilo-code"): DatabaseReader {
  const kilo = agent === "kilo-code";
  return {
    format: agent,
    label: kilo ? "a Kilo CLI database" : "an OpenCode database",
    tables: ["session", "message", "part"],
    namedBy: (fileName) => (kilo ? DATABASE_NAMES.kilo : DATABASE_NAMES.opencode).test(fileName),
    sessionIds: (db) => (db.prepare("SELECT id FROM session ORDER BY id").all() as { id: string }[]).map((row) => row.id),
    readSession: (db, id, rows, tables) => databaseSession(db, id, rows, tables.has("todo")),
    sessionStamp: (db, id) => stampBy(db, OPENCODE_STAMP_SQL, id),
    parse: (doc, source) => parseOpenCodeSessions([doc], { ...source, agent }),
  };
}

/** OpenCode's opencode.db (and any database with its tables but another name). */
export const openCodeDatabaseReader = openCodeReader("opencode");
/** The Kilo CLI's kilo.db: OpenCode's tables, Kilo's sessions. */
export const kiloDatabaseReader = openCodeReader("kilo-code");

/** Imports one JSON-tree session, its record file named by `file`. */
export async function importStorageSession(file: string, name: string, limits: ImportLimits, within?: string): Promise<FileImportReport> {
  const { doc, skipped } = await assembleStorageSession(file, limits, within);
  const agent = openCodeFamilyOf(file);
  return importSessionDocument(doc, name, skipped, (document, source) => parseOpenCodeSessions([document], { ...source, agent }));
}
