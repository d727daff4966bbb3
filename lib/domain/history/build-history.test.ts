import { describe, expect, it, vi } from "vitest";
import { calculateTokenAllocation } from "./allocation";
import {
  buildConversationHistory,
  planConversationHistory,
  renderConversationHistory,
  turnHeader,
  turnShell,
  type BuildHistoryInput,
  type HistoryTurn,
  type HistoryTurnOutline,
} from "./build-history";
import { codePointLength } from "../tokenizer";
import { palCountTokens, palReportTokens, type FileReadResult } from "./pal";

function snapshots(files: Record<string, FileReadResult>) {
  const calls: string[] = [];
  const readFile = (path: string): FileReadResult => {
    calls.push(path);
    return files[path] ?? { ok: false, reason: "not in snapshot" };
  };
  return { calls, readFile };
}

function palInput(overrides: Partial<BuildHistoryInput> & Pick<BuildHistoryInput, "turns">): BuildHistoryInput {
  return {
    threadId: "thread-1",
    toolName: "chat",
    maxConversationTurns: 50,
    allocation: calculateTokenAllocation(200_000),
    readFile: () => ({ ok: false, reason: "no files expected" }),
    countTokens: palCountTokens,
    reportTokens: palReportTokens,
    ...overrides,
  };
}

const FOOTER = [
  "",
  "=== END CONVERSATION HISTORY ===",
  "",
  "IMPORTANT: You are continuing an existing conversation thread. Build upon the previous exchanges shown above,",
  "reference earlier points, and maintain consistency with what has been discussed.",
  "",
  "DO NOT repeat or summarize previous analysis, findings, or instructions that are already covered in the",
  "conversation history. Instead, provide only new insights, additional analysis, or direct answers to",
  "the follow-up question / concerns / insights. Assume the user has read the prior conversation.",
  "",
];

