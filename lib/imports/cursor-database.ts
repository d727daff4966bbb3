import "server-only";
// Cursor's state.vscdb (docs/formats.md §12, "Cursor"): the SQLite key-value store VS Code keeps
// per user (globalStorage) and per workspace (workspaceStorage/<id>), in which Cursor keeps its
// chats. Read through ./agent-databases.ts: one document per chat, parsed by lib/importers/cursor.
//
// Tables (both `(key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`, values JSON text):
// - cursorDiskKV (the global database; empty in workspace ones): `composerData:<composerId>` and
//   its bubbles `bubbleId:<composerId>:<bubbleId>`, among hundreds of thousands of other rows
//   (file snapshots, agent blobs), so only a chat's own keys are read, by ranges of the unique key;
// - ItemTable: the composer index `composer.composerHeaders` (global, Cursor 3.x, names each
//   composer's workspace folder), a workspace's `composer.composerData` (composer ids; whole
//   composers in Cursor 0.4x) and the old chat panel's `workbench.panel.aichat.view.aichat.chatdata`.
// Every other key (settings, sign-in tokens, the editor's state) is never selected.
import type Database from "better-sqlite3";
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { DATABASE_NAMES } from "@/lib/importers/databases";
import {
  CHAT_TABS_KEY,
  COMPOSER_HEADERS_KEY,
  NEWEST_BUBBLE_VERSION,
  NEWEST_COMPOSER_VERSION,
  parseCursorDocument,
  WORKSPACE_COMPOSERS_KEY,
  type CursorComposerDocument,
} from "@/lib/importers/cursor";
import { isObject } from "@/lib/importers/types";
import { sizedColumn, type DatabaseReader, type RowBudget } from "./session-documents";

const COMPOSER = "composerData:";
const BUBBLE = "bubbleId:";
/** Session ids of the chats that are not global composers: an old chat panel's tab, a workspace's inline composer. */
const TAB = "aichat:";
const WORKSPACE = "workspace:";

/** The keys starting with `prefix`, as a range of the unique index: [prefix, prefix with its last character's successor). */
function range(prefix: string): { lo: string; hi: string } {
  return { lo: prefix, hi: prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1) };
}

/** A value as text: SQLite gives TEXT as a string and BLOB as a Buffer. */
function textOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("utf8");
  return null;
}

