/**
 * A turn's start as a list of turns shows it (the compaction page's excerpts): what was said, each
 * tool call as its name and what it did ("Bash: npm test"), each result as its text; no JSON, no
 * tags, no escape codes. Pure, linear in the turn.
 */
import { readableText, stripEscapeCodes } from "../display/transcript-display";
import type { JsonValue, TurnPart, TurnRole } from "../types";
import { describeToolCall, toolHint } from "./tool-view";

/** A tool result's text: a string, or the texts of its content blocks (never an image's data). */
function resultText(content: JsonValue): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (block !== null && typeof block === "object" && !Array.isArray(block) && typeof block.text === "string") texts.push(block.text);
  }
  return texts.join("\n");
}

/** Past this, a call's hint is cut: an excerpt shows a couple of lines. */
const HINT_CHARS = 200;

function callLine(part: Extract<TurnPart, { type: "tool_call" }>): string {
  const hint = toolHint(describeToolCall(part.name, part.arguments))?.replace(/\s+/g, " ").trim() ?? "";
  if (hint === "") return part.name;
  return `${part.name}: ${hint.length > HINT_CHARS ? `${hint.slice(0, HINT_CHARS - 1)}…` : hint}`;
}

/** The turn as plain text for an excerpt (see the module's note). */
export function turnPreviewText(turn: { role: TurnRole; content: string; parts: TurnPart[] | null }): string {
  const parts = turn.parts ?? [];
  if (!parts.some((p) => p.type === "tool_call" || p.type === "tool_result")) return readableText(turn.role, turn.content).trim();
  const pieces: string[] = [];
  for (const part of parts) {
    if (part.type === "text") pieces.push(readableText(turn.role, part.text).trim());
    else if (part.type === "tool_call") pieces.push(callLine(part));
    else if (part.type === "tool_result") pieces.push(stripEscapeCodes(resultText(part.content)).trim());
  }
  return pieces.filter((p) => p !== "").join("\n");
}
