import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikeClaudeCode, parseClaudeCodeSession } from "./index";
import { ImportFormatError, type ImportedThread, type NumberedLine } from "../types";

const ROOT = path.join(process.cwd(), "fixtures/real/claude-code/projects");

function fileLines(relative: string): NumberedLine[] {
  return readFileSync(path.join(ROOT, relative), "utf8")
    .split("\n")
    .map((text, i) => ({ text, line: i + 1 }));
}

const lines = (...entries: (object | string)[]): NumberedLine[] =>
  entries.map((entry, i) => ({ text: typeof entry === "string" ? entry : JSON.stringify(entry), line: i + 1 }));

function summary(thread: ImportedThread) {
  const roles: Record<string, number> = {};
  for (const turn of thread.turns) roles[turn.role] = (roles[turn.role] ?? 0) + 1;
  const parts = thread.turns.flatMap((t) => t.parts ?? []);
  const sum = (field: "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens") =>
    thread.turns.reduce((total, t) => total + (t.usage?.[field] ?? 0), 0);
  return {
    roles,
    toolCalls: parts.filter((p) => p.type === "tool_call").length,
    toolResults: parts.filter((p) => p.type === "tool_result").length,
    models: [...new Set(thread.turns.map((t) => t.modelName).filter(Boolean))].sort(),
    usage: {
      input: sum("inputTokens"),
      output: sum("outputTokens"),
      cacheRead: sum("cacheReadTokens"),
      cacheWrite: sum("cacheWriteTokens"),
    },
    compactions: thread.turns.filter((t) => t.compaction).length,
  };
}

/**
 * Expected figures were read from the files with Python, independently of this parser: per file,
 * entries deduplicated by uuid; assistant turns = distinct message.id; tool calls = tool_use
 * blocks; tool results = tool_result blocks; users = user entries without tool_result parts and
 * not isCompactSummary (isMeta ones counted apart); usage summed once per (message.id, requestId),
 * skipping model "<synthetic>"; compactions = system/compact_boundary entries; sidechain roots =
 * isSidechain user entries with parentUuid null.
 */
