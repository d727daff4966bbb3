import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikeChatGptExport, MAX_FORKS_PER_CONVERSATION, parseChatGptExport } from "./chatgpt";
import { ImportFormatError, type ImportedThread, type ParsedSource } from "./types";

const FIXTURE = path.join(process.cwd(), "fixtures/real/chatgpt/conversations.json");
const SOURCE = { name: "conversations.json" };

function summary(thread: ImportedThread) {
  const roles: Record<string, number> = {};
  for (const turn of thread.turns) roles[turn.role] = (roles[turn.role] ?? 0) + 1;
  const parts = thread.turns.flatMap((t) => t.parts ?? []);
  const callIds = new Set(parts.flatMap((p) => (p.type === "tool_call" ? [p.id] : [])));
  return {
    turns: thread.turns.length,
    roles,
    toolCalls: parts.filter((p) => p.type === "tool_call").length,
    toolResultsPaired: parts.filter((p) => p.type === "tool_result" && callIds.has(p.toolCallId)).length,
    toolErrors: parts.filter((p) => p.type === "tool_result" && p.isError === true).length,
    models: [...new Set(thread.turns.map((t) => t.modelName).filter(Boolean))].sort(),
    usage: thread.turns.filter((t) => t.usage).length,
  };
}

function byKey(parsed: ParsedSource, key: string): ImportedThread {
  const thread = parsed.threads.find((t) => t.key === key);
  if (!thread) throw new Error(`no thread ${key}; have ${parsed.threads.map((t) => t.key).join(", ")}`);
  return thread;
}

/**
 * Expected figures were read from the file independently of this parser:
 * - `jq length conversations.json` -> 5 conversations.
 * - `jq '[.[] | .mapping[] | select((.children|length)>1) | .id]'` -> 2 branching nodes
 *   (aaa29fb2-… in "Intro to Multivariate Stats.", c42c6b04-… in "Logo design…"), each a user
 *   node with two assistant children.
 * - Each conversation has exactly one system message, with parts [""] (jq: role=="system" and
 *   parts joined == ""), and none has is_visually_hidden_from_conversation: so every other message
 *   on the path is a turn.
 * - A Python script (/tmp/chatgpt-verify/verify.py while this was written) walked `parent` from
 *   current_node to the root, counted roles of the visible messages, assistant messages with
 *   recipient != "all" (calls), tool messages following a call (paired), system_error contents,
 *   model_slug per assistant message; and for each branching node the other child's path to its
 *   newest leaf.
 * - `jq -c '[.[] | .mapping[] | .message | select(. != null) | select(.author.role=="assistant"
 *   and .recipient!="all") | .recipient]'` -> ["show_me.get_MermaidRoute","browser","browser","browser"].
 * - model slugs on assistant messages: gpt-4 2+7+1 (fork), gpt-4-browsing 5, gpt-4-plugins 3,
 *   text-davinci-002-render-sha 3+7+1 (fork); no token counts exist in this format.
 */
