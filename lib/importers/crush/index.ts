/**
 * Crush sessions (docs/formats.md §17, "Crush"). Pure: lib/imports/crush-database.ts reads one
 * session of a project's `.crush/crush.db` (SQLite) into the document parsed here; no SQL here.
 *
 * The document: `{schemaVersion, project, session, messages}`. `session` is the row of Crush's
 * `sessions` table and each of `messages` a row of its `messages` table, with Crush's column
 * names (charmbracelet/crush internal/db/migrations); `parts` is the JSON text Crush stores, a
 * list of `{type, data}` (internal/message/message.go, content.go). `schemaVersion` is the
 * database's goose migration version, `project` the folder holding `.crush` (the reader's,
 * from the file's place: Crush stores no working directory).
 *
 * How a session becomes a thread:
 * - One thread per session row, keyed by its id; title, the project, created/updated times (Unix
 *   seconds; milliseconds read too, see crushTime). Crush's own figures for the session
 *   (prompt_tokens, completion_tokens, cost) go to metadata.crushUsage, never to a turn: Crush
 *   keeps no usage per response, its token counts are the latest response's (not totals), and its
 *   cost is a running sum that a finished sub-agent's cost is added to. Responses get
 *   Threadline's estimate, as every response without reported usage does.
 * - Messages in the order given (the reader's: created_at, then insertion). A user message is a
 *   user turn (text, bang-mode shell commands, attachments as files or images, their bytes never
 *   kept); an assistant message one response, one assistant turn (text, reasoning as thinking,
 *   tool calls, model and provider; the finish part in metadata, an error or cancel also a line of
 *   the text); a tool message one tool turn of tool_result parts, paired with the calls by
 *   `tool_call_id`.
 * - Compaction: a summary message (is_summary_message, or the session's summary_message_id: older
 *   databases have no is_summary_message column) is a compaction marker whose content is the summary.
 * - Sub-agents: the `agent` and `agentic_fetch` tools run in a child session (parent_session_id
 *   set) whose id names the call: `<messageId>$$<toolCallId>` (Crush from October 2025), or the
 *   tool call id itself (before). The child is a thread with parentKey and relation subagent with
 *   that call's id.
 * - A message that is not an object, has no id or role, a role Crush does not write, or parts
 *   that are not a JSON list is skipped with its JSON path; so is a part without a type or data.
 */
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { ImportFormatError, isObject, type ImportedThread, type ImportedTurn, type ParsedSource, type SkippedEntry } from "../types";
import { assistantTurn, crushTime, summaryTurn, toolTurn, userTurn, type CrushMessageRow } from "./messages";

type Json = Record<string, JsonValue>;

/** Why `doc` is no Crush session document, naming the field; null when it is one. */
function invalidSession(doc: unknown): string | null {
  if (!isObject(doc)) return "not a JSON object";
  if (!isObject(doc.session)) return "no `session` object (the sessions row)";
  if (typeof doc.session.id !== "string" || doc.session.id === "") return "`session.id` is missing";
  if (!Array.isArray(doc.messages)) return "`messages` is not a list";
  return null;
}

/**
 * The tool call that started a child session, from the child's id: `<messageId>$$<toolCallId>`
 * (Crush's CreateAgentToolSessionID), else the id itself (older Crush created the session under
 * the call's id). Crush's title sessions (`title-<parent id>`) were started by no call.
 * @internal exported for its tests
 */
export function toolCallOfChild(sessionId: string): string | null {
  const pieces = sessionId.split("$$");
  if (pieces.length === 2) return pieces[1] || null;
  if (pieces.length > 2 || sessionId.startsWith("title-")) return null;
  return sessionId;
}

const ROLES = new Set(["user", "assistant", "tool", "system"]);

function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

function num(value: JsonValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The message rows, checked: each an object with an id, a role Crush writes and parts that are a JSON list. */
function messageRows(list: JsonValue[], skipped: SkippedEntry[]): CrushMessageRow[] {
  const rows: CrushMessageRow[] = [];
  list.forEach((entry, index) => {
    const path = `messages[${index}]`;
    if (!isObject(entry)) return skipped.push({ path, reason: "not a message row" });
    const id = str(entry.id);
    if (!id) return skipped.push({ path, reason: "message without an id" });
    const role = str(entry.role);
    if (!role || !ROLES.has(role))
      return skipped.push({ path, reason: `message ${id}: unknown role ${JSON.stringify(entry.role ?? null)}` });
    let parts: unknown;
    try {
      parts = typeof entry.parts === "string" ? JSON.parse(entry.parts) : entry.parts;
    } catch {
      return skipped.push({ path, reason: `message ${id}: parts that are not valid JSON` });
    }
    if (!Array.isArray(parts)) return skipped.push({ path, reason: `message ${id}: parts that are not a JSON list` });
    rows.push({
      id,
      role,
      parts: parts as JsonValue[],
      model: str(entry.model),
      provider: str(entry.provider),
      createdAt: crushTime(entry.created_at),
      finishedAt: crushTime(entry.finished_at),
      isSummary: entry.is_summary_message === 1 || entry.is_summary_message === true,
      path,
    });
  });
  return rows;
}

/** The session row as thread metadata: what has no column of its own. */
function threadMetadata(doc: Json, session: Json): JsonObject {
  const metadata: JsonObject = {};
  const schemaVersion = num(doc.schemaVersion);
  if (schemaVersion !== null) metadata.schemaVersion = schemaVersion;
  const count = num(session.message_count);
  if (count !== null) metadata.messageCount = count;
  metadata.crushUsage = {
    promptTokens: num(session.prompt_tokens),
    completionTokens: num(session.completion_tokens),
    costUsd: num(session.cost),
  };
  const summary = str(session.summary_message_id);
  if (summary) metadata.summaryMessageId = summary;
  const todos = str(session.todos);
  if (todos) {
    try {
      metadata.todos = JSON.parse(todos) as JsonValue;
    } catch {
      metadata.todos = todos;
    }
  }
  const parent = str(session.parent_session_id);
  if (parent) metadata.parentSessionId = parent;
  return metadata;
}

/** One session document (lib/imports/crush-database.ts) to one thread. */
export function parseCrushSession(doc: unknown, source: { name: string }): ParsedSource {
  const why = invalidSession(doc);
  if (why) throw new ImportFormatError(`${source.name}: not a Crush session: ${why}`);
  const document = doc as Json;
  const session = document.session as Json;
  const key = session.id as string;
  const skipped: SkippedEntry[] = [];
  const summaryId = str(session.summary_message_id);
  const turns: ImportedTurn[] = [];
  for (const row of messageRows(document.messages as JsonValue[], skipped)) {
    if (row.role === "assistant" && (row.isSummary || row.id === summaryId)) turns.push(summaryTurn(row, skipped));
    else if (row.role === "assistant") turns.push(assistantTurn(row, skipped));
    else if (row.role === "tool") turns.push(toolTurn(row, skipped));
    else turns.push(userTurn(row, skipped));
  }
  const parentKey = str(session.parent_session_id);
  const thread: ImportedThread = {
    key,
    title: str(session.title),
    toolName: "crush",
    project: str(document.project),
    createdAt: crushTime(session.created_at),
    lastUpdatedAt: crushTime(session.updated_at),
    metadata: threadMetadata(document, session),
    ...(parentKey ? { parentKey, relation: { kind: "subagent" as const, toolCallId: toolCallOfChild(key), agentId: key } } : {}),
    turns,
  };
  return { format: "crush", threads: [thread], skipped, warnings: [] };
}
