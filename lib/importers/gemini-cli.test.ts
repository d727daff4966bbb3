import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import { looksLikeGeminiJsonl, looksLikeGeminiLegacy, parseGeminiJsonl, parseGeminiLegacy } from "./gemini-cli";
import { ImportFormatError, type ImportedThread, type NumberedLine, type ParsedSource } from "./types";

const FIXTURES = path.join(process.cwd(), "fixtures/real/gemini-cli/tmp");
const JSONL_FILE = path.join(FIXTURES, "9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea/chats/session-2026-04-23T12-52-0ab84937.jsonl");
const LEGACY_2026 = path.join(FIXTURES, "ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d/chats/session-2026-03-27T10-19-8a20078e.json");
const LEGACY_2025 = path.join(FIXTURES, "ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d/chats/session-2025-10-11T13-00-2d9ea14f.json");

function numbered(text: string): NumberedLine[] {
  return text.split("\n").map((line, index) => ({ text: line, line: index + 1 }));
}

function jsonl(...records: unknown[]): NumberedLine[] {
  return numbered(records.map((record) => (typeof record === "string" ? record : JSON.stringify(record))).join("\n"));
}

function onlyThread(result: ParsedSource): ImportedThread {
  expect(result.threads).toHaveLength(1);
  return result.threads[0]!;
}

function partsOf(thread: ImportedThread, type: TurnPart["type"]): TurnPart[] {
  return thread.turns.flatMap((turn) => (turn.parts ?? []).filter((part) => part.type === type));
}

function roleCounts(thread: ImportedThread): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const turn of thread.turns) counts[turn.role] = (counts[turn.role] ?? 0) + 1;
  return counts;
}