describe("real ChatGPT export (5 conversations from a 2023 export)", () => {
  const parsed = parseChatGptExport(JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown, SOURCE);

  it("yields 5 conversations and 2 forks, nothing skipped", () => {
    expect(parsed.format).toBe("chatgpt");
    expect(parsed.skipped).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.threads.map((t) => t.key)).toEqual([
      "c21a4db5-68eb-471a-b590-bb6ef7b81b42",
      "902d8aca-bcd3-477a-a348-d46448b6cd06",
      "93b89459-0130-4467-ba85-d8a8d9b189a4",
      "3af5baaa-e3c9-4fec-928d-0007faaa9430",
      "3af5baaa-e3c9-4fec-928d-0007faaa9430:fork:eb5d508e-72fd-420a-b3d6-d119e26c6350",
      "e96087ed-b714-4a54-a06a-e425db1680bd",
      "e96087ed-b714-4a54-a06a-e425db1680bd:fork:50d1ea72-f1b0-4814-ada5-2bf66276ad16",
    ]);
    expect(parsed.threads.every((t) => t.toolName === "chatgpt")).toBe(true);
    expect(parsed.threads.reduce((n, t) => n + t.turns.length, 0)).toBe(6 + 12 + 10 + 14 + 1 + 14 + 1);
  });

  it("plugin conversation: one call to show_me.get_MermaidRoute with JSON arguments, paired", () => {
    const thread = byKey(parsed, "c21a4db5-68eb-471a-b590-bb6ef7b81b42");
    expect(thread.title).toBe("GitHub Wikis & Source Code");
    // create_time 1685446986.458116, update_time 1685447124.0
    expect(thread.createdAt).toBe("2023-05-30T11:43:06.458Z");
    expect(thread.lastUpdatedAt).toBe("2023-05-30T11:45:24.000Z");
    expect(summary(thread)).toEqual({
      turns: 6,
      roles: { user: 2, assistant: 3, tool: 1 },
      toolCalls: 1,
      toolResultsPaired: 1,
      toolErrors: 0,
      models: ["gpt-4-plugins"],
      usage: 0,
    });
    expect(thread.metadata).toMatchObject({ defaultModelSlug: null, currentNode: "6be93cb6-48af-47ee-b346-2c0d6e8d7854", models: ["gpt-4-plugins"] });
    const call = thread.turns.find((t) => t.key.startsWith("7e7680b8"))!;
    expect(call.parts).toEqual([{ type: "tool_call", id: "7e7680b8-7048-4150-bf00-a19faef57523", name: "show_me.get_MermaidRoute", arguments: { mermaid: expect.stringMatching(/^graph TB/) } }]);
    const result = thread.turns.find((t) => t.key.startsWith("90635e02"))!;
    expect(result.role).toBe("tool");
    expect(result.toolName).toBe("show_me.get_MermaidRoute");
    expect(result.parts?.[0]).toMatchObject({ type: "tool_result", toolCallId: "7e7680b8-7048-4150-bf00-a19faef57523" });
    expect(result.metadata).toMatchObject({ plugin: "show_me" });
    // The first turn is the user's prompt: the root (no message) and the empty system message are not turns.
    expect(thread.turns[0]).toMatchObject({ key: "aaa2abab-c779-4494-b2e6-acba0d0fb1a8", role: "user", content: "In GitHub, is there some way to fill the Wiki with the source code tree?" });
  });

  it("browsing conversation: 3 code calls to the browser, 5 results (one call answered three times), 2 errors", () => {
    const thread = byKey(parsed, "902d8aca-bcd3-477a-a348-d46448b6cd06");
    expect(summary(thread)).toEqual({
      turns: 12,
      roles: { user: 2, assistant: 5, tool: 5 },
      toolCalls: 3,
      toolResultsPaired: 5,
      toolErrors: 2,
      models: ["gpt-4-browsing"],
      usage: 0,
    });
    const quoteCall = thread.turns.find((t) => t.key.startsWith("f9966845"))!;
    const quoteResults = thread.turns.filter((t) => t.parts?.some((p) => p.type === "tool_result" && p.toolCallId === "f9966845-d54b-4ea3-9d51-9ea52a9e9bd2"));
    expect(quoteResults.map((t) => t.key.slice(0, 8))).toEqual(["29d2609e", "7e3e4d3a", "553fee13"]);
    // code content: not JSON, so the arguments stay the raw text; the content shows a fenced block.
    expect(quoteCall.parts?.[0]).toMatchObject({ type: "tool_call", name: "browser", arguments: expect.stringMatching(/^# I'll quote/) });
    expect(quoteCall.content).toMatch(/^\[browser\]\n```\n# I'll quote/);
    const quote = thread.turns.find((t) => t.key.startsWith("7e3e4d3a"))!;
    expect(quote.content).toMatch(/^Quote from www\.pieterkuppens\.nl <https:\/\/www\.pieterkuppens\.nl\/>:\nBeschikbaar als/);
    const error = thread.turns.find((t) => t.key.startsWith("64d9ae31"))!;
    expect(error.parts?.[0]).toMatchObject({ type: "tool_result", isError: true, content: expect.stringMatching(/^tool_error: Error when executing command `open_url/) });
    const display = thread.turns.find((t) => t.key.startsWith("7010056a"))!;
    expect(display.content).toContain("URL: https://www.pieterkuppens.nl/");
    expect(display.metadata).toMatchObject({ contentType: "tether_browsing_display", weight: 0, command: "open_url" });
  });

  it("plain conversation with two models", () => {
    const thread = byKey(parsed, "93b89459-0130-4467-ba85-d8a8d9b189a4");
    expect(summary(thread)).toMatchObject({ turns: 10, roles: { user: 5, assistant: 5 }, toolCalls: 0, models: ["gpt-4", "text-davinci-002-render-sha"] });
    expect(thread.turns.filter((t) => t.modelName === "gpt-4")).toHaveLength(2);
    expect(thread.turns.every((t) => t.role !== "assistant" || t.modelProvider === "openai")).toBe(true);
    expect(thread.turns.find((t) => t.key.startsWith("ace06894"))!.metadata).toMatchObject({ finishReason: "max_tokens" });
  });

  it("regenerate branches become forks after the user prompt", () => {
    const intro = byKey(parsed, "3af5baaa-e3c9-4fec-928d-0007faaa9430");
    expect(summary(intro)).toMatchObject({ turns: 14, roles: { user: 7, assistant: 7 }, models: ["gpt-4"] });
    // On the current path the branching user prompt is followed by the second child, 4ac5aced.
    const at = intro.turns.findIndex((t) => t.key === "aaa29fb2-d27f-4d4a-8c33-3517ab54b218");
    expect(at).toBe(2);
    expect(intro.turns[at + 1]!.key).toBe("4ac5aced-e531-4b5c-9ede-82b5a31fc729");
    expect(intro.turns.some((t) => t.key.startsWith("eb5d508e"))).toBe(false);

    const introFork = byKey(parsed, "3af5baaa-e3c9-4fec-928d-0007faaa9430:fork:eb5d508e-72fd-420a-b3d6-d119e26c6350");
    expect(introFork.parentKey).toBe("3af5baaa-e3c9-4fec-928d-0007faaa9430");
    expect(introFork.relation).toEqual({ kind: "fork", atTurnKey: "aaa29fb2-d27f-4d4a-8c33-3517ab54b218" });
    expect(summary(introFork)).toMatchObject({ turns: 1, roles: { assistant: 1 }, models: ["gpt-4"] });
    // message create_time 1682941915.402623
    expect(introFork.createdAt).toBe("2023-05-01T11:51:55.402Z");
    expect(introFork.title).toMatch(/^Intro to Multivariate Stats\. — branch: 1\) Which of the following/);
    expect(introFork.metadata).toMatchObject({ branchNodeId: "aaa29fb2-d27f-4d4a-8c33-3517ab54b218", forkNodeId: "eb5d508e-72fd-420a-b3d6-d119e26c6350" });
    expect(introFork.metadata).not.toHaveProperty("currentNode");

    const logo = byKey(parsed, "e96087ed-b714-4a54-a06a-e425db1680bd");
    expect(summary(logo)).toMatchObject({ turns: 14, roles: { user: 7, assistant: 7 }, models: ["text-davinci-002-render-sha"] });
    const logoFork = byKey(parsed, "e96087ed-b714-4a54-a06a-e425db1680bd:fork:50d1ea72-f1b0-4814-ada5-2bf66276ad16");
    expect(logoFork.relation).toEqual({ kind: "fork", atTurnKey: "c42c6b04-0a3c-4563-897d-b7317866288d" });
    expect(summary(logoFork)).toMatchObject({ turns: 1, roles: { assistant: 1 }, models: ["text-davinci-002-render-sha"] });
  });

  it("is stable across re-parses (keys derive from ids only)", () => {
    const again = parseChatGptExport(JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown, SOURCE);
    expect(again).toEqual(parsed);
  });

  it("is detected by looksLikeChatGptExport", () => {
    expect(looksLikeChatGptExport(JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown, "conversations.json")).toBe(true);
  });
});

