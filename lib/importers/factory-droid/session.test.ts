// Factory Droid sessions, hand-written after what public readers of them parse (docs/formats.md §19):
// each record kind, tool pairing, compaction, sub-agents, forks, the settings' session totals, bad
// records and refusals.
import { describe, expect, it } from "vitest";
import { USAGE_IN_SESSION_TOTALS } from "@/lib/domain/usage/usage";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { detectLineFormat } from "../index";
import { expectPaired, jsonl, onlyThread, partsOf } from "../test-helpers";
import { ImportFormatError } from "../types";
import { isFactoryDroidFirstLine, looksLikeFactoryDroidSession, parseFactoryDroidSession } from "./index";

const source = { name: "5f3c.jsonl" };
const ID = "5f3c2a10-7d4e-4b8a-9c21-3e6f0a1b2c3d";
const start = (extra: Record<string, unknown> = {}) => ({
  type: "session_start",
  id: ID,
  title: "New Session",
  owner: "dev",
  version: 2,
  cwd: "/home/dev/webapp",
  ...extra,
});
const t = (s: number) => new Date(Date.parse("2026-03-11T09:00:00.000Z") + s * 1000).toISOString();
const msg = (id: string, s: number, role: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: "message",
  id,
  timestamp: t(s),
  message: { role, content, ...extra },
});

const SESSION = [
  start(),
  msg("u1", 1, "user", [
    { type: "text", text: "<system-reminder>\nToday's date is 2026-03-11.\n</system-reminder>" },
    { type: "text", text: "Fix the flaky retry test" },
  ]),
  msg("a1", 2, "assistant", [
    { type: "thinking", thinking: "Reproduce first.", signature: "sig" },
    { type: "text", text: "Running it." },
    { type: "tool_use", id: "toolu_1", name: "Execute", input: { command: "go test -count=20 ./..." } },
  ]),
  msg("u2", 3, "user", [{ type: "tool_result", tool_use_id: "toolu_1", content: "--- FAIL: TestRetry", is_error: true }]),
  { type: "todo_state", id: "todo1", timestamp: t(4), todos: { todos: "1. [in_progress] Find the race" }, messageIndex: 3 },
  msg("a2", 5, "assistant", [
    { type: "redacted_thinking", data: "ENCRYPTED" },
    { type: "tool_use", id: "toolu_2", name: "Read", input: { file_path: "/w/retry.go" } },
  ]),
  msg("u3", 6, "user", [{ type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: "var backoff = newTimer()" }] }]),
  {
    type: "compaction_state",
    id: "c1",
    timestamp: t(7),
    summaryText: "Reproduced the failure; the timer is shared.",
    summaryTokens: 12,
    summaryKind: "llm_summary",
    removedCount: 5,
    anchorMessage: { id: "u3", index: 5 },
  },
  msg("u4", 8, "user", "Now fix it."),
  msg("a3", 9, "assistant", [{ type: "text", text: "Fixed." }]),
  { type: "agent_turn_outcome", turnId: "a3", reason: "completed", resultKind: "text" },
];

const SETTINGS = {
  model: "claude-sonnet-4-5-20250929",
  reasoningEffort: "medium",
  providerLock: "anthropic",
  assistantActiveTimeMs: 94213,
  tokenUsage: { inputTokens: 2114, outputTokens: 3871, cacheCreationTokens: 18655, cacheReadTokens: 151233, thinkingTokens: 640 },
  somethingNew: { big: "not kept" },
};

