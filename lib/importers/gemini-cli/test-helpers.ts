// What the Gemini CLI importer's tests share: building records and summaries of a parsed thread.
import { expect } from "vitest";
import path from "node:path";
import type { TurnPart } from "@/lib/domain/types";
import type { ImportedThread, NumberedLine, ParsedSource } from "../types";

export const FIXTURES = path.join(process.cwd(), "fixtures/real/gemini-cli/tmp");
export const JSONL_FILE = path.join(FIXTURES, "9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea/chats/session-2026-04-23T12-52-0ab84937.jsonl");
export const LEGACY_2026 = path.join(FIXTURES, "ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d/chats/session-2026-03-27T10-19-8a20078e.json");
export const LEGACY_2025 = path.join(FIXTURES, "ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d/chats/session-2025-10-11T13-00-2d9ea14f.json");

export function numbered(text: string): NumberedLine[] {
  return text.split("\n").map((line, index) => ({ text: line, line: index + 1 }));
}

export function jsonl(...records: unknown[]): NumberedLine[] {
  return numbered(records.map((record) => (typeof record === "string" ? record : JSON.stringify(record))).join("\n"));
}

export function onlyThread(result: ParsedSource): ImportedThread {
  expect(result.threads).toHaveLength(1);
  return result.threads[0]!;
}

export function partsOf(thread: ImportedThread, type: TurnPart["type"]): TurnPart[] {
  return thread.turns.flatMap((turn) => (turn.parts ?? []).filter((part) => part.type === type));
}

export function roleCounts(thread: ImportedThread): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const turn of thread.turns) counts[turn.role] = (counts[turn.role] ?? 0) + 1;
  return counts;
}

export function usageTotals(thread: ImportedThread) {
  const totals = { input: 0, cacheRead: 0, output: 0, reasoning: 0, turnsWithUsage: 0 };
  for (const turn of thread.turns) {
    if (!turn.usage) continue;
    totals.turnsWithUsage += 1;
    totals.input += turn.usage.inputTokens ?? 0;
    totals.cacheRead += turn.usage.cacheReadTokens ?? 0;
    totals.output += turn.usage.outputTokens ?? 0;
    totals.reasoning += turn.usage.reasoningTokens ?? 0;
  }
  return totals;
}

/** Every tool_call has exactly one tool_result with its id, on a later turn, and vice versa. */
export function expectPaired(thread: ImportedThread) {
  const callTurn = new Map<string, number>();
  const resultTurn = new Map<string, number>();
  thread.turns.forEach((turn, index) => {
    for (const part of turn.parts ?? []) {
      if (part.type === "tool_call") {
        expect(callTurn.has(part.id)).toBe(false);
        callTurn.set(part.id, index);
      }
      if (part.type === "tool_result") {
        expect(resultTurn.has(part.toolCallId)).toBe(false);
        resultTurn.set(part.toolCallId, index);
      }
    }
  });
  expect([...resultTurn.keys()].sort()).toEqual([...callTurn.keys()].sort());
  for (const [id, index] of resultTurn) expect(index).toBeGreaterThan(callTurn.get(id)!);
  return callTurn.size;
}

export const META = { sessionId: "s-1", projectHash: "hash-1", startTime: "2026-01-01T10:00:00.000Z", lastUpdated: "2026-01-01T10:00:00.000Z", kind: "main" };
export const user = (id: string, text: string, extra: object = {}) => ({ id, timestamp: "2026-01-01T10:00:01.000Z", type: "user", content: [{ text }], ...extra });
export const gemini = (id: string, extra: object = {}) => ({ id, timestamp: "2026-01-01T10:00:02.000Z", type: "gemini", content: "", model: "gemini-2.5-pro", ...extra });

// ------------------------------------------------------------------------------------------------
