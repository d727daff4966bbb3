// Amp thread documents, hand-written after what public readers of them parse (docs/formats.md §14):
// each message and block kind, usage, tool pairing, summaries, handoffs, bad records, refusals.
import { describe, expect, it } from "vitest";
import { detectFormat } from "../index";
import { expectPaired, onlyThread, partsOf } from "../test-helpers";
import { ImportFormatError } from "../types";
import { looksLikeAmpThread, parseAmpThread } from "./index";
import { resultText } from "./messages";

const source = { name: "T-test.json" };
const ID = "T-019ca26f-aaaa-bbbb-cccc-dddddddddddd";

function thread(messages: unknown[], extra: Record<string, unknown> = {}) {
  return { v: 7, id: ID, created: 1767865803494, messages, ...extra };
}

const user = (messageId: number, text: string, sentAt = 1767865804000) => ({
  role: "user",
  messageId,
  meta: { sentAt },
  content: [{ type: "text", text }],
});

describe("detection", () => {
  it("claims a JSON object with a T- id and a messages list, nothing else", () => {
    expect(looksLikeAmpThread(thread([]), "T-x.json")).toBe(true);
    expect(looksLikeAmpThread({ id: "T-1", messages: [] }, "whatever.json")).toBe(true);
    expect(looksLikeAmpThread({ id: "ses_1", messages: [] }, "a.json")).toBe(false);
    expect(looksLikeAmpThread({ sessionId: "s", messages: [] }, "a.json")).toBe(false);
    expect(looksLikeAmpThread([{ role: "user", content: "hi" }], "a.json")).toBe(false);
    expect(looksLikeAmpThread({ id: "T-1" }, "a.json")).toBe(false);
    expect(looksLikeAmpThread(thread([]), "a.jsonl")).toBe(false);
  });

  it("is what detectFormat makes of such a document (before the looser role/content formats)", () => {
    const text = JSON.stringify(thread([user(0, "hi")]));
    expect(detectFormat("T-x.json", text).format).toBe("amp");
  });
});

