// What the Gemini CLI importer's parts share: record shapes, message kinds and path patterns.
import type { JsonValue } from "@/lib/domain/types";

export type JsonRecord = Record<string, JsonValue>;
/** Where a record came from, for SkippedEntry: a 1-based line (JSONL) or a JSON path (legacy). */
type Where = { line: number } | { path: string };
export type MessageAt = { record: JsonRecord; where: Where };

export const SYSTEM_MESSAGE_TYPES = new Set(["info", "error", "warning"]);
/** Tool call states after which the call has a result (scheduler `Status`). */
export const FINISHED_STATUSES = new Set(["success", "error", "cancelled"]);
/** A sub-agent chat's path: chats/<parentSessionId>/<sessionId>.jsonl. */
export const SUBAGENT_PATH = /(?:^|[\\/])chats[\\/]([^\\/]+)[\\/][^\\/]+\.jsonl$/i;
export const SESSION_FILE = /(?:^|[\\/])session-[^\\/]*\.jsonl?$/i;

export type GeminiSource = {
  /** File name or path: `session-<time>-<id8>.json[l]`, or `chats/<parentSessionId>/<sessionId>.jsonl`. */
  name: string;
  /** The parent session of a sub-agent chat, when the caller knows it (the file's directory name). */
  parentSessionId?: string;
};

export type ThreadState = {
  /** Tool call ids whose result has been emitted: a rewritten history repeats them as user parts. */
  resultIds: Set<string>;
};
