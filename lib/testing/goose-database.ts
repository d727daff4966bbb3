/**
 * Goose's sessions.db built for tests, with goose's own schema: the tables a version-5 database
 * has (as a real one, fixtures/real/goose/jpresley/sessions/sessions.db, shows them) and the
 * migrations 6–17 of session_manager.rs, or the schema a new database gets at version 17
 * (create_schema), both from aaif-goose/goose @ 017176d06077b119ade382d3bb710e56c8c04e90.
 * Migration 11 (the provider inventory tables) is left out: nothing here reads them. Rows are
 * written as goose's SessionStorage writes them: content_json and metadata_json serialized
 * compactly, message times in seconds, one schema_version row per version.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** The tables of a version-5 database (create_schema at CURRENT_SCHEMA_VERSION 5). */
const SCHEMA_V5 = `
CREATE TABLE schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_messages_timestamp ON messages(timestamp);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);
CREATE INDEX idx_sessions_type ON sessions(session_type);
INSERT INTO schema_version (version) VALUES (5);
`;

/** Migrations 6–17 (apply_migration), each then recorded in schema_version as goose does. */
const MIGRATIONS: Record<number, string> = {
  6: `ALTER TABLE sessions ADD COLUMN provider_name TEXT; ALTER TABLE sessions ADD COLUMN model_config_json TEXT;`,
  7: `ALTER TABLE messages ADD COLUMN message_id TEXT;
      UPDATE messages SET message_id = 'msg_' || session_id || '_' || id;
      CREATE INDEX idx_messages_message_id ON messages(message_id);`,
  8: `ALTER TABLE sessions ADD COLUMN goose_mode TEXT NOT NULL DEFAULT 'auto';`,
  9: `UPDATE sessions SET session_type = 'acp' WHERE session_type = 'user' AND name = 'ACP Session' AND user_set_name = FALSE;`,
  10: `ALTER TABLE sessions ADD COLUMN thread_id TEXT;
       CREATE INDEX IF NOT EXISTS idx_sessions_thread ON sessions(thread_id);
       CREATE TABLE IF NOT EXISTS threads (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT 'New Chat', user_set_name BOOLEAN DEFAULT FALSE,
         working_dir TEXT, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
         archived_at TIMESTAMP, metadata_json TEXT DEFAULT '{}');
       CREATE TABLE IF NOT EXISTS thread_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id TEXT NOT NULL REFERENCES threads(id),
         session_id TEXT, message_id TEXT, role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
         metadata_json TEXT DEFAULT '{}');
       CREATE INDEX IF NOT EXISTS idx_thread_messages_thread ON thread_messages(thread_id);
       CREATE INDEX IF NOT EXISTS idx_thread_messages_message_id ON thread_messages(message_id);`,
  11: ``,
  12: `ALTER TABLE sessions ADD COLUMN archived_at TIMESTAMP; ALTER TABLE sessions ADD COLUMN project_id TEXT;`,
  13: `ALTER TABLE sessions ADD COLUMN accumulated_cost REAL;`,
  14: `ALTER TABLE sessions ADD COLUMN cache_read_tokens INTEGER; ALTER TABLE sessions ADD COLUMN cache_write_tokens INTEGER;
       ALTER TABLE sessions ADD COLUMN accumulated_cache_read_tokens INTEGER; ALTER TABLE sessions ADD COLUMN accumulated_cache_write_tokens INTEGER;`,
  15: `ALTER TABLE sessions ADD COLUMN parent_session_id TEXT;
       CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
       CREATE TABLE IF NOT EXISTS usage_ledger (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
         created_timestamp INTEGER NOT NULL, model TEXT, input_tokens INTEGER, output_tokens INTEGER, total_tokens INTEGER,
         cache_read_tokens INTEGER, cache_write_tokens INTEGER, cost REAL, cost_source TEXT, is_compaction INTEGER DEFAULT 0);
       CREATE INDEX IF NOT EXISTS idx_usage_ledger_session ON usage_ledger(session_id);`,
  16: `CREATE INDEX IF NOT EXISTS idx_messages_session_created ON messages(session_id, created_timestamp, id);`,
  17: `ALTER TABLE sessions ADD COLUMN parent_delegation TEXT;`,
};

