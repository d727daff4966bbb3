/** buildConversationHistory's budgets: which turns fit the history allocation, and how tokens are counted. */
import { describe, expect, it, vi } from "vitest";
import { palInput, snapshotReader } from "../testing/history-input";
import { codePointLength } from "../tokens/tokenizer";
import {
  buildConversationHistory,
  planConversationHistory,
  renderConversationHistory,
  turnShell,
  type HistoryTurn,
  type HistoryTurnOutline,
  type TurnSelection,
} from "./build-history";

/** The numbers of the turns a selection sends (firstIncluded..total). */
function includedNumbers(turns: TurnSelection): number[] {
  return turns.firstIncluded === null
    ? []
    : Array.from({ length: turns.total - turns.firstIncluded + 1 }, (_, i) => turns.firstIncluded! + i);
}

describe("history budget", () => {
  // Five 300-character turns, alternating Agent / Assistant, no files, thread "thread-1".
  // Header parts counted one by one with len // 3:
  //   "=== CONVERSATION HISTORY (CONTINUATION) ===" 43 -> 14
  //   "Thread: thread-1"                             16 ->  5
  //   "Tool: chat"                                   10 ->  3
  //   "Turn 5/50"                                     9 ->  3
  //   "You are continuing this conversation ..."     67 -> 22
  //   ""                                              0 ->  0
  //   "Previous conversation turns:"                 28 ->  9     total 56
  // A user turn:      "\n--- Turn N (Agent) ---"     23 + "\n" + 300 = 324 -> 108
  // An assistant turn: "\n--- Turn N (Assistant) ---" 27 + "\n" + 300 = 328 -> 109
  // Newest first: turn 5 (108), 4 (109), 3 (108), 2 (109), 1 (108); running sums 108, 217, 325, 434, 542.
  // k turns fit when 56 + sum_k <= history: thresholds 164, 273, 381, 490, 598.
  function fiveTurns(char = "x"): HistoryTurn[] {
    return [1, 2, 3, 4, 5].map((n) => ({ role: n % 2 ? "user" : "assistant", content: char.repeat(300) }));
  }
  const thresholds: Array<[number, number[]]> = [
    [163, []],
    [164, [5]],
    [272, [5]],
    [273, [4, 5]],
    [380, [4, 5]],
    [381, [3, 4, 5]],
    [489, [3, 4, 5]],
    [490, [2, 3, 4, 5]],
    [597, [2, 3, 4, 5]],
    [598, [1, 2, 3, 4, 5]],
  ];

  it.each(thresholds)("history budget %i keeps turns %j", (history, included) => {
    const result = buildConversationHistory(palInput({ turns: fiveTurns(), allocation: { file: 0, history } }));
    expect(includedNumbers(result.turns)).toEqual(included);
    expect(result.turns).toMatchObject({ total: 5, includedCount: included.length, excludedCount: 5 - included.length });
    expect(result.perTurn.map((t) => t.tokens)).toEqual([108, 109, 108, 109, 108]);
  });

  it("counts code points, not UTF-16 units: 300 emoji cost what 300 letters cost", () => {
    for (const [history, included] of thresholds) {
      const result = buildConversationHistory(palInput({ turns: fiveTurns("😀"), allocation: { file: 0, history } }));
      expect(includedNumbers(result.turns)).toEqual(included);
    }
    const all = buildConversationHistory(palInput({ turns: fiveTurns("😀"), allocation: { file: 0, history: 598 } }));
    expect(all.text.length).toBeGreaterThan(codePointLength(all.text));
    expect(all.totalTokens).toBe(Math.floor(codePointLength(all.text) / 4));
  });

  it("presents the kept turns oldest first with their global numbers and notes the omission", () => {
    const result = buildConversationHistory(palInput({ turns: fiveTurns(), allocation: { file: 0, history: 381 } }));
    const x = "x".repeat(300);
    expect(result.text).toContain(
      `Previous conversation turns:\n\n--- Turn 3 (Agent) ---\n${x}\n\n--- Turn 4 (Assistant) ---\n${x}\n\n--- Turn 5 (Agent) ---\n${x}\n\n[Note: Showing 3 most recent turns out of 5 total]\n\n=== END CONVERSATION HISTORY ===`,
    );
    expect(result.text).not.toContain("--- Turn 2 ");
    expect(result.text).toContain("\nTurn 5/50\n");
    expect(result.text).toContain("This is turn 6 of the conversation");
    expect(result.perTurn.map((t) => t.included)).toEqual([false, false, true, true, true]);
  });

  it("notes 0 of N when not even the newest turn fits", () => {
    const result = buildConversationHistory(palInput({ turns: fiveTurns(), allocation: { file: 0, history: 10 } }));
    expect(result.text).toContain("Previous conversation turns:\n\n[Note: Showing 0 most recent turns out of 5 total]\n");
    expect(result.sections.userTurns + result.sections.assistantTurns).toBe(0);
  });

  it("stops at the first turn that does not fit, even if an older one would", () => {
    const turns: HistoryTurn[] = [
      { role: "user", content: "tiny" },
      { role: "assistant", content: "y".repeat(3000) },
      { role: "user", content: "x".repeat(300) },
    ];
    const result = buildConversationHistory(palInput({ turns, allocation: { file: 0, history: 400 } }));
    expect(result.turns).toEqual({ total: 3, includedCount: 1, excludedCount: 2, firstIncluded: 3 });
  });

  it("counts embedded files against the history budget", () => {
    // One user turn with one file /f.txt of 246 characters (no modification time).
    // Parts before the turns, len // 3 each:
    //   base header (as above, "Turn 1/50" is also 9 chars)                          56
    //   "=== FILES REFERENCED IN THIS CONVERSATION ===" 45 -> 15
    //   "The following files have been shared and analyzed during our conversation." 74 -> 24
    //   "" -> 0, "Refer to these when analyzing the context and requests below:" 61 -> 20, "" -> 0
    //   block "\n--- BEGIN FILE: /f.txt ---\n" (28) + 246 + "\n" + "--- END FILE: /f.txt ---" (24) + "\n" = 300 -> 100
    //   "" -> 0, "=== END REFERENCED FILES ===" 28 -> 9, "" -> 0                        total 224
    // Turn: "\n--- Turn 1 (Agent) ---" 23 + "\n" + "Files used in this turn: /f.txt" 31 + "\n" + "" + "\n" + 300 = 357 -> 119
    // So the turn fits from a history budget of 224 + 119 = 343.
    const { readFile } = snapshotReader({ "/f.txt": { ok: true, content: "y".repeat(246) } });
    const turns: HistoryTurn[] = [{ role: "user", content: "x".repeat(300), files: ["/f.txt"] }];
    const fits = buildConversationHistory(palInput({ turns, readFile, allocation: { file: 1000, history: 343 } }));
    expect(fits.turns).toEqual({ total: 1, includedCount: 1, excludedCount: 0, firstIncluded: 1 });
    expect(fits.perTurn[0]?.tokens).toBe(119);
    expect(fits.sections.files).toBe(100);
    const tight = buildConversationHistory(palInput({ turns, readFile, allocation: { file: 1000, history: 342 } }));
    expect(tight.turns).toEqual({ total: 1, includedCount: 0, excludedCount: 1, firstIncluded: null });
    // the file is still embedded: files are planned against the file budget only
    expect(tight.text).toContain("--- BEGIN FILE: /f.txt ---");
  });
});

