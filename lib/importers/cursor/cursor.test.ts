import { describe, expect, it } from "vitest";
import { expectPaired, onlyThread, partsOf, roleCounts } from "../test-helpers";
import { ImportFormatError } from "../types";
import { chatTabKey } from "./chat-tabs";
import { parseCursorDocument, type CursorComposerDocument } from "./index";

const CID = "11111111-2222-4333-8444-555555555555";
const source = { name: "state.vscdb#" + CID };

type Json = Record<string, unknown>;

/** A composer document whose headers list `bubbles` in the given order (types from the bubbles). */
function composer(bubbles: Json[], extra: Json = {}, doc: Partial<CursorComposerDocument> = {}): CursorComposerDocument {
  return {
    cursor: "composer",
    composerId: CID,
    composer: {
      _v: 16,
      composerId: CID,
      name: "Fix the parser",
      createdAt: 1780338796904,
      lastUpdatedAt: 1780338804591,
      modelConfig: { modelName: "claude-4.5-sonnet-thinking", maxMode: false },
      fullConversationHeadersOnly: bubbles.map((b) => ({ bubbleId: b.bubbleId, type: b.type })),
      ...extra,
    },
    bubbles: Object.fromEntries(bubbles.map((b) => [b.bubbleId, b])) as CursorComposerDocument["bubbles"],
    ...doc,
  } as CursorComposerDocument;
}

const user = (id: string, text: string, extra: Json = {}): Json => ({
  _v: 3,
  bubbleId: id,
  type: 1,
  text,
  createdAt: "2026-06-01T18:33:24.592Z",
  ...extra,
});
const answer = (id: string, extra: Json = {}): Json => ({
  _v: 3,
  bubbleId: id,
  type: 2,
  text: "",
  createdAt: "2026-06-01T18:33:31.139Z",
  tokenCount: { inputTokens: 0, outputTokens: 0 },
  ...extra,
});
const tool = (id: string, former: Json, extra: Json = {}): Json =>
  answer(id, { capabilityType: 15, toolFormerData: { tool: 15, toolIndex: 0, modelCallId: "", ...former }, ...extra });

function parse(doc: unknown) {
  return parseCursorDocument(doc, source);
}

