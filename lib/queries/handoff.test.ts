import { describe, expect, it } from "vitest";
import { orchestratorHandoff, type HandoffInput } from "@/lib/domain/handoff";
import { handoffTurns, turnHref, type HandoffAnswer } from "./handoff";

/** An answer as the API builds it, from the domain function, over positions from..to of `inputs`. */
function answerOf(inputs: HandoffInput[], from = 1, to = inputs.length): HandoffAnswer {
  return { format: "orchestrator", ...orchestratorHandoff(inputs.slice(from - 1, to)), range: { from, to, total: inputs.length } };
}

const turn = (role: string, threadId: string, turnIndex: number, content = `${role} ${turnIndex}`): HandoffInput => ({ role, content, threadId, turnIndex });

describe("handoffTurns", () => {
  it("lays kept and skipped turns out in order, positions 1-based", () => {
    const answer = answerOf([turn("user", "t", 0), turn("tool", "t", 1), turn("assistant", "t", 2), turn("assistant", "t", 3, "   ")]);
    const turns = handoffTurns(answer, "t", false);
    expect(turns.map((t) => [t.position, t.kept])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
    ]);
    expect(turns[1]).toMatchObject({ kept: false, reason: "conversation_history[1] has invalid role 'tool', skipping", origin: { threadId: "t", turnIndex: 1 } });
    expect(turns[3]).toMatchObject({ kept: false, reason: "conversation_history[3] has empty/invalid content, skipping" });
    expect(turns[2]).toMatchObject({ kept: true, origin: { threadId: "t", turnIndex: 2 }, message: { role: "assistant" } });
  });

  it("counts positions from `from`, and a skipped index within the range", () => {
    const inputs = [turn("user", "t", 0), turn("user", "t", 1), turn("tool", "t", 2), turn("user", "t", 3)];
    const turns = handoffTurns(answerOf(inputs, 2, 4), "t", false);
    expect(turns.map((t) => t.position)).toEqual([2, 3, 4]);
    expect(turns[1]).toMatchObject({ kept: false, origin: { threadId: "t", turnIndex: 2 } });
  });

  it("in a chain, places a skipped turn only where the chain's layout makes it certain", () => {
    const inputs = [
      turn("tool", "root", 0), // the root's turns are all skipped: its id is nowhere in the answer
      turn("tool", "parent", 0), // before parent's turn 2: parent's 0 and 1
      turn("tool", "parent", 1),
      turn("user", "parent", 2),
      turn("tool", "parent", 3), // after parent's last kept turn, then a child turn with index 0: unknown
      turn("user", "child", 0),
      turn("tool", "child", 1), // after this thread's kept turn: its next ones
      turn("tool", "child", 2),
    ];
    const turns = handoffTurns(answerOf(inputs), "child", true);
    expect(turns.map((t) => t.origin)).toEqual([
      null,
      { threadId: "parent", turnIndex: 0 },
      { threadId: "parent", turnIndex: 1 },
      { threadId: "parent", turnIndex: 2 },
      null,
      { threadId: "child", turnIndex: 0 },
      { threadId: "child", turnIndex: 1 },
      { threadId: "child", turnIndex: 2 },
    ]);
  });

  it("in a chain window, counts from the window's kept turns", () => {
    const inputs = [turn("user", "parent", 0), turn("tool", "parent", 1), turn("user", "child", 0), turn("tool", "child", 1)];
    const turns = handoffTurns(answerOf(inputs, 2, 4), "child", true);
    expect(turns.map((t) => [t.position, t.origin])).toEqual([
      [2, null], // before child's turn 0: not the child's; the window hides parent's kept turn
      [3, { threadId: "child", turnIndex: 0 }],
      [4, { threadId: "child", turnIndex: 1 }],
    ]);
  });

  it("has no turns for an empty thread", () => {
    expect(handoffTurns({ ...answerOf([]), range: { from: 0, to: 0, total: 0 } }, "t", false)).toEqual([]);
  });

  it("links a turn by its 1-based number, as the reader's anchors", () => {
    expect(turnHref({ threadId: "abc", turnIndex: 0 })).toBe("/threads/abc#turn-1");
  });
});
