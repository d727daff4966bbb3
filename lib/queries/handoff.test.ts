import { describe, expect, it } from "vitest";
import { orchestratorHandoff, type HandoffAnswer, type HandoffInput } from "@/lib/domain/history/handoff";
import { handoffTurns, skippedGroups, turnHref } from "./handoff";

/** An answer as the API builds it, from the domain function, over positions from..to of `inputs`. */
function answerOf(inputs: HandoffInput[], from = 1, to = inputs.length): HandoffAnswer {
  return { format: "orchestrator", ...orchestratorHandoff(inputs.slice(from - 1, to)), range: { from, to, total: inputs.length } };
}

const turn = (role: string, threadId: string, turnIndex: number, content = `${role} ${turnIndex}`): HandoffInput => ({
  role,
  content,
  threadId,
  turnIndex,
});

describe("handoffTurns", () => {
  it("lays kept and skipped turns out in order, positions 1-based", () => {
    const answer = answerOf([turn("user", "t", 0), turn("tool", "t", 1), turn("assistant", "t", 2), turn("assistant", "t", 3, "   ")]);
    const turns = handoffTurns(answer);
    expect(turns.map((t) => [t.position, t.kept])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
    ]);
    expect(turns[1]).toMatchObject({ kept: false, cause: { kind: "role", role: "tool" }, origin: { threadId: "t", turnIndex: 1 } });
    expect(turns[3]).toMatchObject({ kept: false, cause: { kind: "empty" } });
    // The seed's own warnings, which count from 0, stay in the answer only.
    expect(answer.skipped.map((s) => s.reason)).toEqual([
      "conversation_history[1] has invalid role 'tool', skipping",
      "conversation_history[3] has empty/invalid content, skipping",
    ]);
    expect(turns[2]).toMatchObject({ kept: true, origin: { threadId: "t", turnIndex: 2 }, message: { role: "assistant" } });
  });

  it("counts positions from `from`, and a skipped index within the range", () => {
    const inputs = [turn("user", "t", 0), turn("user", "t", 1), turn("tool", "t", 2), turn("user", "t", 3)];
    const turns = handoffTurns(answerOf(inputs, 2, 4));
    expect(turns.map((t) => t.position)).toEqual([2, 3, 4]);
    expect(turns[1]).toMatchObject({ kept: false, origin: { threadId: "t", turnIndex: 2 } });
  });

  it("in a chain, places every turn, skipped or kept, on its own thread", () => {
    const inputs = [
      turn("tool", "root", 0),
      turn("tool", "parent", 0),
      turn("user", "parent", 1),
      turn("user", "child", 0),
      turn("tool", "child", 1),
    ];
    expect(handoffTurns(answerOf(inputs)).map((t) => [t.position, t.kept, t.origin])).toEqual([
      [1, false, { threadId: "root", turnIndex: 0 }],
      [2, false, { threadId: "parent", turnIndex: 0 }],
      [3, true, { threadId: "parent", turnIndex: 1 }],
      [4, true, { threadId: "child", turnIndex: 0 }],
      [5, false, { threadId: "child", turnIndex: 1 }],
    ]);
  });

  it("has no turns for an empty thread", () => {
    expect(handoffTurns({ ...answerOf([]), range: { from: 0, to: 0, total: 0 } })).toEqual([]);
  });

  it("links a turn by its 1-based number, as the reader's anchors", () => {
    expect(turnHref({ threadId: "abc", turnIndex: 0 })).toBe("/threads/abc#turn-1");
  });
});

describe("skippedGroups: what the pages say about skipped turns", () => {
  it("says one sentence per cause, with its turns, never the seed's log lines", () => {
    const inputs = [
      turn("user", "t", 0),
      ...Array.from({ length: 14 }, (_, i) => turn("tool", "t", i + 1)),
      turn("assistant", "t", 15, " \n "),
      turn("assistant", "t", 16, ""),
      turn("user", "t", 17),
    ];
    const groups = skippedGroups(handoffTurns(answerOf(inputs)));
    expect(groups.map((g) => g.sentence)).toEqual(["14 tool turns skipped", "2 empty turns skipped"]);
    expect(groups[0]!.turns.map((t) => t.position)).toEqual(Array.from({ length: 14 }, (_, i) => i + 2));
    expect(groups[1]!.turns.map((t) => t.position)).toEqual([16, 17]);
    for (const group of groups) expect(group.sentence).not.toMatch(/conversation_history|skipping/);
  });

  it("says it in the singular for one, and nothing when none is skipped", () => {
    expect(skippedGroups(handoffTurns(answerOf([turn("user", "t", 0), turn("tool", "t", 1)]))).map((g) => g.sentence)).toEqual([
      "1 tool turn skipped",
    ]);
    expect(skippedGroups(handoffTurns(answerOf([turn("user", "t", 0)])))).toEqual([]);
  });
});