// --- hand-written inputs -------------------------------------------------------------------------

type Msg = {
  role: string;
  text?: string;
  content?: Record<string, unknown>;
  recipient?: string;
  time?: number | null;
  name?: string;
  metadata?: Record<string, unknown>;
};

type NodeSpec = [id: string, parent: string | null, message: Msg | null];

/** A conversation from [id, parent, message] rows; children follow the row order. */
function conversation(id: string, rows: NodeSpec[], currentNode: string | null, extra: Record<string, unknown> = {}) {
  const mapping: Record<string, unknown> = {};
  let clock = 1_700_000_000;
  for (const [nodeId, parent, msg] of rows) {
    const children = rows.filter(([, p]) => p === nodeId).map(([c]) => c);
    mapping[nodeId] = {
      id: nodeId,
      parent,
      children,
      message: msg && {
        id: nodeId,
        author: { role: msg.role, name: msg.name ?? null, metadata: {} },
        create_time: msg.time === undefined ? clock++ : msg.time,
        content: msg.content ?? { content_type: "text", parts: [msg.text ?? ""] },
        status: "finished_successfully",
        recipient: msg.recipient ?? "all",
        weight: 1,
        metadata: msg.metadata ?? {},
      },
    };
  }
  return { id, title: `Title ${id}`, create_time: 1_700_000_000.5, update_time: 1_700_000_100, mapping, current_node: currentNode, ...extra };
}

const root = (id = "root"): NodeSpec => [id, null, null];
const sys = (id = "sys", parent = "root"): NodeSpec => [id, parent, { role: "system", text: "" }];

function parse(doc: unknown): ParsedSource {
  return parseChatGptExport(doc, SOURCE);
}

