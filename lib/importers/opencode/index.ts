/**
 * OpenCode sessions (docs/formats.md §4, "OpenCode"). Pure: the caller reads the files; lib/imports/opencode-storage.ts
 * assembles sessions from OpenCode's storage folder or its SQLite database into the same shape.
 *
 * The shape read is `opencode export <id>`'s: `{info, messages: [{info, parts}], todos?}`, where
 * `info` is the session record, each message record has its parts, and every time is Unix
 * milliseconds. The storage folder (`storage/session/<project>/<id>.json`, `storage/message/<session>/<id>.json`,
 * `storage/part/<message>/<id>.json`) and `opencode.db` (tables session, message, part, todo) hold
 * exactly these records, so one reader serves all three.
 *
 * How a session becomes a thread:
 * - One thread per session, keyed by the session id (`ses_…`); title, directory (the project),
 *   created/updated times; version, slug, projectID, summary, share, revert, permission and todos
 *   are kept in its metadata.
 * - A user message is a user turn: its text parts joined (a `synthetic` part, text OpenCode added
 *   such as an @file's contents, is kept and marked; an `ignored` one is kept but not in the text),
 *   `file` parts as file mentions (names in `files`, images as image parts; a data URL's bytes are
 *   not kept, its length is), agent/subtask parts in metadata. The requested model, agent and the
 *   `summary` (title, diffs of the changes the prompt led to) are metadata.
 * - Each assistant message is one model step and one assistant turn: providerID/modelID, usage
 *   from `tokens` (input already excludes the cache; see usageOfTokens for reasoning) and OpenCode's
 *   own `cost`, kept as reported even when 0. Its parts: text; reasoning as thinking (OpenAI's
 *   encrypted reasoning is never kept, only its length; an empty one is marked redacted); tool parts
 *   as tool calls. step-start/step-finish (snapshot, reason, cost, tokens) and patch parts (hash,
 *   files) are kept in the turn's metadata; `error` is metadata and a line of the text
 *   (MessageAbortedError marks the turn aborted).
 * - A tool part holds both the call and its result. The call stays on the assistant turn; a
 *   completed or failed result goes to one tool turn right after it (`<messageId>:results`), as
 *   Claude Code's results do, so the result counts as context of the next step, not output of
 *   this one. A pending/running call has no result and is marked `unfinished`. A result's edit diff
 *   (state.metadata.diff) is kept as `diff`; `state.time.compacted` as `compactedAt`.
 * - Compaction: a user message with a `compaction` part and the assistant message with
 *   `summary: true` after it become one compaction marker (trigger auto/manual from `auto`), whose
 *   content is the summary and whose usage is the summary call's.
 * - Sub-agents: a `task` tool part names its child session (state.metadata.sessionId, or
 *   `task_id: ses_…` opening its output). The call keeps it as `childSessionId`, its result as
 *   `agentId`. A child session (its info.parentID) is a thread with parentKey = the parent's id and
 *   relation subagent: with the call's id when both sessions are read together, else the agentId,
 *   which the import ties to the call whichever file comes first.
 * - Message ids sort by creation time; messages are taken in the order given (the export's, or
 *   by id from storage). Entries that are not messages or parts are skipped with their JSON path.
 */
import { ImportFormatError, isObject, type ImportedThread, type ParsedSource, type SkippedEntry } from "../types";
import { sessionThread, type OpenCodeAgent, type SubagentLink } from "./session";

/** An `opencode export` document: a session info with a `ses_` id and a list of messages. */
export function looksLikeOpenCodeExport(doc: unknown): boolean {
  if (!isObject(doc) || !isObject(doc.info) || !Array.isArray(doc.messages)) return false;
  const id = doc.info.id;
  return typeof id === "string" && id.startsWith("ses_");
}

/** Why `doc` is no OpenCode session, naming the field; null when it is one. */
function invalidSession(doc: unknown): string | null {
  if (!isObject(doc)) return "not a JSON object";
  if (!isObject(doc.info)) return "no `info` object (the session record)";
  if (typeof doc.info.id !== "string" || doc.info.id === "") return "`info.id` (the session id) is missing";
  if (!Array.isArray(doc.messages)) return "`messages` is not a list";
  return null;
}

/**
 * Sessions read together (an export, or every session of a storage folder or database): one
 * thread each; a child session read with its parent is tied to the task call that started it.
 */
export function parseOpenCodeSessions(docs: readonly unknown[], source: { name: string; agent?: OpenCodeAgent }): ParsedSource {
  const agent = source.agent ?? "opencode";
  const threads: ImportedThread[] = [];
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const calls = new Map<string, SubagentLink>();
  docs.forEach((doc, index) => {
    const why = invalidSession(doc);
    const where = docs.length === 1 ? "" : `[${index}]`;
    if (why)
      throw new ImportFormatError(
        `${source.name}${where ? ` ${where}` : ""}: not an ${agent === "kilo-code" ? "Kilo" : "OpenCode"} session: ${why}`,
      );
    const result = sessionThread(doc as Parameters<typeof sessionThread>[0], agent);
    threads.push(result.thread);
    skipped.push(...result.skipped.map((entry) => ({ ...entry, ...(entry.path && where ? { path: `${where}.${entry.path}` } : {}) })));
    warnings.push(...result.warnings);
    for (const [child, link] of result.subagentCalls) if (!calls.has(child)) calls.set(child, link);
  });
  for (const thread of threads) {
    const link = calls.get(thread.key);
    if (!link) continue;
    // The child's own parentID is the authority; a child without one is linked by the call.
    if (thread.parentKey && thread.parentKey !== link.parentKey) continue;
    thread.parentKey = link.parentKey;
    thread.relation = { kind: "subagent", toolCallId: link.toolCallId, agentId: thread.key };
  }
  return { format: agent, threads, skipped, warnings };
}

/** One `opencode export` document. */
export function parseOpenCodeExport(doc: unknown, source: { name: string; agent?: OpenCodeAgent }): ParsedSource {
  return parseOpenCodeSessions([doc], source);
}