function usageTotals(thread: ImportedThread) {
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
function expectPaired(thread: ImportedThread) {
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

const META = { sessionId: "s-1", projectHash: "hash-1", startTime: "2026-01-01T10:00:00.000Z", lastUpdated: "2026-01-01T10:00:00.000Z", kind: "main" };
const user = (id: string, text: string, extra: object = {}) => ({ id, timestamp: "2026-01-01T10:00:01.000Z", type: "user", content: [{ text }], ...extra });
const gemini = (id: string, extra: object = {}) => ({ id, timestamp: "2026-01-01T10:00:02.000Z", type: "gemini", content: "", model: "gemini-2.5-pro", ...extra });

// ------------------------------------------------------------------------------------------------

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
    expect(thread.metadata).toEqual({ projectHash: "9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea", kind: "main", directories: null });
    expect(thread.createdAt).toBe("2026-04-23T12:52:52.759Z");
    // jq -c 'select(has("$set")) | .["$set"].lastUpdated' <file> | tail -1
    expect(thread.lastUpdatedAt).toBe("2026-04-23T12:58:35.591Z");
    // No summary: the first user message (the /init prompt), whitespace-collapsed, 100 characters:
    // python: re.sub(r"\s+", " ", "".join(p["text"] for p in first_user["content"])).strip()[:100]
    expect(thread.title).toBe("You are an AI agent that brings the power of Gemini directly into the terminal. Your task is to anal");
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
      "update_topic", "read_file", "read_file", "read_file", "read_file",
      "read_file", "read_file", "read_file",
      "write_file",
      "update_topic",
      "update_topic", "replace",
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
      "gemini-3-flash-preview", "gemini-3-flash-preview", "gemini-3-flash-preview", "gemini-3-flash-preview", "gemini-3-flash-preview",
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
    expect(system.map((turn) => turn.content)).toEqual(["Empty GEMINI.md created. Now analyzing the project to populate it.", "Request cancelled."]);
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
    expect(thread.metadata).toEqual({ projectHash: "ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d", kind: "main", directories: null });
    expect(thread.createdAt).toBe("2026-03-27T10:19:12.584Z");
    expect(thread.lastUpdatedAt).toBe("2026-03-27T10:22:00.022Z");
    // jq '.messages | length' -> 4; jq '[.messages[] | select(.toolCalls | length > 0)] | length' -> 2
    expect(roleCounts(thread)).toEqual({ user: 1, assistant: 3, tool: 2 });
    expect(thread.title?.startsWith("請幫我依照專案實際狀況更新 README.md README.zh-CN.md README.zh-TW.md, 開發者的引導不需要寫在裡面")).toBe(true);
    expect(Array.from(thread.title ?? "")).toHaveLength(100);
  });

  it("pairs its 7 tool calls (3 read_file, 4 write_file) and sums usage", () => {
    // jq '[.messages[].toolCalls[]?] | length' -> 7; jq -r '.messages[].toolCalls[]?.name' | sort | uniq -c
    expect(expectPaired(thread)).toBe(7);
    const names = partsOf(thread, "tool_call").map((call) => (call.type === "tool_call" ? call.name : ""));
    expect(names).toEqual(["read_file", "read_file", "read_file", "write_file", "write_file", "write_file", "write_file"]);
    expect(partsOf(thread, "tool_result").filter((part) => typeof part.fileDiff === "string")).toHaveLength(4);
    // jq -r '.messages[].model // empty' | sort -u -> gemini-3.1-pro-preview-customtools
    expect(new Set(thread.turns.filter((t) => t.role === "assistant").map((t) => t.modelName))).toEqual(new Set(["gemini-3.1-pro-preview-customtools"]));
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
    expect(thread.title?.startsWith('## 任務：將專案描述中的 "Vibe Coding Tracker" 改為 "Vibe Code Tracker" 並更新文檔 ### 操作內容：')).toBe(true);
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

describe("detection", () => {
  it("recognises the fixtures", () => {
    const firstLine: unknown = JSON.parse(readFileSync(JSONL_FILE, "utf8").split("\n")[0]!);
    expect(looksLikeGeminiJsonl(firstLine, JSONL_FILE)).toBe(true);
    expect(looksLikeGeminiLegacy(JSON.parse(readFileSync(LEGACY_2026, "utf8")), LEGACY_2026)).toBe(true);
    expect(looksLikeGeminiLegacy(JSON.parse(readFileSync(LEGACY_2025, "utf8")), LEGACY_2025)).toBe(true);
  });

  it("rejects other formats", () => {
    const claudeLine = { type: "user", sessionId: "x", uuid: "u", message: { role: "user", content: "hi" } };
    const codexLine = { timestamp: "t", type: "session_meta", payload: { id: "x" } };
    expect(looksLikeGeminiJsonl(claudeLine, "x.jsonl")).toBe(false);
    expect(looksLikeGeminiJsonl(codexLine, "rollout.jsonl")).toBe(false);
    expect(looksLikeGeminiJsonl("text", "x.jsonl")).toBe(false);
    expect(looksLikeGeminiLegacy([{ role: "user", content: "hi" }], "x.json")).toBe(false);
    expect(looksLikeGeminiLegacy({ sessionId: "x", messages: "no" }, "session-x.json")).toBe(false);
    // A JSONL metadata line is not a legacy document (no messages), and a legacy document is not JSONL.
    expect(looksLikeGeminiLegacy(META, "session-x.jsonl")).toBe(false);
    expect(looksLikeGeminiJsonl({ ...META, messages: [] }, "session-x.json")).toBe(false);
    expect(looksLikeGeminiLegacy({ sessionId: "x", messages: [] }, "session-2026-01-01T10-00-abcdefgh.json")).toBe(true);
  });
});

describe("JSONL replay", () => {
  it("lets the last record per id win while keeping the first-seen position", () => {
    const thread = onlyThread(
      parseGeminiJsonl(jsonl(META, user("m1", "first"), gemini("m2", { content: "draft" }), user("m1", "edited"), gemini("m2", { content: "final" })), { name: "s.jsonl" }),
    );
    expect(thread.turns.map((t) => [t.key, t.content])).toEqual([
      ["m1", "edited"],
      ["m2", "final"],
    ]);
  });

  it("applies $set to the metadata: lastUpdated, summary (title), directories (project)", () => {
    const thread = onlyThread(
      parseGeminiJsonl(
        jsonl(
          META,
          user("m1", "hello there"),
          { $set: { lastUpdated: "2026-01-01T11:00:00.000Z" } },
          { $set: { summary: "  Fix   the\nbuild  ", directories: ["/home/me/app", "/home/me/lib"] } },
        ),
        { name: "s.jsonl" },
      ),
    );
    expect(thread.lastUpdatedAt).toBe("2026-01-01T11:00:00.000Z");
    expect(thread.title).toBe("Fix the build");
    expect(thread.project).toBe("/home/me/app");
    expect(thread.metadata).toEqual({ projectHash: "hash-1", kind: "main", directories: ["/home/me/app", "/home/me/lib"] });
  });

  it("replaces the history on $set.messages and applies later records on top", () => {
    const result = parseGeminiJsonl(
      jsonl(META, user("m1", "one"), gemini("m2", { content: "two" }), user("m3", "three"), { $set: { messages: [user("c1", "compressed summary"), user("m3", "three"), 7] } }, gemini("m4", { content: "four" })),
      { name: "s.jsonl" },
    );
    const thread = onlyThread(result);
    expect(thread.turns.map((t) => t.key)).toEqual(["c1", "m3", "m4"]);
    expect(thread.metadata?.historyRewrites).toBe(1);
    expect(result.skipped).toEqual([{ line: 5, reason: "$set.messages[2]: not a JSON object" }]);
  });

  it("drops the $rewindTo message and everything after it (FORMATS.md example)", () => {
    const thread = onlyThread(
      parseGeminiJsonl(
        jsonl(
          META,
          user("m1", "read README"),
          gemini("m2", { tokens: { input: 1200, output: 30, cached: 0, thoughts: 90, tool: 0, total: 1320 } }),
          gemini("m2", { toolCalls: [{ id: "c1", name: "read_file", args: { file_path: "README.md" }, status: "success", result: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "# hi" } } }] }] }),
          { $set: { lastUpdated: "2026-01-01T10:00:04.000Z" } },
          { $rewindTo: "m2" },
        ),
        { name: "s.jsonl" },
      ),
    );
    expect(thread.turns.map((t) => t.key)).toEqual(["m1"]);
    expect(thread.metadata?.rewinds).toBe(1);
  });

  it("puts a message re-appended after a rewind at the end", () => {
    const thread = onlyThread(
      parseGeminiJsonl(jsonl(META, user("a", "a"), user("b", "b"), user("c", "c"), { $rewindTo: "b" }, user("d", "d"), user("b", "b again")), { name: "s.jsonl" }),
    );
    expect(thread.turns.map((t) => [t.key, t.content])).toEqual([
      ["a", "a"],
      ["d", "d"],
      ["b", "b again"],
    ]);
  });

  it("keeps everything, with a warning, when $rewindTo names an unknown message", () => {
    const result = parseGeminiJsonl(jsonl(META, user("a", "a"), user("b", "b"), { $rewindTo: "zzz" }), { name: "s.jsonl" });
    expect(onlyThread(result).turns).toHaveLength(2);
    expect(result.warnings).toEqual(['line 4: $rewindTo names message "zzz", which is not in the history before it; nothing was dropped']);
  });
});

