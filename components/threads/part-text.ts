/**
 * The text the conversation view shows for one field of a turn's part, on the server (the
 * preview) and in the browser (the whole of it, loaded on demand): one function, so both agree.
 */
import { describeToolCall, toolViewText } from "@/lib/domain/tools/tool-view";
import { describeTurn } from "@/lib/domain/display/transcript-display";
import type { Turn, TurnPart } from "@/lib/domain/types";
import { formatJson, toolResultText } from "@/lib/format";

export type PartField = "arguments" | "content" | "diff" | "text" | "view";

/**
 * Which text of a turn: a field of one of its parts, or a block of its display (describeTurn).
 * "view" is a text of a tool call as it is shown (describeToolCall), named by `slot`.
 */
export type TextRef = { partIndex: number; field: PartField; slot?: string } | { block: number };

/** Past this, a part's text is sent as its start, with a toggle that loads the rest. */
export const PART_PREVIEW_CHARS = 4_000;

/** @internal exported for its tests */
export function partText(part: TurnPart | undefined, field: PartField, slot = ""): string | null {
  if (!part) return null;
  if (field === "view") return part.type === "tool_call" ? toolViewText(describeToolCall(part.name, part.arguments), slot) : null;
  if (field === "arguments") return part.type === "tool_call" ? formatJson(part.arguments) : null;
  if (field === "content") return part.type === "tool_result" ? toolResultText(part.content) : null;
  if (field === "diff") return resultDiff(part);
  return typeof part.text === "string" ? part.text : null;
}

/**
 * The unified diff a tool result carries beside what the model was told (`diff`: an edit's change,
 * as Pi, OpenCode and Copilot CLI record it), or null.
 */
export function resultDiff(part: TurnPart): string | null {
  return part.type === "tool_result" && typeof part.diff === "string" && part.diff !== "" ? part.diff : null;
}

/** The API address of a turn, for loading it in full (the UI shows expired threads too). */
export function turnUrl(turn: { threadId: string; index: number }): string {
  return `/api/threads/${turn.threadId}/turns/${turn.index}?includeExpired=1`;
}

/** The text `ref` points at in a turn (loaded in full), or null when the turn has no such text. */
export function refText(turn: Turn, ref: TextRef): string | null {
  if ("field" in ref) return partText(turn.parts?.[ref.partIndex], ref.field, ref.slot);
  const block = describeTurn(turn).blocks?.[ref.block];
  if (!block) return null;
  if (block.kind === "command") return block.args;
  if (block.kind === "shell") return block.command;
  return block.text;
}
