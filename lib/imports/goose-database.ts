import "server-only";
// Goose's sessions.db (docs/formats.md §15, "Goose"), read through ./agent-databases.ts: each
// session row with its message rows becomes one document for the pure parser
// (lib/importers/goose). The schema is goose's own: session_manager.rs's create_schema and
// migrations 1–17 (aaif-goose/goose @ 017176d06077b119ade382d3bb710e56c8c04e90).
import type Database from "better-sqlite3";
import { DATABASE_NAMES } from "@/lib/importers/databases";
import { GOOSE_SCHEMA_VERSION, parseGooseSession, type GooseSessionDocument } from "@/lib/importers/goose";
import type { JsonValue } from "@/lib/domain/types";
import { sizedColumn, stampBy, type DatabaseReader, type RowBudget } from "./session-documents";

type Row = Record<string, unknown>;

/** The columns every goose schema has (version 1 on), which the reader cannot do without. */
const REQUIRED = { sessions: ["id", "working_dir"], messages: ["id", "session_id", "role", "content_json", "created_timestamp"] } as const;

/** The sessions columns that hold JSON, by the name the document gives the parsed value. */
const JSON_COLUMNS = {
  recipe_json: "recipe",
  model_config_json: "model_config",
  extension_data: "extension_data",
  parent_delegation: "parent_delegation",
} as const;

/** Left out: the user's answers to a recipe's parameters. */
const LEFT_OUT = new Set(["user_recipe_values_json"]);

function parsed(text: unknown): JsonValue | undefined {
  if (typeof text !== "string") return text === null ? null : undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

function columns(db: Database.Database, table: string): Set<string> {
  return new Set((db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name));
}

function schemaVersion(db: Database.Database, tables: ReadonlySet<string>): number {
  if (!tables.has("schema_version")) return 0;
  const row = db.prepare("SELECT MAX(version) AS version FROM schema_version").get() as { version: number | null } | undefined;
  return row?.version ?? 0;
}

/**
 * Per database: which session's delegate call named each sub-agent session (`"subagent_session_id"`
 * in a tool result's `_meta`), for sub-agents without a parent_session_id (databases older than
 * schema 15 have no such column). Read once, in one pass over the message rows that mention it.
 */
const delegatedBy = new WeakMap<Database.Database, Map<string, string>>();

const SUBAGENT_ID = /"subagent_session_id"\s*:\s*"([^"\\]{1,200})"/g;

function delegations(db: Database.Database, maxRowBytes: number): Map<string, string> {
  const known = delegatedBy.get(db);
  if (known) return known;
  const parents = new Map<string, string>();
  const rows = db
    .prepare(
      `SELECT session_id, ${sizedColumn("content_json")} FROM messages WHERE instr(content_json, 'subagent_session_id') > 0 ORDER BY created_timestamp, id`,
    )
    .iterate(maxRowBytes) as Iterable<Row>;
  for (const row of rows) {
    if (typeof row.content_json !== "string" || typeof row.session_id !== "string") continue;
    for (const match of row.content_json.matchAll(SUBAGENT_ID)) if (!parents.has(match[1]!)) parents.set(match[1]!, row.session_id);
  }
  delegatedBy.set(db, parents);
  return parents;
}

/** One session and its messages as a document; null when it was deleted since it was listed, or is too large. */
function gooseSession(db: Database.Database, id: string, rows: RowBudget, tables: ReadonlySet<string>): GooseSessionDocument | null {
  const row = db.prepare("SELECT * FROM sessions WHERE id = ?").get(id) as Row | undefined;
  if (!row) return null;
  const session: Record<string, JsonValue> = {};
  for (const [column, value] of Object.entries(row)) {
    if (LEFT_OUT.has(column)) continue;
    const name = JSON_COLUMNS[column as keyof typeof JSON_COLUMNS];
    if (name) {
      const value_ = parsed(value);
      if (value_ !== undefined) session[name] = value_;
    } else session[column] = (value ?? null) as JsonValue;
  }
  const messageColumns = columns(db, "messages");
  const hasMetadata = messageColumns.has("metadata_json");
  const hasMessageId = messageColumns.has("message_id");
  const messages: GooseSessionDocument["messages"] = [];
  // goose reads a conversation ordered by created_timestamp, then by row id (get_conversation).
  const select = `SELECT id, ${hasMessageId ? "message_id" : "NULL AS message_id"}, role, created_timestamp, ${hasMetadata ? "metadata_json" : "NULL AS metadata_json"}, ${sizedColumn("content_json")}
    FROM messages WHERE session_id = ? ORDER BY created_timestamp, id`;
  for (const message of db.prepare(select).iterate(rows.maxRowBytes, id) as Iterable<Row>) {
    if (rows.tooLarge(message.bytes, `message/${String(message.id)}`)) continue;
    if (rows.sessionTooLarge()) return null;
    const content = parsed(message.content_json);
    if (content === undefined) {
      rows.skipped.push({ path: `${id}/message/${String(message.id)}`, reason: "message row whose content_json is not JSON" });
      continue;
    }
    messages.push({
      row: Number(message.id),
      message_id: typeof message.message_id === "string" ? message.message_id : null,
      role: String(message.role),
      created_timestamp: typeof message.created_timestamp === "number" ? message.created_timestamp : null,
      content,
      metadata: parsed(message.metadata_json) ?? null,
    });
  }
  const doc: GooseSessionDocument = { goose: "sessions.db", schemaVersion: schemaVersion(db, tables), session, messages };
  // Sub-agents of builds that did not record their parent: the session whose delegate call named them.
  if (!row.parent_session_id && row.session_type === "sub_agent") doc.linkedParent = delegations(db, rows.maxRowBytes).get(id) ?? null;
  return doc;
}

/** Goose's sessions.db (and a database with its tables but another name). */
export const gooseDatabaseReader: DatabaseReader = {
  format: "goose",
  label: "a Goose sessions.db",
  // schema_version tells goose's database from others with sessions and messages tables (Crush's).
  tables: ["sessions", "messages", "schema_version"],
  namedBy: (fileName) => DATABASE_NAMES.goose.test(fileName),
  unknownVersion: (db, tables) => {
    const version = schemaVersion(db, tables);
    if (version > GOOSE_SCHEMA_VERSION)
      return `a Goose sessions.db of schema version ${version}; this reader knows versions up to ${GOOSE_SCHEMA_VERSION}`;
    for (const [table, needed] of Object.entries(REQUIRED)) {
      const have = columns(db, table);
      const missing = needed.filter((column) => !have.has(column));
      if (missing.length > 0)
        return `not a Goose sessions.db: its ${table} table has no ${missing.join(", ")} column (expected ${needed.join(", ")})`;
    }
    return null;
  },
  sessionIds: (db) => (db.prepare("SELECT id FROM sessions ORDER BY id").all() as { id: string }[]).map((row) => String(row.id)),
  readSession: (db, id, rows, tables) => gooseSession(db, id, rows, tables),
  // Its last update and totals, and its messages' count and sizes.
  sessionStamp: (db, id) =>
    stampBy(
      db,
      `SELECT (SELECT updated_at || ':' || ifnull(accumulated_total_tokens, '') FROM sessions WHERE id = @id) || '|' ||
        (SELECT count(*) || ':' || ifnull(sum(octet_length(content_json)), 0) FROM messages WHERE session_id = @id)`,
      id,
    ),
  parse: (doc, source) => parseGooseSession(doc, source),
};
