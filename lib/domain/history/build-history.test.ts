import { describe, expect, it, vi } from "vitest";
import { palInput, snapshotReader } from "../testing/history-input";
import { buildConversationHistory, turnHeader, type HistoryTurn } from "./build-history";
import { palCountTokens } from "./pal";

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
    const { readFile } = snapshotReader({
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
    expect(result.turns).toEqual({ total: 2, includedCount: 2, excludedCount: 0, firstIncluded: 1 });
    expect(result.files.skipped).toEqual([]);

    const block =
      "\n--- BEGIN FILE: /src/main.py (Last modified: 2025-01-02 03:04:05 UTC) ---\ndef main():\n    return 1 / 0\n\n--- END FILE: /src/main.py ---\n";
    // 31 bytes of .py at 3.5 bytes per token: int(8.857) = 8
    expect(result.files.included).toEqual([{ path: "/src/main.py", tokens: palCountTokens(block), estimatedTokens: 8 }]);

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
    const result = buildConversationHistory(palInput({ turns: [{ role: "user", content: "Hello" }] }));
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
      turns: { total: 0, includedCount: 0, excludedCount: 0, firstIncluded: null },
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
    expect(
      result.text.endsWith("This is turn 4 of the conversation - use the conversation history above to provide a coherent continuation."),
    ).toBe(true);
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
    const { readFile } = snapshotReader({ "/a.py": { ok: true, content: "" }, "/b.py": { ok: true, content: "" } });
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

describe("chains and roles", () => {
  it("accepts turns merged from a chain of three threads, numbering them globally", () => {
    const { readFile } = snapshotReader({
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
    expect(result.turns).toEqual({ total: 6, includedCount: 6, excludedCount: 0, firstIncluded: 1 });
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
