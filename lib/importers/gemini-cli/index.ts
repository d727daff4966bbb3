/**
 * Gemini CLI chat recordings (~/.gemini/tmp/<project>/chats/session-*.json[l]), docs/formats.md §3, "Gemini CLI".
 * Pure: the caller supplies the parsed document (legacy `.json`) or the numbered lines (`.jsonl`).
 *
 * One session file is one thread (key = sessionId). The JSONL is replayed the way gemini-cli's own
 * writer builds its in-memory conversation (src: gemini-cli packages/core/src/services/
 * chatRecordingService.ts):
 * - a message record (has a string `id`) is re-appended whenever the message changes (tool calls
 *   added, tokens filled in): the last record per id wins, the first-seen position is kept;
 * - `{"$set": {...}}` merges into the session metadata; `$set.messages` replaces the whole message
 *   list at that point (history rewrites such as chat compression); later records apply on top;
 * - `{"$rewindTo": id}` drops that message and everything after it. A message re-appended after a
 *   rewind goes to the end, as in gemini-cli's Map.
 *
 * Message types: `user` -> user turn (a message made only of functionResponse parts is a "tool"
 * turn); `gemini` -> assistant turn (thoughts, text, tool calls) followed by a "tool" turn holding the
 * results recorded inside its toolCalls; `info` / `error` / `warning` -> system turns (the CLI shows
 * them in the conversation). Unknown types are ignored.
 *
 * The folder: replay.ts applies $rewindTo and $set, turns.ts makes turns of messages, render.ts
 * renders Gemini parts, thread.ts makes the thread, shapes.ts holds what they share.
 */
import type { JsonObject } from "@/lib/domain/types";
import { ImportFormatError, isObject, type NumberedLine, type ParsedSource, type SkippedEntry } from "../types";
import { replaceHistory, rewindTo } from "./replay";
import { SESSION_FILE, SYSTEM_MESSAGE_TYPES, type GeminiSource, type JsonRecord, type MessageAt } from "./shapes";

export type { GeminiSource } from "./shapes";
import { buildThread } from "./thread";

// --- detection ---------------------------------------------------------------------------------

/** A cheap check on the parsed document and the file name: a legacy single-JSON session. */
export function looksLikeGeminiLegacy(doc: unknown, fileName: string): boolean {
  if (!isObject(doc) || typeof doc.sessionId !== "string" || !Array.isArray(doc.messages)) return false;
  return typeof doc.projectHash === "string" || SESSION_FILE.test(fileName);
}

/** A cheap check on the first parsed line and the file name: the JSONL metadata line. */
export function looksLikeGeminiJsonl(firstLine: unknown, fileName: string): boolean {
  if (!isObject(firstLine) || typeof firstLine.sessionId !== "string" || typeof firstLine.projectHash !== "string") return false;
  // A legacy document squeezed onto one line carries its messages; the JSONL metadata line never does.
  return !Array.isArray(firstLine.messages) || /\.jsonl$/i.test(fileName);
}

// --- entry points ------------------------------------------------------------------------------

/** The legacy format: one JSON object `{sessionId, projectHash, startTime, lastUpdated, messages, ...}`. */
export function parseGeminiLegacy(doc: unknown, source: GeminiSource): ParsedSource {
  if (!isObject(doc)) throw new ImportFormatError(`${source.name}: not a Gemini CLI session (expected a JSON object)`);
  if (typeof doc.sessionId !== "string" || !doc.sessionId) {
    throw new ImportFormatError(`${source.name}: not a Gemini CLI session (sessionId missing or not a string)`);
  }
  if (!Array.isArray(doc.messages)) throw new ImportFormatError(`${source.name}: not a Gemini CLI session (messages is not an array)`);

  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const messages = new Map<string, MessageAt>();
  doc.messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isObject(message)) {
      skipped.push({ path, reason: "not a JSON object" });
      return;
    }
    if (typeof message.id !== "string" || !message.id) {
      skipped.push({ path, reason: "id: missing or not a string" });
      return;
    }
    // Ids are unique in practice; should one repeat, treat it like the JSONL (last copy wins).
    messages.set(message.id, { record: message, where: { path } });
  });
  const { messages: _messages, ...metadata } = doc;
  const thread = buildThread(metadata, [...messages.values()], source, skipped, warnings);
  skipped.sort((a, b) => messageIndexOf(a) - messageIndexOf(b));
  return { format: "gemini-cli", threads: thread ? [thread] : [], skipped, warnings };
}

