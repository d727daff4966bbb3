import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGeminiJsonl, parseGeminiLegacy } from "./index";
import { JSONL_FILE, LEGACY_2025, LEGACY_2026, expectPaired, numbered, onlyThread, partsOf, roleCounts, usageTotals } from "./test-helpers";

describe("real fixture: JSONL session-2026-04-23T12-52-0ab84937.jsonl", () => {
  const result = parseGeminiJsonl(numbered(readFileSync(JSONL_FILE, "utf8")), { name: JSONL_FILE });
  const thread = onlyThread(result);

  it("is one main thread keyed by the sessionId, with metadata from the first line and the last $set", () => {
    expect(result.format).toBe("gemini-cli");
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(thread.key).toBe("0ab84937-9fe7-4284-986a-33c832af0b6a");
    expect(thread.toolName).toBe("gemini-cli");
    expect(thread.parentKey ?? null).toBeNull();
    expect(thread.relation ?? null).toBeNull();
    expect(thread.project).toBeNull(); // no directories in the file
    expect(thread.metadata).toEqual({
      projectHash: "9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea",
      kind: "main",
      directories: null,
    });
    expect(thread.createdAt).toBe("2026-04-23T12:52:52.759Z");
    // jq -c 'select(has("$set")) | .["$set"].lastUpdated' <file> | tail -1
    expect(thread.lastUpdatedAt).toBe("2026-04-23T12:58:35.591Z");
    // No summary: the first user message (the /init prompt), whitespace-collapsed, 100 characters:
    // python: re.sub(r"\s+", " ", "".join(p["text"] for p in first_user["content"])).strip()[:100]
    // The first user message is Gemini CLI's own /init preamble ("You are an AI agent that brings
    // the power of Gemini..."), and the next is its "System: Please continue.": neither names the session.
    expect(thread.turns.find((t) => t.role === "user")?.content).toMatch(/^\s*You are an AI agent that brings the power of Gemini/);
    expect(thread.title).toBe("幫我做一個小修改 請幫我將上面確保執行時要透過 uv run 來執行 避免環境有問題");
  });

  it("keeps the last record per id in first-seen order (16 message lines, 11 distinct ids)", () => {
    // jq -r 'select(has("id")) | .id' <file> | wc -l            -> 16
    // jq -r 'select(has("id")) | .id' <file> | sort -u | wc -l  -> 11
    // 11 messages + 5 gemini messages with tool results (python: toolCalls non-empty in the last copy) = 16 turns
    expect(thread.turns).toHaveLength(16);
    expect(roleCounts(thread)).toEqual({ system: 2, user: 3, assistant: 6, tool: 5 });
    expect(thread.turns.map((turn) => turn.key)).toEqual([
      "0cf1a565-3230-4426-bdfc-d4d7af19f867",
      "8828dd6a-d778-464f-8160-eb2e1604a122",
      "52e62e67-5d6b-4a2c-b12d-11b87fe3e4a4",
      "52e62e67-5d6b-4a2c-b12d-11b87fe3e4a4:results",
      "a4173396-3649-48f8-8fa8-e2624684806e",
      "a4173396-3649-48f8-8fa8-e2624684806e:results",
      "cda8a342-ea1f-4815-ac7c-4dad891733a6",
      "cda8a342-ea1f-4815-ac7c-4dad891733a6:results",
      "edf94f05-ab0f-46aa-8811-d3db8103da28",
      "edf94f05-ab0f-46aa-8811-d3db8103da28:results",
      "1b8df650-1638-435e-b736-1f1f42357da9",
      "0752be32-e23d-4786-bc5f-e06ee1d8a56c",
      "231038fa-bbfb-4b43-9a30-b8b7fcf54895",
      "42a121a5-b72a-43e2-9e9d-640b17ea8978",
      "42a121a5-b72a-43e2-9e9d-640b17ea8978:results",
      "9a505a5d-d89f-4df6-b74b-c8fc0e07711b",
    ]);
  });

  it("takes tool calls from the re-appended copies and pairs all 12 with their results", () => {
    // python: sum(len(last[id].get("toolCalls") or []) for id in ids) -> 12 (5+3+1+1+2); the first
    // copies of those ids have no toolCalls, so a first-wins replay would find none.
    expect(expectPaired(thread)).toBe(12);
    const calls = partsOf(thread, "tool_call");
    expect(calls.map((call) => (call.type === "tool_call" ? call.name : ""))).toEqual([
      "update_topic",
      "read_file",
      "read_file",
      "read_file",
      "read_file",
      "read_file",
      "read_file",
      "read_file",
      "write_file",
      "update_topic",
      "update_topic",
      "replace",
    ]);
    expect(calls[1]).toMatchObject({ id: "aao1q07o", arguments: { file_path: "README.md" } });
    const results = partsOf(thread, "tool_result");
    expect(results.every((part) => part.type === "tool_result" && part.isError === false && part.status === "success")).toBe(true);
    const topic = results[0]!;
    expect(topic.type === "tool_result" && String(topic.content).startsWith('Current topic: "產生專案指令文件 (GEMINI.md)"')).toBe(true);
    // The replace call's resultDisplay is a fileDiff object: kept beside the model-facing output.
    const replace = results.find((part) => part.type === "tool_result" && part.toolCallId === "yf8jqzhz");
    expect(String(replace?.fileDiff)).toContain("Index: GEMINI.md");
    // The result turn carries the calls' timestamp (the later of them).
    expect(thread.turns[3]!.timestamp).toBe("2026-04-23T12:53:11.357Z");
  });

  it("reads models, usage and thoughts from the gemini messages", () => {
    const assistants = thread.turns.filter((turn) => turn.role === "assistant");
    expect(assistants.every((turn) => turn.modelProvider === "google")).toBe(true);
    // jq -r 'select(.type=="gemini") | .id + " " + .model' <file> | sort -u
    expect(assistants.map((turn) => turn.modelName)).toEqual([
      "gemini-3-flash-preview",
      "gemini-3-flash-preview",
      "gemini-3-flash-preview",
      "gemini-3-flash-preview",
      "gemini-3-flash-preview",
      "gemini-3.1-pro-preview",
    ]);
    // python over the last record per id: sum(input - cached + tool), sum(cached), sum(output), sum(thoughts)
    expect(usageTotals(thread)).toEqual({ input: 153635, cacheRead: 48951, output: 2152, reasoning: 2141, turnsWithUsage: 6 });
    // a4173396: {input 29082, output 89, cached 8156, thoughts 642, tool 0, total 29813}
    expect(thread.turns[4]!.usage).toEqual({ inputTokens: 20926, cacheReadTokens: 8156, outputTokens: 89, reasoningTokens: 642 });
    // python: sum(len(thoughts)) over gemini messages -> 1+2+1+0+1+2 = 7
    expect(partsOf(thread, "thinking")).toHaveLength(7);
    expect(partsOf(thread, "thinking")[0]).toMatchObject({ subject: "Initiating File Generation", timestamp: "2026-04-23T12:53:07.916Z" });
  });

  it("keeps info messages as system turns and what the CLI displayed instead of the expanded prompt", () => {
    const system = thread.turns.filter((turn) => turn.role === "system");
    expect(system.map((turn) => turn.content)).toEqual([
      "Empty GEMINI.md created. Now analyzing the project to populate it.",
      "Request cancelled.",
    ]);
    expect(system.every((turn) => turn.metadata?.messageType === "info")).toBe(true);
    expect(thread.turns[1]!.metadata?.displayContent).toBe("/init");
    expect(thread.turns[1]!.content).toContain("generate a comprehensive GEMINI.md file");
    const lastUser = thread.turns[12]!;
    expect(lastUser.content).toBe("幫我做一個小修改 請幫我將上面確保執行時要透過 uv run 來執行 避免環境有問題");
    expect(lastUser.metadata).toBeUndefined();
  });
});

