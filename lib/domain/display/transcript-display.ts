/**
 * How a turn of an agent transcript is shown, as the agents' own viewers show it: slash commands
 * as a chip with their arguments, local command output as a terminal block, and what the agent
 * injected rather than the person typed (caveats, reminders, environment context, instructions,
 * Claude Code's meta entries) folded away under a short label. Display only: the stored content
 * is never changed (export, search and copy-as-prompt read it as imported).
 *
 * The wrappers are recognised only at the start of a user or system turn, as the importers
 * recognise them (lib/importers/claude-code/entries.ts, codex/handlers.ts): a prompt that only
 * mentions a tag is shown as typed.
 */
import { stripAnsi } from "./ansi";
import type { JsonObject, TurnRole } from "../types";

export type TextFormat = "markdown" | "plain";

export type DisplayBlock =
  /** A slash command ("/compact") and its arguments. */
  | { kind: "command"; name: string; args: string }
  /** A shell command run from the agent's prompt (Claude Code's "!" mode). */
  | { kind: "shell"; command: string }
  /** Terminal output, escape codes and all (the renderer styles them). */
  | { kind: "output"; stream: "stdout" | "stderr"; text: string }
  /** Injected context, shown folded under its label. */
  | { kind: "folded"; label: string; text: string; format: TextFormat }
  | { kind: "text"; text: string; format: TextFormat };

export type TurnDisplay = {
  /** The whole turn starts folded under this label; null: shown open. */
  folded: string | null;
  /** The content as blocks; null: the content as it is (Markdown). */
  blocks: DisplayBlock[] | null;
};

type Wrapper =
  | { kind: "command"; part: "name" | "message" | "args" }
  | { kind: "shell" }
  | { kind: "output"; stream: "stdout" | "stderr" }
  | { kind: "folded"; label: string; format: TextFormat };

const folded = (label: string, format: TextFormat): Wrapper => ({ kind: "folded", label, format });

/** Claude Code's wrappers (entries.ts NOT_A_PROMPT) and Codex's injected context (handlers.ts INJECTED_CONTEXT). */
const WRAPPERS = new Map<string, Wrapper>([
  ["command-name", { kind: "command", part: "name" }],
  ["command-message", { kind: "command", part: "message" }],
  ["command-args", { kind: "command", part: "args" }],
  ["local-command-stdout", { kind: "output", stream: "stdout" }],
  ["local-command-stderr", { kind: "output", stream: "stderr" }],
  ["bash-stdout", { kind: "output", stream: "stdout" }],
  ["bash-stderr", { kind: "output", stream: "stderr" }],
  ["bash-input", { kind: "shell" }],
  ["local-command-caveat", folded("Caveat", "plain")],
  ["system-reminder", folded("System reminder", "markdown")],
  ["task-notification", folded("Task notification", "plain")],
  ["environment_context", folded("Environment context", "plain")],
  ["user_instructions", folded("User instructions", "markdown")],
  ["INSTRUCTIONS", folded("Instructions", "markdown")],
  ["permissions instructions", folded("Permissions instructions", "markdown")],
  ["turn_aborted", folded("Turn aborted", "plain")],
  ["user_shell_command", folded("Shell command", "plain")],
  ["subagent_notification", folded("Sub-agent notification", "plain")],
  ["skill", folded("Skill", "markdown")],
]);

const OPENING_TAG = /<([A-Za-z_][\w -]{0,40})>/y;
/** Codex: "# AGENTS.md instructions for <dir>" and the file's text in <INSTRUCTIONS>. */
const AGENTS_HEADING = /# AGENTS\.md instructions for ([^\n]{0,500})\n\s*<INSTRUCTIONS>/y;
const SPACE = /\s*/y;

function skipSpace(content: string, from: number): number {
  SPACE.lastIndex = from;
  SPACE.test(content);
  return SPACE.lastIndex;
}

/**
 * The content as blocks when it starts with a known wrapper, else null. One pass: each closing tag
 * is searched from its opening one and the scan goes on after it; an unclosed wrapper ends the
 * scan, the rest kept as text.
 */