describe("detection", () => {
  it("claims a first line that is Droid's session_start, and no other agent's", () => {
    expect(looksLikeFactoryDroidSession(start(), "x.jsonl")).toBe(true);
    expect(looksLikeFactoryDroidSession({ type: "session_start", id: "s", cwd: "/w" }, "x.jsonl")).toBe(true);
    // Other agents' first lines: Pi's header, Copilot's event, an id-less or otherwise bare session_start.
    expect(looksLikeFactoryDroidSession({ type: "session", id: "s", version: 3, cwd: "/w" }, "x.jsonl")).toBe(false);
    expect(looksLikeFactoryDroidSession({ type: "session.start", data: { sessionId: "s" } }, "x.jsonl")).toBe(false);
    expect(looksLikeFactoryDroidSession({ type: "session_start", session: { id: "s" } }, "x.jsonl")).toBe(false);
    expect(looksLikeFactoryDroidSession({ type: "session_start", id: "s" }, "x.jsonl")).toBe(false);
    expect(isFactoryDroidFirstLine(JSON.stringify(start()))).toBe(true);
    expect(isFactoryDroidFirstLine("{not json")).toBe(false);
    expect(isFactoryDroidFirstLine(null)).toBe(false);
  });

  it("is what detectLineFormat makes of such a file", () => {
    expect(detectLineFormat("x.jsonl", jsonl(...SESSION)).format).toBe("factory-droid");
  });
});

describe("a session", () => {
  const result = parseFactoryDroidSession(jsonl(...SESSION), source, SETTINGS);
  const thread = onlyThread(result);

  it("is one thread keyed by the session id, in its cwd, titled by the first prompt a person typed", () => {
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(thread).toMatchObject({ key: ID, toolName: "factory-droid", project: "/home/dev/webapp", createdAt: t(1), lastUpdatedAt: t(9) });
    // "New Session" is Droid's placeholder: the typed prompt names the thread, not the injected reminder.
    expect(thread.title).toBe("Fix the flaky retry test");
  });

  it("makes a turn per message and compaction, keyed by record id", () => {
    expect(thread.turns.map((turn) => [turn.key, turn.role])).toEqual([
      ["u1", "user"],
      ["a1", "assistant"],
      ["u2", "tool"],
      ["a2", "assistant"],
      ["u3", "tool"],
      ["c1", "system"],
      ["u4", "user"],
      ["a3", "assistant"],
    ]);
    expect(thread.turns[6]!.content).toBe("Now fix it.");
  });

  it("pairs tool calls with their results, an is_error result an error", () => {
    expect(expectPaired(thread)).toBe(2);
    expect(partsOf(thread, "tool_result")).toEqual([
      { type: "tool_result", toolCallId: "toolu_1", content: "--- FAIL: TestRetry", isError: true, toolName: "Execute" },
      { type: "tool_result", toolCallId: "toolu_2", content: "var backoff = newTimer()", isError: false, toolName: "Read" },
    ]);
    expect(thread.turns[2]!.toolName).toBe("Execute");
  });

  it("keeps thinking, redacted thinking without its data", () => {
    expect(partsOf(thread, "thinking")).toEqual([
      { type: "thinking", text: "Reproduce first." },
      { type: "thinking", text: "", redacted: true },
    ]);
    expect(JSON.stringify(thread)).not.toContain("ENCRYPTED");
  });

  it("makes compaction_state a compaction marker whose content is the summary", () => {
    expect(thread.turns[5]).toMatchObject({
      content: "Reproduced the failure; the timer is shared.",
      compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
      metadata: { summaryKind: "llm_summary", summaryTokens: 12, removedCount: 5, anchorMessage: { id: "u3", index: 5 } },
    });
  });

  it("keeps the todo list, and the turn outcome on the reply it ends", () => {
    expect(thread.metadata).toMatchObject({ todos: { todos: "1. [in_progress] Find the race" }, todoUpdates: 1 });
    expect(thread.turns[7]!.metadata).toMatchObject({ turnOutcome: { turnId: "a3", reason: "completed", resultKind: "text" } });
  });

  it("takes the settings' totals as session totals, once, marking the replies as counted there", () => {
    const totals = sessionTotalsOf(thread.metadata);
    expect(totals).toEqual({
      source: "factory-droid settings.json tokenUsage",
      reports: 1,
      models: {
        "claude-sonnet-4-5-20250929": {
          requests: 3,
          premiumRequests: 0,
          inputTokens: 2114,
          cacheReadTokens: 151233,
          cacheWriteTokens: 18655,
          outputTokens: 3871,
          reasoningTokens: 640,
          reportedInputTokens: 2114,
        },
      },
      reportedAt: t(9),
    });
    const replies = thread.turns.filter((turn) => turn.role === "assistant");
    expect(replies.every((turn) => turn.usage === undefined || turn.usage === null)).toBe(true);
    expect(replies.every((turn) => turn.metadata?.usageIn === USAGE_IN_SESSION_TOTALS.usageIn)).toBe(true);
    expect(thread.turns.filter((turn) => turn.metadata?.usageIn)).toHaveLength(3);
    // The settings' known fields only.
    expect(thread.metadata?.settings).toEqual({
      model: "claude-sonnet-4-5-20250929",
      reasoningEffort: "medium",
      providerLock: "anthropic",
      assistantActiveTimeMs: 94213,
      tokenUsage: SETTINGS.tokenUsage,
    });
  });

  it("without settings, or with zero totals, has no session totals and leaves the replies unmarked", () => {
    for (const settings of [undefined, { model: "m", tokenUsage: { inputTokens: 0, outputTokens: 0 } }, "not an object"]) {
      const bare = onlyThread(parseFactoryDroidSession(jsonl(...SESSION), source, settings));
      expect(bare.metadata?.sessionTotals).toBeUndefined();
      expect(bare.turns.some((turn) => turn.metadata?.usageIn)).toBe(false);
    }
  });

  it("gives the same result twice (stable keys for re-import)", () => {
    expect(parseFactoryDroidSession(jsonl(...SESSION), source, SETTINGS)).toEqual(result);
  });
});

