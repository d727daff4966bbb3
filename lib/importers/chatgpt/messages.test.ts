import { describe, expect, it } from "vitest";
import { conversation, parse, root, sys } from "./test-helpers";

describe("a minimal export: a prompt, two answers and a browsing tool call", () => {
  const doc = [
    {
      id: "c1",
      title: "Demo",
      create_time: 1700000000.0,
      update_time: 1700000100.0,
      current_node: "n4",
      mapping: {
        n0: { id: "n0", message: null, parent: null, children: ["n1"] },
        n1: {
          id: "n1",
          parent: "n0",
          children: ["n2", "n3"],
          message: {
            id: "n1",
            author: { role: "user", name: null, metadata: {} },
            create_time: 1700000001.0,
            content: { content_type: "text", parts: ["hi"] },
            status: "finished_successfully",
            recipient: "all",
            metadata: {},
          },
        },
        n2: {
          id: "n2",
          parent: "n1",
          children: [],
          message: {
            id: "n2",
            author: { role: "assistant", name: null, metadata: {} },
            content: { content_type: "text", parts: ["first answer"] },
            recipient: "all",
            metadata: { model_slug: "gpt-4" },
          },
        },
        n3: {
          id: "n3",
          parent: "n1",
          children: ["n4"],
          message: {
            id: "n3",
            author: { role: "assistant", name: null, metadata: {} },
            content: { content_type: "code", language: "unknown", text: "search('x')" },
            recipient: "browser",
            metadata: { model_slug: "gpt-4-browsing" },
          },
        },
        n4: {
          id: "n4",
          parent: "n3",
          children: [],
          message: {
            id: "n4",
            author: { role: "tool", name: "browser", metadata: {} },
            content: { content_type: "tether_browsing_display", result: "…", summary: null },
            recipient: "all",
            metadata: {},
          },
        },
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
    expect(main!.turns[1]).toMatchObject({
      modelName: "gpt-4-browsing",
      modelProvider: "openai",
      parts: [{ type: "tool_call", id: "n3", name: "browser", arguments: "search('x')" }],
    });
    expect(main!.turns[2]).toMatchObject({
      toolName: "browser",
      content: "…",
      parts: [{ type: "tool_result", toolCallId: "n3", content: "…" }],
    });
    expect(fork).toMatchObject({ key: "c1:fork:n2", parentKey: "c1", relation: { kind: "fork", atTurnKey: "n1" } });
    expect(fork!.turns).toEqual([
      expect.objectContaining({ key: "n2", role: "assistant", content: "first answer", modelName: "gpt-4", timestamp: null }),
    ]);
  });
});

describe("which messages are turns", () => {
  it("skips the root, hidden messages, empty system messages and context-only content types", () => {
    const doc = conversation(
      "c",
      [
        root(),
        sys(),
        [
          "ctx",
          "sys",
          {
            role: "user",
            content: { content_type: "user_editable_context", user_profile: "I am a dev", user_instructions: "be brief" },
            metadata: { is_visually_hidden_from_conversation: true, is_user_system_message: true },
          },
        ],
        [
          "mem",
          "ctx",
          { role: "system", content: { content_type: "model_editable_context", model_set_context: "1. likes tea", text: "memory" } },
        ],
        // Even without the hidden flag, custom instructions are context, not a message.
        [
          "ctx2",
          "mem",
          {
            role: "user",
            content: { content_type: "user_editable_context", text: "The user provided the following information about themselves: dev" },
          },
        ],
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
                {
                  content_type: "image_asset_pointer",
                  asset_pointer: "file-service://file-abc",
                  size_bytes: 1000,
                  width: 640,
                  height: 480,
                  fovea: 512,
                  metadata: null,
                },
                "what is this?",
                { content_type: "audio_transcription", text: "spoken words", direction: "in" },
                { content_type: "audio_asset_pointer", asset_pointer: "sediment://file_audio", format: "wav" },
              ],
            },
            metadata: { attachments: [{ id: "file-abc", name: "cat.png", mime_type: "image/png", size: 1000 }] },
          },
        ],
        [
          "t1",
          "u1",
          {
            role: "assistant",
            content: {
              content_type: "thoughts",
              thoughts: [{ summary: "Looking closer", content: "It has whiskers.", chunks: [], finished: true }],
              source_analysis_msg_id: "x",
            },
            metadata: { model_slug: "o3" },
          },
        ],
        [
          "r1",
          "t1",
          {
            role: "assistant",
            content: { content_type: "reasoning_recap", content: "Thought for 4 seconds" },
            metadata: { model_slug: "o3" },
          },
        ],
        [
          "a1",
          "r1",
          {
            role: "assistant",
            content: { content_type: "code", language: "python", text: "print('```')" },
            metadata: { model_slug: "o3" },
          },
        ],
        ["a2", "a1", { role: "assistant", content: { content_type: "canvas_widget", text: "a future type with text" } }],
        ["a3", "a2", { role: "assistant", content: { content_type: "opaque_future_type", blob: 1 } }],
        [
          "img",
          "a3",
          {
            role: "tool",
            name: "dalle.text2im",
            content: {
              content_type: "multimodal_text",
              parts: [
                {
                  content_type: "image_asset_pointer",
                  asset_pointer: "sediment://file_gen",
                  metadata: { dalle: { prompt: "a cat in a hat", gen_id: "g" } },
                },
              ],
            },
          },
        ],
        [
          "web",
          "img",
          {
            role: "tool",
            name: "web",
            content: { content_type: "sonic_webpage", url: "https://example.com", title: "Example", text: "Example body" },
          },
        ],
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
    expect(user.metadata).toMatchObject({
      contentType: "multimodal_text",
      attachments: [{ name: "cat.png", mimeType: "image/png", size: 1000 }],
    });

    expect(turn("t1")).toMatchObject({
      role: "assistant",
      modelName: "o3",
      content: "Looking closer\n\nIt has whiskers.",
      parts: [{ type: "thinking", text: "It has whiskers.", summary: "Looking closer" }],
    });
    expect(turn("r1")).toMatchObject({
      content: "Thought for 4 seconds",
      parts: [{ type: "thinking", text: "Thought for 4 seconds", recap: true }],
    });
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
      [
        root(),
        [
          "u1",
          "root",
          {
            role: "user",
            content: {
              content_type: "multimodal_text",
              parts: [{ content_type: "image_asset_pointer", asset_pointer: "file-service://file-x", data: "iVBORw0KGgoAAAANSUhEUg==" }],
            },
          },
        ],
      ],
      "u1",
    );
    const serialized = JSON.stringify(parse([doc]).threads);
    expect(serialized).not.toContain("iVBORw0KGgo");
    expect(parse([doc]).threads[0]!.turns[0]!.parts).toEqual([
      { type: "image", alt: "image uploaded by the user", assetPointer: "file-service://file-x" },
    ]);
  });
});

