import { describe, expect, it } from "vitest";
import { agentReportOf, compactionRunUsage, sessionUsage, type SubagentNode } from "./session-usage";
import type { ThreadUsage, UsageCounts } from "../types";

const counts = (input: number, output: number, cacheRead = 0, cacheWrite = 0): UsageCounts => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: cacheWrite,
  reasoningTokens: 0,
});
const usage = (c: UsageCounts, source: ThreadUsage["source"] = "reported"): ThreadUsage => ({ ...c, source });
const node = (threadId: string, parentThreadId: string, u: ThreadUsage, extra: Partial<SubagentNode> = {}): SubagentNode => ({
  threadId,
  parentThreadId,
  title: threadId,
  agentId: null,
  toolCallId: null,
  usage: u,
  lastResponse: null,
  ...extra,
});

describe("sessionUsage", () => {
  it("adds every sub-agent (nested too) and every compaction run to the thread's own usage", () => {
    const runs = [
      {
        threadId: "root",
        runId: "acompact-1",
        afterTurnKey: "u9",
        modelName: "m",
        responses: [{ usage: { inputTokens: 3, cacheWriteTokens: 100, outputTokens: 8 } }],
      },
      {
        threadId: "a",
        runId: "acompact-2",
        afterTurnKey: null,
        modelName: null,
        responses: [{ usage: { input_tokens: 1, output_tokens: 1 } }, { usage: "not usage" }],
      },
    ];
    const total = sessionUsage(
      usage(counts(10, 20)),
      [node("a", "root", usage(counts(5, 6))), node("b", "a", usage(counts(7, 8), "estimated"))],
      runs,
      [],
    );
    expect(total).toMatchObject({
      inputTokens: 10 + 5 + 7 + 3 + 1,
      outputTokens: 20 + 6 + 8 + 8 + 1,
      cacheWriteTokens: 100,
      source: "mixed",
      subagentThreads: 2,
      compactionRuns: 2,
    });
    // a sub-agent's entry holds its own runs; its nested sub-agent has its own entry
    expect(total.subagents.map((s) => [s.threadId, s.usage.inputTokens])).toEqual([
      ["a", 6],
      ["b", 7],
    ]);
  });

  it("shows a parent's report beside the recorded final response, flags what differs, and never adds it", () => {
    const recordedLast = counts(79, 1, 15_436, 3378);
    const report = { inputTokens: 79, cacheWriteTokens: 3378, cacheReadTokens: 15_436, outputTokens: 938, totalTokens: 19_831 };
    const byAgent = sessionUsage(
      usage(counts(0, 0)),
      [node("a", "root", usage(counts(100, 10)), { agentId: "ag1", lastResponse: recordedLast })],
      [],
      [{ parentThreadId: "root", toolCallId: "call-1", agentId: "ag1", report }],
    );
    expect(byAgent.outputTokens).toBe(10);
    expect(byAgent.subagents[0]).toMatchObject({ toolCallId: "call-1", reported: report, differs: ["outputTokens"] });
    // tied by the call id when the relation names it; a report of another parent is not this one's
    const byCall = sessionUsage(
      usage(counts(0, 0)),
      [node("a", "root", usage(counts(1, 1)), { toolCallId: "call-2", lastResponse: counts(79, 938, 15_436, 3378) })],
      [],
      [
        { parentThreadId: "elsewhere", toolCallId: "call-2", agentId: null, report },
        { parentThreadId: "root", toolCallId: "call-2", agentId: null, report },
      ],
    );
    expect(byCall.subagents[0]).toMatchObject({ reported: report, differs: [] });
    expect(
      sessionUsage(
        usage(counts(0, 0)),
        [node("a", "root", usage(counts(1, 1)))],
        [],
        [{ parentThreadId: "x", toolCallId: "c", agentId: null, report }],
      ).subagents[0]!.reported,
    ).toBeNull();
  });

  it("reads runs and reports defensively", () => {
    expect(compactionRunUsage({ threadId: "t", runId: "r", afterTurnKey: null, modelName: null, responses: [] })).toEqual({
      runId: "r",
      modelName: null,
      responses: 0,
      usage: counts(0, 0),
    });
    expect(agentReportOf({ outputTokens: 938, totalTokens: -1, toolUses: "12", durationMs: 5 })).toEqual({
      outputTokens: 938,
      durationMs: 5,
    });
    expect(agentReportOf([1])).toBeNull();
    expect(agentReportOf({})).toBeNull();
  });
});
