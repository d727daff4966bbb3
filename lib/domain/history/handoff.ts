/**
 * Handoff: a thread as the conversation history an orchestrator gives the agent that takes the
 * task next (the fourth seed, an orchestrator's `create_real_task(conversation_history=...)`).
 * Its semantics, reproduced exactly:
 *
 * - Validation: a message whose role is not user, assistant or system is skipped
 *   (`conversation_history[i] has invalid role 'tool', skipping`), so is one whose content is empty
 *   once stripped (`... has empty/invalid content, skipping`); the others are kept stripped.
 *   Stripping is Python's `str.strip()`: its whitespace, which is not quite JavaScript's.
 * - Truncation (`truncate_conversation_history`): user content over 150 characters is cut to 150
 *   plus "... [truncated]", assistant content over 8,192 to 8,192 plus "... [truncated at 8192
 *   chars]"; system content is never cut. Characters are code points, as Python counts them, so a
 *   cut never splits a surrogate pair.
 * - Layout (`format_task_enrichment_prompt`'s conversation section): a blank line, the heading,
 *   then per message `N. <emoji> <ROLE>[ [TRUNCATED]]:`, the content after three spaces (only its
 *   first line indented, as the f-string does), and a blank line; the section ends with a newline
 *   after that blank line. 👤 for user, 🤖 for anyone else (system included). No messages: no
 *   section at all, an empty text.
 *
 * Pure, linear in the content: a cut reads at most the characters it keeps.
 */

const USER_MAX_CHARS = 150;
const ASSISTANT_MAX_CHARS = 8192;
const HANDOFF_HEADING = "💬 CONVERSATION HISTORY (Context leading to this task):";

/** @internal exported for its tests */
export type HandoffRole = "user" | "assistant" | "system";

/** Why a turn is left out: a role the orchestrator does not keep (tool), or nothing left once stripped. */
export type SkipCause = { kind: "role"; role: string } | { kind: "empty" };

/** A message as the seed stores it after validation and truncation. */
export type HandoffMessage = { role: HandoffRole; content: string; truncated: boolean };

/** What the handoff is made from: a turn's role and content, and where it came from. */
export type HandoffInput = { role: string; content: string; threadId: string; turnIndex: number };

export type Handoff = {
  /** The seed's conversation section, byte for byte ("" when no message is kept). */
  text: string;
  messages: HandoffMessage[];
  /**
   * Inputs left out: their position (0-based, as the seed's warnings count), the seed's warning
   * (for agents reading the API), why in words a page can group (`cause`: the role it does not
   * keep, or empty content), and the turn.
   */
  skipped: { index: number; reason: string; cause: SkipCause; threadId: string; turnIndex: number }[];
  conversationMessagesCount: number;
  /** The turn each message came from, in the same order as `messages`. */
  origins: { threadId: string; turnIndex: number }[];
  /** Messages truncated, and the characters (code points) truncation removed from them, markers aside. */
  cut: { messages: number; characters: number };
};

/** GET /api/threads/:id/handoff's answer: the handoff, the range used, the token count when asked. */
export type HandoffAnswer = Handoff & {
  format: "orchestrator";
  /** 1-based positions used, of `total` turns in the thread (or chain); 0, 0, 0 for a thread with no turns. */
  range: { from: number; to: number; total: number };
  tokens?: { tokenizer: string; count: number; exact: boolean };
};

/** Python's whitespace (str.isspace), which strip() removes from both ends. */
const PYTHON_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/**
 * `text.strip()` as Python does it (every such whitespace character is one UTF-16 unit).
 * @internal exported for its tests
 */
export function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PYTHON_SPACE.has(text.charCodeAt(start))) start++;
  while (end > start && PYTHON_SPACE.has(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * The first `max` code points of `text` and whether it has more: Python's `text[:max]` and
 * `len(text) > max`. Reads at most `max` + 1 code points.
 * @internal exported for its tests
 */
export function codePointPrefix(text: string, max: number): { prefix: string; cut: boolean } {
  let offset = 0;
  for (let count = 0; count < max; count++) {
    if (offset >= text.length) return { prefix: text, cut: false };
    offset += (text.codePointAt(offset) ?? 0) > 0xffff ? 2 : 1;
  }
  return offset >= text.length ? { prefix: text, cut: false } : { prefix: text.slice(0, offset), cut: true };
}

/** Python's `len(text)`: code points. */
function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++, count++) if ((text.codePointAt(i) ?? 0) > 0xffff) i++;
  return count;
}

/**
 * One message as `truncate_conversation_history` stores it.
 * @internal exported for its tests
 */
export function truncateMessage(role: HandoffRole, content: string): HandoffMessage {
  if (role === "system") return { role, content, truncated: false };
  const max = role === "user" ? USER_MAX_CHARS : ASSISTANT_MAX_CHARS;
  const { prefix, cut } = codePointPrefix(content, max);
  if (!cut) return { role, content, truncated: false };
  return {
    role,
    content: prefix + (role === "user" ? "... [truncated]" : `... [truncated at ${ASSISTANT_MAX_CHARS} chars]`),
    truncated: true,
  };
}

/**
 * The conversation section `format_task_enrichment_prompt` builds from stored messages ("" for none).
 * @internal exported for its tests
 */
export function handoffText(messages: readonly HandoffMessage[]): string {
  if (messages.length === 0) return "";
  const lines: string[] = [];
  messages.forEach((message, i) => {
    const emoji = message.role === "user" ? "👤" : "🤖";
    lines.push(`${i + 1}. ${emoji} ${message.role.toUpperCase()}${message.truncated ? " [TRUNCATED]" : ""}:`);
    lines.push(`   ${message.content}`);
    lines.push("");
  });
  return `\n${HANDOFF_HEADING}\n${lines.join("\n")}\n`;
}

const ROLES: readonly string[] = ["user", "assistant", "system"];

/** The handoff of some turns, oldest first: validated, truncated and laid out as the seed's orchestrator does. */
export function orchestratorHandoff(inputs: readonly HandoffInput[]): Handoff {
  const messages: HandoffMessage[] = [];
  const origins: Handoff["origins"] = [];
  const skipped: Handoff["skipped"] = [];
  const cut = { messages: 0, characters: 0 };
  inputs.forEach((input, index) => {
    if (!ROLES.includes(input.role)) {
      skipped.push({
        index,
        reason: `conversation_history[${index}] has invalid role '${input.role}', skipping`,
        cause: { kind: "role", role: input.role },
        threadId: input.threadId,
        turnIndex: input.turnIndex,
      });
      return;
    }
    const content = pythonStrip(input.content);
    if (content.length === 0) {
      skipped.push({
        index,
        reason: `conversation_history[${index}] has empty/invalid content, skipping`,
        cause: { kind: "empty" },
        threadId: input.threadId,
        turnIndex: input.turnIndex,
      });
      return;
    }
    const message = truncateMessage(input.role as HandoffRole, content);
    if (message.truncated) {
      cut.messages++;
      cut.characters += codePointCount(content) - (message.role === "user" ? USER_MAX_CHARS : ASSISTANT_MAX_CHARS);
    }
    messages.push(message);
    origins.push({ threadId: input.threadId, turnIndex: input.turnIndex });
  });
  return { text: handoffText(messages), messages, skipped, conversationMessagesCount: messages.length, origins, cut };
}