describe("titles", () => {
  it("prefers Droid's session title, then its title, over the first prompt", () => {
    const lines = [msg("u1", 1, "user", [{ type: "text", text: "typed prompt" }])];
    expect(
      onlyThread(parseFactoryDroidSession(jsonl(start({ sessionTitle: "Short title", title: "Long title" }), ...lines), source)).title,
    ).toBe("Short title");
    expect(onlyThread(parseFactoryDroidSession(jsonl(start({ title: "Long title" }), ...lines), source)).title).toBe("Long title");
  });

  it("never takes a hook's notice or a user_only message for the prompt", () => {
    const t2 = onlyThread(
      parseFactoryDroidSession(
        jsonl(
          start(),
          msg("h1", 1, "user", [{ type: "text", text: "SessionStart hook says hi" }], {
            hookEventName: "SessionStart",
            visibility: "user_only",
          }),
          msg("u1", 2, "user", [{ type: "text", text: "the real prompt" }]),
        ),
        source,
      ),
    );
    expect(t2.title).toBe("the real prompt");
    expect(t2.turns[0]!.metadata).toEqual({ hookEventName: "SessionStart", visibility: "user_only" });
  });
});

describe("sub-agents and forks", () => {
  it("makes a worker session a sub-agent thread of the calling session, at the call", () => {
    const worker = onlyThread(
      parseFactoryDroidSession(
        jsonl(
          start({ id: "w1", sessionTitle: "worker: Find the race", callingSessionId: ID, callingToolUseId: "toolu_01SC9sRH" }),
          msg("m1", 1, "user", [{ type: "text", text: "# Task Tool Invocation\nFind the race" }]),
        ),
        source,
      ),
    );
    expect(worker).toMatchObject({
      key: "w1",
      parentKey: ID,
      relation: { kind: "subagent", toolCallId: "toolu_01SC9sRH" },
      title: "worker: Find the race",
    });
  });

  it("finds the calling session in the settings' subagent tag when session_start has none", () => {
    const settings = { tags: [{ name: "subagent", metadata: { callingSessionId: ID, callingToolUseId: "toolu_9" } }] };
    const worker = onlyThread(parseFactoryDroidSession(jsonl(start({ id: "w2" }), msg("m1", 1, "user", "go")), source, settings));
    expect(worker).toMatchObject({ parentKey: ID, relation: { kind: "subagent", toolCallId: "toolu_9" } });
  });

  it("makes a fork a fork of its parent at the last copied message, the copies marked and not counted as its replies", () => {
    const fork = onlyThread(
      parseFactoryDroidSession(
        jsonl(
          start({ id: "f1", parent: ID, forkedAtMessageId: "a1" }),
          msg("u1", 1, "user", "first"),
          msg("a1", 2, "assistant", [{ type: "text", text: "one" }]),
          msg("f2", 3, "user", "try another way"),
          msg("f3", 4, "assistant", [{ type: "text", text: "two" }]),
        ),
        source,
        { model: "m", tokenUsage: { inputTokens: 7, outputTokens: 3 } },
      ),
    );
    expect(fork).toMatchObject({ parentKey: ID, relation: { kind: "fork", atTurnKey: "a1" } });
    expect(fork.turns.map((turn) => turn.metadata?.copiedFromParent === true)).toEqual([true, true, false, false]);
    expect(fork.title).toBe("try another way");
    expect(sessionTotalsOf(fork.metadata)!.models.m!.requests).toBe(1);
    expect(fork.turns.filter((turn) => turn.metadata?.usageIn).map((turn) => turn.key)).toEqual(["f3"]);
  });
});

