// What the Codex importer's tests share: building lines, and summaries of a parsed thread.
import { expect } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import type { ImportedThread, NumberedLine, ParsedSource } from "../types";
export { expectPaired } from "../test-helpers";

export const lines = (...entries: (object | string)[]): NumberedLine[] =>
  entries.map((entry, i) => ({ text: typeof entry === "string" ? entry : JSON.stringify(entry), line: i + 1 }));

export function onlyThread(parsed: ParsedSource): ImportedThread {
  expect(parsed.format).toBe("codex");
  expect(parsed.threads).toHaveLength(1);
  return parsed.threads[0]!;
}

export const partsOf = (thread: ImportedThread, type: TurnPart["type"]) =>
  thread.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === type));

export function summary(thread: ImportedThread) {
  const roles: Record<string, number> = {};
  for (const turn of thread.turns) roles[turn.role] = (roles[turn.role] ?? 0) + 1;
  const sum = (field: "inputTokens" | "cacheReadTokens" | "outputTokens" | "reasoningTokens") =>
    thread.turns.reduce((total, t) => total + (t.usage?.[field] ?? 0), 0);
  return {
    roles,
    toolCalls: partsOf(thread, "tool_call").length,
    toolResults: partsOf(thread, "tool_result").length,
    thinking: partsOf(thread, "thinking").length,
    text: thread.turns
      .filter((t) => t.role === "assistant")
      .flatMap((t) => t.parts ?? [])
      .filter((p) => p.type === "text").length,
    images: partsOf(thread, "image").length,
    fromEvent: thread.turns.flatMap((t) => t.parts ?? []).filter((p) => p.fromEvent === true).length,
    models: [...new Set(thread.turns.map((t) => t.modelName).filter(Boolean))].sort(),
    compactions: thread.turns.filter((t) => t.compaction).length,
    usage: { input: sum("inputTokens"), cacheRead: sum("cacheReadTokens"), output: sum("outputTokens"), reasoning: sum("reasoningTokens") },
  };
}

/** "u4 a6 t11 …": role initial and key of every turn, in order. */
export const turnKeys = (thread: ImportedThread) => thread.turns.map((t) => `${t.role[0]}${t.key}`).join(" ");