describe("the minimal example of FORMATS.md section 4", () => {
  const doc = [
    {
      id: "c1",
      title: "Demo",
      create_time: 1700000000.0,
      update_time: 1700000100.0,
      current_node: "n4",
      mapping: {
        n0: { id: "n0", message: null, parent: null, children: ["n1"] },
        n1: { id: "n1", parent: "n0", children: ["n2", "n3"], message: { id: "n1", author: { role: "user", name: null, metadata: {} }, create_time: 1700000001.0, content: { content_type: "text", parts: ["hi"] }, status: "finished_successfully", recipient: "all", metadata: {} } },
        n2: { id: "n2", parent: "n1", children: [], message: { id: "n2", author: { role: "assistant", name: null, metadata: {} }, content: { content_type: "text", parts: ["first answer"] }, recipient: "all", metadata: { model_slug: "gpt-4" } } },
        n3: { id: "n3", parent: "n1", children: ["n4"], message: { id: "n3", author: { role: "assistant", name: null, metadata: {} }, content: { content_type: "code", language: "unknown", text: "search('x')" }, recipient: "browser", metadata: { model_slug: "gpt-4-browsing" } } },
        n4: { id: "n4", parent: "n3", children: [], message: { id: "n4", author: { role: "tool", name: "browser", metadata: {} }, content: { content_type: "tether_browsing_display", result: "…", summary: null }, recipient: "all", metadata: {} } },
      },
    },
  ];

  it("main thread = root to current_node, the other answer a fork after the prompt", () => {
    const parsed = parse(doc);
    expect(parsed.threads).toHaveLength(2);
    const [main, fork] = parsed.threads;
    expect(main!.key).toBe("c1");
    expect(main!.title).toBe("Demo");
    expect(main!.createdAt).toBe("2023-11-14T22:13:20.000Z");
    expect(main!.lastUpdatedAt).toBe("2023-11-14T22:15:00.000Z");
    expect(main!.turns.map((t) => [t.key, t.role])).toEqual([
      ["n1", "user"],
      ["n3", "assistant"],
      ["n4", "tool"],
    ]);
    expect(main!.turns[0]!.timestamp).toBe("2023-11-14T22:13:21.000Z");
    expect(main!.turns[1]).toMatchObject({ modelName: "gpt-4-browsing", modelProvider: "openai", parts: [{ type: "tool_call", id: "n3", name: "browser", arguments: "search('x')" }] });
    expect(main!.turns[2]).toMatchObject({ toolName: "browser", content: "…", parts: [{ type: "tool_result", toolCallId: "n3", content: "…" }] });
    expect(fork).toMatchObject({ key: "c1:fork:n2", parentKey: "c1", relation: { kind: "fork", atTurnKey: "n1" } });
    expect(fork!.turns).toEqual([expect.objectContaining({ key: "n2", role: "assistant", content: "first answer", modelName: "gpt-4", timestamp: null })]);
  });
});