/** A new database at version 17 (create_schema), without the inventory tables. */
const SCHEMA_V17 = `
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
INSERT OR IGNORE INTO schema_version (version) VALUES (17);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    accumulated_cache_read_tokens INTEGER,
    accumulated_cache_write_tokens INTEGER,
    accumulated_cost REAL,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT,
    provider_name TEXT,
    model_config_json TEXT,
    goose_mode TEXT NOT NULL DEFAULT 'auto',
    archived_at TIMESTAMP,
    project_id TEXT,
    parent_session_id TEXT,
    parent_delegation TEXT
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
);
CREATE TABLE IF NOT EXISTS usage_ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    created_timestamp INTEGER NOT NULL,
    model TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    total_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    cost REAL,
    cost_source TEXT,
    is_compaction INTEGER DEFAULT 0
);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id);
CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages(timestamp);
CREATE INDEX IF NOT EXISTS idx_messages_message_id ON messages(message_id);
CREATE INDEX IF NOT EXISTS idx_messages_session_created ON messages(session_id, created_timestamp, id);
CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_type ON sessions(session_type);
CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX IF NOT EXISTS idx_usage_ledger_session ON usage_ledger(session_id);
`;

/**
 * A sessions.db at schema `version`: 17 as a new database gets it, else a version-5 database
 * migrated up to `version` (5–17). Opened in WAL mode, as goose opens it; the caller closes it.
 */
export function createGooseDatabase(file: string, version = 17): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  if (version === 17) db.exec(SCHEMA_V17);
  else {
    db.exec(SCHEMA_V5);
    for (let v = 6; v <= version; v++) {
      if (MIGRATIONS[v]) db.exec(MIGRATIONS[v]!);
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(v);
    }
  }
  return db;
}

const columnsOf = (db: Database.Database, table: string) =>
  new Set((db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name));

/** Inserts a sessions row; JSON values (recipe, model config, extension data, delegation) are serialized into their *_json columns. */
export function insertGooseSession(db: Database.Database, fields: Record<string, unknown>): void {
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const column = { recipe: "recipe_json", model_config: "model_config_json" }[key] ?? key;
    row[column] = value !== null && typeof value === "object" ? JSON.stringify(value) : typeof value === "boolean" ? Number(value) : value;
  }
  const have = columnsOf(db, "sessions");
  const names = Object.keys(row).filter((name) => have.has(name));
  db.prepare(`INSERT INTO sessions (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`).run(
    ...names.map((name) => row[name]),
  );
}

export type GooseMessageRow = {
  sessionId: string;
  messageId?: string;
  role: "user" | "assistant";
  created: number;
  content: unknown[];
  /** MessageMetadata; goose writes it whole, so the default is both flags true. */
  metadata?: Record<string, unknown>;
};

/** Inserts a messages row as goose's insert_message does; answers its row id. */
export function insertGooseMessage(db: Database.Database, message: GooseMessageRow): number {
  const have = columnsOf(db, "messages");
  const row: Record<string, unknown> = {
    session_id: message.sessionId,
    role: message.role,
    content_json: JSON.stringify(message.content),
    created_timestamp: message.created,
    metadata_json: JSON.stringify({ userVisible: true, agentVisible: true, ...message.metadata }),
    message_id: message.messageId ?? `msg_${message.sessionId}_${randomUUID()}`,
  };
  const names = Object.keys(row).filter((name) => have.has(name));
  const result = db
    .prepare(`INSERT INTO messages (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`)
    .run(...names.map((name) => row[name]));
  db.prepare("UPDATE sessions SET updated_at = datetime('now') WHERE id = ?").run(message.sessionId);
  return Number(result.lastInsertRowid);
}

/** Makes every message of a session invisible to the agent, as goose's compaction does with the history it summarizes. */
export function hideFromAgent(db: Database.Database, sessionId: string): void {
  db.prepare("UPDATE messages SET metadata_json = json_set(metadata_json, '$.agentVisible', json('false')) WHERE session_id = ?").run(
    sessionId,
  );
}
