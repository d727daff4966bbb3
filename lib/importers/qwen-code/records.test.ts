import { describe, expect, it } from "vitest";
import { detectFormat, parseDetected } from "../index";
import { expectPaired, jsonl, onlyThread, partsOf } from "../test-helpers";
import { ImportFormatError } from "../types";
import { looksLikeQwenCodeSession, parseQwenCodeSession, parseQwenLegacy } from "./index";
import { providerOfModel, qwenUsage } from "./usage";

const SID = "0d7c1d4e-1111-4222-8333-944455556666";
let clock = 0;
/** A ChatRecord as chatRecordingService.createBaseRecord writes it, then the record's own fields. */
function rec(uuid: string, parentUuid: string | null, type: string, extra: object = {}) {
  clock += 1;
  return {
    uuid,
    parentUuid,
    sessionId: SID,
    timestamp: new Date(Date.UTC(2026, 3, 1, 9, 0, clock)).toISOString(),
    type,
    cwd: "/w/app",
    version: "0.14.5",
    gitBranch: "main",
    ...extra,
  };
}
const user = (uuid: string, parent: string | null, text: string, extra: object = {}) =>
  rec(uuid, parent, "user", { message: { role: "user", parts: [{ text }] }, ...extra });
const model = (uuid: string, parent: string | null, parts: object[], extra: object = {}) =>
  rec(uuid, parent, "assistant", { model: "qwen3-coder-plus", message: { role: "model", parts }, ...extra });
const result = (uuid: string, parent: string | null, id: string | undefined, name: string, response: object, extra: object = {}) =>
  rec(uuid, parent, "tool_result", {
    message: { role: "user", parts: [{ functionResponse: { ...(id ? { id } : {}), name, response } }] },
    ...extra,
  });
const parse = (...records: unknown[]) => parseQwenCodeSession(jsonl(...records), { name: `chats/${SID}.jsonl` });

describe("detection", () => {
  it("takes Qwen's records and leaves Claude Code's, Gemini's and Pi's alone", () => {
    expect(looksLikeQwenCodeSession(user("u1", null, "hi"), "x.jsonl")).toBe(true);
    expect(
      looksLikeQwenCodeSession(rec("s1", null, "system", { subtype: "ui_telemetry", systemPayload: { uiEvent: {} } }), "x.jsonl"),
    ).toBe(true);
    expect(looksLikeQwenCodeSession(rec("t1", null, "tool_result"), "x.jsonl")).toBe(true);
    // Claude Code: the same envelope, a message with content.
    const claude = { uuid: "c1", parentUuid: null, sessionId: SID, type: "user", message: { role: "user", content: "hi" } };
    expect(looksLikeQwenCodeSession(claude, "x.jsonl")).toBe(false);
    expect(
      looksLikeQwenCodeSession({ type: "system", subtype: "compact_boundary", uuid: "c2", sessionId: SID, content: "x" }, "x.jsonl"),
    ).toBe(false);
    expect(looksLikeQwenCodeSession({ sessionId: SID, projectHash: "h", startTime: "t" }, "x.jsonl")).toBe(false);
  });

  it("routes whole files: Qwen JSONL to qwen-code, a Claude Code line to claude-code", () => {
    const qwen = [user("u1", null, "hi"), model("a1", "u1", [{ text: "hello" }])].map((r) => JSON.stringify(r)).join("\n");
    expect(detectFormat(`${SID}.jsonl`, qwen).format).toBe("qwen-code");
    const claude = JSON.stringify({ uuid: "c1", parentUuid: null, sessionId: SID, type: "user", message: { role: "user", content: "hi" } });
    expect(detectFormat("c.jsonl", claude).format).toBe("claude-code");
  });

  it("tells a legacy Qwen JSON from Gemini's by its folder or a `qwen` message", () => {
    const doc = { sessionId: "s", projectHash: "h", startTime: "2025-10-01T00:00:00Z", lastUpdated: "2025-10-01T00:00:00Z", messages: [] };
    const text = JSON.stringify(doc);
    expect(detectFormat("/home/u/.qwen/tmp/h/chats/session-2025-10-01T00-00-abcd1234.json", text).format).toBe("qwen-code");
    expect(detectFormat("/home/u/.gemini/tmp/h/chats/session-2025-10-01T00-00-abcd1234.json", text).format).toBe("gemini-cli");
    const typed = JSON.stringify({ ...doc, messages: [{ id: "m", timestamp: "2025-10-01T00:00:01Z", type: "qwen", content: "hi" }] });
    expect(detectFormat("session-2025-10-01T00-00-abcd1234.json", typed).format).toBe("qwen-code");
  });
});