describe("bad records and refusals", () => {
  it("skips what it cannot read, each with its line and reason, and keeps the rest", () => {
    const result = parseFactoryDroidSession(
      jsonl(
        start(),
        msg("u1", 1, "user", "hi"),
        "not json",
        "[1]",
        { id: "x" },
        msg("u1", 2, "user", "again"),
        { type: "message", id: "m3", message: { role: "system", content: "x" } },
        { type: "message", id: "m4" },
        msg("a1", 3, "assistant", [
          { type: "tool_use", name: "Read", input: {} },
          { type: "text", text: "ok" },
        ]),
        msg("u2", 4, "user", [{ type: "tool_result", content: "orphan" }]),
        start({ id: "other" }),
        { type: "future_record", id: "fr" },
        '{"type":"message","id":"cut',
      ),
      source,
    );
    expect(result.skipped).toEqual([
      { line: 3, reason: "not valid JSON" },
      { line: 4, reason: "not a JSON object" },
      { line: 5, reason: "type null: not a record this importer reads" },
      { line: 6, reason: "id u1: a duplicate; the first record with it is kept" },
      { line: 7, reason: 'message.role "system": not one Droid writes (user, assistant)' },
      { line: 8, reason: "message: missing or not an object" },
      { line: 9, path: "message.content[0]", reason: "tool_use without an id" },
      { line: 10, path: "message.content[0]", reason: "tool_result without a tool_use_id" },
      { line: 11, reason: "a second session_start record" },
      { line: 12, reason: 'type "future_record": not a record this importer reads' },
      { line: 13, reason: "truncated last line (the session may still be running)" },
    ]);
    expect(onlyThread(result).turns.map((turn) => turn.key)).toEqual(["u1", "a1", "u2"]);
  });

  it("refuses a file that does not start with session_start, and a version it does not know", () => {
    expect(() => parseFactoryDroidSession(jsonl(msg("u1", 1, "user", "hi")), source)).toThrow(ImportFormatError);
    expect(() => parseFactoryDroidSession(jsonl("{oops"), source)).toThrow(/line 1: not valid JSON/);
    expect(() => parseFactoryDroidSession(jsonl(start({ version: 3 })), source)).toThrow(
      /line 1: a Factory Droid session of version 3; this importer reads versions 1 to 2/,
    );
    expect(() => parseFactoryDroidSession(jsonl(start({ version: "2" })), source)).toThrow(/version "2"/);
    expect(() => parseFactoryDroidSession(jsonl(""), source)).toThrow(/the file is empty/);
  });

  it("reads a session without a version (older files) and with epoch-millisecond times", () => {
    const { version: _v, ...old } = start();
    const thread = onlyThread(
      parseFactoryDroidSession(
        jsonl(old, { type: "message", timestamp: 1700000101000, message: { role: "user", content: "use the envelope" } }),
        source,
      ),
    );
    expect(thread.turns).toMatchObject([{ key: "line:2", timestamp: "2023-11-14T22:15:01.000Z", content: "use the envelope" }]);
  });
});
