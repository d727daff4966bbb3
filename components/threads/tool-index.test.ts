import { describe, expect, it } from "vitest";
import type { Turn, TurnPart } from "@/lib/domain/types";
import { compactionLabel, formatInteger, formatJson, toolResultText, usageSummary } from "@/lib/format";
import { partText, refText } from "./part-text";
import { buildToolIndex } from "./tool-index";

function turn(id: string, index: number, parts: TurnPart[]): Turn {
  return {
    id,
    threadId: "t",
    index,
    role: "assistant",
    content: "",
    timestamp: "2026-01-01T00:00:00.000Z",
    files: [],
    images: [],
    toolName: null,
    modelProvider: null,
    modelName: null,
    modelMetadata: null,
    parts,
    fileSnapshots: [],
    tokenEstimate: 0,
    tokens: null,
    usage: null,
  };
}

describe("buildToolIndex", () => {
  const turns = [
    turn("a", 0, [
      { type: "tool_call", id: "c1", name: "Bash", arguments: { command: "ls" } },
      { type: "tool_call", id: "c2", name: "Task", arguments: { description: "look things up", prompt: "..." } },
      { type: "tool_call", id: "c3", name: "Task" },
    ]),
    turn("b", 1, [{ type: "tool_result", toolCallId: "c1", content: "x", isError: true }]),
    turn("c", 2, [
      { type: "tool_result", toolCallId: "c2", content: "done", agentId: "ag1" },
      { type: "tool_result", toolCallId: "c1", content: "a second result is not the one shown" },
    ]),
  ];

  it("pairs calls and results across turns, the first of each", () => {
    const index = buildToolIndex(turns.map((t) => ({ turn: t, number: t.index + 1 })));
    expect(index.calls.get("c1")).toMatchObject({ turnId: "a", number: 1, part: { name: "Bash" } });
    expect(index.results.get("c1")).toMatchObject({ turnId: "b", number: 2, partIndex: 0, part: { isError: true } });
    expect(index.results.get("c2")).toMatchObject({ turnId: "c", partIndex: 0 });
    expect(index.results.has("c3")).toBe(false);
  });

  it("ties sub-agents to their call by toolCallId, else by the agentId of the call's result", () => {
    const index = buildToolIndex(
      turns.map((t) => ({ turn: t, number: t.index + 1 })),
      [
        { id: "child-1", title: "by agent id", relation: { kind: "subagent", toolCallId: null, agentId: "ag1" } },
        { id: "child-2", title: "by call id", relation: { kind: "subagent", toolCallId: "c3", agentId: null } },
        { id: "child-3", title: "unknown call", relation: { kind: "subagent", toolCallId: "nope", agentId: null } },
        { id: "child-4", title: "a fork", relation: { kind: "fork", atTurnKey: null } },
        { id: "child-5", title: "no relation", relation: null },
      ],
    );
    expect(Object.fromEntries(index.subagents)).toEqual({
      c2: [{ id: "child-1", title: "by agent id" }],
      c3: [{ id: "child-2", title: "by call id" }],
    });
  });

  it("built from a window of a long thread, pairs what the window holds and says it is partial", () => {
    // Turns 2 and 3 only: c1's call is not loaded; its result is still indexed (shown on its own).
    const window = turns.slice(1).map((t) => ({ turn: t, number: t.index + 1 }));
    const index = buildToolIndex(window, [], { partial: true });
    expect(index.partial).toBe(true);
    expect(index.calls.size).toBe(0);
    expect(index.results.get("c1")).toMatchObject({ turnId: "b", number: 2 });
    expect(buildToolIndex(window).partial).toBe(false);
  });
});

describe("part texts", () => {
  it("formats arguments as indented JSON, parsing JSON strings", () => {
    expect(formatJson({ a: [1, "b"] })).toBe('{\n  "a": [\n    1,\n    "b"\n  ]\n}');
    expect(formatJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatJson("plain text")).toBe("plain text");
    expect(formatJson("{not json")).toBe("{not json");
    expect(formatJson(undefined)).toBe("null");
  });

  it("renders tool results as text, never image data", () => {
    expect(toolResultText("ok")).toBe("ok");
    expect(
      toolResultText([
        { type: "text", text: "one" },
        { type: "image", source: { data: "AAAA" } },
        { type: "text", text: "two" },
      ]),
    ).toBe("one\n\n[image]\n\ntwo");
    expect(toolResultText({ exitCode: 1 })).toBe('{\n  "exitCode": 1\n}');
    expect(toolResultText(null)).toBe("null");
  });

  it("reads the same field on the server and in the browser", () => {
    expect(partText({ type: "tool_call", id: "c", name: "n", arguments: { a: 1 } }, "arguments")).toBe('{\n  "a": 1\n}');
    expect(partText({ type: "tool_result", toolCallId: "c", content: [{ type: "text", text: "r" }] }, "content")).toBe("r");
    expect(partText({ type: "thinking", text: "hmm" }, "text")).toBe("hmm");
    expect(partText({ type: "thinking", text: "hmm" }, "content")).toBeNull();
    expect(partText(undefined, "text")).toBeNull();
    // A text of a tool call as it is shown: a command, a patch's file, loaded in full the same way.
    const shell = { type: "tool_call" as const, id: "c", name: "shell", arguments: { command: ["bash", "-lc", "set -e\nmake"] } };
    expect(partText(shell, "view", "command")).toBe("set -e\nmake");
    expect(partText(shell, "view", "diff")).toBeNull();
    expect(partText({ type: "thinking", text: "hmm" }, "view", "command")).toBeNull();
  });

  it("reads a display block of a turn's content (a long terminal block loaded in full)", () => {
    const output = {
      ...turn("u", 0, []),
      role: "user" as const,
      parts: null,
      content: "<command-name>/x</command-name><local-command-stdout>\u001b[2mfull output\u001b[22m</local-command-stdout>",
    };
    expect(refText(output, { block: 1 })).toBe("\u001b[2mfull output\u001b[22m");
    expect(refText(output, { block: 0 })).toBe("");
    expect(refText(output, { block: 2 })).toBeNull();
    expect(refText(output, { partIndex: 0, field: "text" })).toBeNull();
  });
});

describe("labels", () => {
  it("formats integers without a locale", () => {
    expect([formatInteger(0), formatInteger(999), formatInteger(1000), formatInteger(142_431), formatInteger(1_234_567)]).toEqual([
      "0",
      "999",
      "1,000",
      "142,431",
      "1,234,567",
    ]);
  });

  it("labels compactions, with or without their figures", () => {
    expect(compactionLabel({ trigger: "auto", tokensBefore: 155_000, tokensAfter: 12_000 })).toBe(
      "Compacted (auto) · 155,000 → 12,000 tokens",
    );
    expect(compactionLabel({ trigger: "manual", tokensBefore: 142_431, tokensAfter: null })).toBe(
      "Compacted (manual) · 142,431 tokens before",
    );
    expect(compactionLabel({ tokensAfter: 9 })).toBe("Compacted · 9 tokens after");
    expect(compactionLabel({ trigger: null })).toBe("Compacted");
  });

  it("summarises usage without its zero fields", () => {
    expect(usageSummary({ inputTokens: 3, cacheReadTokens: 17_842, cacheWriteTokens: 8_165, outputTokens: 209, reasoningTokens: 0 })).toBe(
      "in 3 · cache read 17,842 · cache write 8,165 · out 209",
    );
    expect(usageSummary({ inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 5, reasoningTokens: 7 })).toBe(
      "out 5 · reasoning 7",
    );
    expect(usageSummary({ inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 })).toBe(
      "no tokens",
    );
  });
});
