import { describe, expect, it } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import { planCompaction } from "./plan";
import { buildRevision } from "./revision";
import { assistant, call, chat, result, turnsOf, user } from "../testing/compaction-turns";
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
      {
        from: null,
        role: "user",
        content,
        parts: [marker("full", 6), { type: "text", text: content }],
        toolName: null,
        modelName: null,
        files: [],
        images: [],
      },
      { from: null, role: "assistant", content: FULL_ACKNOWLEDGEMENT, parts: null, toolName: null, modelName: null, files: [], images: [] },
    ]);
  });

  it("window: head copied, one summary turn where the middle was, tail copied", () => {
    const turns = turnsOf(user("q0", { files: ["a.ts"], toolName: "chat" }), assistant("a1", { modelName: "m" }), ...chat(10, "later"));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    const revision = buildRevision(turns, plan, "the middle");
    expect(revision.map((t) => t.from)).toEqual([0, 1, null, 8, 9, 10, 11]);
    expect(revision[0]).toEqual({
      from: 0,
      role: "user",
      content: "q0",
      parts: null,
      toolName: "chat",
      modelName: null,
      files: ["a.ts"],
      images: [],
    });
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

  it("trim-tool-output: cuts each output inside a content that joins several tool results (parallel calls)", () => {
    const first = "A".repeat(40) + "B".repeat(40);
    const second = "C".repeat(40) + "D".repeat(40);
    const calls: TurnPart[] = [
      { type: "tool_call", id: "c1", name: "bash", arguments: { command: "ls" } },
      { type: "tool_call", id: "c2", name: "bash", arguments: { command: "cat a.ts" } },
    ];
    const results: TurnPart[] = [
      { type: "tool_result", toolCallId: "c1", content: first },
      { type: "tool_result", toolCallId: "c2", content: second },
    ];
    // As the Claude Code importer builds it: the outputs joined by a blank line.
    const turns = turnsOf(
      user("look"),
      { role: "assistant", content: "", parts: calls },
      { role: "tool", content: `${first}\n\n${second}`, parts: results },
      assistant("found it"),
      user("last"),
      assistant("done"),
    );
    const plan = planCompaction(turns, { strategy: "trim-tool-output", maxChars: 10 });
    expect(plan.trimmed.map(({ index, partIndex }) => ({ index, partIndex }))).toEqual([
      { index: 2, partIndex: 0 },
      { index: 2, partIndex: 1 },
    ]);
    const revision = buildRevision(turns, plan, "");
    const [cutFirst, cutSecond] = [trimText(first, 10), trimText(second, 10)];
    expect(revision[2]!.parts).toEqual([
      { type: "tool_result", toolCallId: "c1", content: cutFirst },
      { type: "tool_result", toolCallId: "c2", content: cutSecond },
    ]);
    expect(revision[2]!.content).toBe(`${cutFirst}\n\n${cutSecond}`);
    expect(plan.trimmed.map((t) => t.charsAfter)).toEqual([cutFirst.length, cutSecond.length]);
    expect(buildRevision(turns, { ...plan, trimChars: undefined }, "")).toEqual(revision);
    expect(turns[2]!.content).toBe(`${first}\n\n${second}`);
  });

  it("trim-tool-output: cuts each occurrence once, in order, and leaves content alone for an output it does not hold", () => {
    const same = "S".repeat(50) + "T".repeat(50);
    const other = "O".repeat(100);
    const twice: TurnPart[] = [
      { type: "text", text: "before" },
      { type: "tool_result", toolCallId: "c1", content: same },
      { type: "tool_result", toolCallId: "c2", content: "ok" },
      { type: "tool_result", toolCallId: "c3", content: same },
    ];
    const elsewhere: TurnPart[] = [{ type: "tool_result", toolCallId: "c4", content: other }];
    const turns = turnsOf(
      user("look"),
      { role: "tool", content: `before\n\n${same}\n\nok\n\n${same}\n\n${same}`, parts: twice }, // a third copy that no part accounts for
      { role: "tool", content: "(output shown elsewhere)", parts: elsewhere },
      user("last"),
      assistant("done"),
    );
    const plan = planCompaction(turns, { strategy: "trim-tool-output", maxChars: 10 });
    const revision = buildRevision(turns, plan, "");
    const cut = trimText(same, 10);
    expect(revision[1]!.content).toBe(`before\n\n${cut}\n\nok\n\n${cut}\n\n${same}`);
    expect(revision[2]!.content).toBe("(output shown elsewhere)");
    expect(revision[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "c4", content: trimText(other, 10) }]);
  });

  it("trim-tool-output: a plan without trimChars cuts each output to its recorded charsAfter, surrogate pairs included", () => {
    // Cut to 10, the head would end inside the emoji: it keeps 5 + 4 characters.
    const output = "abcde😀" + "-".repeat(40) + "wxyz";
    const turns = turnsOf(user("look"), call("c1"), result("c1", output), user("last"), assistant("done"));
    const plan = planCompaction(turns, { strategy: "trim-tool-output", maxChars: 10 });
    const expected = trimText(output, 10);
    expect(plan.trimmed[0]!.charsAfter).toBe(expected.length);
    const rebuilt = buildRevision(turns, { ...plan, trimChars: undefined }, "");
    expect(rebuilt[2]!.parts).toEqual([{ type: "tool_result", toolCallId: "c1", content: expected }]);
    expect(rebuilt[2]!.content).toBe(expected);
  });

  it("throws for a noop plan", () => {
    const turns = turnsOf(...chat(4));
    expect(() => buildRevision(turns, planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 40 }), "x")).toThrow(
      /nothing to build/i,
    );
  });
});