describe("tool calls and results", () => {
  it("pairs python code with its execution_output, through hidden nodes, and parses JSON arguments", () => {
    const doc = conversation(
      "c",
      [
        root(),
        ["u1", "root", { role: "user", text: "plot it" }],
        [
          "call",
          "u1",
          {
            role: "assistant",
            recipient: "python",
            content: { content_type: "code", language: "python", text: "1 + 1" },
            metadata: { model_slug: "gpt-4o" },
          },
        ],
        ["hidden", "call", { role: "tool", name: "python", text: "internal", metadata: { is_visually_hidden_from_conversation: true } }],
        ["out", "hidden", { role: "tool", name: "python", content: { content_type: "execution_output", text: "2" } }],
        ["quiet", "out", { role: "tool", name: "python", content: { content_type: "execution_output", text: "" } }],
        ["a1", "quiet", { role: "assistant", text: "It is 2." }],
        ["json", "a1", { role: "assistant", recipient: "dalle.text2im", text: '{"prompt": "a cat", "size": "1024x1024"}' }],
        ["u2", "json", { role: "user", text: "never mind" }],
        ["late", "u2", { role: "tool", name: "dalle.text2im", text: "a stray tool message" }],
        ["num", "late", { role: "assistant", recipient: "python", content: { content_type: "code", language: "python", text: "42" } }],
        [
          "num-out",
          "num",
          { role: "tool", name: "python", content: { content_type: "execution_output", text: "42" }, metadata: { status: "failed" } },
        ],
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
    expect(turn("json").parts).toEqual([
      { type: "tool_call", id: "json", name: "dalle.text2im", arguments: { prompt: "a cat", size: "1024x1024" } },
    ]);
    // The user spoke in between: the late tool message answers nothing.
    expect(turn("late").parts).toEqual([{ type: "text", text: "a stray tool message" }]);
    // "42" is valid JSON but not an object: kept as the raw text.
    expect(turn("num").parts).toEqual([{ type: "tool_call", id: "num", name: "python", arguments: "42" }]);
    expect(turn("num-out").parts).toEqual([{ type: "tool_result", toolCallId: "num", content: "42", isError: true }]);
  });

  it("uses message.id as the call id when it differs from the node id", () => {
    const doc = conversation(
      "c",
      [
        root(),
        ["u1", "root", { role: "user", text: "q" }],
        ["n2", "u1", { role: "assistant", recipient: "browser", text: "search('x')" }],
        ["n3", "n2", { role: "tool", name: "browser", text: "results" }],
      ],
      "n3",
    );
    (doc.mapping.n2 as { message: { id: string } }).message.id = "msg-2";
    const [thread] = parse(doc).threads;
    expect(thread!.turns[1]).toMatchObject({ key: "n2", parts: [{ type: "tool_call", id: "msg-2" }], metadata: { messageId: "msg-2" } });
    expect(thread!.turns[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "msg-2", content: "results" }]);
  });
});
