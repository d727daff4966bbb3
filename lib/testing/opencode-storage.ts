/**
 * OpenCode's two local stores built from export documents, for tests: the JSON tree of older builds
 * and an opencode.db with the tables OpenCode's migrations create (session, message, part, todo,
 * project; schema as a live database of OpenCode 1.2.x shows it). Records are written as OpenCode
 * writes them: the JSON files pretty-printed with their ids, the rows with ids in columns and the
 * rest of each record as JSON in `data`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export type ExportDocument = { info: any; messages: { info: any; parts: any[] }[]; todos?: any[] };

const OPENCODE_EXPORTS = path.join(process.cwd(), "fixtures/real/opencode/export");

export function realOpenCodeExports(): { file: string; doc: ExportDocument }[] {
  return readdirSync(OPENCODE_EXPORTS)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({
      file: path.join(OPENCODE_EXPORTS, name),
      doc: JSON.parse(readFileSync(path.join(OPENCODE_EXPORTS, name), "utf8")) as ExportDocument,
    }));
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** Writes the sessions under `<dataDir>/storage`; answers each session record's path. */
export function writeStorageTree(dataDir: string, docs: ExportDocument[]): string[] {
  const storage = path.join(dataDir, "storage");
  return docs.map((doc) => {
    const { info } = doc;
    writeJson(path.join(storage, "project", `${info.projectID}.json`), {
      id: info.projectID,
      worktree: info.directory,
      vcs: "git",
      time: { created: info.time.created, updated: info.time.updated },
    });
    const sessionFile = path.join(storage, "session", info.projectID, `${info.id}.json`);
    writeJson(sessionFile, info);
    for (const message of doc.messages) {
      writeJson(path.join(storage, "message", info.id, `${message.info.id}.json`), message.info);
      for (const part of message.parts) writeJson(path.join(storage, "part", message.info.id, `${part.id}.json`), part);
    }
    if (doc.todos) writeJson(path.join(storage, "todo", `${info.id}.json`), doc.todos);
    return sessionFile;
  });
}

const OPENCODE_SCHEMA = `
CREATE TABLE \`project\` (\`id\` text PRIMARY KEY, \`worktree\` text NOT NULL, \`vcs\` text, \`name\` text, \`icon_url\` text, \`icon_color\` text,
  \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, \`time_initialized\` integer, \`sandboxes\` text NOT NULL, \`commands\` text);
CREATE TABLE \`session\` (\`id\` text PRIMARY KEY, \`project_id\` text NOT NULL, \`parent_id\` text, \`slug\` text NOT NULL, \`directory\` text NOT NULL,
  \`title\` text NOT NULL, \`version\` text NOT NULL, \`share_url\` text, \`summary_additions\` integer, \`summary_deletions\` integer,
  \`summary_files\` integer, \`summary_diffs\` text, \`revert\` text, \`permission\` text, \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL, \`time_compacting\` integer, \`time_archived\` integer, \`workspace_id\` text,
  CONSTRAINT \`fk_session_project_id_project_id_fk\` FOREIGN KEY (\`project_id\`) REFERENCES \`project\`(\`id\`) ON DELETE CASCADE);
CREATE TABLE \`message\` (\`id\` text PRIMARY KEY, \`session_id\` text NOT NULL, \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, \`data\` text NOT NULL,
  CONSTRAINT \`fk_message_session_id_session_id_fk\` FOREIGN KEY (\`session_id\`) REFERENCES \`session\`(\`id\`) ON DELETE CASCADE);
CREATE TABLE \`part\` (\`id\` text PRIMARY KEY, \`message_id\` text NOT NULL, \`session_id\` text NOT NULL, \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, \`data\` text NOT NULL,
  CONSTRAINT \`fk_part_message_id_message_id_fk\` FOREIGN KEY (\`message_id\`) REFERENCES \`message\`(\`id\`) ON DELETE CASCADE);
CREATE TABLE \`todo\` (\`session_id\` text NOT NULL, \`content\` text NOT NULL, \`status\` text NOT NULL, \`priority\` text NOT NULL, \`position\` integer NOT NULL,
  \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, CONSTRAINT \`todo_pk\` PRIMARY KEY(\`session_id\`, \`position\`));
CREATE INDEX \`message_session_time_created_id_idx\` ON \`message\` (\`session_id\`,\`time_created\`,\`id\`);
CREATE INDEX \`part_message_id_id_idx\` ON \`part\` (\`message_id\`,\`id\`);
CREATE INDEX \`part_session_idx\` ON \`part\` (\`session_id\`);
CREATE INDEX \`session_project_idx\` ON \`session\` (\`project_id\`);
`;

function withoutKeys(record: any, keys: string[]): any {
  const rest = { ...record };
  for (const key of keys) delete rest[key];
  return rest;
}

/** Inserts one message and its parts, as OpenCode's storage layer does. */
export function insertMessage(db: Database.Database, sessionId: string, message: { info: any; parts: any[] }): void {
  const time = message.info.time?.created ?? 0;
  db.prepare("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)").run(
    message.info.id,
    sessionId,
    time,
    time,
    JSON.stringify(withoutKeys(message.info, ["id", "sessionID"])),
  );
  for (const part of message.parts) {
    db.prepare("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)").run(
      part.id,
      message.info.id,
      sessionId,
      time,
      time,
      JSON.stringify(withoutKeys(part, ["id", "sessionID", "messageID"])),
    );
  }
}

/** Creates `file` (WAL mode, as OpenCode opens it) holding the sessions; answers the open database, for more writes. */
export function writeOpenCodeDatabase(file: string, docs: ExportDocument[]): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec(OPENCODE_SCHEMA);
  for (const { info, messages, todos } of docs) {
    db.prepare(
      "INSERT OR IGNORE INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, 'git', ?, ?, '[]')",
    ).run(info.projectID, info.directory, info.time.created, info.time.updated);
    db.prepare(
      `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, share_url, summary_additions, summary_deletions, summary_files, summary_diffs, revert, permission, time_created, time_updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      info.id,
      info.projectID,
      info.parentID ?? null,
      info.slug,
      info.directory,
      info.title,
      info.version,
      info.share?.url ?? null,
      info.summary?.additions ?? null,
      info.summary?.deletions ?? null,
      info.summary?.files ?? null,
      info.summary?.diffs ? JSON.stringify(info.summary.diffs) : null,
      info.revert ? JSON.stringify(info.revert) : null,
      info.permission ? JSON.stringify(info.permission) : null,
      info.time.created,
      info.time.updated,
    );
    for (const message of messages) insertMessage(db, info.id, message);
    (todos ?? []).forEach((todo: any, position: number) =>
      db.prepare("INSERT INTO todo VALUES (?, ?, ?, ?, ?, 0, 0)").run(info.id, todo.content, todo.status, todo.priority, position),
    );
  }
  return db;
}