describe("a thread", () => {
  const doc = thread(
    [
      user(0, "Fix the retry loop in client.go"),
      {
        role: "assistant",
        messageId: 1,
        state: { type: "complete", stopReason: "tool_use" },
        usage: {
          model: "claude-sonnet-4-5-20250929",
          timestamp: "2026-01-08T10:30:05.000Z",
          inputTokens: 12,
          outputTokens: 80,
          cacheCreationInputTokens: 900,
          cacheReadInputTokens: 11000,
          totalInputTokens: 11912,
          maxInputTokens: 168000,
          credits: 0.4,
        },
        content: [
          { type: "thinking", thinking: "Run the tests first.", signature: "sig" },
          { type: "text", text: "Running the tests." },
          { type: "tool_use", id: "toolu_01", name: "Bash", complete: true, input: { cmd: "go test ./..." } },
          { type: "tool_use", id: "toolu_02", name: "Read", complete: true, input: { path: "/w/client.go" } },
        ],
      },
      {
        role: "user",
        messageId: 2,
        content: [
          { type: "tool_result", toolUseID: "toolu_01", run: { status: "done", result: { output: "--- FAIL: TestRetry", exitCode: 1 } } },
          { type: "tool_result", toolUseID: "toolu_02", run: { status: "done", result: { content: "package client" } } },
        ],
      },
      {
        role: "assistant",
        messageId: 3,
        usage: {
          model: "claude-sonnet-4-5-20250929",
          timestamp: "2026-01-08T10:30:20.000Z",
          inputTokens: 3,
          outputTokens: 40,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: 12000,
        },
        content: [{ type: "tool_use", id: "toolu_03", name: "edit_file", input: { path: "/w/client.go", old_str: "<=", new_str: "<" } }],
      },
      {
        role: "user",
        messageId: 4,
        content: [
          { type: "tool_result", toolUseID: "toolu_03", run: { status: "done", result: { diff: "@@ -1 +1 @@\n-a <= b\n+a < b" } } },
        ],
      },
    ],
    {
      title: "Retry loop",
      updatedAt: "2026-01-08T10:31:00.000Z",
      agentMode: "smart",
      env: {
        initial: {
          trees: [
            { displayName: "proj", uri: "file:///home/me/proj%20x", repository: { type: "git", url: "https://example.com/r", sha: "abc" } },
          ],
          platform: { os: "linux", client: "CLI", clientVersion: "0.0.1", installationID: "SECRET-ID" },
        },
      },
    },
  );
  const t = onlyThread(parseAmpThread(doc, source));

  it("is keyed by the thread id, named by its title, in its first tree's folder", () => {
    expect(t.key).toBe(ID);
    expect(t.toolName).toBe("amp");
    expect(t.title).toBe("Retry loop");
    expect(t.project).toBe("/home/me/proj x");
    expect(t.createdAt).toBe(new Date(1767865803494).toISOString());
    expect(t.lastUpdatedAt).toBe("2026-01-08T10:31:00.000Z");
    expect(t.metadata).toMatchObject({ revision: 7, agentMode: "smart" });
    // No machine or user identifiers are kept.
    expect(JSON.stringify(t.metadata)).not.toContain("SECRET-ID");
  });

  it("makes a turn per message: prompt, reply, results as a tool turn, keyed by messageId", () => {
    expect(t.turns.map((turn) => [turn.key, turn.role])).toEqual([
      ["0", "user"],
      ["1", "assistant"],
      ["2", "tool"],
      ["3", "assistant"],
      ["4", "tool"],
    ]);
    expect(t.turns[0]!.content).toBe("Fix the retry loop in client.go");
    expect(t.turns[0]!.timestamp).toBe(new Date(1767865804000).toISOString());
  });

  it("pairs each tool call with its result, an exit code other than 0 an error", () => {
    expect(expectPaired(t)).toBe(3);
    const results = partsOf(t, "tool_result");
    expect(results.map((p) => [p.type === "tool_result" && p.toolCallId, p.content, p.isError, p.toolName])).toEqual([
      ["toolu_01", "--- FAIL: TestRetry", true, "Bash"],
      ["toolu_02", "package client", false, "Read"],
      ["toolu_03", "@@ -1 +1 @@\n-a <= b\n+a < b", false, "edit_file"],
    ]);
    expect(results[2]).toMatchObject({ diff: "@@ -1 +1 @@\n-a <= b\n+a < b" });
    expect(t.turns[4]!.toolName).toBe("edit_file");
    // A tool result turn has the time of the reply before it (Amp gives results none of their own).
    expect(t.turns[2]!.timestamp).toBe("2026-01-08T10:30:05.000Z");
  });

  it("keeps each reply's usage once, as reported (Anthropic: cache writes apart from input)", () => {
    expect(t.turns[1]).toMatchObject({
      modelName: "claude-sonnet-4-5-20250929",
      modelProvider: "anthropic",
      timestamp: "2026-01-08T10:30:05.000Z",
      usage: { inputTokens: 12, outputTokens: 80, cacheWriteTokens: 900, cacheReadTokens: 11000 },
    });
    expect(t.turns[1]!.metadata).toMatchObject({
      credits: 0.4,
      stopReason: "tool_use",
      ampUsage: { totalInputTokens: 11912, maxInputTokens: 168000 },
    });
    expect(t.turns[3]!.usage).toEqual({ inputTokens: 3, outputTokens: 40, cacheWriteTokens: 0, cacheReadTokens: 12000 });
    expect(partsOf(t, "thinking")).toEqual([{ type: "thinking", text: "Run the tests first." }]);
  });
});

describe("usage of gpt-* models", () => {
  it("counts the cache creation Amp reports as uncached input, and says so", () => {
    const t = onlyThread(
      parseAmpThread(
        thread([
          user(1, "hi"),
          {
            role: "assistant",
            messageId: 2,
            usage: {
              model: "gpt-5.6-sol",
              inputTokens: 0,
              outputTokens: 5,
              cacheCreationInputTokens: 799,
              cacheReadInputTokens: 16896,
              totalInputTokens: 17695,
            },
            content: [{ type: "text", text: "YES" }],
          },
        ]),
        source,
      ),
    );
    expect(t.turns[1]).toMatchObject({ modelProvider: "openai", usage: { inputTokens: 799, outputTokens: 5, cacheReadTokens: 16896 } });
    expect(t.turns[1]!.usage!.cacheWriteTokens).toBeUndefined();
    expect(t.turns[1]!.metadata?.ampUsage).toEqual({ cacheCreationInputTokens: 799, totalInputTokens: 17695 });
  });

  it("takes an old thread's usage from its usage ledger when a reply has none", () => {
    const t = onlyThread(
      parseAmpThread(
        thread([user(0, "hi"), { role: "assistant", messageId: 1, content: [{ type: "text", text: "hello" }] }], {
          usageLedger: {
            events: [{ id: "e1", model: "claude-sonnet-4", tokens: { input: 10, output: 20, total: 30 }, credits: 0.1, toMessageId: 1 }],
          },
        }),
        source,
      ),
    );
    expect(t.turns[1]).toMatchObject({ modelName: "claude-sonnet-4", usage: { inputTokens: 10, outputTokens: 20 } });
    expect(t.turns[1]!.metadata).toMatchObject({ usageFromLedger: true, credits: 0.1 });
    expect(t.metadata).toMatchObject({ usageLedgerEvents: 1, usageLedgerCredits: 0.1 });
  });
});

