import { buildDemoDocument, DEMO_IDS } from "@/lib/demo/demo-data";
import type { JsonValue, TurnPart } from "@/lib/domain/types";
import type { CompactionTurn } from "./types";

/** Test-only builders for compaction turns. */

type Spec = Partial<Omit<CompactionTurn, "index">> & Pick<CompactionTurn, "role">;

/** Turns from short specs, indexed by position. */
export function turnsOf(...specs: Spec[]): CompactionTurn[] {
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

export const user = (content: string, extra: Partial<Spec> = {}): Spec => ({ role: "user", content, ...extra });
export const assistant = (content: string, extra: Partial<Spec> = {}): Spec => ({ role: "assistant", content, ...extra });

/** An assistant turn that only calls a tool (no text): what agents emit mid-run. */
export const call = (id: string, name = "read_file", args: JsonValue = { path: "src/a.ts" }): Spec => ({
  role: "assistant",
  content: "",
  parts: [{ type: "tool_call", id, name, arguments: args }],
});

/** A user turn carrying a tool result back (Anthropic-style), not a prompt. */
export const result = (id: string, content: JsonValue = "ok", isError = false): Spec => ({
  role: "user",
  content: typeof content === "string" ? content : JSON.stringify(content),
  parts: [{ type: "tool_result", toolCallId: id, content, ...(isError ? { isError } : {}) } as TurnPart],
});

/**
 * A tool turn whose content is the output, without a tool_result part: appended through the API,
 * or imported from ChatGPT. It answers the nearest earlier tool call.
 */
export const toolOutput = (content = "output", toolName = "bash"): Spec => ({ role: "tool", content, toolName });

/** n plain PAL turns alternating user/assistant, starting with a user prompt. */
export function chat(n: number, label = "turn"): Spec[] {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? user(`${label} ${i}: question?`) : assistant(`${label} ${i}: answer.`)));
}

/** The demo's auth-refresh chain (analyze -> codereview -> debug) as one run of compaction turns. */
export function demoAuthTurns(): CompactionTurn[] {
  const doc = buildDemoDocument(new Date("2025-01-01T12:00:00Z"));
  const wanted: string[] = [DEMO_IDS.analyze, DEMO_IDS.codereview, DEMO_IDS.debug];
  return doc.threads
    .filter((thread) => wanted.includes(thread.id))
    .sort((a, b) => wanted.indexOf(a.id) - wanted.indexOf(b.id))
    .flatMap((thread) => thread.turns)
    .map((turn, index) => ({
      index,
      role: turn.role,
      content: turn.content,
      parts: (turn.parts ?? null) as TurnPart[] | null,
      toolName: turn.toolName ?? null,
      modelName: turn.modelName ?? null,
      files: turn.files ?? [],
      images: turn.images ?? [],
    }));
}