describe("Cursor composers", () => {
  it("makes one turn per bubble in header order: prompt, thinking, text, tool call with its result on a tool turn", () => {
    const bubbles = [
      user("u1", "List the files"),
      answer("a1", { capabilityType: 30, thinking: { text: "I should run ls.", signature: "" }, thinkingDurationMs: 856 }),
      answer("a2", { text: "Listing them." }),
      tool("t1", {
        toolCallId: "tool_1",
        status: "completed",
        name: "run_terminal_command_v2",
        params: JSON.stringify({ command: "ls" }),
        result: JSON.stringify({ output: "a\nb\n", rejected: false }),
      }),
      answer("a3", { text: "Two files.", tokenCount: { inputTokens: 1200, outputTokens: 80 } }),
    ];
    // The rows come keyed by id (any order); the headers give the order.
    const doc = composer(bubbles);
    doc.bubbles = Object.fromEntries(Object.entries(doc.bubbles).reverse());
    const thread = onlyThread(parse(doc));
    expect(thread).toMatchObject({ key: CID, title: "Fix the parser", toolName: "cursor", createdAt: "2026-06-01T18:33:16.904Z" });
    expect(thread.turns.map((t) => [t.key, t.role])).toEqual([
      ["u1", "user"],
      ["a1", "assistant"],
      ["a2", "assistant"],
      ["t1", "assistant"],
      ["t1:result", "tool"],
      ["a3", "assistant"],
    ]);
    expect(thread.turns[1]!.parts).toEqual([{ type: "thinking", text: "I should run ls.", durationMs: 856 }]);
    expect(thread.turns[3]!.parts).toEqual([
      {
        type: "tool_call",
        id: "tool_1",
        name: "run_terminal_command_v2",
        arguments: { command: "ls" },
        status: "completed",
        cursorTool: 15,
      },
    ]);
    expect(thread.turns[3]!.content).toBe('[run_terminal_command_v2] {"command":"ls"}');
    expect(thread.turns[4]).toMatchObject({
      content: "a\nb\n",
      toolName: "run_terminal_command_v2",
      parts: [{ type: "tool_result", toolCallId: "tool_1", content: { output: "a\nb\n", rejected: false }, isError: false }],
    });
    expect(expectPaired(thread)).toBe(1);
    // Usage only where Cursor counted tokens; every other bubble has zeros.
    expect(thread.turns.filter((t) => t.usage).map((t) => [t.key, t.usage])).toEqual([["a3", { inputTokens: 1200, outputTokens: 80 }]]);
  });

  it("reads a failed call, a completed one without result, a cancelled one, and leaves a running one unfinished", () => {
    const thread = onlyThread(
      parse(
        composer([
          user("u1", "go"),
          tool("t1", {
            toolCallId: "tool_err",
            status: "error",
            name: "read_file_v2",
            params: '{"targetFile":"/x"}',
            result: '{"contents":"Error: File not found"}',
          }),
          tool("t2", {
            toolCallId: "tool_rg",
            status: "completed",
            name: "ripgrep_raw_search",
            params: "{}",
            additionalData: { totalMatches: 1 },
          }),
          tool("t3", {
            toolCallId: "tool_x",
            status: "cancelled",
            name: "edit_file_v2",
            params: "{}",
            result: null,
            userDecision: "rejected",
          }),
          tool("t4", { toolCallId: "tool_run", status: "running", name: "run_terminal_command_v2", params: '{"command":"sleep 9"}' }),
        ]),
      ),
    );
    const results = partsOf(thread, "tool_result");
    expect(results).toEqual([
      { type: "tool_result", toolCallId: "tool_err", content: { contents: "Error: File not found" }, isError: true },
      { type: "tool_result", toolCallId: "tool_rg", content: { totalMatches: 1 }, isError: false, additionalData: { totalMatches: 1 } },
      { type: "tool_result", toolCallId: "tool_x", content: "cancelled", isError: true },
    ]);
    expect(thread.turns.find((t) => t.key === "t1:result")!.content).toBe("Error: File not found");
    const calls = partsOf(thread, "tool_call");
    expect(calls.find((c) => c.id === "tool_x")).toMatchObject({ userDecision: "rejected" });
    expect(calls.find((c) => c.id === "tool_run")).toMatchObject({ unfinished: true });
    expect(calls.filter((c) => c.unfinished)).toHaveLength(1);
    expect(roleCounts(thread)).toEqual({ user: 1, assistant: 4, tool: 3 });
  });

  it("takes a response's model from its bubble, else from the prompt it answers, else from the composer", () => {
    const thread = onlyThread(
      parse(
        composer([
          answer("a0", { text: "before any prompt" }),
          user("u1", "first", { modelInfo: { modelName: "gpt-5-high" } }),
          answer("a1", { text: "one" }),
          answer("a2", { text: "two", modelInfo: { modelName: "claude-4.5-opus-high-thinking" } }),
        ]),
      ),
    );
    expect(thread.turns.map((t) => [t.key, t.modelName ?? null, t.modelProvider ?? null])).toEqual([
      ["a0", "claude-4.5-sonnet-thinking", null],
      ["u1", null, null],
      ["a1", "gpt-5-high", null],
      ["a2", "claude-4.5-opus-high-thinking", null],
    ]);
  });

  it("times a bubble by its ISO createdAt, else its timing (Unix ms), else a legacy timestamp; and ends the thread at its last turn", () => {
    const thread = onlyThread(
      parse(
        composer([
          user("u1", "a", { createdAt: undefined, timestamp: 1766691308486 }),
          answer("a1", { text: "b", createdAt: undefined, timingInfo: { clientStartTime: 4745281.3, clientRpcSendTime: 1766691321759 } }),
          answer("a2", { text: "c", createdAt: "2026-06-01T18:40:00Z" }),
          answer("a3", { text: "d", createdAt: undefined }),
        ]),
      ),
    );
    expect(thread.turns.map((t) => t.timestamp)).toEqual([
      "2025-12-25T19:35:08.486Z",
      "2025-12-25T19:35:21.759Z",
      "2026-06-01T18:40:00.000Z",
      null,
    ]);
    expect(thread.lastUpdatedAt).toBe("2026-06-01T18:40:00.000Z");
  });

  it("reads a prompt's rich text when its text is empty, and keeps code blocks its text lacks", () => {
    const richText = JSON.stringify({
      root: {
        type: "root",
        children: [
          {
            type: "paragraph",
            children: [
              { type: "text", text: "Explain " },
              { type: "mention", text: "@parser.ts" },
            ],
          },
          { type: "paragraph", children: [{ type: "text", text: "please" }] },
        ],
      },
    });
    const thread = onlyThread(
      parse(
        composer([
          user("u1", "", { richText }),
          answer("a1", {
            text: "Here:\n```ts\nconst a = 1;\n```",
            codeBlocks: [
              { content: "const a = 1;", languageId: "ts" },
              { content: "const b = 2;", languageId: "ts" },
            ],
          }),
        ]),
      ),
    );
    expect(thread.turns[0]!.content).toBe("Explain @parser.ts\nplease");
    expect(thread.turns[1]!.content).toBe("Here:\n```ts\nconst a = 1;\n```\n\n```ts\nconst b = 2;\n```");
  });

  it("skips headers whose bubble Cursor never wrote, and reports bubbles that are not objects or of an unknown type", () => {
    const doc = composer([user("u1", "hi"), answer("a1", { text: "yo" })]);
    (doc.composer.fullConversationHeadersOnly as Json[]).push(
      { bubbleId: "gone", type: 2 },
      { type: 2 },
      { bubbleId: "bad", type: 2 },
      { bubbleId: "odd", type: 7 },
    );
    doc.bubbles.bad = "not json";
    doc.bubbles.odd = { _v: 3, bubbleId: "odd", type: 7, text: "?" };
    doc.orphanBubbles = 4;
    const result = parse(doc);
    const thread = onlyThread(result);
    expect(thread.turns.map((t) => t.key)).toEqual(["u1", "a1"]);
    expect(result.skipped).toEqual([
      { path: `${CID}.fullConversationHeadersOnly[3]`, reason: "header without a bubbleId" },
      { path: `${CID}/bubbleId:bad`, reason: "bubble that is not a JSON object" },
      { path: `${CID}/bubbleId:odd`, reason: "bubble of unknown type 7 (1 is a prompt, 2 an answer)" },
    ]);
    expect(thread.metadata).toMatchObject({ missingBubbles: 1, orphanBubbles: 4 });
  });

  it("reads the older layouts: bubbles in conversationMap, or inline in `conversation` (Cursor 0.4x)", () => {
    const fromMap = composer([user("u1", "hi"), answer("a1", { text: "yo" })]);
    fromMap.composer.conversationMap = fromMap.bubbles;
    fromMap.bubbles = {};
    expect(onlyThread(parse(fromMap)).turns.map((t) => t.content)).toEqual(["hi", "yo"]);

    const inline = composer([], {
      _v: undefined,
      fullConversationHeadersOnly: undefined,
      conversation: [user("u1", "old"), answer("a1", { text: "reply" })],
    });
    const thread = onlyThread(parse(inline));
    expect(thread.turns.map((t) => [t.role, t.content])).toEqual([
      ["user", "old"],
      ["assistant", "reply"],
    ]);
  });

  it("takes the title from the name, else the first prompt; the project from the header's workspace, else the composer's", () => {
    const head = {
      name: "From the index",
      workspaceIdentifier: { id: "37d0", uri: { $mid: 1, fsPath: "/home/dev/shop", path: "/home/dev/shop" } },
    };
    const withHead = onlyThread(parse(composer([user("u1", "hi")], { name: undefined }, { head })));
    expect(withHead).toMatchObject({ title: "From the index", project: "/home/dev/shop", metadata: { workspaceId: "37d0" } });

    const own = onlyThread(
      parse(
        composer([user("u1", "Please fix the failing test in lexer.rs")], { name: undefined, workspaceUri: "file:///home/dev/my%20app" }),
      ),
    );
    expect(own).toMatchObject({ title: "Please fix the failing test in lexer.rs", project: "/home/dev/my app" });

    expect(onlyThread(parse(composer([user("u1", "hi")]))).project).toBeNull();
  });

  it("ties a task_v2 call to its sub-agent composer, and a sub-agent or Best-of-N run to its parent", () => {
    const CHILD = "64cc0e23-6dc6-46c4-a155-5b55fc9c30e9";
    const parent = onlyThread(
      parse(
        composer([
          user("u1", "delegate"),
          tool("t1", {
            tool: 48,
            toolCallId: "tool_task",
            status: "completed",
            name: "task_v2",
            params: JSON.stringify({ description: "Count words", prompt: "Count", subagentType: "unspecified" }),
            result: JSON.stringify({ agentId: CHILD }),
            additionalData: { status: "success", subagentComposerId: CHILD },
          }),
        ]),
      ),
    );
    expect(partsOf(parent, "tool_call")[0]).toMatchObject({ id: "tool_task", childSessionId: CHILD });
    expect(partsOf(parent, "tool_result")[0]).toMatchObject({ toolCallId: "tool_task", agentId: CHILD });

    const child = onlyThread(parse({ ...composer([user("c1", "Count")], { subagentInfo: { parentComposerId: CID } }), composerId: CHILD }));
    expect(child).toMatchObject({ key: CHILD, parentKey: CID, relation: { kind: "subagent", toolCallId: null, agentId: CHILD } });

    const run = onlyThread(
      parse({
        ...composer([user("c1", "Count")], { isBestOfNSubcomposer: true, subagentInfo: { parentComposerId: CID } }),
        composerId: CHILD,
      }),
    );
    expect(run).toMatchObject({ parentKey: CID, relation: { kind: "fork", atTurnKey: null } });
  });

  it("refuses a composer or a bubble newer than the versions it reads, naming them", () => {
    expect(() => parse(composer([user("u1", "hi")], { _v: 19 }))).toThrow(
      new ImportFormatError(
        `${source.name}: a Cursor composer of version _v 19, newer than the versions this importer reads (composerData up to _v 18)`,
      ),
    );
    expect(() => parse(composer([user("u1", "hi", { _v: 4 })]))).toThrow(
      /a Cursor bubble of version _v 4, newer than the versions this importer reads \(bubbles up to _v 3\)/,
    );
  });

  it("refuses what is no Cursor chat, and imports nothing from one with no message", () => {
    expect(() => parse({ cursor: "composer", composerId: CID, composer: [], bubbles: {} })).toThrow(/not a Cursor chat: `composer`/);
    expect(() => parse({ info: {} })).toThrow(/not a Cursor chat: neither a composer nor a chat tab/);
    const empty = parse(composer([answer("a1")]));
    expect(empty.threads).toEqual([]);
    expect(empty.warnings).toEqual([`${source.name}: a Cursor chat with no message; nothing imported`]);
  });
});

