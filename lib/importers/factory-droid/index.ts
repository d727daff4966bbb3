/**
 * Factory Droid sessions (`~/.factory/sessions/<cwd with "/" -> "-">/<session id>.jsonl`, older ones
 * right in `sessions/`), docs/formats.md §19, "Factory Droid". Pure: the caller supplies the lines
 * and, when it has it, the parsed `<session id>.settings.json` that sits beside the file
 * (lib/imports/droid-settings.ts reads it).
 *
 * Droid is closed source: the format below is what public readers of these files parse (tokscale,
 * ccusage, CodeBurn, entireio/cli, magpie, cross_agent_session_resumer; cited in the docs):
 * - Line 1 is `{type: "session_start", id, title, sessionTitle?, owner, version (2), cwd,
 *   lastCwd?, isSessionTitleManuallySet?, callingSessionId?, callingToolUseId? (a sub-agent's),
 *   parent?, forkedAtMessageId? (a fork's)}`, rewritten in place as the title changes. A version
 *   above 2 is refused.
 * - Then records `{type, id, timestamp (ISO), ...}`: `message` {parentId, message {role user |
 *   assistant, content: Anthropic blocks or a string}}, `compaction_state` {summaryText,
 *   summaryTokens, summaryKind, removedCount, anchorMessage}, `todo_state` {todos},
 *   `agent_turn_outcome` {turnId, reason}, `session_settings`, `session_end`.
 * - No token counts in the transcript: the settings file holds the session's running totals
 *   (`tokenUsage` {inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens,
 *   thinkingTokens}) for its current `model`.
 *
 * What it becomes: one thread keyed by the session id (turn keys: record ids, else `line:<n>`).
 * User messages with tool results are tool turns paired with the calls by tool_use_id;
 * compaction_state is a compaction marker whose content is the summary. A sub-agent's session
 * (callingSessionId + callingToolUseId) is a sub-agent thread of the calling session, at that call;
 * a fork (parent + forkedAtMessageId) is a fork of its parent at that message, its copied history
 * kept and marked. The settings totals become the thread's session totals (shown and priced apart
 * from the replies, never summed with them) and the replies are marked as counted there, so
 * nothing is counted twice or estimated.
 */
import type { JsonObject } from "@/lib/domain/types";
import { USAGE_IN_SESSION_TOTALS } from "@/lib/domain/usage/usage";
import { collapse } from "../text";
import { isObject, type ImportedThread, type NumberedLine, type ParsedSource } from "../types";
import { looksLikeFactoryDroidSession, readDroidSession } from "./records";
import { droidSessionTotals, settingsMetadata } from "./settings";
import { defined, obj, str, type Json } from "./values";

export { looksLikeFactoryDroidSession } from "./records";

/** Droid's placeholder title before it names a session. */
const PLACEHOLDER_TITLE = /^new session$/i;

function titleOf(header: Json): string | null {
  for (const field of [header.sessionTitle, header.title]) {
    const text = str(field)?.trim();
    if (text && !PLACEHOLDER_TITLE.test(text)) return collapse(text) || null;
  }
  return null;
}

/** The session that called this one, and the call: from session_start, else from the settings' `subagent` tag. */
function callerOf(header: Json, settings: unknown): { session: string; toolUseId: string } | null {
  const session = str(header.callingSessionId);
  const toolUseId = str(header.callingToolUseId);
  if (session && toolUseId) return { session, toolUseId };
  const tags = isObject(settings) && Array.isArray(settings.tags) ? settings.tags : [];
  for (const tag of tags) {
    const meta = isObject(tag) && tag.name === "subagent" ? obj(tag.metadata) : null;
    const s = str(meta?.callingSessionId);
    const t = str(meta?.callingToolUseId);
    if (s && t) return { session: s, toolUseId: t };
  }
  return null;
}

export function parseFactoryDroidSession(lines: NumberedLine[], source: { name: string }, settings?: unknown): ParsedSource {
  const session = readDroidSession(lines, source.name);
  const { header, turns, skipped, forkedAt } = session;
  const warnings: string[] = [];
  const times = turns.map((t) => t.timestamp).filter((t): t is string => !!t);
  const last = [...times, ...(session.endedAt ? [session.endedAt] : [])].reduce<string | null>(
    (a, t) => (a === null || t > a ? t : a),
    null,
  );
  const totals = droidSessionTotals(settings, session.ownReplies, last);
  if (totals)
    for (const turn of turns)
      if (turn.role === "assistant" && !turn.metadata?.copiedFromParent) turn.metadata = { ...turn.metadata, ...USAGE_IN_SESSION_TOTALS };
  if (session.forkPointMissing)
    warnings.push(`the fork point ${forkedAt} is not in the file: every message is taken as copied from the parent session`);

  const sessionId = str(header.id)!;
  const caller = callerOf(header, settings);
  const forkParent = str(header.parent);
  const relation = caller
    ? { parentKey: caller.session, relation: { kind: "subagent" as const, toolCallId: caller.toolUseId } }
    : forkParent && forkParent !== sessionId
      ? { parentKey: forkParent, relation: { kind: "fork" as const, atTurnKey: forkedAt } }
      : {};
  const thread: ImportedThread = {
    key: sessionId,
    title: titleOf(header) ?? (session.firstPrompt ? collapse(session.firstPrompt) || null : null),
    toolName: "factory-droid",
    project: str(header.cwd),
    createdAt: times.reduce<string | null>((a, t) => (a === null || t < a ? t : a), null),
    lastUpdatedAt: last,
    ...relation,
    metadata: defined({
      sessionId,
      version: typeof header.version === "number" ? header.version : null,
      lastCwd: str(header.lastCwd),
      titleManuallySet: header.isSessionTitleManuallySet === true ? true : null,
      callingSessionId: str(header.callingSessionId),
      callingToolUseId: str(header.callingToolUseId),
      forkedFrom: forkParent,
      forkedAtMessageId: str(header.forkedAtMessageId),
      todos: session.todos,
      todoUpdates: session.todoUpdates > 0 ? session.todoUpdates : null,
      sessionSettings: session.sessionSettings.length > 0 ? session.sessionSettings : null,
      endedAt: session.endedAt,
      settings: settingsMetadata(settings),
      sessionTotals: totals as unknown as JsonObject | null,
    }),
    turns,
  };
  return { format: "factory-droid", threads: [thread], skipped, warnings };
}

/** Whether a first line (as text) is a Droid session_start: for lib/imports, before it reads the settings beside the file. */
export function isFactoryDroidFirstLine(text: string | null): boolean {
  if (!text?.trimStart().startsWith("{")) return false;
  try {
    return looksLikeFactoryDroidSession(JSON.parse(text), "");
  } catch {
    return false;
  }
}
