import { describe, expect, it } from "vitest";
import { planCompaction } from "./plan";
import { buildRevision } from "./revision";
import { assistant, call, chat, result, turnsOf, user } from "./test-factories";
import { trimText } from "./trim";
import { FULL_ACKNOWLEDGEMENT, FULL_SUMMARY_HEADER, summaryHeader } from "./types";

const marker = (strategy: string, replacedTurns: number) => ({
  type: "compaction",
  trigger: "threadline",
  strategy,
  replacedTurns,
  tokensBefore: null,
  tokensAfter: null,
});

describe("buildRevision", () => {
  it("full: a summary prompt and its acknowledgement", () => {
    const turns = turnsOf(...chat(6));
    const revision = buildRevision(turns, planCompaction(turns, { strategy: "full" }), "S");
    const content = `${FULL_SUMMARY_HEADER}\nS`;
    expect(revision).toEqual([
      { from: null, role: "user", content, parts: [marker("full", 6), { type: "text", text: content }], toolName: null, modelName: null, files: [], images: [] },
      { from: null, role: "assistant", content: FULL_ACKNOWLEDGEMENT, parts: null, toolName: null, modelName: null, files: [], images: [] },
    ]);
  });

  it("window: head copied, one summary turn where the middle was, tail copied", () => {
    const turns = turnsOf(user("q0", { files: ["a.ts"], toolName: "chat" }), assistant("a1", { modelName: "m" }), ...chat(10, "later"));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    const revision = buildRevision(turns, plan, "the middle");
    expect(revision.map((t) => t.from)).toEqual([0, 1, null, 8, 9, 10, 11]);
    expect(revision[0]).toEqual({ from: 0, role: "user", content: "q0", parts: null, toolName: "chat", modelName: null, files: ["a.ts"], images: [] });
    expect(revision[1]!.modelName).toBe("m");
    const summary = revision[2]!;
    expect(summary.role).toBe("user");
    expect(summary.content).toBe(`${summaryHeader(6)}\nthe middle`);
    expect(summary.content.startsWith("[Summary of 6 earlier messages]\n")).toBe(true);
    expect(summary.parts).toEqual([marker("window", 6), { type: "text", text: summary.content }]);
    expect(revision.slice(3).map((t) => t.content)).toEqual(turns.slice(8).map((t) => t.content));
  });

  it("range from: kept turns first, the summary last", () => {
    const turns = turnsOf(...chat(6));
    const revision = buildRevision(turns, planCompaction(turns, { strategy: "range", direction: "from", at: 4 }), "end");
    expect(revision.map((t) => t.from)).toEqual([0, 1, 2, 3, null]);
    expect(revision[4]!.content).toBe(`${summaryHeader(2)}\nend`);
    expect(revision[4]!.parts?.[0]).toEqual(marker("range", 2));
  });

  it("range up-to: the summary first, then the kept turns", () => {
    const turns = turnsOf(...chat(6));
    const revision = buildRevision(turns, planCompaction(turns, { strategy: "range", direction: "up-to", at: 2 }), "start");
    expect(revision.map((t) => t.from)).toEqual([null, 3, 4, 5]);
  });

  it("trim-tool-output: copies every turn, cutting the planned outputs and keeping call ids", () => {
    const long = "L".repeat(30) + "M".repeat(30);
    const json = { rows: ["r".repeat(40)] };
    const turns = turnsOf(
      user("look"),
      call("c1"),
      result("c1", long), // content is the same output: cut too
      call("c2"),
      result("c2", json),
      { role: "tool", content: long, toolName: "bash" },
      user("last"),
      assistant("done"),
    );
    const plan = planCompaction(turns, { strategy: "trim-tool-output", maxChars: 10 });
    const revision = buildRevision(turns, plan, "ignored");
    expect(revision.map((t) => t.from)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const cut = trimText(long, 10);
    expect(revision[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "c1", content: cut }]);
    expect(revision[2]!.content).toBe(cut);
    expect(revision[4]!.parts).toEqual([{ type: "tool_result", toolCallId: "c2", content: trimText(JSON.stringify(json), 10) }]);
    expect(revision[5]!.content).toBe(cut);
    expect(revision[5]!.toolName).toBe("bash");
    expect(revision[0]!.content).toBe("look");
    // The originals are untouched.
    expect(turns[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "c1", content: long }]);
    // A plan without trimChars (built elsewhere) cuts the same way, from the recorded lengths.
    expect(buildRevision(turns, { ...plan, trimChars: undefined }, "")).toEqual(revision);
  });

  it("throws for a noop plan", () => {
    const turns = turnsOf(...chat(4));
    expect(() => buildRevision(turns, planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 40 }), "x")).toThrow(/nothing to build/i);
  });
});