describe("which messages are turns", () => {
  it("skips the root, hidden messages, empty system messages and context-only content types", () => {
    const doc = conversation(
      "c",
      [
        root(),
        sys(),
        ["ctx", "sys", { role: "user", content: { content_type: "user_editable_context", user_profile: "I am a dev", user_instructions: "be brief" }, metadata: { is_visually_hidden_from_conversation: true, is_user_system_message: true } }],
        ["mem", "ctx", { role: "system", content: { content_type: "model_editable_context", model_set_context: "1. likes tea", text: "memory" } }],
        // Even without the hidden flag, custom instructions are context, not a message.
        ["ctx2", "mem", { role: "user", content: { content_type: "user_editable_context", text: "The user provided the following information about themselves: dev" } }],
        ["hid", "ctx2", { role: "system", text: "You are ChatGPT…", metadata: { is_visually_hidden_from_conversation: true } }],
        ["u1", "hid", { role: "user", text: "hello" }],
        ["blank", "u1", { role: "assistant", text: "" }],
        ["weird", "blank", { role: "critic", text: "an unknown role" }],
        ["s1", "weird", { role: "system", text: "Visible system note" }],
        ["a1", "s1", { role: "assistant", text: "hi there", metadata: { model_slug: "gpt-4o" } }],
      ],
      "a1",
    );
    const parsed = parse([doc]);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.threads).toHaveLength(1);
    expect(parsed.threads[0]!.turns.map((t) => [t.key, t.role, t.content])).toEqual([
      ["u1", "user", "hello"],
      ["s1", "system", "Visible system note"],
      ["a1", "assistant", "hi there"],
    ]);
    expect(parsed.threads[0]!.turns[1]!.modelName).toBeUndefined();
  });

  it("renders each content type", () => {
    const doc = conversation(
      "c",
      [
        root(),
        [
          "u1",
          "root",
          {
            role: "user",
            content: {
              content_type: "multimodal_text",
              parts: [
                { content_type: "image_asset_pointer", asset_pointer: "file-service://file-abc", size_bytes: 1000, width: 640, height: 480, fovea: 512, metadata: null },
                "what is this?",
                { content_type: "audio_transcription", text: "spoken words", direction: "in" },
                { content_type: "audio_asset_pointer", asset_pointer: "sediment://file_audio", format: "wav" },
              ],
            },
            metadata: { attachments: [{ id: "file-abc", name: "cat.png", mime_type: "image/png", size: 1000 }] },
          },
        ],
        ["t1", "u1", { role: "assistant", content: { content_type: "thoughts", thoughts: [{ summary: "Looking closer", content: "It has whiskers.", chunks: [], finished: true }], source_analysis_msg_id: "x" }, metadata: { model_slug: "o3" } }],
        ["r1", "t1", { role: "assistant", content: { content_type: "reasoning_recap", content: "Thought for 4 seconds" }, metadata: { model_slug: "o3" } }],
        ["a1", "r1", { role: "assistant", content: { content_type: "code", language: "python", text: "print('```')" }, metadata: { model_slug: "o3" } }],
        ["a2", "a1", { role: "assistant", content: { content_type: "canvas_widget", text: "a future type with text" } }],
        ["a3", "a2", { role: "assistant", content: { content_type: "opaque_future_type", blob: 1 } }],
        ["img", "a3", { role: "tool", name: "dalle.text2im", content: { content_type: "multimodal_text", parts: [{ content_type: "image_asset_pointer", asset_pointer: "sediment://file_gen", metadata: { dalle: { prompt: "a cat in a hat", gen_id: "g" } } }] } }],
        ["web", "img", { role: "tool", name: "web", content: { content_type: "sonic_webpage", url: "https://example.com", title: "Example", text: "Example body" } }],
      ],
      "web",
    );
    const [thread] = parse(doc).threads;
    const turn = (key: string) => thread!.turns.find((t) => t.key === key)!;

    const user = turn("u1");
    expect(user.parts).toEqual([
      { type: "image", alt: "cat.png", mediaType: "image/png", assetPointer: "file-service://file-abc", width: 640, height: 480 },
      { type: "text", text: "what is this?" },
      { type: "text", text: "spoken words" },
    ]);
    expect(user.content).toBe("[image: cat.png]\n\nwhat is this?\n\nspoken words\n\n[audio]");
    expect(user.metadata).toMatchObject({ contentType: "multimodal_text", attachments: [{ name: "cat.png", mimeType: "image/png", size: 1000 }] });

    expect(turn("t1")).toMatchObject({ role: "assistant", modelName: "o3", content: "Looking closer\n\nIt has whiskers.", parts: [{ type: "thinking", text: "It has whiskers.", summary: "Looking closer" }] });
    expect(turn("r1")).toMatchObject({ content: "Thought for 4 seconds", parts: [{ type: "thinking", text: "Thought for 4 seconds", recap: true }] });
    // The fence grows past the backticks inside the code.
    expect(turn("a1").content).toBe("````python\nprint('```')\n````");
    expect(turn("a1").parts).toEqual([{ type: "text", text: "````python\nprint('```')\n````" }]);
    expect(turn("a2").content).toBe("a future type with text");
    expect(thread!.turns.some((t) => t.key === "a3")).toBe(false);
    // No tool call before it: a plain tool turn with the image, labelled by its prompt.
    expect(turn("img")).toMatchObject({ role: "tool", toolName: "dalle.text2im", content: "[image: generated image: a cat in a hat]" });
    expect(turn("img").parts).toEqual([{ type: "image", alt: "generated image: a cat in a hat", assetPointer: "sediment://file_gen" }]);
    expect(turn("web").content).toBe("Example\nhttps://example.com\nExample body");
  });

  it("never puts image data into content or parts", () => {
    const doc = conversation(
      "c",
      [root(), ["u1", "root", { role: "user", content: { content_type: "multimodal_text", parts: [{ content_type: "image_asset_pointer", asset_pointer: "file-service://file-x", data: "iVBORw0KGgoAAAANSUhEUg==" }] } }]],
      "u1",
    );
    const serialized = JSON.stringify(parse([doc]).threads);
    expect(serialized).not.toContain("iVBORw0KGgo");
    expect(parse([doc]).threads[0]!.turns[0]!.parts).toEqual([{ type: "image", alt: "image uploaded by the user", assetPointer: "file-service://file-x" }]);
  });
});