describe("usage", () => {
  it("counts an OpenAI-compatible response's reasoning inside its output (total = prompt + candidates)", () => {
    const usage = {
      promptTokenCount: 1000,
      candidatesTokenCount: 120,
      totalTokenCount: 1120,
      cachedContentTokenCount: 800,
      thoughtsTokenCount: 40,
    };
    expect(qwenUsage(usage, "qwen3-max")).toEqual({ inputTokens: 200, cacheReadTokens: 800, outputTokens: 120, reasoningTokens: 40 });
  });

  it("adds Gemini's thoughts to the output when the total shows them apart", () => {
    const usage = { promptTokenCount: 1000, candidatesTokenCount: 120, totalTokenCount: 1160, thoughtsTokenCount: 40 };
    expect(qwenUsage(usage, "gemini-2.5-pro")).toEqual({ inputTokens: 1000, outputTokens: 160, reasoningTokens: 40 });
    // No total: a Gemini model's thoughts are apart, another model's are inside.
    expect(qwenUsage({ promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 3 }, "gemini-2.5-flash")?.outputTokens).toBe(8);
    expect(qwenUsage({ promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 3 }, "qwen3-max")?.outputTokens).toBe(5);
  });

  it("reads the early summary shape and drops an all-zero report", () => {
    expect(qwenUsage({ input: 500, output: 20, cached: 100, thoughts: 0, tool: 0, total: 520 }, "qwen3-coder-plus")).toEqual({
      inputTokens: 400,
      cacheReadTokens: 100,
      outputTokens: 20,
    });
    expect(qwenUsage({ promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 }, null)).toBeNull();
  });

  it("names the provider a model's name says", () => {
    expect(providerOfModel("qwen3-coder-plus")).toBe("qwen");
    expect(providerOfModel("coder-model")).toBe("qwen");
    expect(providerOfModel("gpt-4.1")).toBe("openai");
    expect(providerOfModel("claude-sonnet-4-5")).toBe("anthropic");
    expect(providerOfModel("openrouter/some-model")).toBe("openrouter");
    expect(providerOfModel("my-local-model")).toBeNull();
  });
});