describe("buildConversationHistory: PAL layout", () => {
  it("reproduces PAL's text for a two-turn thread with one file, byte for byte", () => {
    const { readFile } = snapshots({
      "/src/main.py": { ok: true, content: "def main():\r\n    return 1 / 0\n", modifiedAt: "2025-01-02T03:04:05.678Z" },
    });
    const result = buildConversationHistory(
      palInput({
        threadId: "6f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f",
        readFile,
        turns: [
          { role: "user", content: "Why does main() crash?", files: ["/src/main.py"], toolName: "chat" },
          {
            role: "assistant",
            content: "It divides by zero on line 2.",
            files: [],
            toolName: "chat",
            modelProvider: "google",
            modelName: "gemini-2.5-flash",
          },
        ],
      }),
    );

    // Written out by hand from build_conversation_history: history_parts joined with "\n".
    // Note the empty line where the "[NOTE: N files omitted ...]" line goes when nothing is skipped,
    // the CRLF normalised in the file, and the blank line left by the file's trailing newline.
    const expected = `=== CONVERSATION HISTORY (CONTINUATION) ===
Thread: 6f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f
Tool: chat
Turn 2/50
You are continuing this conversation thread from where it left off.

=== FILES REFERENCED IN THIS CONVERSATION ===
The following files have been shared and analyzed during our conversation.

Refer to these when analyzing the context and requests below:


--- BEGIN FILE: /src/main.py (Last modified: 2025-01-02 03:04:05 UTC) ---
def main():
    return 1 / 0

--- END FILE: /src/main.py ---


=== END REFERENCED FILES ===

Previous conversation turns:

--- Turn 1 (Agent using chat) ---
Files used in this turn: /src/main.py

Why does main() crash?

--- Turn 2 (gemini-2.5-flash using chat via google) ---
It divides by zero on line 2.

=== END CONVERSATION HISTORY ===

IMPORTANT: You are continuing an existing conversation thread. Build upon the previous exchanges shown above,
reference earlier points, and maintain consistency with what has been discussed.

DO NOT repeat or summarize previous analysis, findings, or instructions that are already covered in the
conversation history. Instead, provide only new insights, additional analysis, or direct answers to
the follow-up question / concerns / insights. Assume the user has read the prior conversation.

This is turn 3 of the conversation - use the conversation history above to provide a coherent continuation.`;

    expect(result.text).toBe(expected);
    // utils.token_utils.estimate_tokens: len // 4 (all ASCII here, so len = length)
    expect(result.totalTokens).toBe(Math.floor(expected.length / 4));
    expect(result.turns).toEqual({ included: [1, 2], excluded: [] });
    expect(result.files.skipped).toEqual([]);

    const block =
      "\n--- BEGIN FILE: /src/main.py (Last modified: 2025-01-02 03:04:05 UTC) ---\ndef main():\n    return 1 / 0\n\n--- END FILE: /src/main.py ---\n";
    // 31 bytes of .py at 3.5 bytes per token: int(8.857) = 8
    expect(result.files.included).toEqual([
      { path: "/src/main.py", tokens: palCountTokens(block), estimatedTokens: 8 },
    ]);

    const turn1 = "\n--- Turn 1 (Agent using chat) ---\nFiles used in this turn: /src/main.py\n\nWhy does main() crash?";
    const turn2 = "\n--- Turn 2 (gemini-2.5-flash using chat via google) ---\nIt divides by zero on line 2.";
    expect(result.perTurn).toEqual([
      { number: 1, role: "user", toolName: "chat", tokens: palCountTokens(turn1), included: true },
      { number: 2, role: "assistant", toolName: "chat", tokens: palCountTokens(turn2), included: true },
    ]);

    const noteLines = [
      "=== CONVERSATION HISTORY (CONTINUATION) ===",
      "Thread: 6f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f",
      "Tool: chat",
      "Turn 2/50",
      "You are continuing this conversation thread from where it left off.",
      "",
      "=== FILES REFERENCED IN THIS CONVERSATION ===",
      "The following files have been shared and analyzed during our conversation.",
      "",
      "Refer to these when analyzing the context and requests below:",
      "",
      "",
      "=== END REFERENCED FILES ===",
      "",
      "Previous conversation turns:",
      ...FOOTER,
      "This is turn 3 of the conversation - use the conversation history above to provide a coherent continuation.",
    ];
    expect(result.sections).toEqual({
      files: palCountTokens(block),
      userTurns: palCountTokens(turn1),
      assistantTurns: palCountTokens(turn2),
      systemTurns: 0,
      toolOutput: 0,
      notes: noteLines.reduce((sum, line) => sum + palCountTokens(line), 0),
    });
  });

  it("without files there is no file section at all", () => {
    const result = buildConversationHistory(
      palInput({ turns: [{ role: "user", content: "Hello" }] }),
    );
    expect(result.text).toBe(
      [
        "=== CONVERSATION HISTORY (CONTINUATION) ===",
        "Thread: thread-1",
        "Tool: chat",
        "Turn 1/50",
        "You are continuing this conversation thread from where it left off.",
        "",
        "Previous conversation turns:",
        "\n--- Turn 1 (Agent) ---\nHello",
        ...FOOTER,
        "This is turn 2 of the conversation - use the conversation history above to provide a coherent continuation.",
      ].join("\n"),
    );
  });

  it("returns the empty result for a thread without turns and reads nothing", () => {
    const readFile = vi.fn();
    const result = buildConversationHistory(palInput({ turns: [], readFile }));
    expect(result).toEqual({
      text: "",
      totalTokens: 0,
      turns: { included: [], excluded: [] },
      perTurn: [],
      files: { included: [], skipped: [] },
      sections: { files: 0, userTurns: 0, assistantTurns: 0, systemTurns: 0, toolOutput: 0, notes: 0 },
    });
    expect(readFile).not.toHaveBeenCalled();
  });

  it("prints the configured turn limit and says the next turn is total + 1, even past the limit", () => {
    const turns: HistoryTurn[] = Array.from({ length: 3 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `m${i}` }));
    const result = buildConversationHistory(palInput({ turns, maxConversationTurns: 2 }));
    expect(result.text).toContain("\nTurn 3/2\n");
    expect(result.text.endsWith("This is turn 4 of the conversation - use the conversation history above to provide a coherent continuation.")).toBe(true);
  });
});