describe("message mapping", () => {
  const parse = (...records: unknown[]) => parseGeminiJsonl(jsonl(META, ...records), { name: "s.jsonl" });

  it("maps a gemini message to an assistant turn with thinking, text and tool calls, then a tool turn", () => {
    const thread = onlyThread(
      parse(
        user("u1", "list files"),
        gemini("g1", {
          content: "Listing.",
          thoughts: [{ subject: "Planning", description: "Use ls.", timestamp: "2026-01-01T10:00:01.500Z" }],
          tokens: { input: 1000, output: 40, cached: 600, thoughts: 25, tool: 7, total: 1072 },
          toolCalls: [
            { id: "c1", name: "run_shell_command", args: '{"command":"ls"}', status: "success", timestamp: "2026-01-01T10:00:03.000Z", result: [{ functionResponse: { id: "c1", name: "run_shell_command", response: { output: "a.txt" } } }] },
            { id: "c2", name: "read_file", args: "not json", status: "error", timestamp: "2026-01-01T10:00:04.000Z", result: [{ functionResponse: { id: "c2", name: "read_file", response: { error: "ENOENT" } } }] },
            { id: "c3", name: "write_file", args: {}, status: "cancelled", result: [{ functionResponse: { id: "c3", name: "write_file", response: { error: "[Operation Cancelled]" } } }] },
            { id: "c4", name: "web_fetch", args: {}, status: "executing" },
          ],
        }),
      ),
    );
    const [, assistant, tool] = thread.turns;
    expect(thread.turns).toHaveLength(3);
    expect(assistant).toMatchObject({ key: "g1", role: "assistant", modelName: "gemini-2.5-pro", modelProvider: "google" });
    // input 1000 - cached 600 + tool-use prompt 7; output excludes thoughts.
    expect(assistant!.usage).toEqual({ inputTokens: 407, cacheReadTokens: 600, outputTokens: 40, reasoningTokens: 25 });
    expect(assistant!.parts?.[0]).toEqual({ type: "thinking", text: "Planning\n\nUse ls.", subject: "Planning", timestamp: "2026-01-01T10:00:01.500Z" });
    expect(assistant!.parts?.filter((p) => p.type === "tool_call")).toEqual([
      { type: "tool_call", id: "c1", name: "run_shell_command", arguments: { command: "ls" } },
      { type: "tool_call", id: "c2", name: "read_file", arguments: "not json" },
      { type: "tool_call", id: "c3", name: "write_file", arguments: {} },
      { type: "tool_call", id: "c4", name: "web_fetch", arguments: {} },
    ]);
    expect(assistant!.content).toBe('Listing.\n\n[run_shell_command] {"command":"ls"}\n\n[read_file] "not json"\n\n[write_file] {}\n\n[web_fetch] {}');
    expect(assistant!.content).not.toContain("Use ls."); // thinking stays in parts
    expect(tool).toMatchObject({ key: "g1:results", role: "tool", timestamp: "2026-01-01T10:00:04.000Z" });
    // c4 is still executing: no result yet.
    expect(tool!.parts).toEqual([
      { type: "tool_result", toolCallId: "c1", content: "a.txt", isError: false, name: "run_shell_command", status: "success" },
      { type: "tool_result", toolCallId: "c2", content: "ENOENT", isError: true, name: "read_file", status: "error" },
      { type: "tool_result", toolCallId: "c3", content: "[Operation Cancelled]", isError: false, name: "write_file", status: "cancelled" },
    ]);
    expect(tool!.content).toBe("[run_shell_command] a.txt\n\n[read_file] ENOENT\n\n[write_file] [Operation Cancelled]");
  });

  it("falls back to resultDisplay when a finished call has no result parts", () => {
    const thread = onlyThread(parse(gemini("g1", { toolCalls: [{ id: "c1", name: "ls", args: {}, status: "success", resultDisplay: "Listed 3 files" }] })));
    expect(thread.turns[1]!.parts).toEqual([{ type: "tool_result", toolCallId: "c1", content: "Listed 3 files", isError: false, name: "ls", status: "success" }]);
  });

  it("maps info, error and warning messages to system turns; ignores unknown types", () => {
    const thread = onlyThread(
      parse(
        { id: "i", timestamp: "2026-01-01T10:00:01.000Z", type: "info", content: "Model switched" },
        { id: "e", timestamp: "2026-01-01T10:00:02.000Z", type: "error", content: [{ text: "API error 429" }] },
        { id: "w", timestamp: "2026-01-01T10:00:03.000Z", type: "warning", content: "Low disk" },
        { id: "x", timestamp: "2026-01-01T10:00:04.000Z", type: "future_kind", content: "?" },
      ),
    );
    expect(thread.turns.map((t) => [t.role, t.content, t.metadata?.messageType])).toEqual([
      ["system", "Model switched", "info"],
      ["system", "API error 429", "error"],
      ["system", "Low disk", "warning"],
    ]);
    expect(thread.title).toBeNull(); // no user message, no summary
  });

  it("makes a user message of function responses a tool turn, and drops results already shown with their calls", () => {
    const call = { id: "c1", name: "ls", args: {}, status: "success", result: [{ functionResponse: { id: "c1", name: "ls", response: { output: "a" } } }] };
    const thread = onlyThread(
      parse(
        user("u1", "go"),
        gemini("g1", { toolCalls: [call], content: [{ functionCall: { id: "c1", name: "ls", args: {} } }] }),
        { id: "r1", type: "user", content: [{ functionResponse: { id: "c1", name: "ls", response: { output: "a" } } }] },
        { id: "r2", type: "user", content: [{ functionResponse: { id: "c9", name: "grep", response: { output: "hit" } } }] },
      ),
    );
    // g1's content repeats its toolCalls' functionCall: one tool_call part, not two.
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["u1", "user"],
      ["g1", "assistant"],
      ["g1:results", "tool"],
      ["r2", "tool"],
    ]);
    expect(thread.turns[1]!.parts?.filter((p) => p.type === "tool_call")).toHaveLength(1);
    expect(thread.turns[3]!.parts).toEqual([{ type: "tool_result", toolCallId: "c9", content: "hit", isError: false, name: "grep" }]);
  });

  it("never embeds inline image data", () => {
    const data = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const thread = onlyThread(
      parse(
        { id: "u1", type: "user", content: [{ text: "what is this?" }, { inlineData: { mimeType: "image/png", data } }, { inlineData: { mimeType: "application/pdf", data } }] },
        gemini("g1", { toolCalls: [{ id: "c1", name: "read_file", args: {}, status: "success", result: [{ inlineData: { mimeType: "image/jpeg", data } }] }] }),
      ),
    );
    expect(JSON.stringify(thread)).not.toContain(data);
    expect(thread.turns[0]!.parts).toEqual([
      { type: "text", text: "what is this?" },
      { type: "image", mediaType: "image/png", alt: "image attached to the message" },
      { type: "text", text: "[attachment: application/pdf]" },
    ]);
    expect(thread.turns[0]!.content).toBe("what is this?\n[image]\n[attachment: application/pdf]");
    expect(thread.turns[2]!.parts?.[1]).toEqual({ type: "image", mediaType: "image/jpeg", alt: "image tool output" });
  });

  it("normalises timestamps to UTC and tolerates bad ones", () => {
    const thread = onlyThread(parse({ id: "u1", type: "user", timestamp: "2026-01-01T12:00:00+02:00", content: "hi" }, { id: "u2", type: "user", timestamp: "yesterday", content: "yo" }));
    expect(thread.turns.map((t) => t.timestamp)).toEqual(["2026-01-01T10:00:00.000Z", null]);
  });

  it("cuts the title from a long first user message to 100 characters", () => {
    const thread = onlyThread(parse(user("u1", `  ${"word ".repeat(40)}\n\nend`)));
    // Collapsed to "word word … end", then cut at 100 code points (the shared titleFromContent).
    expect(thread.title).toBe("word ".repeat(20));
  });
});