function jsonObject(value: unknown): JsonObject | null {
  const text = textOf(value);
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as JsonValue;
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The composer headers of each database, read once (a few fields each) when its chats are listed. */
const headsByDatabase = new WeakMap<Database.Database, Map<string, JsonObject>>();

/**
 * The global index's entry of each composer (Cursor 3.x): its name, times, archived flag and
 * workspace (id and folder). Read with SQLite's JSON functions, so that only these small fields
 * reach JavaScript; a missing or malformed index gives none.
 */
function headsOf(db: Database.Database): Map<string, JsonObject> {
  const known = headsByDatabase.get(db);
  if (known) return known;
  const heads = new Map<string, JsonObject>();
  try {
    const rows = db
      .prepare(
        `SELECT json_extract(j.value, '$.composerId') AS id, json_extract(j.value, '$.name') AS name,
                json_extract(j.value, '$.createdAt') AS createdAt, json_extract(j.value, '$.lastUpdatedAt') AS lastUpdatedAt,
                json_extract(j.value, '$.isArchived') AS isArchived, json_extract(j.value, '$.workspaceIdentifier') AS workspace
         FROM ItemTable AS i, json_each(CAST(i.value AS TEXT), '$.allComposers') AS j
         WHERE i.key = ? AND json_valid(CAST(i.value AS TEXT)) AND j.type = 'object'`,
      )
      .all(COMPOSER_HEADERS_KEY) as {
      id: unknown;
      name: unknown;
      createdAt: unknown;
      lastUpdatedAt: unknown;
      isArchived: unknown;
      workspace: unknown;
    }[];
    for (const row of rows) {
      if (typeof row.id !== "string") continue;
      const head: JsonObject = {};
      if (typeof row.name === "string") head.name = row.name;
      if (typeof row.createdAt === "number") head.createdAt = row.createdAt;
      if (typeof row.lastUpdatedAt === "number") head.lastUpdatedAt = row.lastUpdatedAt;
      if (row.isArchived === 1) head.isArchived = true;
      const workspace = jsonObject(row.workspace);
      if (workspace) head.workspaceIdentifier = workspace;
      heads.set(row.id, head);
    }
  } catch {
    // No ItemTable index (Cursor before 3.x): the composers' own fields are all there is.
  }
  headsByDatabase.set(db, heads);
  return heads;
}

/**
 * The `field` of each entry of one ItemTable value's `list` whose `messages` list is not empty (a
 * workspace's composers with a conversation, the old panel's tabs with bubbles); none when the value
 * is missing or not JSON.
 */
function idsIn(db: Database.Database, key: string, list: string, field: string, messages: string): string[] {
  const sql = `SELECT json_extract(j.value, @field) AS id FROM ItemTable AS i, json_each(CAST(i.value AS TEXT), @list) AS j
     WHERE i.key = @key AND json_valid(CAST(i.value AS TEXT)) AND json_type(j.value, @messages) = 'array'
       AND json_array_length(j.value, @messages) > 0 ORDER BY j.key`;
  try {
    return (db.prepare(sql).all({ key, list: `$.${list}`, field: `$.${field}`, messages: `$.${messages}` }) as { id: unknown }[]).flatMap(
      (row) => (typeof row.id === "string" && row.id ? [row.id] : []),
    );
  } catch {
    return [];
  }
}

/**
 * The chats of a database, in a stable order: every global composer (its key's id), then the
 * Cursor 0.4x composers a workspace holds whole, then the old chat panel's tabs that hold a message.
 */
function sessionIds(db: Database.Database, tables: ReadonlySet<string>): string[] {
  const ids: string[] = [];
  if (tables.has("cursorDiskKV")) {
    const { lo, hi } = range(COMPOSER);
    for (const row of db.prepare(COMPOSER_IDS_SQL).iterate({ start: COMPOSER.length + 1, lo, hi }) as Iterable<{ id: string }>)
      if (row.id) ids.push(row.id);
    headsOf(db);
  }
  ids.push(...idsIn(db, WORKSPACE_COMPOSERS_KEY, "allComposers", "composerId", "conversation").map((id) => WORKSPACE + id));
  ids.push(...idsIn(db, CHAT_TABS_KEY, "tabs", "tabId", "bubbles").map((id) => TAB + id));
  return ids;
}

type Sized = { value: unknown; bytes: unknown };

/**
 * The composer ids: the `composerData:` keys, a range of the unique key's index.
 * @internal exported for its tests (the query plan)
 */
export const COMPOSER_IDS_SQL = "SELECT substr(key, @start) AS id FROM cursorDiskKV WHERE key >= @lo AND key < @hi ORDER BY key";

/**
 * A composer's bubble rows (`bubbleId:<id>:` keys, a range of the index): the value of those its
 * headers list (`@ids`, a JSON array) when within the row limit, and of the others only the id.
 * @internal exported for its tests (the query plan)
 */
export const BUBBLES_SQL = `WITH listed(id) AS (SELECT value FROM json_each(@ids))
  SELECT substr(key, @start) AS id, substr(key, @start) IN listed AS shown,
         CASE WHEN substr(key, @start) IN listed THEN octet_length(value) END AS bytes,
         CASE WHEN substr(key, @start) IN listed AND octet_length(value) <= @max THEN value END AS value
  FROM cursorDiskKV WHERE key >= @lo AND key < @hi ORDER BY key`;

/** The ids of a composer's headers: the bubbles it shows, in order. */
function headerIds(composer: JsonObject): string[] {
  const headers = Array.isArray(composer.fullConversationHeadersOnly) ? composer.fullConversationHeadersOnly : [];
  return headers.flatMap((header) => (isObject(header) && typeof header.bubbleId === "string" ? [header.bubbleId] : []));
}

/**
 * A global composer: its composerData row, then the bubble rows its headers list (one range of the
 * key index; the rows of bubbles no header lists are counted, never read), and its index entry.
 * Null: deleted since listed, too large, or a draft with no message.
 */
function readComposer(db: Database.Database, id: string, rows: RowBudget): CursorComposerDocument | null {
  const row = db.prepare(`SELECT ${sizedColumn("value")} FROM cursorDiskKV WHERE key = ?`).get(rows.maxRowBytes, COMPOSER + id) as
    Sized | undefined;
  if (!row || rows.tooLarge(row.bytes, COMPOSER + id)) return null;
  const composer = jsonObject(row.value);
  if (!composer) {
    rows.skipped.push({ path: `${id}/${COMPOSER}${id}`, reason: "composerData that is not a JSON object" });
    return null;
  }
  const listed = headerIds(composer);
  const inline = Array.isArray(composer.conversation) && composer.conversation.length > 0;
  if (listed.length === 0 && !inline) return null;
  const bubbles: Record<string, JsonValue> = {};
  let orphans = 0;
  if (listed.length > 0) {
    const { lo, hi } = range(`${BUBBLE}${id}:`);
    const scan = db.prepare(BUBBLES_SQL);
    const params = { ids: JSON.stringify(listed), start: lo.length + 1, max: rows.maxRowBytes, lo, hi };
    for (const bubble of scan.iterate(params) as Iterable<Sized & { id: string; shown: number }>) {
      if (!bubble.shown) {
        orphans++;
        continue;
      }
      if (rows.tooLarge(bubble.bytes, `${BUBBLE}${bubble.id}`)) continue;
      if (rows.sessionTooLarge()) return null;
      const parsed = jsonObject(bubble.value);
      if (parsed) bubbles[bubble.id] = parsed;
      else rows.skipped.push({ path: `${id}/${BUBBLE}${bubble.id}`, reason: "bubble that is not a JSON object" });
    }
  }
  const head = headsOf(db).get(id) ?? null;
  return {
    cursor: "composer",
    composerId: id,
    composer,
    bubbles,
    ...(head ? { head } : {}),
    ...(orphans > 0 ? { orphanBubbles: orphans } : {}),
  };
}

/** One entry of an ItemTable list (`$.allComposers` or `$.tabs`) whose `field` is `id`, as JSON, or null. */
function listEntry(db: Database.Database, key: string, list: string, field: string, id: string, rows: RowBudget): JsonObject | null {
  let row: Sized | undefined;
  try {
    row = db
      .prepare(
        `SELECT CASE WHEN octet_length(j.value) > @max THEN NULL ELSE j.value END AS value, octet_length(j.value) AS bytes
         FROM ItemTable AS i, json_each(CAST(i.value AS TEXT), @list) AS j
         WHERE i.key = @key AND json_valid(CAST(i.value AS TEXT)) AND json_extract(j.value, @field) = @id`,
      )
      .get({ max: rows.maxRowBytes, list, key, field: `$.${field}`, id }) as Sized | undefined;
  } catch {
    return null;
  }
  if (!row || rows.tooLarge(row.bytes, `${key}/${id}`)) return null;
  return jsonObject(row.value);
}

function readSession(db: Database.Database, id: string, rows: RowBudget, tables: ReadonlySet<string>): unknown {
  if (id.startsWith(TAB)) {
    const tab = listEntry(db, CHAT_TABS_KEY, "$.tabs", "tabId", id.slice(TAB.length), rows);
    return tab ? { cursor: "chat-tab", tab } : null;
  }
  if (id.startsWith(WORKSPACE)) {
    const composerId = id.slice(WORKSPACE.length);
    const composer = listEntry(db, WORKSPACE_COMPOSERS_KEY, "$.allComposers", "composerId", composerId, rows);
    return composer ? ({ cursor: "composer", composerId, composer, bubbles: {} } satisfies CursorComposerDocument) : null;
  }
  return tables.has("cursorDiskKV") ? readComposer(db, id, rows) : null;
}

/**
 * A composer or bubble version newer than this importer reads, refusing the database before any
 * chat is stored: the newest `_v` of all composerData rows, and of the bubbles of the composer
 * updated last (Cursor writes every new bubble in its current version).
 */
function unknownVersion(db: Database.Database, tables: ReadonlySet<string>): string | null {
  if (!tables.has("cursorDiskKV")) return null;
  const { lo, hi } = range(COMPOSER);
  let newest = 0;
  let newestAt = -Infinity;
  let latest: string | null = null;
  const versions = db.prepare(
    `SELECT substr(key, @start) AS id, json_extract(t, '$._v') AS v, json_extract(t, '$.lastUpdatedAt') AS updated
     FROM (SELECT key, CAST(value AS TEXT) AS t FROM cursorDiskKV WHERE key >= @lo AND key < @hi) WHERE json_valid(t)`,
  );
  for (const row of versions.iterate({ start: COMPOSER.length + 1, lo, hi }) as Iterable<{ id: string; v: unknown; updated: unknown }>) {
    if (typeof row.v === "number") newest = Math.max(newest, row.v);
    if (typeof row.updated === "number" && row.updated > newestAt) [newestAt, latest] = [row.updated, row.id];
  }
  const read = `this importer reads composerData up to _v ${NEWEST_COMPOSER_VERSION} and bubbles up to _v ${NEWEST_BUBBLE_VERSION}`;
  if (newest > NEWEST_COMPOSER_VERSION) return `Cursor composerData of version _v ${newest}: ${read}`;
  if (latest === null) return null;
  const bubbles = range(`${BUBBLE}${latest}:`);
  const row = db
    .prepare(
      `SELECT max(json_extract(t, '$._v')) AS v FROM (SELECT CAST(value AS TEXT) AS t FROM cursorDiskKV WHERE key >= ? AND key < ?) WHERE json_valid(t)`,
    )
    .get(bubbles.lo, bubbles.hi) as { v: unknown };
  if (typeof row.v === "number" && row.v > NEWEST_BUBBLE_VERSION) return `Cursor bubbles of version _v ${row.v}: ${read}`;
  return null;
}

/**
 * A Cursor state.vscdb: any database with VS Code's ItemTable (and, for the global one, Cursor's
 * cursorDiskKV). One with no Cursor chat in it (most workspace databases, and VS Code's own
 * state.vscdb) has no session and imports nothing, without an error.
 */
/**
 * A global composer's fingerprint: its record's size and last update, and the count and total
 * size of its bubble rows (lengths only: SQLite reads them from the rows' headers, not their
 * values). Cursor writes its global database every few seconds while it runs; a chat whose stamp
 * is as it was is not read again. The old panel's tabs and workspace composers, which no longer
 * change, have none.
 * @internal exported for its tests (the query plan)
 */
export const COMPOSER_STAMP_SQL = `SELECT
  (SELECT octet_length(value) || ':' || ifnull(json_extract(CAST(value AS TEXT), '$.lastUpdatedAt'), '')
     FROM cursorDiskKV WHERE key = @key) AS composer,
  (SELECT count(*) || ':' || ifnull(sum(octet_length(value)), 0) FROM cursorDiskKV WHERE key >= @lo AND key < @hi) AS bubbles`;

function sessionStamp(db: Database.Database, id: string, tables: ReadonlySet<string>): string | null {
  if (!tables.has("cursorDiskKV") || id.startsWith(TAB) || id.startsWith(WORKSPACE)) return null;
  const { lo, hi } = range(`${BUBBLE}${id}:`);
  const row = db.prepare(COMPOSER_STAMP_SQL).get({ key: COMPOSER + id, lo, hi }) as { composer: string | null; bubbles: string };
  return row.composer === null ? null : `${row.composer}|${row.bubbles}`;
}

export const cursorDatabaseReader: DatabaseReader = {
  format: "cursor",
  label: "a Cursor state.vscdb",
  tables: ["ItemTable"],
  namedBy: (fileName) => DATABASE_NAMES.cursor.test(fileName),
  unknownVersion,
  sessionIds,
  readSession,
  sessionStamp,
  parse: parseCursorDocument,
};