describe("turn headers", () => {
  const cases: Array<[string, HistoryTurn, string]> = [
    ["user turn", { role: "user", content: "" }, "\n--- Turn 1 (Agent) ---"],
    ["user turn with tool", { role: "user", content: "", toolName: "chat" }, "\n--- Turn 1 (Agent using chat) ---"],
    [
      "assistant with model and provider",
      { role: "assistant", content: "", toolName: "codereview", modelProvider: "openai", modelName: "o3" },
      "\n--- Turn 1 (o3 using codereview via openai) ---",
    ],
    [
      "assistant with model equal to its label: not repeated",
      { role: "assistant", content: "", modelName: "gemini-2.5-pro" },
      "\n--- Turn 1 (gemini-2.5-pro) ---",
    ],
    [
      "assistant with provider, no model",
      { role: "assistant", content: "", modelProvider: "openai" },
      "\n--- Turn 1 (Assistant via openai) ---",
    ],
    [
      "assistant with model, no provider",
      { role: "assistant", content: "", toolName: "debug", modelName: "grok-4" },
      "\n--- Turn 1 (grok-4 using debug) ---",
    ],
    [
      "user with model and provider: provider/model",
      { role: "user", content: "", toolName: "chat", modelProvider: "anthropic", modelName: "claude-opus-4" },
      "\n--- Turn 1 (Agent using chat via anthropic/claude-opus-4) ---",
    ],
    [
      "user with model, no provider: via model",
      { role: "user", content: "", modelName: "claude-opus-4" },
      "\n--- Turn 1 (Agent via claude-opus-4) ---",
    ],
    [
      "user whose model is literally 'Agent': equal to the label, not repeated",
      { role: "user", content: "", modelProvider: "x", modelName: "Agent" },
      "\n--- Turn 1 (Agent via x) ---",
    ],
    [
      "assistant whose model is literally 'Assistant'",
      { role: "assistant", content: "", modelProvider: "openai", modelName: "Assistant" },
      "\n--- Turn 1 (Assistant via openai) ---",
    ],
    [
      "empty strings count as absent (Python truthiness)",
      { role: "assistant", content: "", toolName: "", modelProvider: "", modelName: "" },
      "\n--- Turn 1 (Assistant) ---",
    ],
    [
      "tool and system roles are labelled like assistant turns",
      { role: "tool", content: "", toolName: "shell", modelName: "runner" },
      "\n--- Turn 1 (runner using shell) ---",
    ],
    ["system role without model", { role: "system", content: "" }, "\n--- Turn 1 (Assistant) ---"],
  ];
  it.each(cases)("%s", (_name, turn, header) => {
    expect(turnHeader(turn, 1)).toBe(header);
  });

  it("appear in the text with the turn's files line", () => {
    const { readFile } = snapshots({ "/a.py": { ok: true, content: "" }, "/b.py": { ok: true, content: "" } });
    const result = buildConversationHistory(
      palInput({
        readFile,
        turns: [
          { role: "user", content: "q", toolName: "chat", files: ["/a.py", "/b.py"] },
          { role: "assistant", content: "a", toolName: "chat", modelProvider: "openrouter", modelName: "anthropic/claude" },
        ],
      }),
    );
    expect(result.text).toContain(
      "Previous conversation turns:\n\n--- Turn 1 (Agent using chat) ---\nFiles used in this turn: /a.py, /b.py\n\nq\n\n--- Turn 2 (anthropic/claude using chat via openrouter) ---\na\n\n=== END CONVERSATION HISTORY ===",
    );
  });
});

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
    expect(result.turns.included).toEqual(included);
    expect(result.turns.excluded).toEqual([1, 2, 3, 4, 5].filter((n) => !included.includes(n)));
    expect(result.perTurn.map((t) => t.tokens)).toEqual([108, 109, 108, 109, 108]);
  });

  it("counts code points, not UTF-16 units: 300 emoji cost what 300 letters cost", () => {
    for (const [history, included] of thresholds) {
      const result = buildConversationHistory(palInput({ turns: fiveTurns("😀"), allocation: { file: 0, history } }));
      expect(result.turns.included).toEqual(included);
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
    expect(result.turns).toEqual({ included: [3], excluded: [1, 2] });
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
    const { readFile } = snapshots({ "/f.txt": { ok: true, content: "y".repeat(246) } });
    const turns: HistoryTurn[] = [{ role: "user", content: "x".repeat(300), files: ["/f.txt"] }];
    const fits = buildConversationHistory(palInput({ turns, readFile, allocation: { file: 1000, history: 343 } }));
    expect(fits.turns.included).toEqual([1]);
    expect(fits.perTurn[0]?.tokens).toBe(119);
    expect(fits.sections.files).toBe(100);
    const tight = buildConversationHistory(palInput({ turns, readFile, allocation: { file: 1000, history: 342 } }));
    expect(tight.turns.included).toEqual([]);
    // the file is still embedded: files are planned against the file budget only
    expect(tight.text).toContain("--- BEGIN FILE: /f.txt ---");
  });
});

