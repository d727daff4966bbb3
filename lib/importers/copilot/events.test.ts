// The events.jsonl mapping on synthetic sessions: the cases the real fixture lacks (resumes, errors,
// edits, partial files, unknown events, bad lines).
import { describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { detectFormat } from "../index";
import { ImportFormatError } from "../types";
import { looksLikeCopilotEvents, parseCopilotEvents } from "./index";
import {
  SESSION,
  assistant,
  event,
  expectPaired,
  jsonl,
  onlyThread,
  partsOf,
  request,
  shutdown,
  start,
  toolDone,
  toolStart,
  user,
} from "./test-helpers";

const parse = (...records: unknown[]) => parseCopilotEvents(jsonl(...records), { name: `session-state/${SESSION}/events.jsonl` });

describe("session totals from session.shutdown", () => {
  it("sums the reports of a resumed session per model, input without cache reads and writes", () => {
    const result = parse(
      start(),
      user("hi"),
      shutdown({ "claude-sonnet-4.6": { count: 3, cost: 1, input: 1000, output: 50, cacheRead: 600, cacheWrite: 100 } }),
      event("session.resume", { resumeTime: "2026-01-01T11:00:00.000Z" }),
      user("again"),
      shutdown({
        "claude-sonnet-4.6": { count: 2, cost: 1, input: 500, output: 20, cacheRead: 400, cacheWrite: 0, reasoning: 7 },
        "gpt-5.2": { count: 1, cost: 0, input: 300, output: 30, cacheRead: 0, cacheWrite: 0 },
      }),
    );
    const totals = sessionTotalsOf(onlyThread(result).metadata);
    expect(totals).toMatchObject({
      source: "copilot session.shutdown",
      reports: 2,
      premiumRequests: 2,
      apiDurationMs: 2000,
      codeChanges: { linesAdded: 2, linesRemoved: 0, filesModified: ["a.ts"] },
      models: {
        "claude-sonnet-4.6": {
          requests: 5,
          premiumRequests: 2,
          reportedInputTokens: 1500,
          inputTokens: 400,
          cacheReadTokens: 1000,
          cacheWriteTokens: 100,
          outputTokens: 70,
          reasoningTokens: 7,
        },
        "gpt-5.2": { requests: 1, premiumRequests: 0, reportedInputTokens: 300, inputTokens: 300, cacheReadTokens: 0, outputTokens: 30 },
      },
    });
    // No turn carries a usage: Copilot reports none per response.
    expect(onlyThread(result).turns.every((t) => t.usage == null)).toBe(true);
    // The unknown session.resume is kept in order with the shutdown reports (their modelMetrics live in sessionTotals).
    const events = onlyThread(result).metadata?.sessionEvents as { type: string; modelMetrics?: unknown }[];
    expect(events.map((e) => e.type)).toEqual(["session.shutdown", "session.resume", "session.shutdown"]);
    expect(events[0]!.modelMetrics).toBeUndefined();
    expect(result.warnings).toEqual(["event types Threadline does not map, kept in the thread's metadata (sessionEvents): session.resume"]);
  });

  it("has no totals without a shutdown, and warns of input smaller than its cache", () => {
    expect(onlyThread(parse(start(), user("hi"))).metadata?.sessionTotals).toBeUndefined();
    const result = parse(start(), shutdown({ m: { count: 1, cost: 0, input: 10, output: 1, cacheRead: 20, cacheWrite: 0 } }));
    expect(sessionTotalsOf(onlyThread(result).metadata)?.models.m?.inputTokens).toBe(0);
    expect(result.warnings[0]).toContain("fewer than its cache reads and writes");
  });
});

describe("tool calls", () => {
  it("marks a failed execution as an error, with Copilot's error message as the result", () => {
    const thread = onlyThread(
      parse(
        start(),
        user("run it"),
        assistant({ toolRequests: [request("c1", "bash", { command: "false" })] }),
        toolStart("c1", "bash", { command: "false" }),
        event("tool.execution_complete", { toolCallId: "c1", success: false, error: { message: "exit code 1", code: "failure" } }),
      ),
    );
    expect(expectPaired(thread)).toBe(1);
    const result = partsOf(thread, "tool_result")[0]!;
    expect(result).toMatchObject({
      type: "tool_result",
      toolCallId: "c1",
      content: "exit code 1",
      isError: true,
      error: { message: "exit code 1", code: "failure" },
    });
    expect(result.startedAt).toBeDefined();
  });

  it("keeps an edit's diff as the result's diff, and a view rendered as a context-only diff as a plain detail", () => {
    const edit = "diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n keep();\n";
    const view = "\ndiff --git a/src b/src\ncreate file mode 100644\n--- a/dev/null\n+++ b/src\n@@ -1,0 +1,2 @@\n a.ts\n b.ts\n";
    const thread = onlyThread(
      parse(
        start(),
        assistant({ toolRequests: [request("e1", "edit", { path: "a.ts" }), request("v1", "view", { path: "src" })] }),
        toolDone("e1", { content: "File a.ts updated.", detailedContent: edit }),
        toolDone("v1", { content: "a.ts\nb.ts", detailedContent: view }),
      ),
    );
    const [editTurn, viewTurn] = thread.turns.filter((t) => t.role === "tool");
    expect(editTurn!.parts).toEqual([{ type: "tool_result", toolCallId: "e1", content: "File a.ts updated.", isError: false, diff: edit }]);
    expect(editTurn!.content).toBe("File a.ts updated.");
    expect(editTurn!.toolName).toBe("edit");
    expect(viewTurn!.parts).toHaveLength(1);
    expect(viewTurn!.parts![0]).toMatchObject({ detailedContent: view });
    // The request's own fields stay on the call; its "function" type does not replace the part's.
    expect(partsOf(thread, "tool_call")[0]).toEqual({
      type: "tool_call",
      id: "e1",
      name: "edit",
      arguments: { path: "a.ts" },
      requestType: "function",
    });
  });

  it("keeps a call whose request is not in the file (a partial file) from its execution_start, and names the key from the folder", () => {
    const result = parseCopilotEvents(
      jsonl(toolStart("c9", "view", { path: "x" }), toolDone("c9", { content: "x" }), assistant({ content: "done" })),
      { name: `/home/u/.copilot/session-state/${SESSION}/events.jsonl` },
    );
    const thread = onlyThread(result);
    expect(thread.key).toBe(SESSION);
    expect(result.warnings[0]).toContain("the thread key comes from the file's path");
    expect(expectPaired(thread)).toBe(1);
    expect(thread.turns[0]).toMatchObject({ role: "assistant", metadata: { callFromExecutionStart: true } });
    // The model that ran the call answers the next message.
    expect(thread.turns[2]).toMatchObject({ role: "assistant", modelName: "claude-sonnet-4.6", content: "done" });
  });

  it("keeps the arguments an execution ran with when they differ from the request's", () => {
    const thread = onlyThread(
      parse(
        start(),
        assistant({ toolRequests: [request("c1", "bash", { command: "ls" })] }),
        toolStart("c1", "bash", { command: "ls -la" }),
        toolDone("c1", { content: "x" }),
      ),
    );
    expect(partsOf(thread, "tool_result")[0]).toMatchObject({ executedArguments: { command: "ls -la" } });
    const same = onlyThread(
      parse(
        start(),
        assistant({ toolRequests: [request("c1", "bash", { command: "ls" })] }),
        toolStart("c1", "bash", { command: "ls" }),
        toolDone("c1", { content: "x" }),
      ),
    );
    expect(partsOf(same, "tool_result")[0]!.executedArguments).toBeUndefined();
  });

  it("warns of a call that never completed, and of a result whose call is not in the file", () => {
    const result = parse(start(), assistant({ toolRequests: [request("c1", "bash")] }), toolDone("zz", { content: "?" }));
    expect(result.warnings).toEqual([
      expect.stringContaining("result of tool call zz"),
      expect.stringContaining("tool call c1 (bash) has no tool.execution_complete"),
    ]);
  });
});

describe("messages", () => {
  it("attributes models from model_change and tool results, keeps reasoning effort, hides reasoningOpaque", () => {
    const thread = onlyThread(
      parse(
        start(),
        event("session.model_change", { newModel: "gpt-5.2", reasoningEffort: "medium" }),
        assistant({ content: "a", reasoningText: "think", reasoningOpaque: "SECRET-BLOB", toolRequests: [request("c1", "view")] }),
        toolDone("c1", { content: "ok" }, { model: "claude-haiku-4.5" }),
        assistant({ content: "b" }),
      ),
    );
    const [first, second] = thread.turns.filter((t) => t.role === "assistant");
    expect(first).toMatchObject({
      modelName: "gpt-5.2",
      metadata: { reasoningEffort: "medium", reasoningOpaqueChars: 11, outputTokens: 10 },
    });
    expect(first!.parts!.map((p) => p.type)).toEqual(["thinking", "text", "tool_call"]);
    expect(JSON.stringify(thread)).not.toContain("SECRET-BLOB");
    expect(second!.modelName).toBe("claude-haiku-4.5");
  });

  it("makes a changed system prompt a system turn and counts identical repeats", () => {
    const thread = onlyThread(
      parse(
        start(),
        event("system.message", { role: "system", content: "P1" }),
        user("a"),
        event("system.message", { role: "system", content: "P1" }),
        user("b"),
        event("system.message", { role: "system", content: "P2" }),
      ),
    );
    expect(thread.initialContext).toEqual({ instructions: "P1" });
    expect(thread.turns.filter((t) => t.role === "system").map((t) => t.content)).toEqual(["P2"]);
    expect(thread.metadata?.systemMessages).toMatchObject({ count: 3, repeatsOfThePrompt: 1 });
  });

  it("shows what the model saw for autopilot's own prompts, and attachments as files", () => {
    const thread = onlyThread(
      parse(
        start(),
        user("", { transformedContent: "Keep working." }),
        user("look", { attachments: [{ type: "file", path: "/w/a.ts", displayName: "a.ts" }] }),
      ),
    );
    expect(thread.turns[0]).toMatchObject({ content: "Keep working.", metadata: { noTypedText: true } });
    expect(thread.turns[0]!.metadata?.transformedContent).toBeUndefined();
    expect(thread.turns[1]).toMatchObject({ content: "look", files: ["/w/a.ts"] });
    expect(thread.title).toBe("look");
  });

  it("reports an assistant turn that produced no message", () => {
    const result = parse(start(), event("assistant.turn_start", { turnId: "0" }), event("assistant.turn_end", { turnId: "0" }));
    expect(result.skipped).toEqual([{ line: 2, reason: "assistant turn 0 ended (line 3) without an assistant.message" }]);
  });
});

describe("lines and detection", () => {
  it("refuses a file whose first line is not a Copilot event, naming the line", () => {
    expect(() => parseCopilotEvents(jsonl({ type: "user", message: {} }), { name: "x.jsonl" })).toThrow(ImportFormatError);
    expect(() => parseCopilotEvents(jsonl("{oops"), { name: "x.jsonl" })).toThrow(/x\.jsonl: line 1: not valid JSON/);
  });

  it("skips bad lines after the first with their line numbers, a truncated last line said so", () => {
    const result = parse(start(), "not json", { type: "user", x: 1 }, user("hi"), '{"type":"user.mess');
    expect(result.skipped).toEqual([
      { line: 2, reason: "not valid JSON" },
      { line: 3, reason: 'event "user" without Copilot\'s envelope (data, id, timestamp)' },
      { line: 5, reason: "not valid JSON (truncated last line?)" },
    ]);
    expect(onlyThread(result).turns).toHaveLength(1);
  });

  it("gives the same keys and turns to a file and to its start (an append changes no earlier turn)", () => {
    const records = [
      start(),
      user("a"),
      assistant({ toolRequests: [request("c1", "view")] }),
      toolStart("c1", "view"),
      toolDone("c1", { content: "x" }, { model: "gpt-5.2" }),
      assistant({ content: "b" }),
      shutdown({ m: { count: 1, cost: 1, input: 5, output: 1, cacheRead: 0, cacheWrite: 0 } }),
    ];
    const whole = onlyThread(parse(...records)).turns;
    for (let cut = 1; cut < records.length; cut++) {
      const prefix = onlyThread(parse(...records.slice(0, cut))).turns;
      expect(whole.slice(0, prefix.length)).toEqual(prefix);
    }
  });

  it("is detected from session.start or any known event first, and not from other agents' lines", () => {
    expect(looksLikeCopilotEvents(start(), "events.jsonl")).toBe(true);
    expect(looksLikeCopilotEvents(user("x"), "events.jsonl")).toBe(true);
    expect(looksLikeCopilotEvents({ type: "session_meta", payload: {}, timestamp: "t" }, "rollout.jsonl")).toBe(false);
    expect(looksLikeCopilotEvents({ type: "user", sessionId: "s", uuid: "u", message: {} }, "a.jsonl")).toBe(false);
    expect(looksLikeCopilotEvents({ type: "session", version: 3, id: "x", timestamp: "t" }, "a.jsonl")).toBe(false);
    expect(
      detectFormat(
        "events.jsonl",
        jsonl(user("partial"), assistant({ content: "x" }))
          .map((l) => l.text)
          .join("\n"),
      ).format,
    ).toBe("copilot");
  });
});
