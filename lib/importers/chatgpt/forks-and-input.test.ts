import { describe, expect, it } from "vitest";
import { ImportFormatError } from "../types";
import { looksLikeChatGptExport } from "./index";
import { MAX_FORKS_PER_CONVERSATION } from "./shapes";
import { byKey, conversation, parse, root, sys, type NodeSpec } from "./test-helpers";

describe("forks", () => {
  it("an edited first prompt forks at the hidden root: atTurnKey null", () => {
    const doc = conversation(
      "c",
      [
        root(),
        sys(),
        ["u-old", "sys", { role: "user", text: "first try" }],
        ["a-old", "u-old", { role: "assistant", text: "old answer" }],
        ["u-new", "sys", { role: "user", text: "second try" }],
        ["a-new", "u-new", { role: "assistant", text: "new answer" }],
      ],
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
      [
        root(),
        ["u1", "root", { role: "user", text: "q" }],
        ["call", "u1", { role: "assistant", recipient: "python", text: "x" }],
        ["r1", "call", { role: "tool", name: "python", text: "one" }],
        ["r2", "call", { role: "tool", name: "python", text: "two" }],
      ],
      "r1",
    );
    const fork = byKey(parse(doc), "c:fork:r2");
    expect(fork.relation).toEqual({ kind: "fork", atTurnKey: "call" });
    expect(fork.turns[0]!.parts).toEqual([{ type: "tool_result", toolCallId: "call", content: "two" }]);
  });

  it("drops a branch that shows nothing (an empty regenerate placeholder)", () => {
    const doc = conversation(
      "c",
      [
        root(),
        ["u1", "root", { role: "user", text: "q" }],
        ["a1", "u1", { role: "assistant", text: "answer" }],
        ["empty", "u1", { role: "assistant", text: "" }],
      ],
      "a1",
    );
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
    const rows: NodeSpec[] = [
      root(),
      ["u1", "root", { role: "user", text: "q", time: 10 }],
      ["old", "u1", { role: "assistant", text: "old", time: 11 }],
      ["new", "u1", { role: "assistant", text: "new", time: 12 }],
    ];
    const missing = parse(conversation("c", rows, null));
    expect(missing.threads[0]!.turns.map((t) => t.key)).toEqual(["u1", "new"]);
    expect(missing.threads[1]!.key).toBe("c:fork:old");
    expect(missing.warnings).toEqual([expect.stringContaining("current_node is missing")]);
    const dangling = parse(conversation("c", rows, "gone"));
    expect(dangling.threads[0]!.turns.map((t) => t.key)).toEqual(["u1", "new"]);
    expect(dangling.warnings).toEqual([expect.stringContaining('"gone" is not in the mapping')]);
  });

  it("children below a current_node that is not a leaf become a fork", () => {
    const doc = conversation(
      "c",
      [
        root(),
        ["u1", "root", { role: "user", text: "q" }],
        ["a1", "u1", { role: "assistant", text: "a" }],
        ["u2", "a1", { role: "user", text: "later" }],
      ],
      "a1",
    );
    const parsed = parse(doc);
    expect(parsed.threads[0]!.turns.map((t) => t.key)).toEqual(["u1", "a1"]);
    expect(byKey(parsed, "c:fork:u2").relation).toEqual({ kind: "fork", atTurnKey: "a1" });
  });

  it("survives a cycle in the mapping", () => {
    const doc = conversation(
      "c",
      [root(), ["u1", "root", { role: "user", text: "q" }], ["a1", "u1", { role: "assistant", text: "a" }]],
      "a1",
    );
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
    const doc = conversation(
      "c",
      [root(), ["u1", "root", { role: "user", text: "q", time: 1000 }], ["a1", "u1", { role: "assistant", text: "a", time: 2000 }]],
      "a1",
      { create_time: null, update_time: "soon" },
    );
    expect(parse([doc]).threads[0]).toMatchObject({ createdAt: "1970-01-01T00:16:40.000Z", lastUpdatedAt: "1970-01-01T00:33:20.000Z" });
  });
});

describe("malformed input", () => {
  const good = conversation("ok", [root(), ["u1", "root", { role: "user", text: "fine" }]], "u1");

  it("skips bad conversations and bad nodes with a path and a reason, and keeps going", () => {
    const badNodes = conversation(
      "bad-nodes",
      [
        root(),
        ["u1", "root", { role: "user", text: "kept" }],
        ["n2", "u1", { role: "assistant", text: "x" }],
        ["n3", "n2", { role: "assistant", text: "y" }],
        ["n4", "n3", { role: "assistant", text: "z" }],
      ],
      "n4",
    );
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