describe("file planning", () => {
  // Newest first: /r/small.py (turn 3), /r/big.py and /r/gone.py (turn 2), /r/old.md (turn 1).
  //   small.py: 9 bytes / 3.5 = 2.57 -> 2      fits (2 of 100)
  //   big.py: 1000 bytes / 3.5 = 285.7 -> 285  does not fit (98 left): skipped, planning goes on
  //   gone.py: not readable                    skipped with the reader's reason
  //   old.md: 12 bytes / 4.2 = 2.86 -> 2        fits (4 of 100), although older than big.py
  const files: Record<string, FileReadResult> = {
    "/r/small.py": { ok: true, content: "print(1)\n", modifiedAt: "2025-03-04T05:06:07Z" },
    "/r/big.py": { ok: true, content: "#".repeat(1000) },
    "/r/old.md": { ok: true, content: "# Old notes\n" },
  };
  const turns: HistoryTurn[] = [
    { role: "user", content: "a", files: ["/r/old.md"], toolName: "analyze" },
    { role: "assistant", content: "b", files: ["/r/big.py", "/r/gone.py"], toolName: "analyze", modelName: "o3" },
    { role: "user", content: "c", files: ["/r/small.py"], toolName: "analyze" },
  ];

  it("skips what does not fit, keeps planning, and writes PAL's two omission notes", () => {
    const { readFile, calls } = snapshots(files);
    const result = buildConversationHistory(
      palInput({ turns, readFile, toolName: "analyze", allocation: { file: 100, history: 100_000 } }),
    );
    expect(calls).toEqual(["/r/small.py", "/r/big.py", "/r/gone.py", "/r/old.md"]);
    expect(result.text).toContain(
      `You are continuing this conversation thread from where it left off.

=== FILES REFERENCED IN THIS CONVERSATION ===
The following files have been shared and analyzed during our conversation.
[NOTE: 2 files omitted (size constraints, missing files, or access issues)]
Refer to these when analyzing the context and requests below:


--- BEGIN FILE: /r/small.py (Last modified: 2025-03-04 05:06:07 UTC) ---
print(1)

--- END FILE: /r/small.py ---

--- BEGIN FILE: /r/old.md ---
# Old notes

--- END FILE: /r/old.md ---

[NOTE: 2 additional file(s) were omitted due to size constraints, missing files, or access issues. These were older files from earlier conversation turns.]


=== END REFERENCED FILES ===

Previous conversation turns:

--- Turn 1 (Agent using analyze) ---
Files used in this turn: /r/old.md

a
`,
    );
    expect(result.files.included.map((f) => [f.path, f.estimatedTokens])).toEqual([
      ["/r/small.py", 2],
      ["/r/old.md", 2],
    ]);
    const bigBlock = "\n--- BEGIN FILE: /r/big.py ---\n" + "#".repeat(1000) + "\n--- END FILE: /r/big.py ---\n";
    expect(result.files.skipped).toEqual([
      {
        path: "/r/big.py",
        kind: "budget",
        reason: "needs 285 tokens; 98 of the 100-token file budget left",
        tokens: palCountTokens(bigBlock),
        estimatedTokens: 285,
      },
      { path: "/r/gone.py", kind: "unreadable", reason: "not in snapshot", tokens: null, estimatedTokens: null },
    ]);
  });

  it("when every file is skipped, writes no FILES header but still closes the section (PAL quirk)", () => {
    const { readFile } = snapshots({ "/r/big.py": files["/r/big.py"]! });
    const result = buildConversationHistory(
      palInput({
        readFile,
        turns: [{ role: "user", content: "q", files: ["/r/big.py", "/r/gone.py"] }],
        allocation: { file: 10, history: 100_000 },
      }),
    );
    expect(result.text).toContain(
      "You are continuing this conversation thread from where it left off.\n\n\n=== END REFERENCED FILES ===\n\nPrevious conversation turns:\n",
    );
    expect(result.text).not.toContain("=== FILES REFERENCED IN THIS CONVERSATION ===");
    expect(result.text).not.toContain("[NOTE:");
    expect(result.files.included).toEqual([]);
    expect(result.files.skipped.map((f) => [f.path, f.kind])).toEqual([
      ["/r/big.py", "budget"],
      ["/r/gone.py", "unreadable"],
    ]);
    expect(result.sections.files).toBe(0);
  });

  it("a file exactly at the remaining budget fits (<=)", () => {
    // 35 bytes of .py / 3.5 = 10
    const { readFile } = snapshots({ "/a.py": { ok: true, content: "z".repeat(35) } });
    const turns: HistoryTurn[] = [{ role: "user", content: "q", files: ["/a.py"] }];
    expect(buildConversationHistory(palInput({ turns, readFile, allocation: { file: 10, history: 10_000 } })).files.included).toHaveLength(1);
    expect(buildConversationHistory(palInput({ turns, readFile, allocation: { file: 9, history: 10_000 } })).files.skipped).toHaveLength(1);
  });

  it("plans by bytes, so multi-byte text costs more than its length", () => {
    // 10 emoji = 40 UTF-8 bytes; .txt is 4.0 bytes per token -> 10 tokens
    const { readFile } = snapshots({ "/e.txt": { ok: true, content: "😀".repeat(10) } });
    const turns: HistoryTurn[] = [{ role: "user", content: "q", files: ["/e.txt"] }];
    const result = buildConversationHistory(palInput({ turns, readFile, allocation: { file: 9, history: 10_000 } }));
    expect(result.files.skipped[0]).toMatchObject({ path: "/e.txt", kind: "budget", estimatedTokens: 10 });
  });

  it("embeds a file over 1,000,000 bytes as PAL's FILE TOO LARGE block when the estimate fits", () => {
    const { readFile } = snapshots({ "/huge.log": { ok: true, content: "", sizeBytes: 1_100_000 } });
    const turns: HistoryTurn[] = [{ role: "user", content: "q", files: ["/huge.log"] }];
    // 1,100,000 / 4.5 = 244,444 <= 320,000 (1M-token window)
    const result = buildConversationHistory(palInput({ turns, readFile, allocation: calculateTokenAllocation(1_000_000) }));
    expect(result.text).toContain(
      "\n--- FILE TOO LARGE: /huge.log ---\nFile size: 1,100,000 bytes (max: 1,000,000)\n--- END FILE ---\n",
    );
  });

  it("uses an injected file estimate instead of PAL's", () => {
    const { readFile } = snapshots({ "/a.py": { ok: true, content: "short" } });
    const turns: HistoryTurn[] = [{ role: "user", content: "q", files: ["/a.py"] }];
    const result = buildConversationHistory(
      palInput({ turns, readFile, allocation: { file: 5, history: 10_000 }, estimateFileTokens: () => 6 }),
    );
    expect(result.files.skipped[0]).toMatchObject({ kind: "budget", estimatedTokens: 6 });
  });
});

