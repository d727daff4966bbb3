import type { CompactionTurn } from "../compaction/types";
import type { JsonValue, TurnPart } from "../types";

/** Test-only builders for compaction turns. */

export type TurnSpec = Partial<Omit<CompactionTurn, "index">> & Pick<CompactionTurn, "role">;

/** Turns from short specs, indexed by position. */
export function turnsOf(...specs: TurnSpec[]): CompactionTurn[] {
  return specs.map((spec, index) => ({
    index,
    content: "",
    parts: null,
    toolName: null,
    modelName: null,
    files: [],
    images: [],
    ...spec,
  }));
}

export const user = (content: string, extra: Partial<TurnSpec> = {}): TurnSpec => ({ role: "user", content, ...extra });
export const assistant = (content: string, extra: Partial<TurnSpec> = {}): TurnSpec => ({ role: "assistant", content, ...extra });

/** An assistant turn that only calls a tool (no text): what agents emit mid-run. */
export const call = (id: string, name = "read_file", args: JsonValue = { path: "src/a.ts" }): TurnSpec => ({
  role: "assistant",
  content: "",
  parts: [{ type: "tool_call", id, name, arguments: args }],
});

/** A user turn carrying a tool result back (Anthropic-style), not a prompt. */
export const result = (id: string, content: JsonValue = "ok", isError = false): TurnSpec => ({
  role: "user",
  content: typeof content === "string" ? content : JSON.stringify(content),
  parts: [{ type: "tool_result", toolCallId: id, content, ...(isError ? { isError } : {}) } as TurnPart],
});

/**
 * A tool turn whose content is the output, without a tool_result part: appended through the API,
 * or imported from ChatGPT. It answers the nearest earlier tool call.
 */
export const toolOutput = (content = "output", toolName = "bash"): TurnSpec => ({ role: "tool", content, toolName });

/** n plain PAL turns alternating user/assistant, starting with a user prompt. */
export function chat(n: number, label = "turn"): TurnSpec[] {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? user(`${label} ${i}: question?`) : assistant(`${label} ${i}: answer.`)));
}