describe("sub-agent chats", () => {
  const subagent = { ...META, sessionId: "child-1", kind: "subagent", directories: ["/work/app"] };
  const lines = () => jsonl(subagent, user("u1", "investigate"));

  it("takes the parent from the source field", () => {
    const thread = onlyThread(parseGeminiJsonl(lines(), { name: "child-1.jsonl", parentSessionId: "parent-9" }));
    expect(thread).toMatchObject({ key: "child-1", parentKey: "parent-9", relation: { kind: "subagent", toolCallId: null }, project: "/work/app" });
  });

  it("takes the parent from the chats/<parentSessionId>/<sessionId>.jsonl path", () => {
    const thread = onlyThread(parseGeminiJsonl(lines(), { name: "/home/u/.gemini/tmp/app/chats/parent-7/child-1.jsonl" }));
    expect(thread.parentKey).toBe("parent-7");
  });

  it("has no parent when neither gives one, and main sessions never get one", () => {
    expect(onlyThread(parseGeminiJsonl(lines(), { name: "child-1.jsonl" })).parentKey ?? null).toBeNull();
    const main = onlyThread(parseGeminiJsonl(jsonl(META, user("u1", "x")), { name: "/t/chats/parent-7/s.jsonl", parentSessionId: "parent-7" }));
    expect(main.parentKey ?? null).toBeNull();
    expect(main.relation ?? null).toBeNull();
  });
});

