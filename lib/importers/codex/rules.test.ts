import { describe, expect, it } from "vitest";
import { ImportFormatError } from "../types";
import { looksLikeCodexRollout, parseCodexRollout } from "./index";
import { expectPaired, lines, onlyThread, summary, turnKeys } from "./test-helpers";

const THREAD_ID = "0199aaaa-0000-7000-8000-000000000001";
const NAME = `rollout-2026-01-01T10-00-00-${THREAD_ID}.jsonl`;
let clock = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 10, 0, clock++)).toISOString();
const meta = (extra: object = {}) => ({
  timestamp: "2026-01-01T10:00:00.000Z",
  type: "session_meta",
  payload: {
    id: THREAD_ID,
    timestamp: "2026-01-01T10:00:00.000Z",
    cwd: "/w",
    originator: "codex_cli_rs",
    cli_version: "0.120.0",
    source: "cli",
    model_provider: "openai",
    ...extra,
  },
});
const context = (model = "gpt-5.3-codex", turnId = "t1") => ({
  timestamp: at(),
  type: "turn_context",
  payload: { turn_id: turnId, cwd: "/w", model, effort: "medium" },
});
const event = (payload: object) => ({ timestamp: at(), type: "event_msg", payload });
const item = (payload: object) => ({ timestamp: at(), type: "response_item", payload });
const prompt = (message: string) => event({ type: "user_message", message, images: [] });
/** The user-role item Codex writes just before a prompt's user_message event (or injected context). */
const userItem = (text: string) => item({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const said = (text: string) => item({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const saidEvent = (message: string) => event({ type: "agent_message", message });
const reasoning = (...summary: string[]) =>
  item({ type: "reasoning", summary: summary.map((text) => ({ type: "summary_text", text })), encrypted_content: "gAAAA-secret" });
const reasoningEvent = (text: string) => event({ type: "agent_reasoning", text });
const call = (callId: string, command = "ls") =>
  item({ type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd: command }), call_id: callId });
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
    const parsed = parse(
      meta(),
      context(),
      prompt("hi"),
      said("hello"),
      '{"timestamp":"2026-01-01T10:01:00.000Z","type":"event_msg","payload":{"type":"token_co',
    );
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
    const claude = {
      type: "user",
      uuid: "u1",
      parentUuid: null,
      sessionId: "s",
      timestamp: "2026-01-01T10:00:00.000Z",
      message: { role: "user", content: "q" },
    };
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
      {
        timestamp: at(),
        type: "compacted",
        payload: {
          message: "",
          replacement_history: [
            { type: "message", role: "user", content: [] },
            { type: "compaction", encrypted_content: "gAAAA-secret" },
          ],
        },
      },
      event({ type: "context_compacted" }),
      // an event alone (older builds): a marker all the same
      event({ type: "context_compacted" }),
    );
    const thread = onlyThread(parsed);
    expect(turnKeys(thread)).toBe("u4 a5 s8 u11 a12 t14 s15 s17");
    const [manual, remote, bare] = thread.turns.filter((t) => t.compaction);
    expect(manual).toMatchObject({
      role: "system",
      content: "Summary of the work so far",
      compaction: { trigger: null, tokensBefore: 1010, tokensAfter: null },
    });
    expect(manual!.metadata).toEqual({ remote: false, cumulativeTotalTokens: 1010 });
    expect(remote).toMatchObject({
      role: "system",
      content: "Context compacted (remote summary, encrypted)",
      compaction: { trigger: "auto", tokensBefore: 2020, tokensAfter: null },
    });
    expect(remote!.metadata).toEqual({ remote: true, replacementHistoryItems: 2, cumulativeTotalTokens: 3030 });
    expect(bare).toMatchObject({ role: "system", content: "Context compacted", metadata: { fromEvent: true } });
    expect(JSON.stringify(parsed)).not.toContain("gAAAA-secret");
    expect(summary(thread).usage).toEqual({ input: 2000, cacheRead: 1000, output: 30, reasoning: 0 });
  });

  it("fills the event's marker in when context_compacted comes before its `compacted` record", () => {
    const thread = onlyThread(
      parse(
        meta(),
        prompt("q"),
        said("a"),
        event({ type: "context_compacted" }),
        { timestamp: at(), type: "compacted", payload: { message: "the summary" } },
        prompt("next"),
      ),
    );
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
      expect(full.turns.slice(0, thread.turns.length).map((t) => `${t.role}${t.key}`)).toEqual(
        thread.turns.map((t) => `${t.role}${t.key}`),
      );
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
    const child = onlyThread(
      parse(
        meta({ source: { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1, agent_nickname: "scout" } } } }),
        prompt("q"),
      ),
    );
    expect(child.parentKey).toBe(parentId);
    expect(child.relation).toEqual({ kind: "subagent", toolCallId: null, agentId: "scout" });
    const fork = onlyThread(parse(meta({ forked_from_id: parentId }), prompt("q")));
    expect(fork.parentKey).toBe(parentId);
    expect(fork.relation).toEqual({ kind: "fork", atTurnKey: null });
  });

  it("reads the pre-Sept-2025 bare format", () => {
    const parsed = parseCodexRollout(
      lines(
        {
          id: "5f0e5e4b-3c3a-4a8a-9d41-8f3e1b2c4d5e",
          timestamp: "2025-04-17T14:21:43.563Z",
          instructions: "Be terse.",
          git: { commit_hash: "abc", branch: "main" },
        },
        { record_type: "state" },
        {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "<user_instructions>\n\nUse pnpm.\n\n</user_instructions>" }],
        },
        {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/old</cwd>\n</environment_context>" }],
        },
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
    expect(thread.initialContext).toMatchObject({
      instructions: expect.stringMatching(/^<user_instructions>/),
      environmentContext: expect.stringMatching(/^<environment_context>/),
    });
    expect(turnKeys(thread)).toBe("u5 a6 t9 a10");
    expect(thread.turns[1]!.parts).toEqual([
      { type: "thinking", text: "Check the build" },
      { type: "tool_call", id: "call_1", name: "shell", arguments: { command: ["npm", "run", "build"] } },
    ]);
    expect(thread.turns[2]!.parts).toEqual([
      { type: "tool_result", toolCallId: "call_1", content: "ok", exitCode: 0, durationSeconds: 1.5, name: "shell" },
    ]);
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
      {
        type: "tool_result",
        toolCallId: "p1",
        content: "Exit code: 1\nWall time: 0.1 seconds\nOutput:\npatch failed",
        isError: true,
        exitCode: 1,
        name: "apply_patch",
      },
    ]);
    expect(thread.turns[3]!.parts).toEqual([{ type: "tool_result", toolCallId: "s1", content: "a.txt", name: "local_shell" }]);
  });
});
