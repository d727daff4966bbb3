import { describe, expect, it } from "vitest";
import type { PricedResponse } from "./cost";
import {
  addParts,
  costText,
  coverageText,
  emptyPart,
  partOfResponses,
  sessionFigures,
  splitLines,
  tokenFigure,
  tokenText,
  withoutPart,
} from "./thread-figures";
import type { UsagePart } from "../types";
import { usageBuckets } from "./usage-buckets";

const part = (over: Partial<UsagePart>): UsagePart => ({ ...emptyPart(), responses: 1, ...over });

const response = (usage: Partial<PricedResponse["usage"]>, costUsd: number | null, model = "claude-opus-4-6"): PricedResponse => ({
  at: new Date("2026-05-01T10:00:00Z"),
  provider: "anthropic",
  model,
  usage: { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, source: "reported", ...usage },
  cost: { totalUsd: costUsd ?? 0, inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, priced: costUsd !== null, model },
});

describe("tokenFigure, the rule every page shows a thread's tokens by", () => {
  it("counts input, cache reads, cache writes and output, as reported; reasoning is inside output and not added again", () => {
    const figure = tokenFigure(
      part({ inputTokens: 20, cacheReadTokens: 189_589, cacheWriteTokens: 77_978, outputTokens: 763, reasoningTokens: 400 }),
    );
    expect(figure).toEqual({ count: 20 + 189_589 + 77_978 + 763, approximate: false });
  });

  it('is an estimate ("~") as soon as one response had its usage estimated, and only then', () => {
    expect(tokenFigure(part({ outputTokens: 5, responses: 3, estimatedResponses: 1 })).approximate).toBe(true);
    expect(tokenFigure(part({ outputTokens: 5, responses: 3, estimatedResponses: 0 })).approximate).toBe(false);
    expect(tokenText(part({ inputTokens: 1_200, outputTokens: 34, estimatedResponses: 1 }))).toBe("~1.2k tokens");
    expect(tokenText(part({ inputTokens: 458_395 }))).toBe("458k tokens");
    expect(tokenText(part({ outputTokens: 1 }))).toBe("1 token");
    expect(tokenText(part({ cacheReadTokens: 2_345_678 }))).toBe("2.3M tokens");
  });
});

describe("costText", () => {
  it("gives the priced sum, names unpriced responses rather than counting them as $0", () => {
    expect(costText(part({ costUsd: 1.2418 }))).toBe("$1.24");
    expect(costText(part({ costUsd: 0.3854818 }))).toBe("$0.385");
    expect(costText(part({ costUsd: 0, responses: 2, unpricedResponses: 2 }))).toBe("unpriced");
    expect(costText(part({ costUsd: 0.5, responses: 3, unpricedResponses: 1 }))).toBe("$0.5 + 1 unpriced");
  });
});

describe("partOfResponses", () => {
  it("sums responses exactly as usage buckets do, so a split matches the buckets it is taken from", () => {
    const responses = [
      response({ inputTokens: 3, cacheWriteTokens: 121_689, outputTokens: 9 }, 0.77),
      response({ outputTokens: 4, source: "estimated" }, null, "mystery"),
    ];
    const summed = partOfResponses(responses);
    const buckets = usageBuckets(responses);
    for (const field of [
      "inputTokens",
      "cacheReadTokens",
      "cacheWriteTokens",
      "outputTokens",
      "reasoningTokens",
      "costUsd",
      "responses",
      "unpricedResponses",
      "estimatedResponses",
    ] as const) {
      expect(summed[field]).toBe(buckets.reduce((n, b) => n + b[field], 0));
    }
    expect(summed).toMatchObject({ responses: 2, unpricedResponses: 1, estimatedResponses: 1, costUsd: 0.77 });
  });
});

describe("sessionFigures", () => {
  const thread = part({
    inputTokens: 20,
    cacheReadTokens: 189_589,
    cacheWriteTokens: 77_978,
    outputTokens: 763,
    costUsd: 0.385,
    responses: 9,
  });
  const agent = part({
    inputTokens: 2_408,
    cacheReadTokens: 29_274,
    cacheWriteTokens: 18_814,
    outputTokens: 7,
    costUsd: 0.0867,
    responses: 3,
  });
  const run = part({ inputTokens: 3, cacheReadTokens: 17_842, cacheWriteTokens: 121_689, outputTokens: 8, costUsd: 0.77, responses: 1 });

  it("adds the thread, its sub-agents and its compaction runs, and keeps each share for the split", () => {
    const figures = sessionFigures({ thread, subagents: [agent], compactionRuns: run, compactionRunCount: 1 });
    expect(figures.total).toEqual(addParts(thread, agent, run));
    expect(figures.parts).toEqual({ thread, subagents: agent, compactionRuns: run });
    expect(tokenFigure(figures.total).count).toBe(tokenFigure(thread).count + tokenFigure(agent).count + tokenFigure(run).count);
    expect(coverageText(figures)).toBe("incl. 1 sub-agent and 1 compaction run");
    expect(splitLines(figures)).toEqual([
      { label: "This thread", cost: "$0.385", tokens: "268k tokens" },
      { label: "Its sub-agent", cost: "$0.0867", tokens: "51k tokens" },
      { label: "Its compaction run", cost: "$0.77", tokens: "140k tokens" },
    ]);
  });

  it("names only sub-agents that used something, and says nothing more for a thread alone", () => {
    const alone = sessionFigures({ thread, subagents: [emptyPart(), emptyPart()], compactionRuns: emptyPart(), compactionRunCount: 0 });
    expect(alone.subagentThreads).toBe(0);
    expect(coverageText(alone)).toBeNull();
    expect(splitLines(alone)).toEqual([{ label: "This thread", cost: "$0.385", tokens: "268k tokens" }]);
    const two = sessionFigures({ thread, subagents: [agent, agent, emptyPart()], compactionRuns: emptyPart(), compactionRunCount: 0 });
    expect(coverageText(two)).toBe("incl. 2 sub-agents");
    expect(splitLines(two).map((line) => line.label)).toEqual(["This thread", "Its 2 sub-agents"]);
  });

  it("keeps what the agents said beside ours, never in it", () => {
    const figures = sessionFigures({
      thread,
      subagents: [],
      compactionRuns: emptyPart(),
      compactionRunCount: 0,
      reported: { usd: 9, responses: 2 },
    });
    expect(figures.reported).toEqual({ usd: 9, responses: 2 });
    expect(figures.total.costUsd).toBe(0.385);
    expect(
      sessionFigures({ thread, subagents: [], compactionRuns: emptyPart(), compactionRunCount: 0, reported: null }).reported,
    ).toBeUndefined();
  });
});

describe("withoutPart", () => {
  it("takes a share out of a whole exactly, and never leaves a negative amount", () => {
    const whole = addParts(part({ inputTokens: 10, costUsd: 0.1 }), part({ inputTokens: 5, costUsd: 0.2 }));
    expect(withoutPart(whole, part({ inputTokens: 5, costUsd: 0.2 }))).toMatchObject({ inputTokens: 10, responses: 1 });
    expect(withoutPart(whole, part({ inputTokens: 5, costUsd: 0.2 })).costUsd).toBeCloseTo(0.1, 12);
    expect(withoutPart(part({ costUsd: 0.3 }), part({ costUsd: 0.1 + 0.2 })).costUsd).toBe(0);
  });
});
