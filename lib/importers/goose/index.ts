/**
 * Goose sessions (docs/formats.md §15, "Goose"). Pure: lib/imports/goose-database.ts reads
 * `sessions.db` into one document per session; a legacy `<session id>.jsonl` file is read here
 * from its lines.
 *
 * Goose (block/goose, now aaif-goose/goose) keeps every session in one SQLite database,
 * `~/.local/share/goose/sessions/sessions.db`: a `sessions` row (id `YYYYMMDD_N`, name,
 * working_dir, session_type, provider_name, model_config_json, token totals, parent_session_id)
 * and its `messages` rows (role user or assistant, content_json: a list of typed content blocks,
 * created_timestamp in seconds, metadata_json: visibility, the model that answered, the usage
 * of the response). Builds before the database wrote `<session id>.jsonl`: a
 * metadata line (working_dir, description, token totals) then one message per line.
 *
 * How a session becomes a thread:
 * - One thread per session, keyed by its id; the name (else description, else the first prompt)
 *   is the title, working_dir the project; type, model, recipe title, enabled extension names,
 *   goose mode, the last call's and the accumulated token counts are metadata.
 * - Each message gives its turns (./content.ts): its tool results a tool turn (goose puts them in
 *   user messages), its text, images, thinking and tool calls the user or assistant turn, a
 *   message of notices only (a system notification, an error, a confirmation prompt) a system
 *   turn. Tool calls and results pair by goose's tool request id.
 * - Visibility: a message hidden from the user or from the agent stays, marked userVisible or
 *   agentVisible false. A compaction is the summary message goose inserts after making the
 *   history invisible to the agent (agent-only, right after an agent-invisible message): it
 *   becomes a compaction marker whose content is the summary, with the continuation message
 *   goose adds after it folded in (its text says whether the user asked for the compaction).
 *   Older builds' `conversationCompacted` blocks are markers too.
 * - Model: each assistant turn's metadata.inference (provider, resolved else requested model),
 *   else the session's provider_name and model_config.model_name.
 * - Usage (./usage.ts): a message's own metadata.usage is its response's usage (input without
 *   cache reads and writes, goose's cost kept as reported). What the session's accumulated totals
 *   count beyond those (older responses, compaction and helper calls) is kept as session totals
 *   of the session's model, never added to a response; replies without usage are then not estimated.
 * - Sub-agents: a sub-agent session (session_type sub_agent) with a parent_session_id (or, in a
 *   database without that column, the session a delegate call's result names) is a child thread
 *   related to its parent; the tool result whose `_meta.subagent_session_id` names it carries
 *   `agentId`, by which the import ties it to the call.
 * - A database of a schema version newer than this reader knows is refused by the reader; a
 *   message of another role, or whose content is not a list, is skipped with its path or line.
 */
import type { JsonValue } from "@/lib/domain/types";
import { fileStem, ImportFormatError, isObject, type NumberedLine, type ParsedSource, type SkippedEntry } from "../types";
import type { GooseMessage } from "./content";
import { sessionThread } from "./session";
import { obj, str, type Json } from "./values";

/** The newest sessions.db schema version this reader was written from (aaif-goose/goose, session_manager.rs). */
export const GOOSE_SCHEMA_VERSION = 17;

/** One session read from sessions.db by lib/imports/goose-database.ts. */
export type GooseSessionDocument = {
  goose: "sessions.db";
  schemaVersion: number;
  /** The sessions row, by column name; its JSON columns parsed (recipe, model_config, extension_data, parent_delegation). */
  session: Record<string, JsonValue>;
  /** The messages rows in goose's order (created_timestamp, then row id), content_json and metadata_json parsed. */
  messages: {
    row: number;
    message_id: string | null;
    role: string;
    created_timestamp: JsonValue;
    content: JsonValue;
    metadata: JsonValue;
  }[];
  /** In a database without parent_session_id: the session whose delegate call ran this one. */
  linkedParent?: string | null;
};

const BLOCK_TYPES = new Set([
  "text",
  "image",
  "document",
  "toolRequest",
  "toolResponse",
  "frontendToolRequest",
  "thinking",
  "redactedThinking",
  "reasoning",
  "toolConfirmationRequest",
  "actionRequired",
  "systemNotification",
  "error",
  "contextLengthExceeded",
  "summarizationRequested",
  "conversationCompacted",
]);

/** A goose Message: role, a whole-number `created` and a list of goose content blocks. */
function isGooseMessage(value: unknown): boolean {
  if (!isObject(value) || (value.role !== "user" && value.role !== "assistant")) return false;
  if (typeof value.created !== "number" || !Number.isInteger(value.created) || !Array.isArray(value.content)) return false;
  return value.content.every((block) => isObject(block) && typeof block.type === "string" && BLOCK_TYPES.has(block.type));
}

