import type { JsonValue, TurnPart } from "@/lib/domain/types";
import type { CompactionTurn } from "./types";

/**
 * How the compaction modules read a turn. A turn with an empty parts list is treated like one
 * without parts: its `content` is all there is.
 */
export function partsOf(turn: Pick<CompactionTurn, "parts">): TurnPart[] {
  return turn.parts ?? [];
}

/** The text a person reads: text parts (not thinking) when the turn has parts, else its content. */
export function turnText(turn: Pick<CompactionTurn, "parts" | "content">): string {
  const parts = partsOf(turn);
  if (parts.length === 0) return turn.content;
  const texts: string[] = [];
  for (const part of parts) if (part.type === "text") texts.push(part.text);
  return texts.join("\n");
}

/** Whether the turn says something in words (whitespace alone does not count). */
export function hasText(turn: Pick<CompactionTurn, "parts" | "content">): boolean {
  const parts = partsOf(turn);
  if (parts.length === 0) return turn.content.trim() !== "";
  return parts.some((part) => part.type === "text" && part.text.trim() !== "");
}

/** A user turn that asks something, as opposed to one that only carries tool results back. */
export function isPrompt(turn: CompactionTurn): boolean {
  return turn.role === "user" && hasText(turn);
}

/** Tool output as co-cli measures it: strings as they are, anything else as JSON. */
export function outputText(content: JsonValue): string {
  return typeof content === "string" ? content : (JSON.stringify(content) ?? "");
}

/** The tool outputs of a turn: its tool_result parts, or the content of a tool turn that has none. */
export type ToolOutput = { partIndex: number | null; text: string; isError: boolean; toolCallId: string | null };

export function toolOutputs(turn: CompactionTurn): ToolOutput[] {
  const outputs: ToolOutput[] = [];
  partsOf(turn).forEach((part, partIndex) => {
    if (part.type === "tool_result") {
      outputs.push({ partIndex, text: outputText(part.content), isError: part.isError === true, toolCallId: part.toolCallId });
    }
  });
  if (outputs.length === 0 && turn.role === "tool") outputs.push({ partIndex: null, text: turn.content, isError: false, toolCallId: null });
  return outputs;
}