/** The current append-only JSONL: metadata line, message records, `$set` and `$rewindTo` lines. */
export function parseGeminiJsonl(lines: Iterable<NumberedLine>, source: GeminiSource): ParsedSource {
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  let metadata: JsonRecord = {};
  const messages = new Map<string, MessageAt>();
  let rewinds = 0;
  let historyRewrites = 0;
  // A bad line is reported once we know whether it was the last one (a truncated live append).
  let pendingBad: SkippedEntry | null = null;

  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    if (pendingBad) skipped.push(pendingBad);
    pendingBad = null;
    let record: unknown;
    try {
      record = JSON.parse(text) as unknown;
    } catch {
      pendingBad = { line, reason: "not valid JSON" };
      continue;
    }
    if (!isObject(record)) {
      skipped.push({ line, reason: "not a JSON object" });
      continue;
    }
    // Same order of tests as gemini-cli's loader.
    if ("$rewindTo" in record) {
      const target = record.$rewindTo;
      if (typeof target !== "string") {
        skipped.push({ line, reason: "$rewindTo: not a string message id" });
      } else if (rewindTo(messages, target)) {
        rewinds += 1;
      } else {
        // gemini-cli's loader would drop the whole history here; keeping it loses nothing.
        warnings.push(`line ${line}: $rewindTo names message "${target}", which is not in the history before it; nothing was dropped`);
      }
    } else if (typeof record.id === "string" && record.id) {
      messages.set(record.id, { record, where: { line } });
    } else if ("id" in record) {
      skipped.push({ line, reason: "id: empty or not a string" });
    } else if ("$set" in record) {
      const update = record.$set;
      if (!isObject(update)) {
        skipped.push({ line, reason: "$set: not an object" });
        continue;
      }
      const { messages: replacement, ...fields } = update;
      metadata = { ...metadata, ...fields };
      if (replacement !== undefined) {
        if (!Array.isArray(replacement)) {
          skipped.push({ line, reason: "$set.messages: not an array" });
        } else {
          replaceHistory(messages, replacement, line, skipped);
          historyRewrites += 1;
        }
      }
    } else if (typeof record.sessionId === "string" && typeof record.projectHash === "string") {
      metadata = { ...metadata, ...record };
    } else if (typeof record.type === "string" && ["user", "gemini", ...SYSTEM_MESSAGE_TYPES].includes(record.type)) {
      skipped.push({ line, reason: `${record.type} message without an id` });
    }
    // Anything else is a record type this parser does not know: tolerated silently.
  }
  if (pendingBad) skipped.push({ ...pendingBad, reason: "not valid JSON (truncated last line?)" });

  if (typeof metadata.sessionId !== "string" || !metadata.sessionId || typeof metadata.projectHash !== "string") {
    throw new ImportFormatError(`${source.name}: not a Gemini CLI chat recording (no metadata line with sessionId and projectHash)`);
  }
  const extra: JsonObject = {};
  if (rewinds > 0) extra.rewinds = rewinds;
  if (historyRewrites > 0) extra.historyRewrites = historyRewrites;
  const thread = buildThread(metadata, [...messages.values()], source, skipped, warnings, extra);
  // Turn building reports its skips after the parse's: put them back in file order.
  skipped.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { format: "gemini-cli", threads: thread ? [thread] : [], skipped, warnings };
}

function messageIndexOf(entry: SkippedEntry): number {
  return Number(/^messages\[(\d+)\]/.exec(entry.path ?? "")?.[1] ?? 0);
}