describe("real fixture: legacy session-2026-03-27T10-19-8a20078e.json", () => {
  const doc: unknown = JSON.parse(readFileSync(LEGACY_2026, "utf8"));
  const result = parseGeminiLegacy(doc, { name: LEGACY_2026 });
  const thread = onlyThread(result);

  it("gives one thread with 4 messages + 2 tool-result turns", () => {
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(thread.key).toBe("8a20078e-2d5e-4f81-a640-9b879bbb7e6d");
    expect(thread.metadata).toEqual({
      projectHash: "ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d",
      kind: "main",
      directories: null,
    });
    expect(thread.createdAt).toBe("2026-03-27T10:19:12.584Z");
    expect(thread.lastUpdatedAt).toBe("2026-03-27T10:22:00.022Z");
    // jq '.messages | length' -> 4; jq '[.messages[] | select(.toolCalls | length > 0)] | length' -> 2
    expect(roleCounts(thread)).toEqual({ user: 1, assistant: 3, tool: 2 });
    expect(
      thread.title?.startsWith("請幫我依照專案實際狀況更新 README.md README.zh-CN.md README.zh-TW.md, 開發者的引導不需要寫在裡面"),
    ).toBe(true);
    // Cut at a word boundary (between two Chinese words), with an ellipsis, within 100 code points.
    expect(Array.from(thread.title ?? "").length).toBeLessThanOrEqual(100);
    expect(thread.title).toMatch(/[^\s]…$/);
  });

  it("pairs its 7 tool calls (3 read_file, 4 write_file) and sums usage", () => {
    // jq '[.messages[].toolCalls[]?] | length' -> 7; jq -r '.messages[].toolCalls[]?.name' | sort | uniq -c
    expect(expectPaired(thread)).toBe(7);
    const names = partsOf(thread, "tool_call").map((call) => (call.type === "tool_call" ? call.name : ""));
    expect(names).toEqual(["read_file", "read_file", "read_file", "write_file", "write_file", "write_file", "write_file"]);
    expect(partsOf(thread, "tool_result").filter((part) => typeof part.fileDiff === "string")).toHaveLength(4);
    // jq -r '.messages[].model // empty' | sort -u -> gemini-3.1-pro-preview-customtools
    expect(new Set(thread.turns.filter((t) => t.role === "assistant").map((t) => t.modelName))).toEqual(
      new Set(["gemini-3.1-pro-preview-customtools"]),
    );
    // jq '[.messages[].tokens | select(.) | .input - .cached + .tool] | add' -> 36522, cached 39826, output 9325, thoughts 11616
    expect(usageTotals(thread)).toEqual({ input: 36522, cacheRead: 39826, output: 9325, reasoning: 11616, turnsWithUsage: 3 });
    // jq '[.messages[].thoughts[]?] | length' -> 39 (1 + 36 + 2)
    expect(partsOf(thread, "thinking")).toHaveLength(39);
  });
});

