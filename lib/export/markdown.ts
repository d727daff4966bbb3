/**
 * A thread (or a chain) as plain Markdown, readable on GitHub and in any editor: a title and a
 * short list of facts, then each turn under a heading (number, role, model, time), its text as
 * Markdown, tool calls and results as fenced blocks (sh for commands, diff for patches and edits,
 * json for other arguments) under a label line, sub-agents as nested sections. Nothing folds:
 * no HTML is written. Pure.
 */
import { stripAnsi } from "@/lib/domain/display/ansi";
import { describeTurn, type DisplayBlock } from "@/lib/domain/display/transcript-display";
import { displayTitle } from "@/lib/domain/threads/title";
import { describeToolCall, TOOL_KIND_LABELS, type ToolView } from "@/lib/domain/tools/tool-view";
import type { Turn, TurnPart } from "@/lib/domain/types";
import { compactionLabel, formatJson, toolResultText } from "@/lib/format";
import { threadFacts, toolViewFacts, turnHeading, usageLine } from "./facts";
import type { ReadableDocument, ReadableThread } from "./types";

type ToolResultPart = Extract<TurnPart, { type: "tool_result" }>;

/**
 * Text on one line of ours (a title, a fact, a name) with nothing in it read as Markdown syntax.
 * Never at a line's start, so "#" matters only as a heading's closing run (at the end).
 */
function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/[\\`*_{}[\]<>|~&]/g, "\\$&")
    .replace(/#$/, "\\#");
}

/**
 * A fenced block that holds `text` whatever it holds: the fence is longer than any backtick run inside.
 * @internal exported for its tests
 */
export function fenced(text: string, language = ""): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  const body = text.endsWith("\n") ? text : `${text}\n`;
  return `${fence}${language}\n${body}${fence}`;
}

const heading = (level: number, text: string) => `${"#".repeat(Math.min(6, level))} ${text}`;
const label = (text: string) => `**${text}**`;

/** The export as a Markdown document. */
export function renderMarkdown(document: ReadableDocument): string {
  const notes = [
    document.shared ? "Shared read-only from Threadline." : null,
    document.threads.length > 1 ? `A chain of ${document.threads.length} threads, oldest first.` : null,
    document.redacted
      ? "Secrets found in this conversation are hidden: each shows as `[REDACTED:kind:fingerprint]`, never its value."
      : null,
  ].filter(Boolean);
  // After the first title and its facts: a document opens with what it is.
  const intro = notes.map((note) => `_${note}_`).join("\n\n");
  return `${document.threads.map((readable, index) => threadMarkdown(readable, 1, "", index === 0 ? intro : "")).join("\n\n")}\n`;
}

/** A thread's section at heading `level`: its title, facts and turns (a level below). */
function threadMarkdown(readable: ReadableThread, level: number, prefix = "", intro = ""): string {
  const facts = threadFacts(readable).map(({ term, value }) => `- ${term}: ${escapeMarkdown(value)}`);
  const context: Context = { level: level + 1, calls: new Set(), results: new Map(), readable };
  for (const part of readable.turns.flatMap((turn) => turn.parts ?? [])) {
    if (part.type === "tool_call") context.calls.add(part.id);
    if (part.type === "tool_result" && !context.results.has(part.toolCallId)) context.results.set(part.toolCallId, part);
  }
  return [
    heading(level, `${prefix}${escapeMarkdown(displayTitle(readable.thread.title))}`),
    facts.join("\n"),
    ...(intro ? [intro] : []),
    ...readable.turns.map((turn) => turnMarkdown(turn, context)),
  ].join("\n\n");
}

type Context = { level: number; calls: Set<string>; results: Map<string, ToolResultPart>; readable: ReadableThread };

function turnMarkdown(turn: Turn, context: Context): string {
  const blocks = [heading(context.level, escapeMarkdown(turnHeading(turn)))];
  const refs = [
    ...turn.files.map((path) => `file \`${path.replace(/`/g, "'")}\``),
    ...turn.images.map((path) => `image \`${path.replace(/`/g, "'")}\``),
  ];
  if (refs.length > 0) blocks.push(`References: ${refs.join(", ")}`);
  const compaction = turn.parts?.find((p) => p.type === "compaction");
  if (compaction) blocks.push(`> ${escapeMarkdown(compactionLabel(compaction))}`);
  const structured = turn.parts?.some((p) => p.type !== "text") ?? false;
  blocks.push(...(structured ? partsMarkdown(turn, context) : displayedMarkdown(turn)));
  if (turn.usage) blocks.push(`_${escapeMarkdown(usageLine(turn.usage, turn.cost))}_`);
  return blocks.filter((block) => block.trim() !== "").join("\n\n");
}

function displayedMarkdown(turn: Turn): string[] {
  const display = describeTurn(turn);
  const body = display.blocks ? display.blocks.map(blockMarkdown) : [stripAnsi(turn.content)];
  return display.folded === null ? body : [label(escapeMarkdown(display.folded)), ...body];
}