describe("tool calls and results", () => {
  it("pairs python code with its execution_output, through hidden nodes, and parses JSON arguments", () => {
    const doc = conversation(
      "c",
      [
        root(),
        ["u1", "root", { role: "user", text: "plot it" }],
        ["call", "u1", { role: "assistant", recipient: "python", content: { content_type: "code", language: "python", text: "1 + 1" }, metadata: { model_slug: "gpt-4o" } }],
        ["hidden", "call", { role: "tool", name: "python", text: "internal", metadata: { is_visually_hidden_from_conversation: true } }],
        ["out", "hidden", { role: "tool", name: "python", content: { content_type: "execution_output", text: "2" } }],
        ["quiet", "out", { role: "tool", name: "python", content: { content_type: "execution_output", text: "" } }],
        ["a1", "quiet", { role: "assistant", text: "It is 2." }],
        ["json", "a1", { role: "assistant", recipient: "dalle.text2im", text: '{"prompt": "a cat", "size": "1024x1024"}' }],
        ["u2", "json", { role: "user", text: "never mind" }],
        ["late", "u2", { role: "tool", name: "dalle.text2im", text: "a stray tool message" }],
        ["num", "late", { role: "assistant", recipient: "python", content: { content_type: "code", language: "python", text: "42" } }],
        ["num-out", "num", { role: "tool", name: "python", content: { content_type: "execution_output", text: "42" }, metadata: { status: "failed" } }],
      ],
      "num-out",
    );
    const [thread] = parse(doc).threads;
    const turn = (key: string) => thread!.turns.find((t) => t.key === key)!;
    expect(thread!.turns.map((t) => t.key)).toEqual(["u1", "call", "out", "quiet", "a1", "json", "u2", "late", "num", "num-out"]);
    expect(turn("call").parts).toEqual([{ type: "tool_call", id: "call", name: "python", arguments: "1 + 1" }]);
    expect(turn("call").content).toBe("[python]\n```python\n1 + 1\n```");
    expect(turn("out").parts).toEqual([{ type: "tool_result", toolCallId: "call", content: "2" }]);
    // An empty output still answers the call.
    expect(turn("quiet")).toMatchObject({ content: "(no output)", parts: [{ type: "tool_result", toolCallId: "call", content: "" }] });
    expect(turn("json").parts).toEqual([{ type: "tool_call", id: "json", name: "dalle.text2im", arguments: { prompt: "a cat", size: "1024x1024" } }]);
    // The user spoke in between: the late tool message answers nothing.
    expect(turn("late").parts).toEqual([{ type: "text", text: "a stray tool message" }]);
    // "42" is valid JSON but not an object: kept as the raw text.
    expect(turn("num").parts).toEqual([{ type: "tool_call", id: "num", name: "python", arguments: "42" }]);
    expect(turn("num-out").parts).toEqual([{ type: "tool_result", toolCallId: "num", content: "42", isError: true }]);
  });

  it("uses message.id as the call id when it differs from the node id", () => {
    const doc = conversation("c", [root(), ["u1", "root", { role: "user", text: "q" }], ["n2", "u1", { role: "assistant", recipient: "browser", text: "search('x')" }], ["n3", "n2", { role: "tool", name: "browser", text: "results" }]], "n3");
    (doc.mapping.n2 as { message: { id: string } }).message.id = "msg-2";
    const [thread] = parse(doc).threads;
    expect(thread!.turns[1]).toMatchObject({ key: "n2", parts: [{ type: "tool_call", id: "msg-2" }], metadata: { messageId: "msg-2" } });
    expect(thread!.turns[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "msg-2", content: "results" }]);
  });
});

