/**
 * GitHub Copilot CLI sessions (docs/formats.md §6, "GitHub Copilot CLI"). Pure: the caller supplies the lines or the
 * parsed document. One file is one thread, keyed by the session id. Copilot CLI is closed source;
 * what follows is the format as this importer relies on it, read from real sessions.
 *
 * Current builds: `~/.copilot/session-state/<sessionId>/events.jsonl` (events.ts). Every line is an
 * event `{type: "area.name", data, id (uuid), timestamp (ISO), parentId}`; `parentId` is just the
 * previous event (one chain, no branches), so file order is the order. A resumed session appends
 * to the same file. The events become:
 * - `session.start` {sessionId, producer, copilotVersion, startTime, context{cwd, gitRoot, branch,
 *   repository, headCommit, ...}}: the thread (key sessionId, project cwd, the rest in metadata).
 *   Without one (a partial file) the key is the session folder's name.
 * - `system.message`: the system prompt, re-emitted before every interaction. The first goes to the
 *   thread's initialContext.instructions (the page folds it, as Codex's); identical repeats are
 *   counted in metadata.systemMessages (not N identical turns); a prompt that differs from the
 *   previous one becomes a system turn.
 * - `user.message` {content (typed), transformedContent (what the model saw), attachments}: a user
 *   turn of the typed text; transformedContent and the rest in metadata; attachment paths as the
 *   turn's files (never read). Autopilot's own continuation prompts have no typed text: their turn
 *   shows transformedContent and is marked noTypedText.
 * - `assistant.message` {content, reasoningText, reasoningOpaque, toolRequests[], outputTokens,
 *   messageId, requestId}: an assistant turn: thinking, text, one tool_call part per request (id =
 *   toolCallId). reasoningOpaque is encrypted: only its length is kept. The model is the latest of
 *   `session.model_change.newModel` and `tool.execution_complete.model` seen before it.
 * - `tool.execution_start`: when the call ran (startedAt on its result) and its MCP server; when
 *   the request is not in the file, the start makes the tool_call part itself.
 * - `tool.execution_complete` {success, result{content, detailedContent}, model, toolTelemetry}: a
 *   tool turn with a tool_result part (content = what the model saw, isError = !success).
 *   detailedContent (what the terminal showed) is kept on the part: as its `diff` when it is a
 *   unified diff that changes lines (an edit; the page shows it beside the result, as Pi's and
 *   OpenCode's), else as `detailedContent` when it differs from the content (views are rendered
 *   as context-only diffs: not shown as changes).
 * - `assistant.turn_start` / `turn_end`: the turnId on the assistant turns between them; a turn
 *   with no message is reported as skipped.
 * - `session.info`: a system turn (the CLI shows these notices in the conversation).
 * - `session.model_change`, `session.mode_changed`, `session.task_complete`, `session.shutdown`
 *   and any event type not listed here: kept in order in metadata.sessionEvents.
 * - Usage: Copilot records only `outputTokens` per message (kept in the turn's metadata, not as a
 *   usage: there is no input count per response). Full per-model counts exist only in
 *   `session.shutdown.modelMetrics`, one report per process, inputTokens including cache reads and
 *   writes. They are summed over the file's reports into metadata.sessionTotals (totals.ts; input
 *   without cache computed), which the thread page shows as session totals, never as responses;
 *   they count in the thread's cost and in usage over time at the last report's time. Assistant
 *   turns are marked USAGE_IN_SESSION_TOTALS, so no usage is estimated for them either.
 *
 * Legacy builds (2025): `~/.copilot/history-session-state/session_<id>_<ms>.json`, one object
 * {sessionId, startTime, chatMessages, timeline} (legacy.ts). chatMessages, in OpenAI chat format,
 * are the turns (keys m<index>): user, assistant (tool_calls with arguments as a JSON string,
 * parsed when they parse), tool (tool_call_id), system (the first to initialContext). The timeline
 * is what the terminal showed; it enriches them: a `user` entry gives the typed text (the chat
 * message, with injected <current_datetime>/<reminder> text, goes to transformedContent) and its
 * time, a `copilot` entry an assistant reply's time, a `tool_call_completed` entry (by callId) the
 * result's time, status (isError) and log (detailedContent, a diff shown when it changes lines).
 * `info` entries go to metadata.notices, entries nothing matched to metadata.unmatchedTimeline.
 * No model, no tokens.
 */
import { isObject, type NumberedLine, type ParsedSource } from "../types";
import { KNOWN_EVENT_TYPES, isCopilotEnvelope, parseEvents } from "./events";
import { parseLegacy } from "./legacy";

/** A cheap check on the first parsed line: a Copilot event (session.start first, or any known event of a partial file). */
export function looksLikeCopilotEvents(firstLine: unknown, _fileName: string): boolean {
  if (!isCopilotEnvelope(firstLine)) return false;
  const data = firstLine.data as Record<string, unknown>;
  if (firstLine.type === "session.start")
    return typeof data.producer === "string" || typeof data.copilotVersion === "string" || typeof data.sessionId === "string";
  return (KNOWN_EVENT_TYPES as readonly string[]).includes(firstLine.type as string);
}

/** A cheap check on the parsed document: the legacy single-JSON session. */
export function looksLikeCopilotLegacy(doc: unknown): boolean {
  return (
    isObject(doc) &&
    typeof doc.sessionId === "string" &&
    Array.isArray(doc.chatMessages) &&
    (Array.isArray(doc.timeline) || typeof doc.startTime === "string")
  );
}

export function parseCopilotEvents(lines: NumberedLine[], source: { name: string }): ParsedSource {
  return parseEvents(lines, source);
}

export function parseCopilotLegacy(doc: unknown, source: { name: string }): ParsedSource {
  return parseLegacy(doc, source);
}
