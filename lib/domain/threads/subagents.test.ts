import { describe, expect, it } from "vitest";
import type { Turn, TurnPart } from "../types";
import { subagentsOfTurns } from "./subagents";

const turn = (parts: TurnPart[]) => ({ parts }) as Turn;

describe("subagentsOfTurns", () => {
  it("pairs by the relation's toolCallId, else by the agentId the call's first result names; forks and unknown calls pair nothing", () => {
    const turns = [
      turn([
        { type: "tool_call", id: "c1", name: "Task" },
        { type: "tool_call", id: "c2", name: "Task" },
      ]),
      turn([
        { type: "tool_result", toolCallId: "c1", content: "done", agentId: "ag1" },
        { type: "tool_result", toolCallId: "c1", content: "a second result is not read", agentId: "ag9" },
      ]),
    ];
    const children = [
      { id: "by-agent", title: null, relation: { kind: "subagent" as const, toolCallId: null, agentId: "ag1" } },
      { id: "by-call", title: null, relation: { kind: "subagent" as const, toolCallId: "c2", agentId: null } },
      { id: "second-of-c2", title: null, relation: { kind: "subagent" as const, toolCallId: "c2", agentId: null } },
      { id: "second-result", title: null, relation: { kind: "subagent" as const, toolCallId: null, agentId: "ag9" } },
      { id: "unknown-call", title: null, relation: { kind: "subagent" as const, toolCallId: "c3", agentId: null } },
      { id: "fork", title: null, relation: { kind: "fork" as const, atTurnKey: null } },
    ];
    const paired = subagentsOfTurns(turns, children);
    expect(Object.fromEntries([...paired].map(([call, list]) => [call, list.map((c) => c.id)]))).toEqual({
      c1: ["by-agent"],
      c2: ["by-call", "second-of-c2"],
    });
  });
});