describe("tool results", () => {
  const run = (r: unknown) => {
    const t = onlyThread(
      parseAmpThread(
        thread([
          { role: "assistant", messageId: 1, content: [{ type: "tool_use", id: "TU-1", name: "skill", input: {} }] },
          { role: "user", messageId: 2, content: [{ type: "tool_result", toolUseID: "TU-1", run: r }] },
        ]),
        source,
      ),
    );
    return partsOf(t, "tool_result")[0]!;
  };

  it("reads the error of a failed run, and a rejected run as an error", () => {
    expect(run({ status: "error", error: { message: "Skill not found" } })).toMatchObject({
      content: "Skill not found",
      isError: true,
      status: "error",
    });
    expect(run({ status: "rejected-by-user" })).toMatchObject({ content: "[rejected-by-user]", isError: true });
  });

  it("does not take a cancelled or a plain string result for an error", () => {
    expect(run({ status: "cancelled", result: "interrupted" })).toMatchObject({
      content: "interrupted",
      isError: false,
      status: "cancelled",
    });
    expect(run({ status: "done", result: "Tool rejected by plugin: nope" })).toMatchObject({ isError: false });
  });

  it("renders result shapes as readers do", () => {
    expect(
      resultText([
        { type: "text", text: "First" },
        { type: "text", text: "Second" },
      ]),
    ).toBe("First\nSecond");
    expect(resultText({ content: [{ type: "text", text: "Skill instructions" }] })).toBe("Skill instructions");
    expect(resultText({ runners: [{ name: "a" }] })).toBe('{"runners":[{"name":"a"}]}');
    expect(resultText({ success: false })).toBe("failed");
    expect(resultText(["a", "b"])).toBe("a\nb");
    expect(resultText(0)).toBe("0");
    expect(resultText(null)).toBeNull();
  });
});

