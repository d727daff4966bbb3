import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikeChatGptExport, parseChatGptExport } from "./index";
import { byKey, SOURCE, summary } from "./test-helpers";

const FIXTURE = path.join(process.cwd(), "fixtures/real/chatgpt/conversations.json");

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
    expect(thread.metadata).toMatchObject({
      defaultModelSlug: null,
      currentNode: "6be93cb6-48af-47ee-b346-2c0d6e8d7854",
      models: ["gpt-4-plugins"],
    });
    const call = thread.turns.find((t) => t.key.startsWith("7e7680b8"))!;
    expect(call.parts).toEqual([
      {
        type: "tool_call",
        id: "7e7680b8-7048-4150-bf00-a19faef57523",
        name: "show_me.get_MermaidRoute",
        arguments: { mermaid: expect.stringMatching(/^graph TB/) },
      },
    ]);
    const result = thread.turns.find((t) => t.key.startsWith("90635e02"))!;
    expect(result.role).toBe("tool");
    expect(result.toolName).toBe("show_me.get_MermaidRoute");
    expect(result.parts?.[0]).toMatchObject({ type: "tool_result", toolCallId: "7e7680b8-7048-4150-bf00-a19faef57523" });
    expect(result.metadata).toMatchObject({ plugin: "show_me" });
    // The first turn is the user's prompt: the root (no message) and the empty system message are not turns.
    expect(thread.turns[0]).toMatchObject({
      key: "aaa2abab-c779-4494-b2e6-acba0d0fb1a8",
      role: "user",
      content: "In GitHub, is there some way to fill the Wiki with the source code tree?",
    });
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
    const quoteResults = thread.turns.filter((t) =>
      t.parts?.some((p) => p.type === "tool_result" && p.toolCallId === "f9966845-d54b-4ea3-9d51-9ea52a9e9bd2"),
    );
    expect(quoteResults.map((t) => t.key.slice(0, 8))).toEqual(["29d2609e", "7e3e4d3a", "553fee13"]);
    // code content: not JSON, so the arguments stay the raw text; the content shows a fenced block.
    expect(quoteCall.parts?.[0]).toMatchObject({ type: "tool_call", name: "browser", arguments: expect.stringMatching(/^# I'll quote/) });
    expect(quoteCall.content).toMatch(/^\[browser\]\n```\n# I'll quote/);
    const quote = thread.turns.find((t) => t.key.startsWith("7e3e4d3a"))!;
    expect(quote.content).toMatch(/^Quote from www\.pieterkuppens\.nl <https:\/\/www\.pieterkuppens\.nl\/>:\nBeschikbaar als/);
    const error = thread.turns.find((t) => t.key.startsWith("64d9ae31"))!;
    expect(error.parts?.[0]).toMatchObject({
      type: "tool_result",
      isError: true,
      content: expect.stringMatching(/^tool_error: Error when executing command `open_url/),
    });
    const display = thread.turns.find((t) => t.key.startsWith("7010056a"))!;
    expect(display.content).toContain("URL: https://www.pieterkuppens.nl/");
    expect(display.metadata).toMatchObject({ contentType: "tether_browsing_display", weight: 0, command: "open_url" });
  });

  it("plain conversation with two models", () => {
    const thread = byKey(parsed, "93b89459-0130-4467-ba85-d8a8d9b189a4");
    expect(summary(thread)).toMatchObject({
      turns: 10,
      roles: { user: 5, assistant: 5 },
      toolCalls: 0,
      models: ["gpt-4", "text-davinci-002-render-sha"],
    });
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
    expect(introFork.metadata).toMatchObject({
      branchNodeId: "aaa29fb2-d27f-4d4a-8c33-3517ab54b218",
      forkNodeId: "eb5d508e-72fd-420a-b3d6-d119e26c6350",
    });
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
