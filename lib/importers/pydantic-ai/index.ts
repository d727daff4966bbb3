/**
 * pydantic-ai message history (docs/formats.md §10, "pydantic-ai"): the JSON list that
 * `ModelMessagesTypeAdapter.dump_json(...)` / `result.all_messages_json()` write, which is how
 * co-cli plans to save its sessions (co-cli's conversation-memory design, "Session Persistence").
 *
 * The list is linear, discriminated by `kind`:
 * - `request`  (ModelRequest):  parts system-prompt, user-prompt, tool-return, retry-prompt
 *                               (+ newer kinds, ignored), and `instructions`.
 * - `response` (ModelResponse): parts text, tool-call, thinking (+ builtin-tool-call/-return, file,
 *                               compaction), model_name, provider_name, usage, timestamp.
 *
 * Turns, in list order:
 * - user-prompt -> user turn; system-prompt -> system turn;
 * - a request's `instructions` -> a system turn when they first appear or change (pydantic-ai sends
 *   them with every request but does not keep them as parts);
 * - a response -> one assistant turn (text, thinking and tool_call parts; usage counted once);
 *   a compaction part -> a system turn marking the compaction, just before it;
 * - tool-return -> a tool turn with a tool_result part (toolCallId = tool_call_id);
 * - retry-prompt with a tool_name -> a tool turn whose result is an error; without one it is
 *   output-validation feedback that pydantic-ai sends as a user message -> a user turn.
 *
 * Keys. Messages have no ids. A history whose messages name one `conversation_id` is that
 * conversation (identity "source", whatever the file is called). Without one (or with several) the
 * format has no thread id: one file is one thread whose key is the file name without its extension
 * (identity "name"): re-importing the same file, or a longer save of the same session under the same
 * name, updates the same thread; a renamed file becomes a new thread, and a history imported without
 * a name is a new thread every time (lib/imports/import-file.ts). A turn's key is its message's index in the
 * list, plus `:<partIndex>` when the message yields several turns; an instructions turn is
 * `<index>:instructions`. Turn ids also hold what the turn holds, so an edited message is a
 * difference and the thread is rewritten from there.
 *
 * The folder: requests.ts and responses.ts make the turns of each kind of message, content.ts
 * renders what they carry (prompts, attachments, tool returns); this file walks the list and makes
 * the thread.
 */
import type { JsonValue } from "@/lib/domain/types";
import { isRealPrompt } from "@/lib/domain/threads/title";
import {
  fileStem,
  ImportFormatError,
  isObject,
  type ImportedThread,
  type ImportedTurn,
  type ParsedSource,
  type SkippedEntry,
} from "../types";
import { collapse, isoUtc } from "../text";
import type { JsonRecord } from "./content";
import { requestTurns } from "./requests";
import { responseTurns } from "./responses";

function isMessageLike(value: unknown): value is JsonRecord {
  return isObject(value) && (value.kind === "request" || value.kind === "response");
}

/**
 * A cheap check on the parsed document: a list whose first element is a ModelRequest or
 * ModelResponse (`kind` + `parts`). Exclusive with the other JSON formats: plain lists have
 * `role`/`content` and no `kind`, ChatGPT conversations `mapping`, PAL threads `thread_id`, a
 * Threadline export is an object.
 */
export function looksLikePydanticAiMessages(doc: unknown, fileName: string): boolean {
  if (/\.jsonl$/i.test(fileName) || !Array.isArray(doc)) return false;
  const first: unknown = doc[0];
  return isMessageLike(first) && Array.isArray(first.parts) && !("role" in first);
}

export function parsePydanticAiMessages(doc: unknown, source: { name: string }): ParsedSource {
  if (!Array.isArray(doc)) {
    throw new ImportFormatError(
      `${source.name}: not a pydantic-ai message history (expected a JSON list of messages with kind "request" or "response")`,
    );
  }
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  if (doc.length === 0) {
    warnings.push(`${source.name}: the message list is empty, nothing to import`);
    return { format: "pydantic-ai", threads: [], skipped, warnings };
  }
  if (!doc.some(isMessageLike)) {
    throw new ImportFormatError(`${source.name}: not a pydantic-ai message history (no element has kind "request" or "response")`);
  }

  const turns: ImportedTurn[] = [];
  const runIds = new Set<string>();
  const conversationIds = new Set<string>();
  let currentInstructions: string | null = null;

  doc.forEach((message: JsonValue, index) => {
    const path = `[${index}]`;
    if (!isObject(message)) {
      skipped.push({ path, reason: 'must be a message object with kind "request" or "response"' });
      return;
    }
    if (typeof message.kind !== "string") {
      skipped.push({ path, reason: 'kind: must be "request" or "response"' });
      return;
    }
    if (message.kind !== "request" && message.kind !== "response") return; // a newer message kind: not ours to read
    if (!Array.isArray(message.parts)) {
      skipped.push({ path, reason: "parts: must be a list" });
      return;
    }
    if (typeof message.run_id === "string" && message.run_id) runIds.add(message.run_id);
    if (typeof message.conversation_id === "string" && message.conversation_id) conversationIds.add(message.conversation_id);

    if (message.kind === "request") {
      const instructions = typeof message.instructions === "string" && message.instructions.trim() ? message.instructions : null;
      if (instructions && instructions !== currentInstructions) {
        turns.push({
          key: `${index}:instructions`,
          role: "system",
          content: instructions,
          timestamp: isoUtc(message.timestamp),
          metadata: { instructions: true },
        });
      }
      if (instructions) currentInstructions = instructions;
      turns.push(...requestTurns(message, message.parts, index, skipped));
    } else {
      turns.push(...responseTurns(message, message.parts, index, skipped));
    }
  });

  const conversationId = conversationIds.size === 1 ? [...conversationIds][0]! : null;
  const thread: ImportedThread = {
    ...(conversationId
      ? ({ key: `conversation:${conversationId}`, identity: "source" } as const)
      : ({ key: fileStem(source.name, "pydantic-ai"), identity: "name" } as const)),
    title: titleOf(turns),
    toolName: "pydantic-ai",
    createdAt: earliest(turns),
    lastUpdatedAt: latest(turns),
    ...(runIds.size > 0 || conversationIds.size > 0
      ? {
          metadata: {
            ...(runIds.size > 0 ? { runIds: [...runIds] } : {}),
            ...(conversationIds.size > 0 ? { conversationIds: [...conversationIds] } : {}),
          },
        }
      : {}),
    turns,
  };
  if (turns.length === 0) warnings.push(`${source.name}: no message with readable content, nothing to import`);
  return { format: "pydantic-ai", threads: turns.length > 0 ? [thread] : [], skipped, warnings };
}

function titleOf(turns: ImportedTurn[]): string | null {
  const first = turns.find((t) => t.role === "user" && !t.metadata?.retryPrompt && isRealPrompt(t.content));
  return first ? collapse(first.content) : null;
}

function earliest(turns: ImportedTurn[]): string | null {
  const times = turns
    .map((t) => t.timestamp)
    .filter((t): t is string => !!t)
    .sort();
  return times[0] ?? null;
}

function latest(turns: ImportedTurn[]): string | null {
  const times = turns
    .map((t) => t.timestamp)
    .filter((t): t is string => !!t)
    .sort();
  return times.at(-1) ?? null;
}
