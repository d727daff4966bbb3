// What every importer's tests share: lines to parse, and checks of a parsed thread.
import { expect } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import type { ImportedThread, NumberedLine, ParsedSource } from "./types";

export function numbered(text: string): NumberedLine[] {
  return text.split("\n").map((line, index) => ({ text: line, line: index + 1 }));
}

/** Records as JSON lines (a string is taken as a line as it is). */
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

/** Every tool_call has exactly one tool_result with its id, on a later turn, and vice versa; answers the number of pairs. */
export function expectPaired(thread: ImportedThread): number {
  const callTurn = new Map<string, number>();
  const resultTurn = new Map<string, number>();
  thread.turns.forEach((turn, index) => {
    for (const part of turn.parts ?? []) {
      if (part.type === "tool_call") {
        expect(callTurn.has(part.id), `call ${part.id} twice`).toBe(false);
        callTurn.set(part.id, index);
      }
      if (part.type === "tool_result") {
        expect(resultTurn.has(part.toolCallId), `result ${part.toolCallId} twice`).toBe(false);
        resultTurn.set(part.toolCallId, index);
      }
    }
  });
  expect([...resultTurn.keys()].sort()).toEqual([...callTurn.keys()].sort());
  for (const [id, index] of resultTurn) expect(index, `result of ${id}`).toBeGreaterThan(callTurn.get(id)!);
  return callTurn.size;
}
