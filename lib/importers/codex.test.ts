import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import { looksLikeCodexRollout, parseCodexRollout } from "./codex";
import { detectFormat, numberedLines } from "./index";
import { ImportFormatError, type ImportedThread, type NumberedLine, type ParsedSource } from "./types";

const ROOT = path.join(process.cwd(), "fixtures/real/codex/sessions");
const OLD_VSCODE = "2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl";
const DESKTOP_MCP = "2026/02/23/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl";
const COMPACTED = "2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl";

const fileText = (relative: string) => readFileSync(path.join(ROOT, relative), "utf8");
const parseFile = (relative: string) => parseCodexRollout(numberedLines(fileText(relative)), { name: relative });

const lines = (...entries: (object | string)[]): NumberedLine[] =>
  entries.map((entry, i) => ({ text: typeof entry === "string" ? entry : JSON.stringify(entry), line: i + 1 }));

function onlyThread(parsed: ParsedSource): ImportedThread {
  expect(parsed.format).toBe("codex");
  expect(parsed.threads).toHaveLength(1);
  return parsed.threads[0]!;
}

const partsOf = (thread: ImportedThread, type: TurnPart["type"]) => thread.turns.flatMap((t) => (t.parts ?? []).filter((p) => p.type === type));

function summary(thread: ImportedThread) {
  const roles: Record<string, number> = {};
  for (const turn of thread.turns) roles[turn.role] = (roles[turn.role] ?? 0) + 1;
  const sum = (field: "inputTokens" | "cacheReadTokens" | "outputTokens" | "reasoningTokens") => thread.turns.reduce((total, t) => total + (t.usage?.[field] ?? 0), 0);
  return {
    roles,
    toolCalls: partsOf(thread, "tool_call").length,
    toolResults: partsOf(thread, "tool_result").length,
    thinking: partsOf(thread, "thinking").length,
    text: thread.turns.filter((t) => t.role === "assistant").flatMap((t) => t.parts ?? []).filter((p) => p.type === "text").length,
    images: partsOf(thread, "image").length,
    fromEvent: thread.turns.flatMap((t) => t.parts ?? []).filter((p) => p.fromEvent === true).length,
    models: [...new Set(thread.turns.map((t) => t.modelName).filter(Boolean))].sort(),
    compactions: thread.turns.filter((t) => t.compaction).length,
    usage: { input: sum("inputTokens"), cacheRead: sum("cacheReadTokens"), output: sum("outputTokens"), reasoning: sum("reasoningTokens") },
  };
}

/** "u4 a6 t11 …": role initial and key of every turn, in order. */
const turnKeys = (thread: ImportedThread) => thread.turns.map((t) => `${t.role[0]}${t.key}`).join(" ");

/** Every tool_call has exactly one tool_result with its call id, on a later turn, and vice versa. */
function expectPaired(thread: ImportedThread) {
  const callAt = new Map<string, number>();
  const resultAt = new Map<string, number>();
  thread.turns.forEach((turn, index) => {
    for (const part of turn.parts ?? []) {
      if (part.type === "tool_call") {
        expect(callAt.has(part.id), `call ${part.id} twice`).toBe(false);
        callAt.set(part.id, index);
      }
      if (part.type === "tool_result") {
        expect(resultAt.has(part.toolCallId), `result ${part.toolCallId} twice`).toBe(false);
        resultAt.set(part.toolCallId, index);
      }
    }
  });
  expect([...resultAt.keys()].sort()).toEqual([...callAt.keys()].sort());
  for (const [id, index] of callAt) expect(resultAt.get(id)!).toBeGreaterThan(index);
}

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
    expect(thread.title).toBe("幫我檢查一下 go.mod 裡面 為何 go版本是 1.24? 請幫我統一成 1.24 並且我希望 1.24 以上就能使用 並將 .python-version 也改成 3.10 然後幫我查看一下代碼");
    expect(thread.metadata).toMatchObject({ originator: "codex_vscode", cliVersion: "0.39.0", git: { branch: "main", commit: "87d292ac346e58c85dc4eef0a8dd13bd02ec0c7f" } });
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
    expect(assistants.map((t) => t.usage?.outputTokens ?? 0)).toEqual([810, 244, 895, 612, 1898, 686, 1444, 102, 1225, 36, 1820, 516, 38, 115, 59, 87, 40, 45, 1879]);
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
    expect(thread.turns.filter((t) => t.role === "assistant").map((t) => t.usage?.outputTokens ?? 0)).toEqual([204, 96, 245, 179, 113, 286]);
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
    expect(parsed.warnings).toEqual([expect.stringMatching(/^line 6: the first token count is cumulative over history not in this file \(21307372 tokens\)/)]);
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
        for (const turn of onlyThread(parsed).turns) expect(roleOf.get(turn.key), `${file} cut at ${cut}: turn ${turn.key}`).toBe(turn.role);
        const positions = keys.map((k) => order.indexOf(k));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }
    }
  });
});

