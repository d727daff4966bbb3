/**
 * A Crush database for tests: the tables of Crush's goose migrations (charmbracelet/crush
 * internal/db/migrations @ 37f36e93824e5c4f892e4a817f7f628e2682fe14), written here from what those
 * migrations create (table and column names and types, which columns each later migration adds),
 * with goose's version table, in WAL mode as Crush opens it (internal/db/connect.go). Rows are
 * written as Crush's queries write them (internal/db/sql): times in Unix seconds, parts as the
 * JSON text of `[{type, data}]`.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** Each migration's version and the statements that give its tables. */
const MIGRATIONS: { version: number; sql: string }[] = [
  {
    // 20250424200609_initial.sql: sessions, files, messages; message_count kept by triggers.
    version: 20250424200609,
    sql: `
      CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0,
        updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        path TEXT NOT NULL, content TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (path, session_id, version));
      CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        role TEXT NOT NULL, parts TEXT NOT NULL DEFAULT '[]', model TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER);
      CREATE INDEX idx_messages_session_id ON messages (session_id);
      CREATE TRIGGER count_on_insert AFTER INSERT ON messages
        BEGIN UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id; END;`,
  },
  // 20250515105448_add_summary_message_id.sql
  { version: 20250515105448, sql: "ALTER TABLE sessions ADD COLUMN summary_message_id TEXT;" },
  // 20250624000000_add_created_at_indexes.sql
  { version: 20250624000000, sql: "CREATE INDEX idx_messages_created_at ON messages (created_at);" },
  // 20250627000000_add_provider_to_messages.sql
  { version: 20250627000000, sql: "ALTER TABLE messages ADD COLUMN provider TEXT;" },
  // 20250810000000_add_is_summary_message.sql
  { version: 20250810000000, sql: "ALTER TABLE messages ADD COLUMN is_summary_message INTEGER DEFAULT 0 NOT NULL;" },
  // 20250812000000_add_todos_to_sessions.sql
  { version: 20250812000000, sql: "ALTER TABLE sessions ADD COLUMN todos TEXT;" },
  // 20260127000000_add_read_files_table.sql
  {
    version: 20260127000000,
    sql: `CREATE TABLE read_files (session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      path TEXT NOT NULL, read_at INTEGER NOT NULL, PRIMARY KEY (path, session_id));`,
  },
];

/**
 * A new crush.db at `file`, migrated up to `version` (every migration by default), in WAL mode;
 * answers the open writer, as Crush holds it while it runs.
 */
export function createCrushDatabase(file: string, version = MIGRATIONS.at(-1)!.version): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // goose's own table: a row per migration applied (version 0 first).
  db.exec(`CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL,
    is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')))`);
  const applied = db.prepare("INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)");
  applied.run(0);
  for (const migration of MIGRATIONS) {
    if (migration.version > version) break;
    db.exec(migration.sql);
    applied.run(migration.version);
  }
  return db;
}

/** Records a migration as applied, as goose does (a version Threadline may not know). */
export function markMigration(db: Database.Database, version: number): void {
  db.prepare("INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)").run(version);
}

type SessionRow = {
  id: string;
  parent_session_id?: string | null;
  title: string;
  prompt_tokens?: number;
  completion_tokens?: number;
  cost?: number;
  summary_message_id?: string | null;
  created_at: number;
  updated_at?: number;
};

/** Inserts a session row (CreateSession, then UpdateSession for its usage). */
export function insertSession(db: Database.Database, row: SessionRow): void {
  const columns = new Set((db.prepare("SELECT name FROM pragma_table_info('sessions')").all() as { name: string }[]).map((c) => c.name));
  const values: Record<string, unknown> = {
    id: row.id,
    parent_session_id: row.parent_session_id ?? null,
    title: row.title,
    prompt_tokens: row.prompt_tokens ?? 0,
    completion_tokens: row.completion_tokens ?? 0,
    cost: row.cost ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at ?? row.created_at,
  };
  if (columns.has("summary_message_id")) values.summary_message_id = row.summary_message_id ?? null;
  const names = Object.keys(values);
  db.prepare(`INSERT INTO sessions (${names.join(", ")}) VALUES (${names.map((n) => `@${n}`).join(", ")})`).run(values);
}

type MessageRow = {
  id: string;
  session_id: string;
  role: "user" | "assistant" | "tool" | "system";
  parts: { type: string; data: unknown }[];
  model?: string;
  provider?: string | null;
  is_summary_message?: 0 | 1;
  created_at: number;
  finished_at?: number | null;
};

/** Inserts a message row (CreateMessage, then UpdateMessage with its finished parts). */
export function insertMessage(db: Database.Database, row: MessageRow): void {
  const columns = new Set((db.prepare("SELECT name FROM pragma_table_info('messages')").all() as { name: string }[]).map((c) => c.name));
  const values: Record<string, unknown> = {
    id: row.id,
    session_id: row.session_id,
    role: row.role,
    parts: JSON.stringify(row.parts),
    model: row.model ?? "",
    created_at: row.created_at,
    updated_at: row.finished_at ?? row.created_at,
    finished_at: row.finished_at ?? null,
  };
  if (columns.has("provider")) values.provider = row.provider ?? null;
  if (columns.has("is_summary_message")) values.is_summary_message = row.is_summary_message ?? 0;
  const names = Object.keys(values);
  db.prepare(`INSERT INTO messages (${names.join(", ")}) VALUES (${names.map((n) => `@${n}`).join(", ")})`).run(values);
}