describe("turns", () => {
  it("reads a prompt, a reply with thoughts and calls, results paired by id, usage once per response", () => {
    const parsed = parse(
      user("u1", null, "fix the test"),
      model(
        "a1",
        "u1",
        [
          { text: "Look at the test first.", thought: true },
          { text: "Reading it." },
          { functionCall: { id: "call_1", name: "read_file", args: { absolute_path: "/w/app/t.js" } } },
        ],
        {
          usageMetadata: {
            promptTokenCount: 900,
            candidatesTokenCount: 30,
            totalTokenCount: 930,
            cachedContentTokenCount: 512,
            thoughtsTokenCount: 0,
          },
        },
      ),
      result(
        "r1",
        "a1",
        "call_1",
        "read_file",
        { output: "test('x', () => {})" },
        { toolCallResult: { callId: "call_1", status: "success" } },
      ),
      model("a2", "r1", [{ text: "It is empty." }], {
        usageMetadata: { promptTokenCount: 950, candidatesTokenCount: 5, totalTokenCount: 955 },
      }),
    );
    const thread = onlyThread(parsed);
    expect(parsed.format).toBe("qwen-code");
    expect(thread.key).toBe(SID);
    expect(thread.project).toBe("/w/app");
    expect(thread.title).toBe("fix the test");
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["u1", "user"],
      ["a1", "assistant"],
      ["r1", "tool"],
      ["a2", "assistant"],
    ]);
    const reply = thread.turns[1]!;
    expect(reply.modelName).toBe("qwen3-coder-plus");
    expect(reply.modelProvider).toBe("qwen");
    expect(reply.usage).toEqual({ inputTokens: 388, cacheReadTokens: 512, outputTokens: 30 });
    expect(partsOf(thread, "thinking")).toEqual([{ type: "thinking", text: "Look at the test first." }]);
    expect(partsOf(thread, "tool_call")).toEqual([
      { type: "tool_call", id: "call_1", name: "read_file", arguments: { absolute_path: "/w/app/t.js" } },
    ]);
    expect(expectPaired(thread)).toBe(1);
    expect(thread.turns[3]!.usage).toEqual({ inputTokens: 950, outputTokens: 5 });
    expect(thread.createdAt).toBe(thread.turns[0]!.timestamp);
  });

  it("marks a failed call's result as an error and pairs a response without id by toolCallResult.callId", () => {
    const thread = onlyThread(
      parse(
        user("u1", null, "write it"),
        model("a1", "u1", [{ functionCall: { id: "call_9", name: "write_file", args: { file_path: "/x" } } }]),
        result(
          "r1",
          "a1",
          undefined,
          "write_file",
          { error: "Permission denied" },
          { toolCallResult: { callId: "call_9", status: "error" } },
        ),
      ),
    );
    const [part] = partsOf(thread, "tool_result");
    expect(part).toMatchObject({ toolCallId: "call_9", isError: true, status: "error", content: "Permission denied" });
  });

  it("merges records written again under one uuid, as Qwen Code's loader does", () => {
    const thread = onlyThread(
      parse(
        user("u1", null, "hi"),
        model("a1", "u1", [{ text: "part one" }], {
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 },
        }),
        model("a1", "u1", [{ text: "part two" }], {
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 14 },
        }),
      ),
    );
    expect(thread.turns).toHaveLength(2);
    expect(thread.turns[1]!.content).toBe("part one\n\npart two");
    expect(thread.turns[1]!.usage).toEqual({ inputTokens: 10, outputTokens: 4 });
  });

  it("makes a compaction turn of a chat_compression checkpoint, the command a user turn, and no turn of telemetry", () => {
    const thread = onlyThread(
      parse(
        user("u1", null, "hi"),
        rec("t1", "u1", "system", {
          subtype: "ui_telemetry",
          systemPayload: { uiEvent: { model: "qwen3-coder-plus", input_token_count: 5 } },
        }),
        rec("c0", "t1", "system", { subtype: "slash_command", systemPayload: { phase: "invocation", rawCommand: "/compress" } }),
        rec("c1", "c0", "system", {
          subtype: "chat_compression",
          systemPayload: {
            info: { originalTokenCount: 9000, newTokenCount: 1200, compressionStatus: 1 },
            compressedHistory: [
              { role: "user", parts: [{ text: "<state_snapshot>goal</state_snapshot>" }] },
              { role: "model", parts: [{ text: "Got it. Thanks for the additional context!" }] },
            ],
          },
        }),
      ),
    );
    expect(thread.turns.map((t) => t.role)).toEqual(["user", "user", "system"]);
    expect(thread.turns[1]!.content).toBe("/compress");
    const compaction = thread.turns[2]!;
    expect(compaction.content).toBe("<state_snapshot>goal</state_snapshot>");
    expect(compaction.compaction).toEqual({ trigger: null, tokensBefore: 9000, tokensAfter: 1200 });
  });

  it("takes a payload's own summary where a build wrote one", () => {
    const thread = onlyThread(
      parse(
        user("u1", null, "hi"),
        rec("c1", "u1", "system", { subtype: "chat_compression", systemPayload: { summary: "short", info: {}, compressedHistory: [] } }),
      ),
    );
    expect(thread.turns[1]!.content).toBe("short");
  });

  it("keeps injected notices as system turns and the shown prompt beside the expanded one", () => {
    const thread = onlyThread(
      parse(
        user("u1", null, "@src/a.js explain\n--- Content from referenced files ---\nconst a = 1;", {
          systemPayload: { displayText: "@src/a.js explain", hookContext: "" },
        }),
        user("n1", "u1", "<task-notification>done</task-notification>", {
          subtype: "notification",
          systemPayload: { displayText: "Agent finished" },
        }),
      ),
    );
    expect(thread.turns.map((t) => t.role)).toEqual(["user", "system"]);
    expect(thread.turns[0]!.metadata?.displayText).toBe("@src/a.js explain");
    expect(thread.turns[1]!.content).toBe("Agent finished");
  });
});

describe("tree", () => {
  it("follows the chain from the last record; a rewound branch becomes a fork, a title anchor nothing", () => {
    const parsed = parse(
      user("u1", null, "first"),
      model("a1", "u1", [{ text: "one" }]),
      user("u2", "a1", "abandoned"),
      model("a2", "u2", [{ text: "dead end" }]),
      rec("rw", "a1", "system", { subtype: "rewind", systemPayload: { truncatedCount: 2 } }),
      rec("ti", "rw", "system", { subtype: "custom_title", systemPayload: { customTitle: "Named", titleSource: "manual" } }),
      user("u3", "rw", "second try"),
      model("a3", "u3", [{ text: "better" }]),
    );
    expect(parsed.threads.map((t) => t.turns.map((turn) => turn.key))).toEqual([
      ["u1", "a1", "u3", "a3"],
      ["u2", "a2"],
    ]);
    const [main, fork] = parsed.threads;
    expect(main!.title).toBe("Named");
    expect(fork!.key).toBe(`${SID}:fork:u2`);
    expect(fork!.parentKey).toBe(SID);
    expect(fork!.relation).toEqual({ kind: "fork", atTurnKey: "a1" });
    expect(parsed.skipped).toEqual([]);
  });

  it("links a /branch copy to the session it was copied from, at the last copied turn", () => {
    const from = { sessionId: "parent-session", messageUuid: "u1" };
    const thread = onlyThread(
      parse(
        user("u1", null, "original", { forkedFrom: from }),
        model("a1", "u1", [{ text: "reply" }], { forkedFrom: { ...from, messageUuid: "a1" } }),
        user("u2", "a1", "new direction"),
      ),
    );
    expect(thread.parentKey).toBe("parent-session");
    expect(thread.relation).toEqual({ kind: "fork", atTurnKey: "a1" });
    expect(thread.turns[0]!.metadata?.copiedFromParent).toBe(true);
    expect(thread.turns[2]!.metadata?.copiedFromParent).toBeUndefined();
  });

  it("makes a sub-agent transcript a child thread of its session", () => {
    const side = { agentId: "explore-7f3c", agentName: "Explore", isSidechain: true };
    const parsed = parseQwenCodeSession(
      jsonl(user("s1", null, "list the routes", side), model("s2", "s1", [{ text: "two routes" }], side)),
      { name: `subagents/${SID}/agent-explore-7f3c.jsonl`, toolCallId: "call_launch" },
    );
    const thread = onlyThread(parsed);
    expect(thread.key).toBe(`${SID}:agent:explore-7f3c`);
    expect(thread.parentKey).toBe(SID);
    expect(thread.relation).toEqual({ kind: "subagent", toolCallId: "call_launch", agentId: "explore-7f3c" });
    expect(thread.metadata?.agentName).toBe("Explore");
  });
});