describe("real Claude Code sessions", () => {
  it("2.1.39 excerpt: models switch, a Task sub-agent, a manual compaction", async () => {
    const parsed = await parseClaudeCodeSession(
      fileLines("-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl"),
      {
        name: "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
      },
    );
    expect(parsed.skipped).toEqual([]);
    expect(parsed.threads).toHaveLength(1);
    const [thread] = parsed.threads;
    expect(thread!.key).toBe("ae4a77f8-aedd-4bc1-888f-c94edc91af04");
    expect(thread!.title).toMatch(/^Work on bead spotter-4te\./);
    expect(thread!.project).toBe("/home/USER/projects/spotter-worktrees/spotter-4te");
    expect(thread!.metadata).toMatchObject({ version: "2.1.39", gitBranch: expect.any(String) });
    // 8 distinct message ids; 4 typed prompts or commands + 2 meta entries; 14 tool_use / tool_result
    expect(summary(thread!)).toEqual({
      roles: { user: 6, assistant: 8, tool: 14, system: 1 },
      toolCalls: 14,
      toolResults: 14,
      models: ["claude-haiku-4-5-20251001", "claude-opus-4-6"],
      usage: { input: 20, output: 763, cacheRead: 189_589, cacheWrite: 77_978 },
      compactions: 1,
    });
    const compaction = thread!.turns.find((t) => t.compaction)!;
    expect(compaction.compaction).toEqual({ trigger: "manual", tokensBefore: 142_431, tokensAfter: null });
    expect(compaction.content).toMatch(/^This session is being continued from a previous conversation/);
    // the Task's result names the sub-agent that ran it
    const agentResult = thread!.turns.flatMap((t) => t.parts ?? []).find((p) => p.type === "tool_result" && p.agentId);
    expect(agentResult).toMatchObject({ agentId: "aac57f5" });
    // ... and what the Task result says the agent's final request used (toolUseResult.usage and totals, line 99)
    expect(agentResult!.agentReport).toEqual({
      inputTokens: 79,
      cacheWriteTokens: 3378,
      cacheReadTokens: 15_436,
      outputTokens: 938,
      totalTokens: 19_831,
      toolUses: 12,
      durationMs: 32_548,
    });
    // the boundary names the entry the compaction run's request followed
    expect(compaction.metadata).toMatchObject({ logicalParentUuid: "23b73f9a-2123-4b8e-81a2-b98378c7498f" });
  });

  it("2.1 sub-agent file: a child thread of its session; the compaction helper gives no thread but its run's usage", async () => {
    const agent = await parseClaudeCodeSession(
      fileLines("-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl"),
      {
        name: "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl",
      },
    );
    expect(agent.threads).toHaveLength(1);
    const [thread] = agent.threads;
    expect(thread!.key).toBe("ae4a77f8-aedd-4bc1-888f-c94edc91af04:agent:aac57f5");
    expect(thread!.parentKey).toBe("ae4a77f8-aedd-4bc1-888f-c94edc91af04");
    expect(thread!.relation).toEqual({ kind: "subagent", toolCallId: null, agentId: "aac57f5" });
    expect(summary(thread!)).toEqual({
      roles: { user: 1, assistant: 3, tool: 12 },
      toolCalls: 12,
      toolResults: 12,
      models: ["claude-sonnet-4-5-20250929"],
      usage: { input: 2408, output: 7, cacheRead: 29_274, cacheWrite: 18_814 },
      compactions: 0,
    });

    const helper = await parseClaudeCodeSession(
      fileLines(
        "-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-acompact-946d2b.jsonl",
      ),
      {
        name: "subagents/agent-acompact-946d2b.jsonl",
      },
    );
    expect(helper.threads).toEqual([]);
    expect(helper.warnings).toEqual([
      "agent-acompact-946d2b.jsonl is the compaction summariser's transcript, not a conversation: no thread; its usage (1 response) counts with session ae4a77f8-aedd-4bc1-888f-c94edc91af04",
    ]);
    // Its one response (msg_01PKUiWZ..., one line), tied to the session and to the boundary's logicalParentUuid.
    expect(helper.compactionRuns).toEqual([
      {
        threadKey: "ae4a77f8-aedd-4bc1-888f-c94edc91af04",
        runId: "acompact-946d2b",
        afterTurnKey: "23b73f9a-2123-4b8e-81a2-b98378c7498f",
        modelProvider: "anthropic",
        modelName: "claude-opus-4-6",
        responses: [
          {
            key: "msg_01PKUiWZohLj43EHW343WeHF|req_011CY4MgNtPrVVYhpAZsWK7E",
            timestamp: "2026-02-12T14:48:36.518Z",
            usage: {
              inputTokens: 3,
              cacheWriteTokens: 121_689,
              cacheReadTokens: 17_842,
              outputTokens: 8,
              cacheWrite5mTokens: 121_689,
              cacheWrite1hTokens: 0,
            },
          },
        ],
      },
    ]);
  });

  it("1.0.108: inline sidechains become sub-agent threads linked to their Task calls", async () => {
    const parsed = await parseClaudeCodeSession(fileLines("-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"), {
      name: "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
    });
    expect(parsed.threads.map((t) => t.key)).toEqual([
      "5c0375b4-57a5-4f26-b12d-d022ee4e51b7",
      "5c0375b4-57a5-4f26-b12d-d022ee4e51b7:sidechain:6340ddef-f656-4b72-a065-82390f637678",
      "5c0375b4-57a5-4f26-b12d-d022ee4e51b7:sidechain:83e2917c-8940-4df6-a5a5-f2514f0d08c5",
    ]);
    const [main, first, second] = parsed.threads;
    // no typed prompt: the slash command names the session
    expect(main!.title).toBe("/orchestrator @CLAUDE.md を最新の状態にアップデートしてください");
    expect(summary(main!)).toMatchObject({
      roles: { user: 2, assistant: 10, tool: 13 },
      toolCalls: 13,
      toolResults: 13,
      usage: { input: 64, output: 2003, cacheRead: 190_261, cacheWrite: 26_074 },
    });
    // sidechains: 2 roots, 10 messages, 8 tool calls, usage 65 / 1,626 / 133,998 / 21,673 in all
    expect(first!.relation).toEqual({ kind: "subagent", toolCallId: "toolu_014YF9TXhDRR7BnpasNJ7gjC" });
    expect(second!.relation).toEqual({ kind: "subagent", toolCallId: "toolu_01LKfUwrsnof18CpWZQcJH44" });
    const sides = [summary(first!), summary(second!)];
    expect(sides.reduce((n, s) => n + (s.roles.assistant ?? 0), 0)).toBe(10);
    expect(sides.reduce((n, s) => n + s.toolCalls, 0)).toBe(8);
    expect(sides.reduce((n, s) => n + s.usage.output, 0)).toBe(1626);
    expect(sides.reduce((n, s) => n + s.usage.cacheRead, 0)).toBe(133_998);
    // the Task calls that spawned them are in the main thread
    const mainCalls = main!.turns
      .flatMap((t) => t.parts ?? [])
      .filter((p) => p.type === "tool_call")
      .map((p) => (p.type === "tool_call" ? p.id : ""));
    expect(mainCalls).toEqual(expect.arrayContaining(["toolu_014YF9TXhDRR7BnpasNJ7gjC", "toolu_01LKfUwrsnof18CpWZQcJH44"]));
  });

  it("2.0.28: summary lines that title other sessions are not this one's title", async () => {
    const parsed = await parseClaudeCodeSession(
      fileLines("-Users-jnarowski-Dev-sourceborn-src-agent-workflows-monorepo-v2/10cd5911-8704-4996-9e33-32010589c357.jsonl"),
      {
        name: "10cd5911-8704-4996-9e33-32010589c357.jsonl",
      },
    );
    expect(parsed.threads).toHaveLength(1);
    expect(parsed.threads[0]!.title).toBe("search the web for the claude code response types");
    expect(summary(parsed.threads[0]!)).toMatchObject({
      roles: { user: 1, assistant: 3, tool: 5 },
      usage: { input: 14, output: 12, cacheRead: 50_325, cacheWrite: 9289 },
    });
  });

  it("2.1.38: local commands are system turns, queue operations and snapshots are ignored", async () => {
    const small = await parseClaudeCodeSession(fileLines("-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl"), {
      name: "55604662-cf2a-4331-851a-ec234028f8ca.jsonl",
    });
    expect(summary(small.threads[0]!)).toMatchObject({
      roles: { user: 2, assistant: 1, tool: 2, system: 2 },
      toolCalls: 2,
      models: ["claude-opus-4-6"],
    });
    const tools = await parseClaudeCodeSession(fileLines("-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl"), {
      name: "d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl",
    });
    expect(summary(tools.threads[0]!)).toMatchObject({
      roles: { user: 7, assistant: 4, tool: 6, system: 2 },
      usage: { input: 54, output: 212, cacheRead: 88_231, cacheWrite: 17_696 },
    });
    // Its cache writes are all 1-hour ones (usage.cache_creation.ephemeral_1h_input_tokens), kept as such.
    const writes = (field: "cacheWrite5mTokens" | "cacheWrite1hTokens") =>
      tools.threads[0]!.turns.reduce((n, t) => n + (t.usage?.[field] ?? 0), 0);
    expect([writes("cacheWrite5mTokens"), writes("cacheWrite1hTokens")]).toEqual([0, 17_696]);
  });
});