// --- synthetic rollouts ---------------------------------------------------------------------------

const THREAD_ID = "0199aaaa-0000-7000-8000-000000000001";
const NAME = `rollout-2026-01-01T10-00-00-${THREAD_ID}.jsonl`;
let clock = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 10, 0, clock++)).toISOString();
const meta = (extra: object = {}) => ({
  timestamp: "2026-01-01T10:00:00.000Z",
  type: "session_meta",
  payload: { id: THREAD_ID, timestamp: "2026-01-01T10:00:00.000Z", cwd: "/w", originator: "codex_cli_rs", cli_version: "0.120.0", source: "cli", model_provider: "openai", ...extra },
});
const context = (model = "gpt-5.3-codex", turnId = "t1") => ({ timestamp: at(), type: "turn_context", payload: { turn_id: turnId, cwd: "/w", model, effort: "medium" } });
const event = (payload: object) => ({ timestamp: at(), type: "event_msg", payload });
const item = (payload: object) => ({ timestamp: at(), type: "response_item", payload });
const prompt = (message: string) => event({ type: "user_message", message, images: [] });
/** The user-role item Codex writes just before a prompt's user_message event (or injected context). */
const userItem = (text: string) => item({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const said = (text: string) => item({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const saidEvent = (message: string) => event({ type: "agent_message", message });
const reasoning = (...summary: string[]) => item({ type: "reasoning", summary: summary.map((text) => ({ type: "summary_text", text })), encrypted_content: "gAAAA-secret" });
const reasoningEvent = (text: string) => event({ type: "agent_reasoning", text });
const call = (callId: string, command = "ls") => item({ type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd: command }), call_id: callId });
const output = (callId: string, text = "a.txt") => item({ type: "function_call_output", call_id: callId, output: text });
const usage = (input: number, cached: number, out: number, reasoningTokens = 0) => ({
  input_tokens: input,
  cached_input_tokens: cached,
  output_tokens: out,
  reasoning_output_tokens: reasoningTokens,
  total_tokens: input + out,
});
/** A token_count event: the cumulative total and the latest request. */
const tokens = (total: ReturnType<typeof usage>, last: ReturnType<typeof usage>) =>
  event({ type: "token_count", info: { total_token_usage: total, last_token_usage: last, model_context_window: 258_400 } });

const parse = (...entries: (object | string)[]) => parseCodexRollout(lines(...entries), { name: NAME });

describe("rules", () => {
  it("renders an agent_message once when its response item repeats it, whichever comes first", () => {
    const parsed = parse(
      meta(),
      context(),
      prompt("list files"),
      // newer builds: event before item, the texts differ (redaction) — matched by position
      reasoningEvent("Listing [event]"),
      reasoning("Listing"),
      saidEvent("I will list the files [event]"),
      said("I will list the files"),
      call("c1"),
      output("c1"),
      // item before event
      said("Done: a.txt"),
      saidEvent("Done: a.txt"),
      prompt("again"),
      // an event with no item (a build that did not persist it) is kept, marked
      saidEvent("only the event"),
    );
    const thread = onlyThread(parsed);
    expect(turnKeys(thread)).toBe("u3 a4 t9 a10 u12 a13");
    expect(thread.turns[1]!.parts).toEqual([
      { type: "thinking", text: "Listing" },
      { type: "text", text: "I will list the files" },
      { type: "tool_call", id: "c1", name: "exec_command", arguments: { cmd: "ls" } },
    ]);
    expect(thread.turns[1]!.content).toBe('I will list the files\n\n[exec_command] {"cmd":"ls"}');
    expect(thread.turns[3]!.parts).toEqual([{ type: "text", text: "Done: a.txt" }]);
    expect(thread.turns[5]!.parts).toEqual([{ type: "text", text: "only the event", fromEvent: true }]);
    expect(thread.turns[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "c1", content: "a.txt", name: "exec_command" }]);
    expect(JSON.stringify(parsed)).not.toContain("gAAAA-secret");
  });

  it("skips a truncated last line with its line number, and goes on", () => {
    const parsed = parse(meta(), context(), prompt("hi"), said("hello"), '{"timestamp":"2026-01-01T10:01:00.000Z","type":"event_msg","payload":{"type":"token_co');
    expect(parsed.skipped).toEqual([{ line: 5, reason: "truncated last line (the session may still be running)" }]);
    expect(turnKeys(onlyThread(parsed))).toBe("u3 a4");
    // a blank line after it does not make it a middle line
    const withBlank = parseCodexRollout([...lines(meta(), prompt("hi"), '{"type":"event_m'), { text: "", line: 4 }], { name: NAME });
    expect(withBlank.skipped).toEqual([{ line: 3, reason: "truncated last line (the session may still be running)" }]);
  });

  it("skips non-object lines, lines without a payload and broken middle lines, each with its line and reason", () => {
    const parsed = parse(
      meta(),
      "[1, 2, 3]",
      "42",
      { timestamp: at(), type: "event_msg" },
      { timestamp: at(), type: "response_item", payload: "text" },
      "{not json",
      { timestamp: at(), payload: { type: "user_message", message: "no type" } },
      { timestamp: at(), type: "world_state", payload: {} },
      prompt("still read"),
      item({ type: "function_call", name: "exec_command", arguments: "{}" }),
      event({ type: "user_message" }),
      said("ok"),
    );
    expect(parsed.skipped).toEqual([
      { line: 2, reason: "not a JSON object" },
      { line: 3, reason: "not a JSON object" },
      { line: 4, reason: "payload of the event_msg line: missing or not an object" },
      { line: 5, reason: "payload of the response_item line: missing or not an object" },
      { line: 6, reason: "not valid JSON" },
      { line: 7, reason: "type: missing or not a string" },
      { line: 10, reason: "function_call: call_id missing or not a string" },
      { line: 11, reason: "user_message message: missing or not a string" },
    ]);
    expect(turnKeys(onlyThread(parsed))).toBe("u9 a12");
  });

  it("refuses a file whose first line is not a rollout line", () => {
    const claude = { type: "user", uuid: "u1", parentUuid: null, sessionId: "s", timestamp: "2026-01-01T10:00:00.000Z", message: { role: "user", content: "q" } };
    expect(() => parse(claude, meta())).toThrow(ImportFormatError);
    expect(() => parse({ type: "turn_context", payload: {} }, prompt("q"))).toThrow(/line 1 is not a Codex rollout record/);
    expect(() => parse({ id: "x", timestamp: "2026-01-01T10:00:00.000Z" })).toThrow(ImportFormatError);
    expect(() => parse("", "   ")).toThrow(/no Codex rollout lines/);
    expect(() => parse("[1]", '{"trunc')).toThrow(ImportFormatError);
    try {
      parse({ hello: "world" }, meta());
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ImportFormatError);
      expect((error as ImportFormatError).line).toBe(1);
    }
  });

  it("detects a rollout by its first line", () => {
    expect(looksLikeCodexRollout(meta(), "x.jsonl")).toBe(true);
    expect(looksLikeCodexRollout(context(), "x.jsonl")).toBe(true);
    expect(looksLikeCodexRollout({ id: "x", timestamp: "2025-04-17T14:21:43.563Z", instructions: "" }, "anything.jsonl")).toBe(true);
    expect(looksLikeCodexRollout({ id: "x", timestamp: "2025-04-17T14:21:43.563Z", git: {} }, "rollout-2025-04-17-x.jsonl")).toBe(true);
    expect(looksLikeCodexRollout({ id: "x", timestamp: "2025-04-17T14:21:43.563Z", git: {} }, "notes.jsonl")).toBe(false);
    expect(looksLikeCodexRollout({ type: "user", message: {} }, "rollout-x.jsonl")).toBe(false);
    expect(looksLikeCodexRollout([meta()], "rollout-x.jsonl")).toBe(false);
  });

  it("makes a `compacted` record a system compaction turn, its context_compacted event no second one", () => {
    const parsed = parse(
      meta(),
      event({ type: "task_started", turn_id: "t1" }),
      context(),
      prompt("refactor"),
      said("working"),
      tokens(usage(1000, 0, 10), usage(1000, 0, 10)),
      // manual compaction between tasks: local summary text
      event({ type: "task_complete", turn_id: "t1" }),
      { timestamp: at(), type: "compacted", payload: { message: "Summary of the work so far" } },
      event({ type: "context_compacted" }),
      // a remote one, mid-task: empty message, replacement history with the encrypted item
      event({ type: "task_started", turn_id: "t2" }),
      prompt("go on"),
      call("c1"),
      tokens(usage(3000, 1000, 30), usage(2000, 1000, 20)),
      output("c1"),
      { timestamp: at(), type: "compacted", payload: { message: "", replacement_history: [{ type: "message", role: "user", content: [] }, { type: "compaction", encrypted_content: "gAAAA-secret" }] } },
      event({ type: "context_compacted" }),
      // an event alone (older builds): a marker all the same
      event({ type: "context_compacted" }),
    );
    const thread = onlyThread(parsed);
    expect(turnKeys(thread)).toBe("u4 a5 s8 u11 a12 t14 s15 s17");
    const [manual, remote, bare] = thread.turns.filter((t) => t.compaction);
    expect(manual).toMatchObject({ role: "system", content: "Summary of the work so far", compaction: { trigger: null, tokensBefore: 1010, tokensAfter: null } });
    expect(manual!.metadata).toEqual({ remote: false, cumulativeTotalTokens: 1010 });
    expect(remote).toMatchObject({ role: "system", content: "Context compacted (remote summary, encrypted)", compaction: { trigger: "auto", tokensBefore: 2020, tokensAfter: null } });
    expect(remote!.metadata).toEqual({ remote: true, replacementHistoryItems: 2, cumulativeTotalTokens: 3030 });
    expect(bare).toMatchObject({ role: "system", content: "Context compacted", metadata: { fromEvent: true } });
    expect(JSON.stringify(parsed)).not.toContain("gAAAA-secret");
    expect(summary(thread).usage).toEqual({ input: 2000, cacheRead: 1000, output: 30, reasoning: 0 });
  });

  it("fills the event's marker in when context_compacted comes before its `compacted` record", () => {
    const thread = onlyThread(parse(meta(), prompt("q"), said("a"), event({ type: "context_compacted" }), { timestamp: at(), type: "compacted", payload: { message: "the summary" } }, prompt("next")));
    expect(turnKeys(thread)).toBe("u2 a3 s4 u6");
    expect(thread.turns[2]).toMatchObject({ content: "the summary", metadata: { remote: false } });
  });

  it("drops the last N user turns on thread_rolled_back, with a warning and the usage they had", () => {
    const parsed = parse(
      meta(),
      context(),
      prompt("one"),
      said("first answer"),
      tokens(usage(100, 0, 10), usage(100, 0, 10)),
      prompt("two"),
      said("second answer"),
      tokens(usage(300, 100, 30), usage(200, 100, 20)),
      prompt("three"),
      call("c1"),
      tokens(usage(600, 300, 60), usage(300, 200, 30)),
      output("c1"),
      said("third answer"),
      tokens(usage(1000, 600, 100), usage(400, 300, 40)),
      event({ type: "thread_rolled_back", num_turns: 2 }),
      prompt("two, again"),
      said("new answer"),
      tokens(usage(1200, 700, 110), usage(200, 100, 10)),
      event({ type: "thread_rolled_back", num_turns: 5 }),
      event({ type: "thread_rolled_back", num_turns: 0 }),
    );
    const thread = onlyThread(parsed);
    expect(parsed.warnings).toEqual([
      "line 15: thread_rolled_back dropped the last 2 user turn(s) and what followed (6 turns, from line 6)",
      "line 19: thread_rolled_back dropped the last 2 user turn(s) and what followed (4 turns, from line 3); 5 were asked for",
    ]);
    expect(parsed.skipped).toEqual([{ line: 20, reason: "thread_rolled_back num_turns: not a positive number" }]);
    expect(thread.turns).toEqual([]);
    expect(thread.metadata?.rolledBackUsage).toEqual({ inputTokens: 500, cacheReadTokens: 700, outputTokens: 110, reasoningTokens: 0 });

    const once = onlyThread(parse(...lines15()));
    expect(turnKeys(once)).toBe("u3 a4");
    expect(once.turns[1]!.usage).toEqual({ inputTokens: 100, cacheReadTokens: 0, outputTokens: 10, reasoningTokens: 0 });
    expect(once.metadata?.rolledBackUsage).toEqual({ inputTokens: 300, cacheReadTokens: 600, outputTokens: 90, reasoningTokens: 0 });

    function lines15() {
      return [
        meta(),
        context(),
        prompt("one"),
        said("first answer"),
        tokens(usage(100, 0, 10), usage(100, 0, 10)),
        prompt("two"),
        said("second answer"),
        tokens(usage(300, 100, 30), usage(200, 100, 20)),
        prompt("three"),
        call("c1"),
        tokens(usage(600, 300, 60), usage(300, 200, 30)),
        output("c1"),
        said("third answer"),
        tokens(usage(1000, 600, 100), usage(400, 300, 40)),
        event({ type: "thread_rolled_back", num_turns: 2 }),
      ];
    }
  });

  it("keeps the keys of earlier turns when lines are appended", () => {
    const all = [
      meta(),
      userItem("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"),
      event({ type: "task_started", turn_id: "t1" }),
      context(),
      userItem("first"),
      prompt("first"),
      reasoningEvent("Thinking"),
      reasoning("Thinking"),
      said("Reading"),
      call("c1"),
      tokens(usage(100, 0, 10), usage(100, 0, 10)),
      output("c1"),
      context(),
      saidEvent("Done"),
      said("Done"),
      tokens(usage(300, 100, 30), usage(200, 100, 20)),
      event({ type: "task_complete", turn_id: "t1" }),
      { timestamp: at(), type: "compacted", payload: { message: "summary" } },
      event({ type: "context_compacted" }),
      userItem("second"),
      prompt("second"),
      said("Sure"),
    ];
    const full = onlyThread(parse(...all));
    // a prompt's turn is keyed by its item (line 5, 20), which comes before its event
    expect(turnKeys(full)).toBe("u5 a7 t12 a14 s18 u20 a22");
    expect(full.turns[0]).toMatchObject({ content: "first", timestamp: all[5]!.timestamp });
    expect(full.initialContext).toEqual({ environmentContext: "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>" });
    for (let n = 1; n <= all.length; n++) {
      const thread = onlyThread(parse(...all.slice(0, n)));
      expect(thread.key).toBe(THREAD_ID);
      expect(full.turns.slice(0, thread.turns.length).map((t) => `${t.role}${t.key}`)).toEqual(thread.turns.map((t) => `${t.role}${t.key}`));
    }
    // the same file parses the same way twice
    expect(parse(...all)).toEqual(parse(...all));
  });

  it("gives each request's usage to the turn that holds its output, with a model switch", () => {
    const thread = onlyThread(
      parse(
        meta(),
        context("gpt-5.3-codex"),
        prompt("q"),
        reasoning("plan"),
        call("c1"),
        // a fast tool output before the count: the count still pays the call's request
        output("c1"),
        tokens(usage(100, 0, 10, 4), usage(100, 0, 10, 4)),
        context("gpt-5.4"),
        tokens(usage(100, 0, 10, 4), usage(100, 0, 10, 4)),
        said("answer"),
        tokens(usage(250, 80, 25, 5), usage(150, 80, 15, 1)),
        event({ type: "token_count", info: null, rate_limits: {} }),
      ),
    );
    expect(turnKeys(thread)).toBe("u3 a4 t6 a10");
    expect(thread.turns.map((t) => t.modelName ?? null)).toEqual([null, "gpt-5.3-codex", null, "gpt-5.4"]);
    expect(thread.turns[1]!.usage).toEqual({ inputTokens: 100, cacheReadTokens: 0, outputTokens: 10, reasoningTokens: 4 });
    expect(thread.turns[3]!.usage).toEqual({ inputTokens: 70, cacheReadTokens: 80, outputTokens: 15, reasoningTokens: 1 });
  });

  it("takes the thread key from the file name when no session_meta is there", () => {
    const parsed = parseCodexRollout(lines(context(), prompt("q"), said("a")), { name: `sessions/2026/01/01/${NAME}` });
    expect(onlyThread(parsed).key).toBe(THREAD_ID);
    expect(parsed.warnings).toEqual([`no session_meta with an id: the thread key comes from the file name (${THREAD_ID})`]);
  });

  it("links a sub-agent rollout to its parent, and a fork to its origin", () => {
    const parentId = "0199aaaa-0000-7000-8000-0000000000ff";
    const child = onlyThread(parse(meta({ source: { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1, agent_nickname: "scout" } } } }), prompt("q")));
    expect(child.parentKey).toBe(parentId);
    expect(child.relation).toEqual({ kind: "subagent", toolCallId: null, agentId: "scout" });
    const fork = onlyThread(parse(meta({ forked_from_id: parentId }), prompt("q")));
    expect(fork.parentKey).toBe(parentId);
    expect(fork.relation).toEqual({ kind: "fork", atTurnKey: null });
  });

  it("reads the pre-Sept-2025 bare format", () => {
    const parsed = parseCodexRollout(
      lines(
        { id: "5f0e5e4b-3c3a-4a8a-9d41-8f3e1b2c4d5e", timestamp: "2025-04-17T14:21:43.563Z", instructions: "Be terse.", git: { commit_hash: "abc", branch: "main" } },
        { record_type: "state" },
        { type: "message", role: "user", content: [{ type: "input_text", text: "<user_instructions>\n\nUse pnpm.\n\n</user_instructions>" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/old</cwd>\n</environment_context>" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "fix the build" }] },
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Check the build" }], encrypted_content: "gAAAA-secret" },
        { type: "function_call", id: "fc_1", name: "shell", arguments: '{"command":["npm","run","build"]}', call_id: "call_1" },
        { record_type: "state" },
        { type: "function_call_output", call_id: "call_1", output: '{"output":"ok","metadata":{"exit_code":0,"duration_seconds":1.5}}' },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "The build passes." }] },
        { name: "no type" },
        '{"type":"message","role":"ass',
      ),
      { name: "rollout-2025-04-17-5f0e5e4b-3c3a-4a8a-9d41-8f3e1b2c4d5e.jsonl" },
    );
    expect(parsed.skipped).toEqual([
      { line: 11, reason: "type: missing (expected a response item)" },
      { line: 12, reason: "truncated last line (the session may still be running)" },
    ]);
    const thread = onlyThread(parsed);
    expect(thread.key).toBe("5f0e5e4b-3c3a-4a8a-9d41-8f3e1b2c4d5e");
    expect(thread.createdAt).toBe("2025-04-17T14:21:43.563Z");
    expect(thread.title).toBe("fix the build");
    expect(thread.metadata).toMatchObject({ bareFormat: true, git: { commit: "abc", branch: "main" } });
    expect(thread.initialContext).toMatchObject({ instructions: expect.stringMatching(/^<user_instructions>/), environmentContext: expect.stringMatching(/^<environment_context>/) });
    expect(turnKeys(thread)).toBe("u5 a6 t9 a10");
    expect(thread.turns[1]!.parts).toEqual([
      { type: "thinking", text: "Check the build" },
      { type: "tool_call", id: "call_1", name: "shell", arguments: { command: ["npm", "run", "build"] } },
    ]);
    expect(thread.turns[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "call_1", content: "ok", exitCode: 0, durationSeconds: 1.5, name: "shell" }]);
    expect(thread.turns[3]!.content).toBe("The build passes.");
    expectPaired(thread);
    expect(JSON.stringify(parsed)).not.toContain("gAAAA-secret");
  });

  it("pairs the other kinds of calls by call_id and marks failed outputs", () => {
    const thread = onlyThread(
      parse(
        meta(),
        context(),
        prompt("q"),
        item({ type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch", call_id: "p1", status: "completed" }),
        item({ type: "local_shell_call", call_id: "s1", status: "completed", action: { type: "exec", command: ["ls"] } }),
        item({ type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "codex" } }),
        item({ type: "custom_tool_call_output", call_id: "p1", output: "Exit code: 1\nWall time: 0.1 seconds\nOutput:\npatch failed" }),
        item({ type: "function_call_output", call_id: "s1", output: "a.txt" }),
      ),
    );
    expect(turnKeys(thread)).toBe("u3 a4 t7 t8");
    expect(thread.turns[1]!.parts).toEqual([
      { type: "tool_call", id: "p1", name: "apply_patch", arguments: "*** Begin Patch", custom: true },
      { type: "tool_call", id: "s1", name: "local_shell", arguments: { type: "exec", command: ["ls"] } },
      { type: "tool_call", id: "ws_1", name: "web_search", arguments: { type: "search", query: "codex" } },
    ]);
    expect(thread.turns[2]!.parts).toEqual([
      { type: "tool_result", toolCallId: "p1", content: "Exit code: 1\nWall time: 0.1 seconds\nOutput:\npatch failed", isError: true, exitCode: 1, name: "apply_patch" },
    ]);
    expect(thread.turns[3]!.parts).toEqual([{ type: "tool_result", toolCallId: "s1", content: "a.txt", name: "local_shell" }]);
  });
});