describe("injected counting", () => {
  it("plans without content from turnTokens, then renders the included turns", () => {
    const turns: HistoryTurn[] = [
      { role: "user", content: "x".repeat(9000) },
      { role: "assistant", content: "y".repeat(30), modelName: "o3" },
    ];
    const outline = turns.map(({ content: _content, ...rest }) => rest);
    const contentLength = turns.map((t) => t.content.length);
    // the shell is the turn text without its content: PAL's estimate adds up in characters
    const turnTokens = (turn: HistoryTurnOutline, n: number) => Math.floor((turnShell(turn, n).length + contentLength[n - 1]!) / 3);
    const input = palInput({ turns, allocation: { file: 0, history: 100 } });
    const plan = planConversationHistory({ ...input, turns: outline, turnTokens });
    const whole = buildConversationHistory(input);
    expect(plan.perTurn).toEqual(whole.perTurn);
    expect(plan.oldestIncluded).toBe(1);
    expect(renderConversationHistory(plan, turns.slice(1), input)).toEqual(whole);
    expect(() => renderConversationHistory(plan, turns, input)).toThrow("expected 1 included turns, got 2");
  });

  it("without the breakdown, measures only the turns it collects (newest first, up to the first that does not fit) and sends the same", () => {
    const turns: HistoryTurn[] = Array.from({ length: 1_000 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `${i} `.repeat(40),
    }));
    const outline = turns.map(({ content: _content, ...rest }) => rest);
    const input = palInput({ turns, allocation: { file: 0, history: 2_000 } });
    const measure = (turn: HistoryTurnOutline, n: number) => Math.floor((turnShell(turn, n).length + turns[n - 1]!.content.length) / 3);
    const measured = vi.fn(measure);
    const lean = planConversationHistory({ ...input, turns: outline, turnTokens: measured, breakdown: false });
    const full = planConversationHistory({ ...input, turns: outline, turnTokens: measure });
    expect(lean.perTurn).toEqual([]);
    expect(lean.oldestIncluded).toBe(full.oldestIncluded);
    expect(measured).toHaveBeenCalledTimes(1_000 - lean.oldestIncluded + 1); // the included, and the one that did not fit
    expect(full.oldestIncluded).toBeGreaterThan(900);
    const rendered = (plan: typeof lean) => renderConversationHistory(plan, turns.slice(plan.oldestIncluded), input);
    expect({ ...rendered(lean), perTurn: [] }).toEqual({ ...rendered(full), perTurn: [] });
  });

  it("measures a turn as its shell plus its content", () => {
    const turn: HistoryTurn = { role: "user", content: "hello", files: ["a.py"], toolName: "chat" };
    expect(turnShell(turn, 3) + turn.content).toBe(
      ["\n--- Turn 3 (Agent using chat) ---", "Files used in this turn: a.py", "", "hello"].join("\n"),
    );
  });

  it("reports totalTokens with reportTokens on the final text", () => {
    const reportTokens = vi.fn(() => 42);
    const result = buildConversationHistory(palInput({ turns: [{ role: "user", content: "q" }], reportTokens }));
    expect(result.totalTokens).toBe(42);
    expect(reportTokens).toHaveBeenCalledWith(result.text);
  });

  it("budgets with countTokens", () => {
    // one token per character (UTF-16 units): the header alone is far over 100
    const result = buildConversationHistory(
      palInput({ turns: [{ role: "user", content: "q" }], countTokens: (t) => t.length, allocation: { file: 0, history: 100 } }),
    );
    expect(result.turns).toEqual({ total: 1, includedCount: 0, excludedCount: 1, firstIncluded: null });
  });

  it("lets a tool format its own turn bodies, falling back to the default on null", () => {
    const formatTurnBody = (turn: HistoryTurn) => (turn.toolName === "consensus" ? ["Consensus:", turn.content.toUpperCase()] : null);
    const result = buildConversationHistory(
      palInput({
        formatTurnBody,
        turns: [
          { role: "user", content: "q", toolName: "chat" },
          { role: "assistant", content: "yes", toolName: "consensus", modelName: "o3" },
        ],
      }),
    );
    expect(result.text).toContain("\n--- Turn 1 (Agent using chat) ---\nq\n\n--- Turn 2 (o3 using consensus) ---\nConsensus:\nYES\n");
  });
});