export function parseWrappedContent(content: string): DisplayBlock[] | null {
  const blocks: DisplayBlock[] = [];
  let command: Extract<DisplayBlock, { kind: "command" }> | null = null;
  let message = "";
  const endCommand = () => {
    if (command && command.name === "") command.name = message.trim();
    command = null;
    message = "";
  };
  let pos = skipSpace(content, 0);
  while (pos < content.length) {
    let wrapper: Wrapper | undefined;
    let tag = "";
    let label: string | null = null;
    AGENTS_HEADING.lastIndex = pos;
    const agents = AGENTS_HEADING.exec(content);
    if (agents) {
      tag = "INSTRUCTIONS";
      wrapper = WRAPPERS.get(tag);
      label = `AGENTS.md instructions for ${agents[1]!.trim()}`;
    } else {
      OPENING_TAG.lastIndex = pos;
      const opening = OPENING_TAG.exec(content);
      tag = opening?.[1] ?? "";
      wrapper = opening ? WRAPPERS.get(tag) : undefined;
    }
    const close = wrapper ? content.indexOf(`</${tag}>`, pos) : -1;
    if (!wrapper || close === -1) {
      if (blocks.length === 0) return null;
      endCommand();
      blocks.push({ kind: "text", text: content.slice(pos).trim(), format: "markdown" });
      break;
    }
    const innerStart = agents ? AGENTS_HEADING.lastIndex : OPENING_TAG.lastIndex;
    const inner = content.slice(innerStart, close);
    pos = skipSpace(content, close + tag.length + 3);
    if (wrapper.kind === "command") {
      if (!command) {
        command = { kind: "command", name: "", args: "" };
        blocks.push(command);
      }
      if (wrapper.part === "name") command.name = inner.trim();
      else if (wrapper.part === "args") command.args = inner.trim();
      else message = inner;
      continue;
    }
    endCommand();
    if (wrapper.kind === "shell") blocks.push({ kind: "shell", command: inner.trim() });
    else if (wrapper.kind === "output") blocks.push({ kind: "output", stream: wrapper.stream, text: inner });
    else blocks.push({ kind: "folded", label: label ?? wrapper.label, text: inner, format: wrapper.format });
  }
  endCommand();
  return blocks.length > 0 ? blocks : null;
}

const LABEL_CHARS = 80;

/** The first non-blank line, without escape codes, cut to a label's length. */
function firstLine(content: string): string {
  const line = /\S[^\n]*/.exec(content.length > 4 * LABEL_CHARS ? content.slice(0, 4 * LABEL_CHARS) : content)?.[0] ?? "";
  const clean = stripAnsi(line).trim();
  return clean.length > LABEL_CHARS ? `${clean.slice(0, LABEL_CHARS - 1)}…` : clean;
}

const PLAIN: TurnDisplay = { folded: null, blocks: null };

/**
 * How to show a turn: folded or not, and as blocks or as its content. Folded: Claude Code's meta
 * entries (metadata.meta), turns that are nothing but injected context, and system entries other
 * than local commands (metadata.subtype). Gemini CLI's slash commands (metadata.displayContent,
 * "/init") show as the command, the prompt they expanded to folded.
 */
export function describeTurn(turn: { role: TurnRole; content: string; modelMetadata: JsonObject | null }): TurnDisplay {
  if (turn.role !== "user" && turn.role !== "system") return PLAIN;
  const metadata = turn.modelMetadata ?? {};
  const shown = metadata.displayContent;
  if (turn.role === "user" && typeof shown === "string" && /^\s*\/\S/.test(shown)) {
    const [, name = "", args = ""] = /^\s*(\S+)\s*([\s\S]*)$/.exec(shown) ?? [];
    return {
      folded: null,
      blocks: [
        { kind: "command", name, args: args.trim() },
        { kind: "folded", label: "Expanded prompt", text: turn.content, format: "markdown" },
      ],
    };
  }
  const blocks = parseWrappedContent(turn.content);
  const injected = blocks?.every((b): b is Extract<DisplayBlock, { kind: "folded" }> => b.kind === "folded")
    ? (blocks as Extract<DisplayBlock, { kind: "folded" }>[])
    : null;
  if (injected) {
    // Folded once, as a whole: the blocks inside are shown open.
    return {
      folded: injected.map((b) => b.label).join(" · "),
      blocks: injected.map((b) => ({ kind: "text", text: b.text, format: b.format })),
    };
  }
  if (metadata.meta === true) return { folded: blocks ? "Meta entry" : `Meta: ${firstLine(turn.content)}`, blocks };
  if (turn.role === "system" && typeof metadata.subtype === "string" && metadata.subtype !== "local_command" && !blocks) {
    return { folded: `System: ${metadata.subtype || "entry"}`, blocks: null };
  }
  return { folded: null, blocks };
}

/**
 * SGR codes whose ESC was lost on the way ("[2mCompacted …[22m", as a summary or a copy shows
 * them): only the forms a terminal writes, digits and semicolons closed by "m".
 */
const BARE_SGR = /\[\d{1,3}(?:;\d{1,3}){0,15}m/g;

/** The text without escape codes, whole ones and those that lost their ESC. */
export function stripEscapeCodes(text: string): string {
  const clean = stripAnsi(text);
  return clean.includes("[") ? clean.replace(BARE_SGR, "") : clean;
}

function blockText(block: DisplayBlock): string | null {
  switch (block.kind) {
    case "command":
      return block.args ? `${block.name} ${block.args}` : block.name;
    case "shell":
      return `$ ${block.command}`;
    case "output":
    case "text":
      return block.text.trim() === "" ? null : block.text;
    case "folded":
      return null; // injected context: not what anyone said
  }
}

/**
 * A turn's text as plain words, for summaries and previews (the compaction page, its summaries,
 * turn excerpts): wrappers as the thread page shows them (a slash command as "/name args", a shell
 * command as "$ command", local output as its text), injected context left out, no escape codes
 * and no tags. Linear in the text.
 */
export function readableText(role: TurnRole, text: string): string {
  const blocks = role === "user" || role === "system" ? parseWrappedContent(text) : null;
  const joined = blocks
    ? blocks
        .map(blockText)
        .filter((t): t is string => t !== null)
        .join("\n\n")
    : text;
  return stripEscapeCodes(joined);
}