describe("forks", () => {
  it("an edited first prompt forks at the hidden root: atTurnKey null", () => {
    const doc = conversation(
      "c",
      [root(), sys(), ["u-old", "sys", { role: "user", text: "first try" }], ["a-old", "u-old", { role: "assistant", text: "old answer" }], ["u-new", "sys", { role: "user", text: "second try" }], ["a-new", "u-new", { role: "assistant", text: "new answer" }]],
      "a-new",
    );
    const parsed = parse(doc);
    expect(parsed.threads.map((t) => t.key)).toEqual(["c", "c:fork:u-old"]);
    expect(parsed.threads[0]!.turns.map((t) => t.key)).toEqual(["u-new", "a-new"]);
    expect(parsed.threads[1]).toMatchObject({ parentKey: "c", relation: { kind: "fork", atTurnKey: null } });
    expect(parsed.threads[1]!.turns.map((t) => t.key)).toEqual(["u-old", "a-old"]);
  });

  it("a fork follows its newest leaf by create_time; ties go to the later child", () => {
    const doc = conversation(
      "c",
      [
        root(),
        ["u1", "root", { role: "user", text: "q", time: 100 }],
        ["main", "u1", { role: "assistant", text: "kept", time: 101 }],
        ["alt", "u1", { role: "assistant", text: "regenerated", time: 102 }],
        ["alt-u-new", "alt", { role: "user", text: "newer follow-up", time: 200 }],
        ["alt-u-old", "alt", { role: "user", text: "older follow-up", time: 150 }],
        ["tie", "u1", { role: "assistant", text: "tie", time: 103 }],
        ["tie-a", "tie", { role: "user", text: "tie a", time: 300 }],
        ["tie-b", "tie", { role: "user", text: "tie b", time: 300 }],
      ],
      "main",
    );
    const parsed = parse(doc);
    const alt = byKey(parsed, "c:fork:alt");
    expect(alt.turns.map((t) => t.key)).toEqual(["alt", "alt-u-new"]);
    expect(alt.createdAt).toBe(new Date(102_000).toISOString());
    expect(alt.lastUpdatedAt).toBe(new Date(200_000).toISOString());
    expect(byKey(parsed, "c:fork:tie").turns.map((t) => t.key)).toEqual(["tie", "tie-b"]);
    // The branch left behind inside a fork is a fork of that fork.
    const nested = byKey(parsed, "c:fork:alt-u-old");
    expect(nested).toMatchObject({ parentKey: "c:fork:alt", relation: { kind: "fork", atTurnKey: "alt" } });
    expect(nested.turns.map((t) => t.key)).toEqual(["alt-u-old"]);
    expect(byKey(parsed, "c:fork:tie-a").parentKey).toBe("c:fork:tie");
    expect(parsed.threads).toHaveLength(5);
  });

  it("a fork's pairing state comes from the shared history", () => {
    // Two answers to one call: the alternative answer still pairs with the call on the main path.
    const doc = conversation(
      "c",
      [root(), ["u1", "root", { role: "user", text: "q" }], ["call", "u1", { role: "assistant", recipient: "python", text: "x" }], ["r1", "call", { role: "tool", name: "python", text: "one" }], ["r2", "call", { role: "tool", name: "python", text: "two" }]],
      "r1",
    );
    const fork = byKey(parse(doc), "c:fork:r2");
    expect(fork.relation).toEqual({ kind: "fork", atTurnKey: "call" });
    expect(fork.turns[0]!.parts).toEqual([{ type: "tool_result", toolCallId: "call", content: "two" }]);
  });

  it("drops a branch that shows nothing (an empty regenerate placeholder)", () => {
    const doc = conversation("c", [root(), ["u1", "root", { role: "user", text: "q" }], ["a1", "u1", { role: "assistant", text: "answer" }], ["empty", "u1", { role: "assistant", text: "" }]], "a1");
    expect(parse(doc).threads.map((t) => t.key)).toEqual(["c"]);
  });

  it(`caps forks at ${MAX_FORKS_PER_CONVERSATION} per conversation with a warning`, () => {
    const rows: NodeSpec[] = [root(), ["u1", "root", { role: "user", text: "q" }]];
    for (let i = 0; i < MAX_FORKS_PER_CONVERSATION + 5; i++) rows.push([`a${i}`, "u1", { role: "assistant", text: `answer ${i}` }]);
    const parsed = parse(conversation("c", rows, "a0"));
    expect(parsed.threads).toHaveLength(1 + MAX_FORKS_PER_CONVERSATION);
    expect(parsed.threads[1]!.key).toBe("c:fork:a1");
    expect(parsed.warnings).toEqual([expect.stringMatching(/conversation c: more than 100 branches/)]);
  });

  it("without a usable current_node the newest leaf is the main thread", () => {
    const rows: NodeSpec[] = [root(), ["u1", "root", { role: "user", text: "q", time: 10 }], ["old", "u1", { role: "assistant", text: "old", time: 11 }], ["new", "u1", { role: "assistant", text: "new", time: 12 }]];
    const missing = parse(conversation("c", rows, null));
    expect(missing.threads[0]!.turns.map((t) => t.key)).toEqual(["u1", "new"]);
    expect(missing.threads[1]!.key).toBe("c:fork:old");
    expect(missing.warnings).toEqual([expect.stringContaining("current_node is missing")]);
    const dangling = parse(conversation("c", rows, "gone"));
    expect(dangling.threads[0]!.turns.map((t) => t.key)).toEqual(["u1", "new"]);
    expect(dangling.warnings).toEqual([expect.stringContaining('"gone" is not in the mapping')]);
  });

  it("children below a current_node that is not a leaf become a fork", () => {
    const doc = conversation("c", [root(), ["u1", "root", { role: "user", text: "q" }], ["a1", "u1", { role: "assistant", text: "a" }], ["u2", "a1", { role: "user", text: "later" }]], "a1");
    const parsed = parse(doc);
    expect(parsed.threads[0]!.turns.map((t) => t.key)).toEqual(["u1", "a1"]);
    expect(byKey(parsed, "c:fork:u2").relation).toEqual({ kind: "fork", atTurnKey: "a1" });
  });

  it("survives a cycle in the mapping", () => {
    const doc = conversation("c", [root(), ["u1", "root", { role: "user", text: "q" }], ["a1", "u1", { role: "assistant", text: "a" }]], "a1");
    (doc.mapping.a1 as { children: string[] }).children = ["u1", "root"];
    (doc.mapping.root as { parent: string | null }).parent = "a1";
    const parsed = parse(doc);
    expect(parsed.threads).toHaveLength(1);
    expect(parsed.threads[0]!.turns.map((t) => t.key)).toEqual(["u1", "a1"]);
  });
});

