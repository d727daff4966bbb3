// What the Gemini CLI importer's tests share: building records and summaries of a parsed thread.
import path from "node:path";
import type { ImportedThread } from "../types";
export { numbered, jsonl, onlyThread, partsOf, roleCounts, expectPaired } from "../test-helpers";

const FIXTURES = path.join(process.cwd(), "fixtures/real/gemini-cli/tmp");
export const JSONL_FILE = path.join(
  FIXTURES,
  "9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea/chats/session-2026-04-23T12-52-0ab84937.jsonl",
);
export const LEGACY_2026 = path.join(
  FIXTURES,
  "ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d/chats/session-2026-03-27T10-19-8a20078e.json",
);
export const LEGACY_2025 = path.join(
  FIXTURES,
  "ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d/chats/session-2025-10-11T13-00-2d9ea14f.json",
);

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

export const META = {
  sessionId: "s-1",
  projectHash: "hash-1",
  startTime: "2026-01-01T10:00:00.000Z",
  lastUpdated: "2026-01-01T10:00:00.000Z",
  kind: "main",
};
export const user = (id: string, text: string, extra: object = {}) => ({
  id,
  timestamp: "2026-01-01T10:00:01.000Z",
  type: "user",
  content: [{ text }],
  ...extra,
});
export const gemini = (id: string, extra: object = {}) => ({
  id,
  timestamp: "2026-01-01T10:00:02.000Z",
  type: "gemini",
  content: "",
  model: "gemini-2.5-pro",
  ...extra,
});

// ------------------------------------------------------------------------------------------------