describe("malformed JSONL", () => {
  it("skips a truncated last line and bad lines in the middle, with reasons", () => {
    const result = parseGeminiJsonl(
      jsonl(META, "{not json", user("u1", "hi"), "[1,2]", { $set: "nope" }, { $rewindTo: 5 }, { id: 42, type: "user", content: "x" }, { type: "gemini", content: "no id" }, { id: "u2", content: "no type" }, { whatever: true }, '{"id":"u3","type":"us'),
      { name: "s.jsonl" },
    );
    expect(result.skipped).toEqual([
      { line: 2, reason: "not valid JSON" },
      { line: 4, reason: "not a JSON object" },
      { line: 5, reason: "$set: not an object" },
      { line: 6, reason: "$rewindTo: not a string message id" },
      { line: 7, reason: "id: empty or not a string" },
      { line: 8, reason: "gemini message without an id" },
      { line: 9, reason: "message u2: type missing or not a string" },
      { line: 11, reason: "not valid JSON (truncated last line?)" },
    ]);
    expect(onlyThread(result).turns.map((t) => t.key)).toEqual(["u1"]);
  });

  it("ignores blank lines, including the trailing one", () => {
    const result = parseGeminiJsonl(numbered(`${JSON.stringify(META)}\n\n   \n${JSON.stringify(user("u1", "hi"))}\n`), { name: "s.jsonl" });
    expect(result.skipped).toEqual([]);
    expect(onlyThread(result).turns).toHaveLength(1);
  });

  it("returns no thread, with a warning, for a session without messages", () => {
    const result = parseGeminiJsonl(jsonl(META, { $set: { lastUpdated: "2026-01-01T10:00:05.000Z" } }), { name: "empty.jsonl" });
    expect(result.threads).toEqual([]);
    expect(result.warnings).toEqual(["empty.jsonl: session s-1 has no messages; nothing imported"]);
  });

  it("throws ImportFormatError for empty input and for other formats", () => {
    expect(() => parseGeminiJsonl([], { name: "empty.jsonl" })).toThrow(ImportFormatError);
    expect(() => parseGeminiJsonl(numbered("\n\n"), { name: "blank.jsonl" })).toThrow(/no metadata line with sessionId and projectHash/);
    const claude = jsonl({ type: "user", sessionId: "x", uuid: "u", message: { role: "user", content: "hi" } });
    expect(() => parseGeminiJsonl(claude, { name: "x.jsonl" })).toThrow(ImportFormatError);
    // A pretty-printed legacy file read line by line is not JSONL either.
    expect(() => parseGeminiJsonl(numbered(readFileSync(LEGACY_2025, "utf8")), { name: LEGACY_2025 })).toThrow(ImportFormatError);
  });
});

