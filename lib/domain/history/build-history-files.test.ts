/** buildConversationHistory's file planning: which files are embedded within the file allocation, newest first. */
import { describe, expect, it } from "vitest";
import { palInput, snapshotReader } from "../testing/history-input";
import { calculateTokenAllocation } from "./allocation";
import { buildConversationHistory, type HistoryTurn } from "./build-history";
import { palCountTokens, type FileReadResult } from "./pal";

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
    const { readFile, calls } = snapshotReader(files);
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
    const { readFile } = snapshotReader({ "/r/big.py": files["/r/big.py"]! });
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
    const { readFile } = snapshotReader({ "/a.py": { ok: true, content: "z".repeat(35) } });
    const turns: HistoryTurn[] = [{ role: "user", content: "q", files: ["/a.py"] }];
    expect(buildConversationHistory(palInput({ turns, readFile, allocation: { file: 10, history: 10_000 } })).files.included).toHaveLength(
      1,
    );
    expect(buildConversationHistory(palInput({ turns, readFile, allocation: { file: 9, history: 10_000 } })).files.skipped).toHaveLength(1);
  });

  it("plans by bytes, so multi-byte text costs more than its length", () => {
    // 10 emoji = 40 UTF-8 bytes; .txt is 4.0 bytes per token -> 10 tokens
    const { readFile } = snapshotReader({ "/e.txt": { ok: true, content: "😀".repeat(10) } });
    const turns: HistoryTurn[] = [{ role: "user", content: "q", files: ["/e.txt"] }];
    const result = buildConversationHistory(palInput({ turns, readFile, allocation: { file: 9, history: 10_000 } }));
    expect(result.files.skipped[0]).toMatchObject({ path: "/e.txt", kind: "budget", estimatedTokens: 10 });
  });

  it("embeds a file over 1,000,000 bytes as PAL's FILE TOO LARGE block when the estimate fits", () => {
    const { readFile } = snapshotReader({ "/huge.log": { ok: true, content: "", sizeBytes: 1_100_000 } });
    const turns: HistoryTurn[] = [{ role: "user", content: "q", files: ["/huge.log"] }];
    // 1,100,000 / 4.5 = 244,444 <= 320,000 (1M-token window)
    const result = buildConversationHistory(palInput({ turns, readFile, allocation: calculateTokenAllocation(1_000_000) }));
    expect(result.text).toContain("\n--- FILE TOO LARGE: /huge.log ---\nFile size: 1,100,000 bytes (max: 1,000,000)\n--- END FILE ---\n");
  });

  it("uses an injected file estimate instead of PAL's", () => {
    const { readFile } = snapshotReader({ "/a.py": { ok: true, content: "short" } });
    const turns: HistoryTurn[] = [{ role: "user", content: "q", files: ["/a.py"] }];
    const result = buildConversationHistory(
      palInput({ turns, readFile, allocation: { file: 5, history: 10_000 }, estimateFileTokens: () => 6 }),
    );
    expect(result.files.skipped[0]).toMatchObject({ kind: "budget", estimatedTokens: 6 });
  });
});