function blockMarkdown(block: DisplayBlock): string {
  switch (block.kind) {
    case "command":
      return `\`${block.name.replace(/`/g, "'")}\` ${escapeMarkdown(block.args)}`;
    case "shell":
      return fenced(`$ ${block.command}`, "sh");
    case "output":
      return block.text.trim() === ""
        ? "_(no output)_"
        : `${label(block.stream === "stderr" ? "Error output" : "Output")}\n\n${fenced(stripAnsi(block.text))}`;
    case "folded":
      return `${label(escapeMarkdown(block.label))}\n\n${block.format === "markdown" ? stripAnsi(block.text) : fenced(stripAnsi(block.text))}`;
    case "text":
      return block.format === "markdown" ? stripAnsi(block.text) : fenced(stripAnsi(block.text));
  }
}

function partsMarkdown(turn: Turn, context: Context): string[] {
  const parts = turn.parts ?? [];
  const out = parts.map((part) => partMarkdown(part, turn, context));
  const hasText = parts.some((p) => p.type === "text" && p.text.trim() !== "");
  if (parts.some((p) => p.type === "compaction") && !hasText && turn.content.trim() !== "")
    out.push(`${label("Summary of the conversation before")}\n\n${stripAnsi(turn.content)}`);
  return out;
}

function partMarkdown(part: TurnPart, turn: Turn, context: Context): string {
  switch (part.type) {
    case "text":
      return stripAnsi(part.text);
    case "thinking":
      return `${label(part.redacted === true ? "Thinking (redacted)" : "Thinking")}\n\n${quoted(stripAnsi(part.text))}`;
    case "tool_call":
      return toolCallMarkdown(part, context);
    case "tool_result": {
      // A result whose call is in this thread is written under the call.
      return context.calls.has(part.toolCallId) ? "" : resultMarkdown(part, "Result of a call not in this thread");
    }
    case "image":
      return `[image: ${escapeMarkdown(part.alt || part.mediaType || part.path || "no description")}]`;
    case "compaction":
      return "";
    default:
      return `[${escapeMarkdown(String((part as { type: unknown }).type))} part]`;
  }
}

function quoted(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

function resultMarkdown(part: ToolResultPart, title: string): string {
  const facts = [part.isError === true ? "error" : null, typeof part.exitCode === "number" ? `exit ${part.exitCode}` : null].filter(
    Boolean,
  );
  const text = stripAnsi(toolResultText(part.content));
  const diff = typeof part.diff === "string" && part.diff !== "" ? `\n\n${label("Diff")}\n\n${fenced(stripAnsi(part.diff), "diff")}` : "";
  return `${label(title)}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}\n\n${fenced(text)}${diff}`;
}

function toolCallMarkdown(part: Extract<TurnPart, { type: "tool_call" }>, context: Context): string {
  const view = describeToolCall(part.name, part.arguments);
  const title = `${label(`${TOOL_KIND_LABELS[view.kind]}: \`${part.name.replace(/`/g, "'")}\``)}`;
  const result = context.results.get(part.id);
  const subagents = context.readable.subagents
    .filter((s) => s.callId === part.id)
    .map((s) => threadMarkdown(s.thread, context.level + 1, "Sub-agent: "));
  return [title, viewMarkdown(view, part), result ? resultMarkdown(result, "Result") : "_No result recorded_", ...subagents].join("\n\n");
}

function viewMarkdown(view: ToolView, part: Extract<TurnPart, { type: "tool_call" }>): string {
  const facts = (items: [string, string | null][]) =>
    items
      .filter((item): item is [string, string] => item[1] !== null && item[1] !== "")
      .map(([term, value]) => `- ${term}: ${escapeMarkdown(value)}`)
      .join("\n");
  switch (view.kind) {
    case "shell":
      return [
        view.description ? escapeMarkdown(view.description) : "",
        view.workdir ? `In \`${view.workdir.replace(/`/g, "'")}\`` : "",
        fenced(stripAnsi(view.command), "sh"),
      ]
        .filter(Boolean)
        .join("\n\n");
    case "patch":
      return view.files
        .map(
          (file) =>
            `${file.action} ${escapeMarkdown(file.path)}${file.moveTo ? ` → ${escapeMarkdown(file.moveTo)}` : ""}${file.action === "delete" ? "" : `\n\n${fenced(stripAnsi(file.diff), "diff")}`}`,
        )
        .join("\n\n");
    case "edit":
      return `Edit ${escapeMarkdown(view.path ?? "(no path given)")}${view.note ? `: ${escapeMarkdown(view.note)}` : ""}\n\n${fenced(stripAnsi(view.diff), "diff")}`;
    case "write":
      return `New content of ${escapeMarkdown(view.path ?? "(no path given)")}\n\n${fenced(stripAnsi(view.content))}`;
    case "read":
    case "search":
    case "web-search":
      return facts(toolViewFacts(view));
    case "web-fetch":
    case "task":
      return [facts(toolViewFacts(view)), view.prompt ? fenced(view.prompt) : ""].filter(Boolean).join("\n\n");
    case "plan":
      return view.items.map((item) => `- [${item.status === "completed" ? "x" : " "}] ${escapeMarkdown(item.text)}`).join("\n");
    case "none":
      return "_No arguments_";
    case "text":
      return fenced(stripAnsi(view.text));
    case "fields":
      return fenced(formatJson(part.arguments), "json");
  }
}
