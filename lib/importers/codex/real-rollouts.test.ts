import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectFormat, numberedLines } from "../index";
import { parseCodexRollout } from "./index";
import { expectPaired, onlyThread, partsOf, summary, turnKeys } from "./test-helpers";

const ROOT = path.join(process.cwd(), "fixtures/real/codex/sessions");
const OLD_VSCODE = "2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl";
const DESKTOP_MCP = "2026/02/23/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl";
const COMPACTED = "2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl";

const fileText = (relative: string) => readFileSync(path.join(ROOT, relative), "utf8");
const parseFile = (relative: string) => parseCodexRollout(numberedLines(fileText(relative)), { name: relative });

/**
 * Expected figures were read from the files with Python (json module), independently of this
 * parser: user turns = event_msg user_message; an assistant turn = a run of model output
 * (response_item reasoning / assistant message / *_call, event agent_message / agent_reasoning)
 * ended by a prompt, a tool output, a compaction or a task start/end; tool turns =
 * function_call_output + custom_tool_call_output; thinking = non-empty reasoning summary texts
 * (max of items and agent_reasoning events per turn); usage = the positive differences of the
 * cumulative token_count total_token_usage, which add up to the last total (minus the first
 * total when the file starts mid-thread), given to the turn of the latest model item before the
 * count (trailing builds) or the first after it (0.3x, leading).
 */
