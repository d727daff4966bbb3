/**
 * A thread's turns in the HTML export, as the thread page renders them (components/threads/turn-view.tsx):
 * role, attribution and time; files and images by name; compaction markers; structured parts
 * (Markdown text, thinking folded, tool calls with their results, images as labels) or the
 * content as its agent shows it (commands, terminal output, injected context folded); the usage
 * line of a response. Sub-agents started by a tool call are folded under it, recursively.
 */
import { attributionBesideRole, roleLabel } from "@/lib/domain/display/attribution";
import { describeTurn, type DisplayBlock } from "@/lib/domain/display/transcript-display";
import { chatMark } from "@/lib/domain/threads/chat";
import { displayTitle } from "@/lib/domain/threads/title";
import type { Turn, TurnPart } from "@/lib/domain/types";
import { compactionLabel, formatDateTime, formatInteger, plural } from "@/lib/format";
import { threadFacts, usageLine, type Fact } from "./facts";
import { escapeHtml, fold, preText, sizeNote } from "./html-text";
import { resultFold, toolCallHtml, type ToolCallPart, type ToolResultPart } from "./html-tools";
import { markdownToHtml } from "./markdown-to-html";
import type { ReadableThread } from "./types";

/** The element id of a turn (by turn id, as on the page: a chain holds several threads' turn #1). */
export function turnAnchor(turn: Turn): string {
  return `turn-${turn.id}`;
}

export function factsHtml(facts: Fact[]): string {
  return `<dl class="facts">${facts.map(({ term, value }) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join("")}</dl>`;
}

/** Where a thread's calls and results are, so a call shows its result and a result points at its call. */
type Pairs = {
  calls: Map<string, { part: ToolCallPart; turn: Turn }>;
  results: Map<string, { part: ToolResultPart; number: number }>;
  subagents: Map<string, ReadableThread[]>;
};

function pairsOf({ turns, subagents }: ReadableThread): Pairs {
  const pairs: Pairs = { calls: new Map(), results: new Map(), subagents: new Map() };
  for (const turn of turns) {
    for (const part of turn.parts ?? []) {
      if (part.type === "tool_call" && !pairs.calls.has(part.id)) pairs.calls.set(part.id, { part, turn });
      if (part.type === "tool_result" && !pairs.results.has(part.toolCallId))
        pairs.results.set(part.toolCallId, { part, number: turn.index + 1 });
    }
  }
  for (const { callId, thread } of subagents) pairs.subagents.set(callId, [...(pairs.subagents.get(callId) ?? []), thread]);
  return pairs;
}

/** Every turn of a thread, in order. */
export function turnsHtml(readable: ReadableThread): string {
  const pairs = pairsOf(readable);
  return readable.turns.map((turn) => turnHtml(turn, pairs)).join("\n");
}

function turnHtml(turn: Turn, pairs: Pairs): string {
  const anchor = turnAnchor(turn);
  const attribution = attributionBesideRole(turn);
  const header = `<header><a class="turn-number" href="#${anchor}">#${turn.index + 1}</a><span class="role">${roleLabel(turn.role)}</span>${attribution ? `<span class="attribution">${escapeHtml(attribution)}</span>` : ""}<time datetime="${escapeHtml(turn.timestamp)}">${escapeHtml(formatDateTime(turn.timestamp))}</time></header>`;
  const refs = [
    ...turn.files.map((path) => `<span class="chip"><span class="note">file</span> ${escapeHtml(path)}</span>`),
    ...turn.images.map((path) => `<span class="chip"><span class="note">image</span> ${escapeHtml(path)}</span>`),
  ];
  const compaction = turn.parts?.find((p) => p.type === "compaction");
  const mark = chatMark(turn);
  const structured = turn.parts?.some((p) => p.type !== "text") ?? false;
  const body = structured ? partsHtml(turn, pairs) : displayedContent(turn);
  return [
    `<article class="turn role-${turn.role}" id="${anchor}" aria-label="Turn ${turn.index + 1}">`,
    header,
    refs.length > 0 ? `<div class="refs">${refs.join("")}</div>` : "",
    compaction ? `<div class="compaction" role="note">${escapeHtml(compactionLabel(compaction))}</div>` : "",
    mark
      ? `<p class="usage">${mark.kind === "unanswered" ? "Unanswered" : "Incomplete reply"}${mark.reason ? `: ${escapeHtml(mark.reason)}` : ""}</p>`
      : "",
    `<div class="turn-body">${body}</div>`,
    turn.usage ? `<p class="usage">${escapeHtml(usageLine(turn.usage, turn.cost))}</p>` : "",
    "</article>",
  ].join("");
}

