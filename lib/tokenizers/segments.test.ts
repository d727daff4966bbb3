/**
 * countingSegments: for the tokenizers it is used with, the sections' counts add up to the whole
 * text's count, on histories built from the real transcripts in fixtures/real and on generated
 * texts whose lines end in everything a pre-tokenizer might join across a line break.
 */
import { describe, expect, it } from "vitest";
import { buildConversationHistory } from "@/lib/domain/history";
import { parseRealTranscript, realTranscriptFiles } from "@/lib/testing/real-transcripts";
import { makeRng } from "@/lib/testing/rng";
import { runCuts } from "./linear-count.mjs";
import { getTokenizer, listTokenizers } from "./registry";
import { addsUpOverSegments, countingSegments } from "./segments";

const ADDITIVE = listTokenizers()
  .map((t) => t.id)
  .filter(addsUpOverSegments);

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** One PAL history per real transcript, every turn included, as a preview renders it. */
async function realHistories(): Promise<string[]> {
  const histories: string[] = [];
  for (const file of realTranscriptFiles()) {
    const parsed = await parseRealTranscript(file);
    for (const thread of parsed.threads) {
      if (thread.turns.length === 0) continue;
      const built = buildConversationHistory({
        threadId: "00000000-0000-4000-8000-000000000000",
        toolName: "chat",
        turns: thread.turns.map((turn) => ({ role: turn.role, content: turn.content, files: [], toolName: turn.toolName ?? null })),
        maxConversationTurns: 100_000,
        allocation: { file: 0, history: Number.MAX_SAFE_INTEGER },
        readFile: () => ({ ok: false, reason: "none" }),
        countTokens: (text) => text.length,
        reportTokens: (text) => text.length,
      });
      histories.push(built.text);
    }
  }
  return histories;
}

/** Line endings a pre-tokenizer could carry across a line break, and section lines after them. */
const ENDINGS = [
  "word",
  "word.",
  "x)",
  "`",
  "42",
  "1234",
  "it's",
  "  ",
  "\t",
  "\r",
  "\r\n",
  "\n\n",
  " \n ",
  "/",
  "./",
  "—",
  "語",
  "😀",
  "👍🏽",
  "'",
  "-",
  "=",
  "--- ",
  "=== ",
  "",
];
const STARTS = ["--- Turn 3 (Agent) ---", "=== END ===", "--- BEGIN FILE: /a/b.ts ---", "---", "===", "--- /x", "=== 語", "--- 's"];

function generatedTexts(count: number): string[] {
  const random = makeRng(20261125);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: count }, () => {
    let text = "";
    const lines = 2 + Math.floor(random() * 8);
    for (let i = 0; i < lines; i++) text += `${pick(STARTS)}\n${pick(ENDINGS)}${random() < 0.5 ? "\n" : ""}${pick(ENDINGS)}\n`;
    return text + pick(ENDINGS);
  });
}

describe("countingSegments", () => {
  it("cuts before each line that starts with '--- ' or '=== ', and the pieces join to the text", () => {
    const text = "=== HEAD ===\nThread: x\n\n--- Turn 1 (Agent) ---\nhello\n--- x\n===no cut\n---no cut\n=== END ===\nbye";
    expect(countingSegments(text)).toEqual([
      "=== HEAD ===\nThread: x\n\n",
      "--- Turn 1 (Agent) ---\nhello\n",
      "--- x\n===no cut\n---no cut\n",
      "=== END ===\nbye",
    ]);
    expect(countingSegments("")).toEqual([""]);
    expect(countingSegments("no section lines")).toEqual(["no section lines"]);
  });

  it("is used with the exact tokenizers only", () => {
    expect(ADDITIVE).toEqual(["o200k_base", "cl100k_base", "llama3"]);
    expect(addsUpOverSegments("claude")).toBe(false);
    expect(addsUpOverSegments("chars/4")).toBe(false);
  });

  it.each(ADDITIVE)("%s: the sections of every real transcript's history add up to its count", async (id) => {
    const histories = await realHistories();
    expect(histories.length).toBeGreaterThan(10);
    const { count } = getTokenizer(id);
    let checked = 0;
    for (const text of histories) {
      if (runCuts(text).length > 0) continue; // a long run is counted in pieces either way (an estimate)
      const segments = countingSegments(text);
      expect(segments.length).toBeGreaterThan(1);
      expect(sum(segments.map(count))).toBe(count(text));
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it.each(ADDITIVE)("%s: the sections of texts built to join across the cut add up to their count", (id) => {
    const { count } = getTokenizer(id);
    for (const text of generatedTexts(1_500)) {
      expect(sum(countingSegments(text).map(count)), JSON.stringify(text)).toBe(count(text));
    }
  });

  it.each(ADDITIVE)("%s: a cut after any other line break would not add up (the check can fail)", (id) => {
    const { count } = getTokenizer(id);
    // "." takes the line breaks after it into its pre-token; cut after the first, the count changes.
    const text = "end.\n\n--- Turn 2 (Agent) ---\nok";
    const naive = ["end.\n", "\n--- Turn 2 (Agent) ---\nok"];
    expect(naive.join("")).toBe(text);
    expect(sum(naive.map(count))).not.toBe(count(text));
    expect(sum(countingSegments(text).map(count))).toBe(count(text));
  });
});