describe("real fixture: legacy session-2025-10-11T13-00-2d9ea14f.json", () => {
  const result = parseGeminiLegacy(JSON.parse(readFileSync(LEGACY_2025, "utf8")) as unknown, { name: LEGACY_2025 });
  const thread = onlyThread(result);

  it("gives 1 user + 13 assistant turns, no tool calls, no kind", () => {
    expect(result.skipped).toEqual([]);
    // jq '[.messages[] | .type] | group_by(.) | map({(.[0]): length}) | add' -> {gemini: 13, user: 1}
    expect(roleCounts(thread)).toEqual({ user: 1, assistant: 13 });
    expect(partsOf(thread, "tool_call")).toHaveLength(0);
    expect(thread.metadata?.kind).toBeNull();
    // Plain-string user content (the older shape).
    expect(
      thread.title?.startsWith('## 任務：將專案描述中的 "Vibe Coding Tracker" 改為 "Vibe Code Tracker" 並更新文檔 ### 操作內容：'),
    ).toBe(true);
    // jq '[.messages[].thoughts[]?] | length' -> 24
    expect(partsOf(thread, "thinking")).toHaveLength(24);
  });

  it("counts no usage for the 4 messages whose tokens are all zero", () => {
    // jq '[.messages[].tokens | select(.) | select(.total == 0)] | length' -> 4 of 13
    expect(usageTotals(thread)).toEqual({ input: 54874, cacheRead: 121305, output: 851, reasoning: 1546, turnsWithUsage: 9 });
    const zero = thread.turns.find((turn) => turn.key.startsWith("953495f0"));
    expect(zero?.usage).toBeNull();
    expect(zero?.metadata?.tokens).toMatchObject({ input: 0, total: 0 });
  });
});

// ------------------------------------------------------------------------------------------------