/** A turn without structured parts: its blocks or its Markdown, folded when it is meta or injected context. */
function displayedContent(turn: Turn): string {
  const display = describeTurn(turn);
  const body = display.blocks ? display.blocks.map(blockHtml).join("") : markdownToHtml(turn.content);
  if (display.folded === null) return body;
  return fold(`${escapeHtml(display.folded)} ${sizeNote(`${formatInteger(turn.content.length)} characters`)}`, body);
}

function blockHtml(block: DisplayBlock): string {
  switch (block.kind) {
    case "command":
      return `<p class="command"><span class="name">${escapeHtml(block.name)}</span> ${escapeHtml(block.args)}</p>`;
    case "shell":
      return `<p class="command"><code>$ ${escapeHtml(block.command)}</code></p>`;
    case "output":
      return block.text.trim() === "" ? `<p class="note">(no output)</p>` : preText(block.text, `plain ${block.stream}`);
    case "folded":
      return fold(
        `${escapeHtml(block.label)} ${sizeNote(`${formatInteger(block.text.length)} characters`)}`,
        blockText(block.text, block.format),
      );
    case "text":
      return blockText(block.text, block.format);
  }
}

function blockText(text: string, format: "markdown" | "plain"): string {
  if (text.trim() === "") return `<p class="note">(empty)</p>`;
  return format === "markdown" ? markdownToHtml(text) : preText(text);
}

function partsHtml(turn: Turn, pairs: Pairs): string {
  const parts = turn.parts ?? [];
  const hasText = parts.some((p) => p.type === "text" && p.text.trim() !== "");
  const summary =
    parts.some((p) => p.type === "compaction") && !hasText && turn.content.trim() !== ""
      ? fold(
          `Summary of the conversation before ${sizeNote(`${formatInteger(turn.content.length)} characters`)}`,
          markdownToHtml(turn.content),
        )
      : "";
  return parts.map((part) => partHtml(part, turn, pairs)).join("") + summary;
}

function partHtml(part: TurnPart, turn: Turn, pairs: Pairs): string {
  switch (part.type) {
    case "text":
      return part.text.trim() === "" ? "" : markdownToHtml(part.text);
    case "thinking": {
      const size = part.redacted === true ? "(redacted)" : `(${formatInteger(part.text.length)} characters)`;
      return fold(`Thinking <span class="note">${size}</span>`, preText(part.text), { className: "fold thinking" });
    }
    case "tool_call": {
      const subagents = (pairs.subagents.get(part.id) ?? []).map(subagentHtml).join("");
      return toolCallHtml(part, pairs.results.get(part.id) ?? null, subagents);
    }
    case "tool_result": {
      const call = pairs.calls.get(part.toolCallId);
      if (call?.turn.id === turn.id) return ""; // shown inside its call's card
      if (call) {
        const link = `<a href="#${turnAnchor(call.turn)}">turn #${call.turn.index + 1}</a>`;
        return `<p class="note">Result of <code>${escapeHtml(call.part.name)}</code>: shown with its call in ${link}.</p>`;
      }
      const name = typeof part.name === "string" ? part.name : typeof part.toolName === "string" ? part.toolName : null;
      return resultFold(part, `Result of ${name ? `<code>${escapeHtml(name)}</code>` : "a call not in this thread"}`);
    }
    case "image":
      return `<span class="image-label">image: ${escapeHtml(part.alt || part.mediaType || part.path || "no description")}</span>`;
    case "compaction":
      return "";
    default:
      return `<span class="chip">[${escapeHtml(String((part as { type: unknown }).type))} part]</span>`;
  }
}

/** A sub-agent's thread, folded under the call that started it: its facts, then its turns. */
function subagentHtml(readable: ReadableThread): string {
  const summary = `Sub-agent: ${escapeHtml(displayTitle(readable.thread.title))} <span class="note">(${plural(readable.turns.length, "turn")})</span>`;
  return fold(summary, factsHtml(threadFacts(readable)) + turnsHtml(readable), { className: "fold subagent" });
}
