/**
 * Cursor's chats (docs/formats.md §12, "Cursor"). Pure: lib/imports/cursor-database.ts reads a
 * Cursor `state.vscdb` (SQLite) and hands over one document per chat; this turns it into a thread.
 *
 * Cursor is closed source: the layout was learnt from public readers (cited in the docs) and a real
 * dump of a Cursor 3.6 session (fixtures/real/cursor). Two kinds of chat:
 * - A composer (the side panel's chats and agent runs, Cursor 0.4x on): `composerData:<id>` in the
 *   global database's `cursorDiskKV` (or, in Cursor 0.4x, an entry of a workspace database's
 *   `composer.composerData` with the conversation inline). Its bubbles are taken in the order of
 *   `fullConversationHeadersOnly` (each a `bubbleId:<id>:<bubbleId>` row, or an entry of
 *   `conversationMap`), or of the inline `conversation`. A prompt bubble (type 1) is a user turn;
 *   an answer bubble (type 2) is an assistant turn holding its thinking, its text and its one tool
 *   call (`toolFormerData`), whose result, kept in the same bubble, becomes a tool turn after it.
 *   Model per bubble (`modelInfo`, else the prompt's, else the composer's `modelConfig`); usage
 *   from `tokenCount` when Cursor filled it in (most are zero). Title = the composer's name,
 *   project = the workspace folder of its header (`composer.composerHeaders`) or of the composer.
 *   A sub-agent (task_v2) or Best-of-N run names its parent in `subagentInfo.parentComposerId`.
 * - A tab of the old chat panel (`workbench.panel.aichat.view.aichat.chatdata` in a workspace
 *   database's ItemTable): user/ai bubbles with text and the model's name.
 *
 * A composer or bubble of a newer `_v` than the ones read is refused, naming the versions.
 */
import { ImportFormatError, isObject, type ImportedThread, type ParsedSource, type SkippedEntry } from "../types";
import { chatTabThread } from "./chat-tabs";
import { composerThread } from "./composer";
import type { CursorDocument } from "./document";

export {
  CHAT_TABS_KEY,
  COMPOSER_HEADERS_KEY,
  NEWEST_BUBBLE_VERSION,
  NEWEST_COMPOSER_VERSION,
  WORKSPACE_COMPOSERS_KEY,
  type CursorComposerDocument,
} from "./document";

/** Why `doc` is no Cursor chat document, or null. */
function invalid(doc: unknown): string | null {
  if (!isObject(doc)) return "not a JSON object";
  if (doc.cursor === "composer") {
    if (typeof doc.composerId !== "string" || doc.composerId === "") return "no composerId";
    if (!isObject(doc.composer)) return "`composer` (its composerData) is not a JSON object";
    if (!isObject(doc.bubbles)) return "`bubbles` is not a JSON object";
    return null;
  }
  if (doc.cursor === "chat-tab") return isObject(doc.tab) && typeof doc.tab.tabId === "string" ? null : "a chat tab without a tabId";
  return "neither a composer nor a chat tab";
}

/** One chat of a Cursor database: one thread (none when it holds no message). */
export function parseCursorDocument(doc: unknown, source: { name: string }): ParsedSource {
  const why = invalid(doc);
  if (why) throw new ImportFormatError(`${source.name}: not a Cursor chat: ${why}`);
  const chat = doc as CursorDocument;
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const thread: ImportedThread | null = chat.cursor === "composer" ? composerThread(chat, source, skipped) : chatTabThread(chat, skipped);
  if (!thread) warnings.push(`${source.name}: a Cursor chat with no message; nothing imported`);
  return { format: "cursor", threads: thread ? [thread] : [], skipped, warnings };
}
