// The thread of a chat recording: key, title, times, the parent session of a sub-agent chat.
import type { JsonObject } from "@/lib/domain/types";
import { isRealPrompt, titleFromContent } from "@/lib/domain/threads/title";
import { type ImportedThread, type SkippedEntry } from "../types";
import { isoOrNull } from "./render";
import { SUBAGENT_PATH, type GeminiSource, type JsonRecord, type MessageAt, type ThreadState } from "./shapes";
import { turnsOf } from "./turns";

// --- thread ------------------------------------------------------------------------------------

export function buildThread(
  metadata: JsonRecord,
  messages: MessageAt[],
  source: GeminiSource,
  skipped: SkippedEntry[],
  warnings: string[],
  extraMetadata: JsonObject = {},
): ImportedThread | null {
  const sessionId = String(metadata.sessionId);
  const state: ThreadState = { resultIds: new Set() };
  const turns = messages.flatMap((message) => turnsOf(message, state, skipped));
  if (turns.length === 0) {
    // gemini-cli creates the file when it starts, so sessions quit before the first prompt are common.
    warnings.push(`${source.name}: session ${sessionId} has no messages; nothing imported`);
    return null;
  }

  const kind = typeof metadata.kind === "string" ? metadata.kind : null;
  const directories = Array.isArray(metadata.directories) ? metadata.directories.filter((d): d is string => typeof d === "string") : null;
  const summary = typeof metadata.summary === "string" ? titleFromContent(metadata.summary) : null;
  const firstUser = turns.find((turn) => turn.role === "user" && isRealPrompt(turn.content));
  const parentKey = kind === "subagent" ? parentSessionOf(source, sessionId) : null;

  return {
    key: sessionId,
    ...(parentKey ? { parentKey, relation: { kind: "subagent", toolCallId: null } } : {}),
    title: summary ?? (firstUser ? titleFromContent(firstUser.content) : null),
    toolName: "gemini-cli",
    project: directories?.[0] ?? null,
    createdAt: isoOrNull(metadata.startTime) ?? turns[0]?.timestamp ?? null,
    lastUpdatedAt: isoOrNull(metadata.lastUpdated) ?? turns.at(-1)?.timestamp ?? null,
    metadata: {
      projectHash: typeof metadata.projectHash === "string" ? metadata.projectHash : null,
      kind,
      directories,
      ...extraMetadata,
    },
    turns,
  };
}

/** The parent of a sub-agent chat: the caller's word, else the directory of chats/<parent>/<id>.jsonl. */
function parentSessionOf(source: GeminiSource, sessionId: string): string | null {
  if (source.parentSessionId) return source.parentSessionId;
  const parent = SUBAGENT_PATH.exec(source.name)?.[1];
  return parent && parent !== sessionId ? parent : null;
}
