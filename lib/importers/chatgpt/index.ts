/**
 * ChatGPT data export, `conversations.json` (docs/formats.md §8, "ChatGPT export"): one JSON array of
 * conversations, each a tree of messages (`mapping`: node id -> {message, parent, children}).
 * Pure: the caller supplies the parsed JSON.
 *
 * How a conversation becomes threads:
 * - The main thread is the path from the root to `current_node` (what the ChatGPT UI shows).
 *   Without a usable `current_node` the newest leaf (rule below) stands in, with a warning.
 * - Every other branch becomes a fork thread. For each node on a thread's path, each child NOT
 *   on that path starts a fork: the path from that child down to its newest leaf. (In a
 *   well-formed tree that is every other child of a node with several children, plus the
 *   children of a `current_node` that is not a leaf.) Newest leaf = the leaf whose message has
 *   the greatest create_time (update_time if it has none; a leaf without either inherits the
 *   time of its nearest timed ancestor below the fork point); on a tie the later one in
 *   `children` order wins (ChatGPT appends new branches).
 *   Forks of forks are found the same way, breadth first, so direct alternatives of the main
 *   thread come first; at most MAX_FORKS_PER_CONVERSATION forks per conversation (warning).
 *   A fork whose path has no visible message (an empty regenerate placeholder) is dropped.
 * - relation.atTurnKey = the last visible turn of the parent thread at or before the branching
 *   node (the branching node's own turn as a rule), null when the parent thread shows nothing
 *   before it (e.g. the first prompt was edited: the branch point is the hidden root).
 *
 * Which messages become turns (one turn per node, turn key = node id):
 * - Nodes without a message (the root), messages flagged
 *   `metadata.is_visually_hidden_from_conversation`, unknown author roles, and messages whose
 *   rendering is empty (the empty system message under the root, empty assistant placeholders)
 *   give no turn. A tool call always gives a turn, even with empty arguments.
 * - Content types that ChatGPT never shows as a message give no turn: `user_editable_context`
 *   (custom instructions injected as context), `model_editable_context` (the memory context),
 *   `app_pairing_content` (context from paired desktop apps).
 * - Rendering per content type: `text` parts joined; `code` as a fenced block (language kept,
 *   "unknown" dropped); `multimodal_text` text parts, `image_asset_pointer` -> image part (alt from
 *   the DALL-E prompt or attachment name, media type from the message's attachments; the asset
 *   pointer is kept as a reference, never any data), `audio_transcription` -> text, audio assets ->
 *   "[audio]" in content only; `thoughts` -> one thinking part per thought; `reasoning_recap`
 *   ("Thought for 8 seconds") -> thinking part; `execution_output` -> its text;
 *   `tether_browsing_display` -> summary + result; `tether_quote` -> "Quote from <title> <url>" +
 *   text; `sonic_webpage` -> title, url, text; `system_error` -> "<name>: <text>" (an error
 *   result). Unknown content types keep whatever text they carry (`parts`, `text`, `result`,
 *   `content`) and are dropped silently when they carry none.
 * - A turn made only of thinking (a `thoughts` / `reasoning_recap` node) has the thinking as its
 *   content, so the turn is not blank and stays searchable.
 *
 * Tool calls: an assistant message whose `recipient` is not "all" is a call to that tool
 * (tool_call part, id = message id, name = recipient, arguments = its text, parsed when it is a
 * JSON object or array). There are no call ids in the export, so results pair by adjacency: every
 * tool-role message that follows a call with only tool messages (or invisible nodes) in between
 * carries a tool_result part for it. One call can have several results (the browser's quote()
 * lines each answer separately). A tool message with no open call keeps a plain text part.
 * Since a node's ancestors are the same in every thread, the pairing state of each node is
 * computed once, top down.
 *
 * No token usage exists in this format.
 *
 * The folder: render.ts renders content by type, node.ts turns one node into a turn,
 * conversation.ts one conversation into threads, shapes.ts the types they share.
 */
import { ImportFormatError, isObject, type ParsedSource } from "../types";
import { parseConversation } from "./conversation";
import { nonEmpty } from "./render";
import { Json } from "./shapes";

export type ChatGptSource = {
  /** File name, for messages only (`conversations.json`). */
  name: string;
};

// --- detection ------------------------------------------------------------------------------

function isConversationLike(value: unknown): value is Json {
  return isObject(value) && isObject(value.mapping);
}

/** A cheap check on the parsed document and the file name. */
export function looksLikeChatGptExport(doc: unknown, fileName: string): boolean {
  if (Array.isArray(doc)) {
    if (doc.length === 0) return /(^|[\\/])conversations\.json$/i.test(fileName);
    const first = doc[0];
    return isConversationLike(first) && ("current_node" in first || "create_time" in first || "title" in first);
  }
  return isConversationLike(doc) && "current_node" in doc;
}

// --- the document ----------------------------------------------------------------------------

/** Parses a whole `conversations.json` (an array of conversations, or one conversation object). */
export function parseChatGptExport(doc: unknown, source: ChatGptSource): ParsedSource {
  const single = !Array.isArray(doc);
  if (single && !isConversationLike(doc)) {
    throw new ImportFormatError(
      `${source.name}: not a ChatGPT export: expected an array of conversations (objects with a "mapping" tree) or one such conversation`,
    );
  }
  const conversations: unknown[] = Array.isArray(doc) ? doc : [doc];
  const result: ParsedSource = { format: "chatgpt", threads: [], skipped: [], warnings: [] };
  if (conversations.length === 0) {
    result.warnings.push(`${source.name}: the export holds no conversations`);
    return result;
  }
  if (!conversations.some(isConversationLike)) {
    throw new ImportFormatError(`${source.name}: not a ChatGPT export: no element of the array has a "mapping" object`);
  }

  const firstIndexOfKey = new Map<string, number>();
  conversations.forEach((conversation, index) => {
    const prefix = single ? "$" : `$[${index}]`;
    if (!isObject(conversation)) {
      result.skipped.push({ path: prefix, reason: "conversation is not an object" });
      return;
    }
    if (!isObject(conversation.mapping)) {
      result.skipped.push({ path: `${prefix}.mapping`, reason: "conversation has no mapping object" });
      return;
    }
    const key = nonEmpty(conversation.conversation_id) ?? nonEmpty(conversation.id);
    if (!key) {
      result.skipped.push({ path: prefix, reason: "conversation has neither conversation_id nor id (string)" });
      return;
    }
    const earlier = firstIndexOfKey.get(key);
    if (earlier !== undefined) {
      result.skipped.push({ path: prefix, reason: `duplicate conversation id ${key} (first at $[${earlier}]); the first copy is kept` });
      return;
    }
    firstIndexOfKey.set(key, index);
    const { threads, warnings } = parseConversation(conversation, key, prefix, result.skipped);
    result.threads.push(...threads);
    result.warnings.push(...warnings);
  });
  return result;
}
