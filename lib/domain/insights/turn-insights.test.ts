import { describe, expect, it } from "vitest";
import { sessionEnding, turnInsight, type InsightsTurn } from "./turn-insights";

const turn = (over: Partial<InsightsTurn>): InsightsTurn => ({ role: "assistant", content: "", parts: null, modelMetadata: null, ...over });

describe("turnInsight", () => {
  it("lists a turn's tool calls and the ids of its failed results", () => {
    const insight = turnInsight(
      turn({
        parts: [
          { type: "text", text: "running" },
          { type: "tool_call", id: "a", name: "Bash" },
          { type: "tool_call", id: "b", name: "" },
          { type: "tool_result", toolCallId: "a", content: "ok" },
          { type: "tool_result", toolCallId: "b", content: "boom", isError: true },
        ],
      }),
    );
    expect(insight.calls).toEqual([
      { id: "a", name: "Bash" },
      { id: "b", name: "(unnamed)" },
    ]);
    expect(insight.failedCallIds).toEqual(["b"]);
    expect(insight.outcome).toBe("error");
  });

  it("tells interrupts before errors: Claude Code's refused tool use comes with a failed result", () => {
    const refused = turn({
      role: "user",
      content: "[Request interrupted by user for tool use]",
      parts: [{ type: "tool_result", toolCallId: "x", content: "The user doesn't want to proceed", isError: true }],
    });
    expect(turnInsight(refused).outcome).toBe("interrupt");
    expect(turnInsight(turn({ role: "user", content: "[Request interrupted by user]" })).outcome).toBe("interrupt");
    expect(turnInsight(turn({ role: "user", content: "<turn_aborted>\nThe user interrupted" })).outcome).toBe("interrupt");
    expect(turnInsight(turn({ content: "[aborted]", modelMetadata: { aborted: true } })).outcome).toBe("interrupt");
  });

  it("calls API errors errors: Claude Code's synthetic message, OpenCode's and Pi's error metadata", () => {
    expect(turnInsight(turn({ content: "API Error: 529 overloaded", modelMetadata: { synthetic: true } })).outcome).toBe("error");
    expect(turnInsight(turn({ content: "API Error: quoted by the model" })).outcome).toBe("ok");
    expect(turnInsight(turn({ modelMetadata: { error: { name: "APIError" } } })).outcome).toBe("error");
    expect(turnInsight(turn({ modelMetadata: { error: true } })).outcome).toBe("error");
    expect(turnInsight(turn({ modelMetadata: { error: null } })).outcome).toBe("ok");
  });

  it("says nothing for system turns and results that succeeded", () => {
    expect(turnInsight(turn({ role: "system", content: "[Request interrupted by user] is quoted here" })).outcome).toBe("interrupt");
    expect(turnInsight(turn({ role: "system", content: "compacted" })).outcome).toBeNull();
    expect(turnInsight(turn({ role: "tool", parts: [{ type: "tool_result", toolCallId: "a", content: "ok" }] })).outcome).toBeNull();
    expect(turnInsight(turn({ role: "user", content: "please go on" })).outcome).toBe("ok");
  });
});

describe("sessionEnding", () => {
  it("is the last outcome said, carried over turns that say none", () => {
    expect(sessionEnding(null, [])).toBeNull();
    expect(sessionEnding("ok", ["error", null, null])).toBe("error");
    expect(sessionEnding("interrupt", [null])).toBe("interrupt");
    expect(sessionEnding("error", ["ok"])).toBe("ok");
    expect(sessionEnding(null, ["ok", "interrupt", null])).toBe("interrupt");
  });
});