describe("conversation fields", () => {
  it("accepts a single conversation object, prefers conversation_id and keeps useful metadata", () => {
    const doc = conversation("ignored", [root(), ["u1", "root", { role: "user", text: "a long first question about something" }]], "u1", {
      conversation_id: "conv-1",
      title: null,
      default_model_slug: "gpt-4o",
      gizmo_id: "g-123",
      is_archived: false,
      conversation_template_id: "g-p-abc",
    });
    const parsed = parse(doc);
    expect(parsed.threads).toHaveLength(1);
    expect(parsed.threads[0]).toMatchObject({
      key: "conv-1",
      title: "a long first question about something",
      metadata: { defaultModelSlug: "gpt-4o", gizmoId: "g-123", isArchived: false, conversationTemplateId: "g-p-abc", currentNode: "u1" },
    });
  });

  it("falls back to the turns' times when create_time / update_time are missing", () => {
    const doc = conversation("c", [root(), ["u1", "root", { role: "user", text: "q", time: 1000 }], ["a1", "u1", { role: "assistant", text: "a", time: 2000 }]], "a1", { create_time: null, update_time: "soon" });
    expect(parse([doc]).threads[0]).toMatchObject({ createdAt: "1970-01-01T00:16:40.000Z", lastUpdatedAt: "1970-01-01T00:33:20.000Z" });
  });
});

describe("malformed input", () => {
  const good = conversation("ok", [root(), ["u1", "root", { role: "user", text: "fine" }]], "u1");

  it("skips bad conversations and bad nodes with a path and a reason, and keeps going", () => {
    const badNodes = conversation("bad-nodes", [root(), ["u1", "root", { role: "user", text: "kept" }], ["n2", "u1", { role: "assistant", text: "x" }], ["n3", "n2", { role: "assistant", text: "y" }], ["n4", "n3", { role: "assistant", text: "z" }]], "n4");
    (badNodes.mapping.n2 as { message: unknown }).message = "not an object";
    (badNodes.mapping.n3 as { message: { content: unknown } }).message.content = null;
    (badNodes.mapping.n4 as { message: { author: unknown } }).message.author = {};
    badNodes.mapping.stray = 42;
    const parsed = parse([42, { id: "no-mapping" }, { title: "no id", mapping: {} }, good, { ...good, title: "again" }, badNodes]);
    expect(parsed.skipped).toEqual([
      { path: "$[0]", reason: "conversation is not an object" },
      { path: "$[1].mapping", reason: "conversation has no mapping object" },
      { path: "$[2]", reason: "conversation has neither conversation_id nor id (string)" },
      { path: "$[4]", reason: "duplicate conversation id ok (first at $[3]); the first copy is kept" },
      { path: '$[5].mapping["n2"].message', reason: "message is not an object" },
      { path: '$[5].mapping["stray"]', reason: "mapping node is not an object" },
      { path: '$[5].mapping["n3"].message.content', reason: "content is missing or not an object" },
      { path: '$[5].mapping["n4"].message.author.role', reason: "author.role is missing or not a string" },
    ]);
    expect(parsed.threads.map((t) => [t.key, t.title, t.turns.map((u) => u.key)])).toEqual([
      ["ok", "Title ok", ["u1"]],
      ["bad-nodes", "Title bad-nodes", ["u1"]],
    ]);
  });

  it("an empty export is no error, just no threads", () => {
    const parsed = parse([]);
    expect(parsed.threads).toEqual([]);
    expect(parsed.warnings).toEqual(["conversations.json: the export holds no conversations"]);
  });

  it.each([
    ["null", null],
    ["a string", "conversations"],
    ["an object without mapping", { id: "x", title: "t" }],
    ["a role/content list", [{ role: "user", content: "hi" }]],
    ["a Claude.ai export", [{ uuid: "u", name: "n", chat_messages: [] }]],
  ])("throws ImportFormatError for %s", (_label, doc) => {
    expect(() => parse(doc)).toThrow(ImportFormatError);
    expect(() => parse(doc)).toThrow(/not a ChatGPT export/);
  });
});

describe("looksLikeChatGptExport", () => {
  const one = conversation("c", [root()], "root");
  it.each([
    [[one], "export.json", true],
    [one, "single.json", true],
    [[], "conversations.json", true],
    [[], "messages.json", false],
    [[{ role: "user", content: "hi" }], "conversations.json", false],
    [[{ uuid: "u", name: "n", chat_messages: [] }], "conversations.json", false],
    [{ mapping: {} }, "x.json", false],
    ["text", "conversations.json", false],
  ])("%j in %s -> %s", (doc, name, expected) => {
    expect(looksLikeChatGptExport(doc, name)).toBe(expected);
  });
});