describe("blocks", () => {
  const t = onlyThread(
    parseAmpThread(
      thread([
        {
          role: "user",
          messageId: 0,
          meta: { sentAt: 1767865804000 },
          content: [
            { type: "text", text: "Look at this" },
            { type: "text", text: "file contents Amp attached", hidden: true },
            { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" }, sourcePath: "shot.png" },
          ],
        },
        {
          role: "assistant",
          messageId: 1,
          content: [
            {
              type: "thinking",
              provider: "openai",
              thinking: "",
              signature: "",
              openAIReasoning: { id: "rs_1", encryptedContent: "BLOB" },
            },
            { type: "future_widget", label: "x", data: "BIG" },
            { type: "text", text: "Seen." },
          ],
        },
        {
          role: "user",
          messageId: 2,
          content: [{ type: "text", text: "Cross-thread context", hidden: true }],
          meta: { fromExecutorThreadID: "T-child" },
        },
      ]),
      source,
    ),
  );

  it("keeps hidden text apart from what was typed, images without their data", () => {
    expect(t.turns[0]!.content).toBe("Look at this\n\n[image]");
    expect(t.turns[0]!.parts).toEqual([
      { type: "text", text: "Look at this" },
      { type: "text", text: "file contents Amp attached", hidden: true },
      { type: "image", mediaType: "image/png", sourcePath: "shot.png", alt: "image" },
    ]);
    expect(JSON.stringify(t.turns)).not.toContain("AAAA");
    expect(t.turns[2]).toMatchObject({
      role: "user",
      content: "Cross-thread context",
      metadata: { hidden: true, fromExecutorThreadID: "T-child" },
    });
  });

  it("keeps encrypted reasoning as an empty, redacted thinking block and unknown blocks without data", () => {
    expect(t.turns[1]!.parts).toEqual([
      { type: "thinking", text: "", redacted: true, provider: "openai" },
      { type: "text", text: "[future_widget]", unknownBlock: { type: "future_widget", label: "x" } },
      { type: "text", text: "Seen." },
    ]);
    expect(JSON.stringify(t.turns)).not.toContain("BLOB");
  });

  it("titles a thread without a title by its first typed prompt", () => {
    expect(t.title).toBe("Look at this");
  });
});

describe("summaries and handoffs", () => {
  it("makes an info summary a compaction marker whose content is the summary", () => {
    const t = onlyThread(
      parseAmpThread(
        thread([
          user(0, "before"),
          {
            role: "info",
            messageId: 1,
            content: [{ type: "summary", summary: { type: "message", summary: "The build fails because the bound is exclusive." } }],
          },
          { role: "info", messageId: 2, content: [{ type: "summary", summary: { type: "thread", thread: "T-next" } }] },
          { role: "assistant", messageId: 3, content: [{ type: "text", text: "after" }] },
        ]),
        source,
      ),
    );
    expect(t.turns.map((turn) => turn.role)).toEqual(["user", "system", "system", "assistant"]);
    expect(t.turns[1]).toMatchObject({
      content: "The build fails because the bound is exclusive.",
      compaction: { trigger: null, tokensBefore: null, tokensAfter: null },
    });
    expect(t.turns[2]).toMatchObject({ content: expect.stringContaining("T-next"), metadata: { summaryThread: "T-next" } });
  });

  it("makes a handoff thread a continuation of the thread it was handed off from, and lists the ones it handed off to", () => {
    const t = onlyThread(
      parseAmpThread(
        thread([user(0, "continue")], {
          relationships: [
            { type: "handoff", role: "child", threadID: "T-parent", messageIndex: 12, createdAt: 1, comment: "finish the tests" },
            { type: "handoff", role: "parent", threadID: "T-next", messageIndex: 3, createdAt: 2 },
          ],
        }),
        source,
      ),
    );
    expect(t.parentKey).toBe("T-parent");
    expect(t.relation).toEqual({ kind: "continuation" });
    expect(t.metadata).toMatchObject({
      handoffFrom: "T-parent",
      handoffComment: "finish the tests",
      handoffTo: [{ threadID: "T-next", messageIndex: 3 }],
    });
  });
});

describe("bad records and refusals", () => {
  it("skips what it cannot read, each with its JSON path and reason, and keeps the rest", () => {
    const result = parseAmpThread(
      thread([
        "not an object",
        user(0, "ok"),
        user(0, "again"),
        { role: "system", messageId: 5, content: [] },
        { role: "user", messageId: 6, content: 42 },
        {
          role: "assistant",
          messageId: 7,
          content: [
            { type: "tool_use", name: "Bash", input: {} },
            { type: "text", text: "x" },
          ],
        },
        { role: "user", messageId: 8, content: [{ type: "tool_result", run: { status: "done" } }] },
        { role: "info", messageId: 9, content: [] },
      ]),
      source,
    );
    expect(result.skipped).toEqual([
      { path: "messages[0]", reason: "not a JSON object" },
      { path: "messages[2]", reason: "message 0: a duplicate; the first message with it is kept" },
      { path: "messages[3]", reason: 'role "system": not one Amp writes (user, assistant, info)' },
      { path: "messages[4]", reason: "content: neither a list of blocks nor a string" },
      { path: "messages[5].content[0]", reason: "tool_use without an id" },
      { path: "messages[6].content[0]", reason: "tool_result without a toolUseID" },
      { path: "messages[7]", reason: "an info message with no summary and no text" },
    ]);
    expect(onlyThread(result).turns.map((turn) => turn.key)).toEqual(["0", "7", "8"]);
  });

  it("keys messages without a messageId by their protocolMessageID, else their position", () => {
    const t = onlyThread(
      parseAmpThread(
        thread([
          { role: "user", protocolMessageID: "M-1", content: [{ type: "text", text: "a" }] },
          { role: "assistant", content: [{ type: "text", text: "b" }] },
        ]),
        source,
      ),
    );
    expect(t.turns.map((turn) => turn.key)).toEqual(["M-1", "#1"]);
  });

  it("refuses what is no Amp thread, naming what it expected and found", () => {
    expect(() => parseAmpThread([1], source)).toThrow(ImportFormatError);
    expect(() => parseAmpThread([1], source)).toThrow(/expected a JSON object .* found a list/);
    expect(() => parseAmpThread({ id: "x", messages: [] }, source)).toThrow(/expected an id "T-…", found "x"/);
    expect(() => parseAmpThread({ id: "T-1", messages: {} }, source)).toThrow(/expected a messages list, found an object/);
  });

  it("gives the same result twice (stable keys for re-import)", () => {
    const doc = thread([user(0, "a"), { role: "assistant", messageId: 1, content: [{ type: "text", text: "b" }] }]);
    expect(parseAmpThread(doc, source)).toEqual(parseAmpThread(structuredClone(doc), source));
  });
});