describe("bad input", () => {
  it("skips bad lines and unknown record types with their line, keeping the rest", () => {
    const lines = jsonl(
      user("u1", null, "hi"),
      { type: "assistant", sessionId: SID },
      rec("x1", "u1", "progress"),
      model("a1", "u1", [{ text: "ok" }]),
    );
    lines.splice(1, 0, { text: "{not json", line: 99 });
    const parsed = parseQwenCodeSession(lines, { name: "s.jsonl" });
    expect(onlyThread(parsed).turns.map((t) => t.key)).toEqual(["u1", "a1"]);
    expect(parsed.skipped.map((s) => s.reason)).toEqual([
      "uuid: missing or not a string",
      'type: "progress" is not user, assistant, tool_result or system',
      "not valid JSON",
    ]);
  });

  it("refuses a file with no Qwen Code record", () => {
    expect(() => parseQwenCodeSession(jsonl({ hello: "world" }), { name: "x.jsonl" })).toThrow(ImportFormatError);
  });

  it("imports nothing from a session that holds no message", () => {
    const parsed = parse(rec("t1", null, "system", { subtype: "ui_telemetry", systemPayload: { uiEvent: {} } }));
    expect(parsed.threads).toEqual([]);
    expect(parsed.warnings[0]).toMatch(/has no messages/);
  });
});

describe("legacy JSON", () => {
  it("reads Gemini's legacy document under ~/.qwen as Qwen Code's, usage by Qwen's rule", async () => {
    const doc = {
      sessionId: "legacy-1",
      projectHash: "abc",
      startTime: "2025-10-20T09:00:00.000Z",
      lastUpdated: "2025-10-20T09:01:00.000Z",
      messages: [
        { id: "m1", timestamp: "2025-10-20T09:00:01.000Z", type: "user", content: "hello" },
        {
          id: "m2",
          timestamp: "2025-10-20T09:00:05.000Z",
          type: "qwen",
          content: "hi there",
          model: "qwen3-coder-plus",
          tokens: { input: 1000, output: 50, cached: 600, thoughts: 10, tool: 0, total: 1050 },
        },
        { id: "m3", timestamp: "2025-10-20T09:00:09.000Z", type: "gemini", content: "again", model: "qwen3-coder-plus" },
      ],
    };
    const name = "/home/u/.qwen/tmp/abc/chats/session-2025-10-20T09-00-legacy1.json";
    const parsed = await parseDetected(name, detectFormat(name, JSON.stringify(doc)));
    expect(parsed.format).toBe("qwen-code");
    const thread = onlyThread(parsed);
    expect(thread.toolName).toBe("qwen-code");
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["m1", "user"],
      ["m2", "assistant"],
      ["m3", "assistant"],
    ]);
    const reply = thread.turns[1]!;
    expect(reply.modelProvider).toBe("qwen");
    expect(reply.usage).toEqual({ inputTokens: 400, cacheReadTokens: 600, outputTokens: 50, reasoningTokens: 10 });
    // The summary is kept, but not where cost reads Gemini's output-without-thoughts.
    expect(reply.metadata?.tokens).toBeUndefined();
    expect(reply.metadata?.tokenSummary).toEqual(doc.messages[1]!.tokens);
  });

  it("refuses a document without messages", () => {
    expect(() => parseQwenLegacy({ sessionId: "x" }, { name: "x.json" })).toThrow(ImportFormatError);
  });
});