const base = { sessionId: "s-1", cwd: "/w", version: "2.1.39", isSidechain: false };
const prompt = (uuid: string, parentUuid: string | null, text: string, timestamp: string) => ({
  ...base,
  type: "user",
  uuid,
  parentUuid,
  timestamp,
  message: { role: "user", content: text },
});
const reply = (
  uuid: string,
  parentUuid: string,
  id: string,
  content: object[],
  timestamp: string,
  usage = { input_tokens: 10, output_tokens: 5 },
) => ({
  ...base,
  type: "assistant",
  uuid,
  parentUuid,
  timestamp,
  requestId: `req-${id}`,
  message: { id, role: "assistant", model: "claude-opus-4-6", content, usage },
});
const result = (uuid: string, parentUuid: string, toolUseId: string, text: string, timestamp: string) => ({
  ...base,
  type: "user",
  uuid,
  parentUuid,
  timestamp,
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: text }] },
});

describe("rules", () => {
  it("joins the lines of one message into one turn, results after it, usage counted once", async () => {
    const parsed = await parseClaudeCodeSession(
      lines(
        prompt("u1", null, "list two dirs", "2026-01-01T10:00:00.000Z"),
        reply("a1", "u1", "msg_1", [{ type: "thinking", thinking: "two calls" }], "2026-01-01T10:00:01.000Z"),
        reply("a2", "a1", "msg_1", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls a" } }], "2026-01-01T10:00:02.000Z"),
        result("r1", "a2", "t1", "a.txt", "2026-01-01T10:00:03.000Z"),
        reply("a3", "a2", "msg_1", [{ type: "tool_use", id: "t2", name: "Bash", input: { command: "ls b" } }], "2026-01-01T10:00:03.000Z"),
        result("r2", "a3", "t2", "b.txt", "2026-01-01T10:00:04.000Z"),
        reply("a4", "r2", "msg_2", [{ type: "text", text: "a.txt and b.txt" }], "2026-01-01T10:00:05.000Z", {
          input_tokens: 7,
          output_tokens: 3,
        }),
      ),
      { name: "s-1.jsonl" },
    );
    const turns = parsed.threads[0]!.turns;
    expect(turns.map((t) => `${t.role}:${t.key}`)).toEqual(["user:u1", "assistant:a1", "tool:r1", "tool:r2", "assistant:a4"]);
    expect(turns[1]!.parts).toEqual([
      { type: "thinking", text: "two calls" },
      { type: "tool_call", id: "t1", name: "Bash", arguments: { command: "ls a" } },
      { type: "tool_call", id: "t2", name: "Bash", arguments: { command: "ls b" } },
    ]);
    expect(turns[1]!.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(turns[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "t1", content: "a.txt" }]);
    expect(turns[4]!.usage).toEqual({ inputTokens: 7, outputTokens: 3 });
    expect(turns[4]!.content).toBe("a.txt and b.txt");
  });

  it("keeps the cache writes' split by lifetime, from the latest line of a streamed response", async () => {
    const usage = (output: number, fiveMinutes: number, oneHour: number) => ({
      input_tokens: 3,
      cache_creation_input_tokens: fiveMinutes + oneHour,
      output_tokens: output,
      cache_creation: { ephemeral_5m_input_tokens: fiveMinutes, ephemeral_1h_input_tokens: oneHour },
    });
    const parsed = await parseClaudeCodeSession(
      lines(
        prompt("u1", null, "hi", "2026-01-01T10:00:00.000Z"),
        reply("a1", "u1", "msg_1", [{ type: "thinking", thinking: "hm" }], "2026-01-01T10:00:01.000Z", usage(1, 100, 800) as never),
        reply("a2", "a1", "msg_1", [{ type: "text", text: "hello" }], "2026-01-01T10:00:02.000Z", usage(40, 100, 800) as never),
      ),
      { name: "s-1.jsonl" },
    );
    expect(parsed.threads[0]!.turns[1]!.usage).toEqual({
      inputTokens: 3,
      cacheWriteTokens: 900,
      outputTokens: 40,
      cacheWrite5mTokens: 100,
      cacheWrite1hTokens: 800,
    });
  });

  it("turns a real rewind into a fork, and leaves parallel-call siblings in the thread", async () => {
    const parsed = await parseClaudeCodeSession(
      lines(
        prompt("u1", null, "first question", "2026-01-01T10:00:00.000Z"),
        reply("a1", "u1", "msg_1", [{ type: "text", text: "first answer" }], "2026-01-01T10:00:01.000Z"),
        prompt("u2", "a1", "abandoned follow-up", "2026-01-01T10:01:00.000Z"),
        reply("a2", "u2", "msg_2", [{ type: "text", text: "abandoned answer" }], "2026-01-01T10:01:01.000Z"),
        prompt("u3", "a1", "rewritten follow-up", "2026-01-01T10:02:00.000Z"),
        reply("a3", "u3", "msg_3", [{ type: "text", text: "kept answer" }], "2026-01-01T10:02:01.000Z"),
      ),
      { name: "s-1.jsonl" },
    );
    const [main, fork] = parsed.threads;
    expect(main!.turns.map((t) => t.key)).toEqual(["u1", "a1", "u3", "a3"]);
    expect(fork!.key).toBe("s-1:fork:u2");
    expect(fork!.parentKey).toBe("s-1");
    expect(fork!.relation).toEqual({ kind: "fork", atTurnKey: "a1" });
    expect(fork!.turns.map((t) => t.content)).toEqual(["abandoned follow-up", "abandoned answer"]);
  });

  it("follows last-prompt's leaf as the active branch when it names one", async () => {
    const parsed = await parseClaudeCodeSession(
      lines(
        prompt("u1", null, "q", "2026-01-01T10:00:00.000Z"),
        prompt("u2", "u1", "branch A", "2026-01-01T10:01:00.000Z"),
        prompt("u3", "u1", "branch B", "2026-01-01T10:02:00.000Z"),
        { type: "last-prompt", lastPrompt: "branch A", leafUuid: "u2" },
      ),
      { name: "s-1.jsonl" },
    );
    expect(parsed.threads[0]!.turns.map((t) => t.key)).toEqual(["u1", "u2"]);
    expect(parsed.threads[1]!.turns.map((t) => t.key)).toEqual(["u3"]);
  });

  it("keeps the first copy of a uuid, and a compaction boundary with its summary as one marker", async () => {
    const parsed = await parseClaudeCodeSession(
      lines(
        prompt("u1", null, "q", "2026-01-01T10:00:00.000Z"),
        prompt("u1", null, "q (copy written by a resume)", "2026-01-01T10:00:00.000Z"),
        {
          ...base,
          type: "system",
          subtype: "compact_boundary",
          uuid: "b1",
          parentUuid: null,
          logicalParentUuid: "u1",
          timestamp: "2026-01-01T11:00:00.000Z",
          content: "Conversation compacted",
          compactMetadata: { trigger: "auto", preTokens: 160_000, postTokens: 9_000 },
        },
        {
          ...base,
          type: "user",
          uuid: "c1",
          parentUuid: "b1",
          isCompactSummary: true,
          timestamp: "2026-01-01T11:00:00.000Z",
          message: { role: "user", content: "Summary: all good." },
        },
        prompt("u2", "c1", "next", "2026-01-01T11:01:00.000Z"),
      ),
      { name: "s-1.jsonl" },
    );
    const turns = parsed.threads[0]!.turns;
    expect(turns.map((t) => [t.key, t.role, t.content])).toEqual([
      ["u1", "user", "q"],
      ["b1", "system", "Summary: all good."],
      ["u2", "user", "next"],
    ]);
    expect(turns[1]!.compaction).toEqual({ trigger: "auto", tokensBefore: 160_000, tokensAfter: 9_000 });
    expect(turns[1]!.metadata).toEqual({ logicalParentUuid: "u1", summaryUuid: "c1" });
  });

  it("sums a compaction run's streamed lines once per response, and ties a run without sessionId to its folder", async () => {
    const run = (uuid: string, parentUuid: string | null, extra: object) => ({
      type: "assistant",
      uuid,
      parentUuid,
      isSidechain: true,
      agentId: "acompact-1",
      timestamp: "2026-01-01T11:00:00.000Z",
      ...extra,
    });
    const usage = (output: number) => ({
      input_tokens: 2,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 50,
      output_tokens: output,
    });
    const parsed = await parseClaudeCodeSession(
      lines(
        { type: "user", uuid: "r0", parentUuid: "last-before", isSidechain: true, message: { role: "user", content: "Summarise" } },
        run("r1", "r0", {
          requestId: "q1",
          message: { id: "m1", role: "assistant", model: "claude-x", content: [{ type: "text", text: "a" }], usage: usage(3) },
        }),
        run("r2", "r1", {
          requestId: "q1",
          message: { id: "m1", role: "assistant", model: "claude-x", content: [{ type: "text", text: "b" }], usage: usage(700) },
        }),
        run("r3", "r2", {
          requestId: "q2",
          message: { id: "m2", role: "assistant", model: "claude-x", content: [{ type: "text", text: "c" }], usage: usage(5) },
        }),
      ),
      { name: "11111111-2222-4333-8444-555555555555/subagents/agent-acompact-1.jsonl" },
    );
    const [only] = parsed.compactionRuns!;
    expect(only!.threadKey).toBe("11111111-2222-4333-8444-555555555555");
    expect(only!.afterTurnKey).toBe("last-before");
    expect(only!.responses.map((r) => [r.key, r.usage.outputTokens])).toEqual([
      ["m1|q1", 700],
      ["m2|q2", 5],
    ]);
  });

  it("skips a truncated last line and bad entries with their line, and never embeds image data", async () => {
    const parsed = await parseClaudeCodeSession(
      lines(
        {
          ...base,
          type: "user",
          uuid: "u1",
          parentUuid: null,
          timestamp: "2026-01-01T10:00:00.000Z",
          message: {
            role: "user",
            content: [
              { type: "text", text: "see" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
            ],
          },
        },
        { ...base, type: "assistant", uuid: "a0", parentUuid: "u1" },
        "not json at all",
        reply("a1", "u1", "msg_1", [{ type: "text", text: "ok" }], "2026-01-01T10:00:01.000Z"),
        '{"type":"assistant","uuid":"a2","parentUu',
      ),
      { name: "s-1.jsonl" },
    );
    expect(parsed.skipped).toEqual([
      { line: 2, reason: "assistant entry without a message object" },
      { line: 3, reason: "not valid JSON" },
      { line: 5, reason: "truncated last line (the session may still be running)" },
    ]);
    const [user] = parsed.threads[0]!.turns;
    expect(user!.parts).toEqual([
      { type: "text", text: "see" },
      { type: "image", mediaType: "image/png", alt: "image pasted into the session" },
    ]);
    expect(JSON.stringify(parsed)).not.toContain("iVBORw0KGgo");
  });

  it("refuses an empty file and one with no conversation entries", async () => {
    await expect(parseClaudeCodeSession(lines(""), { name: "x.jsonl" })).rejects.toThrow(ImportFormatError);
    await expect(parseClaudeCodeSession(lines({ type: "file-history-snapshot", messageId: "m" }), { name: "x.jsonl" })).rejects.toThrow(
      /no Claude Code conversation entries/,
    );
  });

  it("detects Claude Code by its first line", () => {
    expect(looksLikeClaudeCode({ type: "summary", summary: "t", leafUuid: "x" }, "a.jsonl")).toBe(true);
    expect(looksLikeClaudeCode(prompt("u1", null, "q", "2026-01-01T10:00:00.000Z"), "a.jsonl")).toBe(true);
    expect(looksLikeClaudeCode({ type: "session_meta", payload: {} }, "rollout.jsonl")).toBe(false);
    expect(looksLikeClaudeCode([1, 2], "a.jsonl")).toBe(false);
  });
});