/** The legacy metadata line: SessionMetadata's required fields (description, message_count) and no role. */
function isSessionMetadata(value: unknown): boolean {
  return isObject(value) && typeof value.description === "string" && typeof value.message_count === "number" && !("role" in value);
}

/** A legacy Goose session file: its first line is the session's metadata, or (a file without one) a goose message. */
export function looksLikeGooseJsonl(first: unknown): boolean {
  return isSessionMetadata(first) || (isGooseMessage(first) && isObject(first) && (first.content as unknown[]).length > 0);
}

/** Message keys unique within the session: goose's id, suffixed when a later row repeats it. */
function uniqueKey(seen: Map<string, number>, key: string): string {
  const n = seen.get(key) ?? 0;
  seen.set(key, n + 1);
  return n === 0 ? key : `${key}#${n + 1}`;
}

function why(doc: unknown): string | null {
  if (!isObject(doc)) return "not a JSON object";
  if (doc.goose !== "sessions.db") return "not a sessions.db document";
  if (typeof doc.schemaVersion !== "number") return "no schemaVersion";
  if (!isObject(doc.session) || typeof doc.session.id !== "string" || doc.session.id === "") return "no session id";
  if (!Array.isArray(doc.messages)) return "`messages` is not a list";
  return null;
}

/** One session of sessions.db, as lib/imports/goose-database.ts reads it. */
export function parseGooseSession(doc: unknown, source: { name: string }): ParsedSource {
  const invalid = why(doc);
  if (invalid) throw new ImportFormatError(`${source.name}: not a Goose session: ${invalid}`);
  const { session, messages, schemaVersion, linkedParent } = doc as GooseSessionDocument;
  if (schemaVersion > GOOSE_SCHEMA_VERSION)
    throw new ImportFormatError(
      `${source.name}: a Goose sessions.db of schema version ${schemaVersion}; this reader knows versions up to ${GOOSE_SCHEMA_VERSION}`,
    );
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, number>();
  const list: GooseMessage[] = [];
  messages.forEach((row, index) => {
    const path = `messages[${index}]`;
    const where = `message row ${isObject(row) ? String(row.row) : "?"}`;
    if (!isObject(row)) return skipped.push({ path, reason: "not a message row" });
    if (row.role !== "user" && row.role !== "assistant")
      return skipped.push({ path, reason: `${where}: role ${JSON.stringify(row.role)} (goose reads only user and assistant)` });
    if (!Array.isArray(row.content)) return skipped.push({ path, reason: `${where}: content_json is not a list of content blocks` });
    const messageId = str(row.message_id);
    list.push({
      key: uniqueKey(seen, messageId ?? `row:${String(row.row)}`),
      messageId,
      role: row.role,
      created: row.created_timestamp ?? null,
      content: row.content,
      metadata: obj(row.metadata) ?? {},
    });
  });
  const thread = sessionThread(session as Json, list, { from: "sessions.db", schemaVersion, linkedParent: linkedParent ?? null }, warnings);
  return { format: "goose", threads: [thread], skipped, warnings };
}

/**
 * A legacy `<session id>.jsonl` file (Goose before the database): a metadata line, then one goose
 * Message per line. The session id is the file's name, as goose takes it.
 */
export function parseGooseJsonl(lines: NumberedLine[], source: { name: string }): ParsedSource {
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, number>();
  const messages: GooseMessage[] = [];
  let session: Json | null = null;
  let first = true;
  for (const { text, line, skipped: tooLong } of lines) {
    if (tooLong) {
      skipped.push(tooLong);
      first = false;
      continue;
    }
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      skipped.push({ line, reason: "not JSON" });
      first = false;
      continue;
    }
    if (first && isSessionMetadata(value)) {
      session = value as Json;
      first = false;
      continue;
    }
    first = false;
    if (!isObject(value) || (value.role !== "user" && value.role !== "assistant") || !Array.isArray(value.content)) {
      skipped.push({
        line,
        reason:
          isObject(value) && "role" in value
            ? `role ${JSON.stringify(value.role)}: not a goose message`
            : "not a goose message (role and content)",
      });
      continue;
    }
    const id = str(value.id);
    messages.push({
      key: uniqueKey(seen, id ?? `line:${line}`),
      messageId: id,
      role: value.role,
      created: value.created ?? null,
      content: value.content,
      metadata: obj(value.metadata) ?? {},
    });
  }
  if (session === null && messages.length === 0)
    throw new ImportFormatError(`${source.name}: not a Goose session file: no metadata line and no message`);
  const id = fileStem(source.name, "session");
  const thread = sessionThread({ ...(session ?? {}), id }, messages, { from: "jsonl" }, warnings);
  return { format: "goose", threads: [thread], skipped, warnings };
}
