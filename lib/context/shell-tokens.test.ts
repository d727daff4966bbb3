import { describe, expect, it, vi } from "vitest";
import { turnShell, type HistoryTurnOutline } from "@/lib/domain/history";
import { getTokenizer } from "@/lib/tokenizers/registry";
import { turnShellCounter } from "./shell-tokens";

const TURNS: HistoryTurnOutline[] = [
  { role: "user", toolName: "chat", files: ["src/a.ts", "docs/v 12.md"] },
  { role: "assistant", toolName: "codereview", modelName: "gpt-5", modelProvider: "openai" },
  { role: "tool", modelName: "o3-mini-2025-01-31" },
];
const NUMBERS = [1, 2, 9, 10, 57, 99, 100, 101, 999, 1000, 1234, 10_000, 99_999, 123_456];

describe("turnShellCounter", () => {
  it.each(["o200k_base", "cl100k_base", "llama3"])("matches counting each shell for %s", (id) => {
    const tokenizer = getTokenizer(id);
    const count = (text: string) => tokenizer.count(text);
    const counter = turnShellCounter(count);
    for (const turn of TURNS) for (const n of NUMBERS) expect(counter(turn, n), `${id} turn ${n}`).toBe(count(turnShell(turn, n)));
  });

  it("counts each distinct template once", () => {
    const count = vi.fn((text: string) => text.length);
    const counter = turnShellCounter(count);
    for (let n = 1; n <= 50; n++) counter(TURNS[1]!, n);
    const templateCalls = count.mock.calls.filter(([text]) => text.includes("Turn 1 ("));
    expect(templateCalls).toHaveLength(1);
  });
});