describe("real Codex rollouts", () => {
  it("0.39 VS Code: leading token counts, IDE-wrapped prompt, empty reasoning summaries", () => {
    const parsed = parseFile(OLD_VSCODE);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    const thread = onlyThread(parsed);
    expect(thread.key).toBe("01996135-afde-7911-97f0-d863511eca56");
    expect(thread.toolName).toBe("codex");
    expect(thread.project).toBe("/proj/ds906659/gai/claude-code");
    expect(thread.createdAt).toBe("2025-09-19T09:02:12.446Z");
    expect(thread.lastUpdatedAt).toBe("2025-09-19T09:09:18.355Z");
    // the request after "## My request for Codex:", whitespace collapsed, 100 characters
    expect(thread.title).toBe(
      "幫我檢查一下 go.mod 裡面 為何 go版本是 1.24? 請幫我統一成 1.24 並且我希望 1.24 以上就能使用 並將 .python-version 也改成 3.10 然後幫我查看一下…",
    );
    expect(thread.metadata).toMatchObject({
      originator: "codex_vscode",
      cliVersion: "0.39.0",
      git: { branch: "main", commit: "87d292ac346e58c85dc4eef0a8dd13bd02ec0c7f" },
    });
    expect(thread.initialContext?.environmentContext).toMatch(/^<environment_context>/);
    expect(summary(thread)).toEqual({
      roles: { user: 1, assistant: 19, tool: 18 },
      toolCalls: 18,
      toolResults: 18,
      thinking: 0,
      text: 9,
      images: 0,
      fromEvent: 0,
      models: ["aide-gpt-5"],
      compactions: 0,
      // final total_token_usage: input 270,530 (cached 136,832), output 12,551 (reasoning 9,536)
      usage: { input: 133_698, cacheRead: 136_832, output: 12_551, reasoning: 9536 },
    });
    expectPaired(thread);
    expect(turnKeys(thread)).toBe(
      "u3 a6 t11 a13 t18 a20 t25 a27 t32 a34 t39 a42 t44 a47 t49 a51 t55 a57 t62 a65 t66 a68 t73 a76 t77 a80 t81 a84 t85 a88 t89 a92 t93 a96 t97 a100 t101 a103",
    );
    // leading order: each count pays the request written after it
    const assistants = thread.turns.filter((t) => t.role === "assistant");
    expect(assistants.map((t) => t.usage?.outputTokens ?? 0)).toEqual([
      810, 244, 895, 612, 1898, 686, 1444, 102, 1225, 36, 1820, 516, 38, 115, 59, 87, 40, 45, 1879,
    ]);
    expect(assistants[0]!.usage).toEqual({ inputTokens: 141, cacheReadTokens: 5504, outputTokens: 810, reasoningTokens: 640 });
    expect(thread.turns[0]!.content).toMatch(/^# Context from my IDE setup:/);
  });

  it("0.104 Desktop: trailing token counts repeated, redacted events matched to their items", () => {
    const parsed = parseFile(DESKTOP_MCP);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    const thread = onlyThread(parsed);
    expect(thread.key).toBe("019c8bfe-ec25-79e0-97d7-bda6a9c575ff");
    expect(thread.project).toBe("/redacted/path/ea96e59ed9");
    expect(thread.createdAt).toBe("2026-02-23T19:34:25.573Z");
    expect(thread.lastUpdatedAt).toBe("2026-02-23T19:36:02.635Z");
    expect(thread.title).toBe("[REDACTED_MESSAGE len=98 sha=c002ff99]");
    expect(thread.metadata).toMatchObject({ originator: "Codex Desktop", cliVersion: "0.104.0-alpha.1", source: "vscode" });
    expect(summary(thread)).toEqual({
      roles: { user: 1, assistant: 6, tool: 5 },
      toolCalls: 5,
      toolResults: 5,
      thinking: 6,
      text: 6,
      images: 0,
      fromEvent: 0,
      models: ["gpt-5.3-codex"],
      compactions: 0,
      // final total_token_usage: input 298,373 (cached 238,848), output 1,123 (reasoning 483)
      usage: { input: 59_525, cacheRead: 238_848, output: 1123, reasoning: 483 },
    });
    expectPaired(thread);
    expect(turnKeys(thread)).toBe("u9 a13 t19 a22 t28 a31 t37 a40 t46 a49 t55 a58");
    expect(thread.turns.filter((t) => t.role === "assistant").map((t) => t.usage?.outputTokens ?? 0)).toEqual([
      204, 96, 245, 179, 113, 286,
    ]);
    // the item's text wins over the event's (the redaction gave them different placeholders)
    expect(thread.turns[1]!.parts!.map((p) => p.type)).toEqual(["thinking", "text", "tool_call"]);
    expect(thread.turns[1]!.parts![1]).toEqual({ type: "text", text: "[REDACTED_TEXT len=156 sha=2a40230f]", phase: "commentary" });
    const calls = partsOf(thread, "tool_call").map((p) => (p.type === "tool_call" ? p.name : ""));
    expect(calls[0]).toBe("mcp__cloud-associates__search_workflows");
    // developer messages and injected user-role items are not turns
    expect(thread.turns.filter((t) => t.role === "user").map((t) => t.key)).toEqual(["9"]);
  });

  it("0.104 excerpt: starts mid-thread, mid-turn remote compaction", () => {
    const parsed = parseFile(COMPACTED);
    expect(parsed.skipped).toEqual([]);
    // the first count (line 6) is cumulative over history not in the excerpt
    expect(parsed.warnings).toEqual([
      expect.stringMatching(/^line 6: the first token count is cumulative over history not in this file \(21307372 tokens\)/),
    ]);
    const thread = onlyThread(parsed);
    expect(thread.key).toBe("019c8a59-e9dd-71f0-9ae3-4079fe9726a9");
    expect(thread.project).toBe("/redacted/path/59b923df4d");
    expect(thread.createdAt).toBe("2026-02-23T11:54:34.334Z");
    expect(thread.lastUpdatedAt).toBe("2026-02-24T09:55:09.371Z");
    expect(thread.title).toBe("[REDACTED_MESSAGE len=1533 sha=89386347]");
    // the prompt's image (line 4) is a part without its data
    expect(thread.turns[0]!.content).toBe("[REDACTED_MESSAGE len=1533 sha=89386347]\n\n[image]");
    expect(thread.turns[0]!.parts).toEqual([
      { type: "text", text: "[REDACTED_MESSAGE len=1533 sha=89386347]" },
      { type: "image", alt: "image attached to the prompt" },
    ]);
    expect(summary(thread)).toEqual({
      roles: { user: 1, assistant: 17, tool: 24, system: 1 },
      toolCalls: 24,
      toolResults: 24,
      thinking: 11,
      text: 15,
      images: 1,
      fromEvent: 0,
      models: ["gpt-5.3-codex"],
      compactions: 1,
      // last total minus the first: input 23,126,750 - 21,222,347; cached 21,752,320 - 20,109,312;
      // output 98,085 - 85,025; reasoning 30,654 - 27,937
      usage: { input: 261_395, cacheRead: 1_643_008, output: 13_060, reasoning: 2717 },
    });
    expectPaired(thread);
    expect(partsOf(thread, "tool_call").filter((p) => p.custom === true)).toHaveLength(7);
    expect(turnKeys(thread)).toBe(
      "u3 a7 t15 t16 t17 a20 t28 t29 t30 a33 t39 a42 t44 a47 t49 a52 t56 s58 a62 t70 t71 t72 a75 t80 a83 t87 a90 t97 t98 a101 t107 a110 t117 t118 a121 t127 a130 t136 a139 t145 a148 t153 a156",
    );
    expect(thread.turns.filter((t) => t.role === "assistant").map((t) => t.usage?.outputTokens ?? 0)).toEqual([
      637, 499, 1189, 473, 849, 2184, 390, 135, 154, 833, 3497, 289, 522, 256, 147, 129, 877,
    ]);
    // `compacted` (line 58) and its context_compacted event (line 59) are one marker, mid-task: auto
    const compaction = thread.turns.find((t) => t.compaction)!;
    expect(compaction.key).toBe("58");
    expect(compaction.role).toBe("system");
    expect(compaction.compaction).toEqual({ trigger: "auto", tokensBefore: 940_499, tokensAfter: null });
    expect(compaction.metadata).toMatchObject({ replacementHistoryItems: 40 });
  });

  it("are detected as Codex rollouts by the common entry point", () => {
    for (const file of [OLD_VSCODE, DESKTOP_MCP, COMPACTED]) expect(detectFormat(path.basename(file), fileText(file)).format).toBe("codex");
  });

  it("every prefix of a real file parses, and keeps the keys of the turns it has", () => {
    // [file, first line to cut after]: the redacted files hide their injected context (AGENTS.md,
    // environment) behind placeholders, so before the first prompt event it reads as prompts
    for (const [file, fromLine] of [
      [OLD_VSCODE, 1],
      [DESKTOP_MCP, 10],
      [COMPACTED, 1],
    ] as const) {
      const text = fileText(file);
      const full = onlyThread(parseFile(file));
      const roleOf = new Map(full.turns.map((t) => [t.key, t.role]));
      const order = full.turns.map((t) => t.key);
      // cut at line ends and in the middle of lines (a file being written), after the session_meta line
      const cuts = new Set<number>();
      const ends: number[] = [];
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) ends.push(i + 1);
      for (const [index, end] of ends.entries()) if (index + 1 >= fromLine) cuts.add(end).add(Math.max(ends[fromLine - 1]!, end - 18));
      for (const cut of cuts) {
        const parsed = parseCodexRollout(numberedLines(text.slice(0, cut)), { name: file });
        const lastLine = text.slice(0, cut).split("\n").length;
        const truncated = [{ line: lastLine, reason: "truncated last line (the session may still be running)" }];
        expect(parsed.skipped).toEqual(text[cut - 1] === "\n" ? [] : truncated);
        const keys = onlyThread(parsed).turns.map((t) => t.key);
        for (const turn of onlyThread(parsed).turns)
          expect(roleOf.get(turn.key), `${file} cut at ${cut}: turn ${turn.key}`).toBe(turn.role);
        const positions = keys.map((k) => order.indexOf(k));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }
    }
  });
});

// --- synthetic rollouts ---------------------------------------------------------------------------
