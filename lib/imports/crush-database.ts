import "server-only";
// Crush's database (`<project>/.crush/crush.db`), read one session at a time through
// ./agent-databases.ts into the document lib/importers/crush parses. The schema is Crush's own
// (charmbracelet/crush internal/db/migrations, goose migrations 20250424200609 to 20260127000000):
// tables sessions, messages, files (and read_files); docs/formats.md §17, "Crush".
import path from "node:path";
import type Database from "better-sqlite3";
import { DATABASE_NAMES } from "@/lib/importers/databases";
import { parseCrushSession } from "@/lib/importers/crush";
import { sizedColumn, stampBy, type DatabaseReader, type RowBudget } from "./session-documents";

/** The newest goose migration read (charmbracelet/crush internal/db/migrations/20260127000000_add_read_files_table.sql). */
const NEWEST_CRUSH_MIGRATION = 20260127000000;

/** The columns every Crush database has had since its first migration (20250424200609_initial.sql). */
const SESSION_COLUMNS = [
  "id",
  "parent_session_id",
  "title",
  "message_count",
  "prompt_tokens",
  "completion_tokens",
  "cost",
  "created_at",
  "updated_at",
];
const MESSAGE_COLUMNS = ["id", "session_id", "role", "parts", "model", "created_at", "updated_at", "finished_at"];
/** Added by later migrations: read where present. */
const LATER_SESSION_COLUMNS = ["summary_message_id", "todos"];
const LATER_MESSAGE_COLUMNS = ["provider", "is_summary_message"];

type Json = Record<string, unknown>;
type Columns = { sessions: string[]; messages: string[] };

/** Each open database's readable columns, looked up once. */
const columnsSeen = new WeakMap<Database.Database, Columns>();

function tableColumns(db: Database.Database, table: string): Set<string> {
  return new Set((db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name));
}

function columnsOf(db: Database.Database): Columns {
  const seen = columnsSeen.get(db);
  if (seen) return seen;
  const sessions = tableColumns(db, "sessions");
  const messages = tableColumns(db, "messages");
  const columns = {
    sessions: [...SESSION_COLUMNS, ...LATER_SESSION_COLUMNS.filter((c) => sessions.has(c))],
    messages: [...MESSAGE_COLUMNS, ...LATER_MESSAGE_COLUMNS.filter((c) => messages.has(c))],
  };
  columnsSeen.set(db, columns);
  return columns;
}

/**
 * The goose version the database is migrated to: the newest version whose latest row says it is
 * applied (goose writes a row per up and per down). Null without a goose_db_version table.
 */
function schemaVersion(db: Database.Database, tables: ReadonlySet<string>): number | null {
  if (!tables.has("goose_db_version")) return null;
  const row = db
    .prepare(
      `SELECT MAX(version_id) AS version FROM goose_db_version AS g
       WHERE is_applied = 1 AND id = (SELECT MAX(id) FROM goose_db_version WHERE version_id = g.version_id)`,
    )
    .get() as { version: number | null } | undefined;
  return typeof row?.version === "number" ? row.version : null;
}

/** Why the database is of a Crush schema this reader does not know (refused whole), or null. */
function unknownVersion(db: Database.Database, tables: ReadonlySet<string>): string | null {
  for (const [table, expected] of [
    ["sessions", SESSION_COLUMNS],
    ["messages", MESSAGE_COLUMNS],
  ] as const) {
    const present = tableColumns(db, table);
    const missing = expected.filter((column) => !present.has(column));
    if (missing.length > 0)
      return `not a Crush database of a known schema: its ${table} table has no ${missing.join(", ")} column (expected ${expected.join(", ")})`;
  }
  const version = schemaVersion(db, tables);
  if (version !== null && version > NEWEST_CRUSH_MIGRATION)
    return `a Crush database of schema version ${version}, newer than the newest Threadline reads (${NEWEST_CRUSH_MIGRATION})`;
  return null;
}

/** The project a database belongs to: the folder holding its `.crush` folder (Crush stores no working directory). */
function projectOf(file: string): string | null {
  const folder = path.dirname(file);
  return path.basename(folder) === ".crush" ? path.dirname(folder) : null;
}

/** One session as the document lib/importers/crush parses; null when it was deleted since it was listed, or is too large. */
function readSession(db: Database.Database, sessionId: string, rows: RowBudget, tables: ReadonlySet<string>): Json | null {
  const columns = columnsOf(db);
  const session = db.prepare(`SELECT ${columns.sessions.join(", ")} FROM sessions WHERE id = ?`).get(sessionId) as Json | undefined;
  if (!session) return null; // deleted since it was listed
  const messages: Json[] = [];
  const others = columns.messages.filter((c) => c !== "parts" && c !== "session_id");
  // Crush's own order (ListMessagesBySession: ORDER BY created_at), ties, common with times in
  // seconds, in the order the rows were written. A row's parts over the line limit are left in
  // the database (only their size is read); past the document limit the session is left out.
  for (const message of db
    .prepare(`SELECT ${others.join(", ")}, ${sizedColumn("parts")} FROM messages WHERE session_id = ? ORDER BY created_at, rowid`)
    .iterate(rows.maxRowBytes, sessionId) as Iterable<Json>) {
    if (rows.tooLarge(message.bytes, `messages/${String(message.id)}`)) continue;
    if (rows.sessionTooLarge()) return null;
    const { bytes: _bytes, ...row } = message;
    messages.push(row);
  }
  return { schemaVersion: schemaVersion(db, tables), project: projectOf(db.name), session, messages };
}

/** Crush's crush.db (and any database with its tables but another name). */
export const crushDatabaseReader: DatabaseReader = {
  format: "crush",
  label: "a Crush database",
  tables: ["sessions", "messages", "files"],
  namedBy: (fileName) => DATABASE_NAMES.crush.test(fileName),
  unknownVersion,
  // Parents before their sub-agents, each in the order they were created.
  sessionIds: (db) =>
    (db.prepare("SELECT id FROM sessions ORDER BY parent_session_id IS NOT NULL, created_at, id").all() as { id: string }[]).map(
      (row) => row.id,
    ),
  readSession,
  // Its last update, and its messages' count, sizes and latest update (a message is rewritten as a response streams).
  sessionStamp: (db, id) =>
    stampBy(
      db,
      `SELECT (SELECT updated_at FROM sessions WHERE id = @id) || '|' ||
        (SELECT count(*) || ':' || ifnull(sum(octet_length(parts)), 0) || ':' || ifnull(max(updated_at), 0) FROM messages WHERE session_id = @id)`,
      id,
    ),
  parse: (doc, source) => parseCrushSession(doc, source),
};