describe("Cursor's old chat panel tabs", () => {
  const tab = {
    tabId: "tab-1",
    chatTitle: "Regex help",
    lastSendTime: 1716200000000,
    bubbles: [
      { type: "user", id: "b1", text: "What does this match?", selections: [{ text: "/a+b/" }] },
      { type: "ai", id: "b2", rawText: "One or more a, then b.", modelType: "gpt-4" },
      { type: "user", id: "b3", delegate: { a: "And /a*b/?" } },
      { type: "ai", id: "b4", text: "Zero or more.", modelType: "claude-3.5-sonnet" },
      { type: "tool", id: "b5" },
    ],
  };

  it("makes a thread of a tab, prompts and answers with the answering model", () => {
    const result = parse({ cursor: "chat-tab", tab });
    const thread = onlyThread(result);
    expect(thread).toMatchObject({
      key: chatTabKey("tab-1"),
      title: "Regex help",
      project: null,
      lastUpdatedAt: "2024-05-20T10:13:20.000Z",
    });
    expect(thread.key).toBe("aichat:tab-1");
    expect(thread.turns.map((t) => [t.key, t.role, t.content, t.modelName ?? null])).toEqual([
      ["b1", "user", "What does this match?", null],
      ["b2", "assistant", "One or more a, then b.", "gpt-4"],
      ["b3", "user", "And /a*b/?", null],
      ["b4", "assistant", "Zero or more.", "claude-3.5-sonnet"],
    ]);
    expect(thread.turns[0]!.metadata).toEqual({ selections: ["/a+b/"] });
    expect(result.skipped).toEqual([{ path: "tab-1.bubbles[4]", reason: 'bubble of unknown type "tool" (user or ai)' }]);
  });
});