describe("malformed legacy documents", () => {
  it("throws ImportFormatError when the document is not a session", () => {
    expect(() => parseGeminiLegacy([], { name: "a.json" })).toThrow(ImportFormatError);
    expect(() => parseGeminiLegacy({ messages: [] }, { name: "a.json" })).toThrow(/sessionId missing/);
    expect(() => parseGeminiLegacy({ sessionId: "s", messages: {} }, { name: "a.json" })).toThrow(/messages is not an array/);
  });

  it("skips bad messages by JSON path and keeps the rest", () => {
    const result = parseGeminiLegacy(
      { sessionId: "s", projectHash: "h", startTime: "2026-01-01T10:00:00Z", messages: ["x", { type: "user", content: "no id" }, user("u1", "ok"), { id: "g", type: 3 }], summary: "Short summary" },
      { name: "a.json" },
    );
    expect(result.skipped).toEqual([
      { path: "messages[0]", reason: "not a JSON object" },
      { path: "messages[1]", reason: "id: missing or not a string" },
      { path: "messages[3]", reason: "message g: type missing or not a string" },
    ]);
    const thread = onlyThread(result);
    expect(thread.turns.map((t) => t.key)).toEqual(["u1"]);
    expect(thread.title).toBe("Short summary");
    expect(thread.createdAt).toBe("2026-01-01T10:00:00.000Z");
    expect(thread.lastUpdatedAt).toBe("2026-01-01T10:00:01.000Z"); // no lastUpdated: the last turn
  });
});