describe("chains and roles", () => {
  it("accepts turns merged from a chain of three threads, numbering them globally", () => {
    const { readFile } = snapshots({
      "/p/a.py": { ok: true, content: "A" },
      "/c/b.py": { ok: true, content: "B" },
      "/g/c.py": { ok: true, content: "C" },
    });
    const parent: HistoryTurn[] = [
      { role: "user", content: "p1", files: ["/p/a.py"], toolName: "analyze" },
      { role: "assistant", content: "p2", toolName: "analyze", modelProvider: "google", modelName: "gemini-2.5-pro" },
    ];
    const child: HistoryTurn[] = [
      { role: "user", content: "c1", files: ["/c/b.py", "/p/a.py"], toolName: "codereview" },
      { role: "assistant", content: "c2", toolName: "codereview", modelProvider: "openai", modelName: "o3" },
    ];
    const grandchild: HistoryTurn[] = [
      { role: "user", content: "g1", files: ["/g/c.py"], toolName: "debug" },
      { role: "assistant", content: "g2", toolName: "debug", modelName: "grok-4" },
    ];
    const result = buildConversationHistory(
      palInput({ threadId: "grandchild", toolName: "debug", readFile, turns: [...parent, ...child, ...grandchild] }),
    );
    expect(result.text).toContain("Thread: grandchild\nTool: debug\nTurn 6/50\n");
    // newest reference first across the chain: /p/a.py counts as referenced by the child's turn 3
    expect(result.files.included.map((f) => f.path)).toEqual(["/g/c.py", "/c/b.py", "/p/a.py"]);
    expect(result.text).toContain(
      "\n--- Turn 2 (gemini-2.5-pro using analyze via google) ---\np2\n\n--- Turn 3 (Agent using codereview) ---\nFiles used in this turn: /c/b.py, /p/a.py\n\nc1\n\n--- Turn 4 (o3 using codereview via openai) ---\nc2\n\n--- Turn 5 (Agent using debug) ---",
    );
    expect(result.text).toContain("\n--- Turn 6 (grok-4 using debug) ---\ng2\n");
    expect(result.text).toContain("This is turn 7 of the conversation");
    expect(result.turns.included).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("breaks included turns down by role", () => {
    const turns: HistoryTurn[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "u" },
      { role: "assistant", content: "a", modelName: "m" },
      { role: "tool", content: "t".repeat(30), toolName: "shell" },
    ];
    const result = buildConversationHistory(palInput({ turns }));
    const tokens = result.perTurn.map((t) => t.tokens);
    expect(result.sections).toMatchObject({
      systemTurns: tokens[0],
      userTurns: tokens[1],
      assistantTurns: tokens[2],
      toolOutput: tokens[3],
      files: 0,
    });
    // "\n--- Turn 4 (Assistant using shell) ---" (39) + "\n" + 30 = 70 -> 23
    expect(tokens[3]).toBe(23);
    expect(result.perTurn[3]).toMatchObject({ role: "tool", toolName: "shell", included: true });
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

  it("measures a turn as its shell plus its content", () => {
    const turn: HistoryTurn = { role: "user", content: "hello", files: ["a.py"], toolName: "chat" };
    expect(turnShell(turn, 3) + turn.content).toBe(["\n--- Turn 3 (Agent using chat) ---", "Files used in this turn: a.py", "", "hello"].join("\n"));
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
    expect(result.turns.included).toEqual([]);
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
