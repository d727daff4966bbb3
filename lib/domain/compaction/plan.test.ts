import { describe, expect, it } from "vitest";
import type { TurnPart } from "@/lib/domain/types";
import { firstRunEnd, lastExchangeStart, planCompaction } from "./plan";
import { assistant, call, chat, result, toolOutput, turnsOf, user } from "../testing/compaction-turns";
import type { CompactionOptions, CompactionPlan, CompactionTurn } from "./types";

const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The tool turns without a tool_result part that answer a call: each with the nearest earlier turn
 * holding tool_call parts, when only tool turns lie between. Computed here independently of plan.ts.
 */
function bareOutputPairs(turns: CompactionTurn[]): [call: number, output: number][] {
  const pairs: [number, number][] = [];
  turns.forEach((turn, i) => {
    if (turn.role !== "tool" || turn.parts?.some((p) => p.type === "tool_result")) return;
    for (let k = i - 1; k >= 0; k--) {
      const before = turns[k]!;
      if (before.parts?.some((p) => p.type === "tool_call")) return void pairs.push([k, i]);
      if (before.role !== "tool") return;
    }
  });
  return pairs;
}

/** Every pair (call id X, result for X; call, bare tool output after it) is both replaced or both kept. */
function expectNoSplitPairs(turns: CompactionTurn[], plan: CompactionPlan): void {
  const replaced = new Set(plan.replaced);
  for (const [callTurn, outputTurn] of bareOutputPairs(turns)) {
    expect(replaced.has(callTurn), `call in ${callTurn} / bare output in ${outputTurn}`).toBe(replaced.has(outputTurn));
  }
  const calls = new Map<string, number>();
  turns.forEach((turn, i) => turn.parts?.forEach((p) => p.type === "tool_call" && calls.set(p.id, i)));
  turns.forEach((turn, i) =>
    turn.parts?.forEach((p) => {
      if (p.type !== "tool_result" || !calls.has(p.toolCallId)) return;
      const callTurn = calls.get(p.toolCallId)!;
      expect(replaced.has(callTurn), `call in ${callTurn} / result in ${i}`).toBe(replaced.has(i));
    }),
  );
}

function expectPartition(turns: CompactionTurn[], plan: CompactionPlan): void {
  expect([...plan.keptBefore, ...plan.replaced, ...plan.keptAfter]).toEqual(span(0, turns.length - 1));
}

describe("firstRunEnd", () => {
  it("is the first assistant turn that answers in text", () => {
    expect(firstRunEnd(turnsOf(...chat(6)))).toBe(1);
  });

  it("spans tool calls: the run ends at the answer, not at the first assistant turn", () => {
    const turns = turnsOf(user("fix it"), call("c1"), result("c1"), call("c2"), result("c2"), assistant("Done."), ...chat(4));
    expect(firstRunEnd(turns)).toBe(5);
  });

  it("counts a text part, and ignores whitespace-only text", () => {
    const turns = turnsOf(
      user("q"),
      { role: "assistant", content: "ignored when parts exist", parts: [{ type: "text", text: "  " }] },
      {
        role: "assistant",
        content: "",
        parts: [
          { type: "thinking", text: "hmm" },
          { type: "text", text: "Answer." },
        ],
      },
    );
    expect(firstRunEnd(turns)).toBe(2);
  });

  it("is -1 when no assistant turn has text", () => {
    expect(firstRunEnd(turnsOf(user("go"), call("c1"), result("c1"), call("c2"), result("c2")))).toBe(-1);
  });
});

describe("lastExchangeStart", () => {
  it("is the last user prompt; tool-result-only user turns are not prompts", () => {
    const turns = turnsOf(...chat(4), user("last question"), call("c1"), result("c1"), assistant("answer"));
    expect(lastExchangeStart(turns)).toBe(4);
  });

  it("falls back to the last two turns when there is no prompt", () => {
    expect(lastExchangeStart(turnsOf(call("c1"), result("c1"), call("c2"), result("c2")))).toBe(2);
  });
});

describe("planCompaction: window by turns", () => {
  it("keeps the first run and the newest max(4, maxTurns/2) turns and replaces the middle", () => {
    const turns = turnsOf(...chat(12));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan).toMatchObject({
      strategy: "window",
      noop: null,
      keptBefore: [0, 1],
      replaced: span(2, 7),
      keptAfter: span(8, 11),
      adjustments: [],
    });
  });

  it("keeps half the limit when that is more than 4", () => {
    const plan = planCompaction(turnsOf(...chat(30)), { strategy: "window", trigger: "turns", maxTurns: 20 });
    expect(plan.keptAfter).toEqual(span(20, 29));
    expect(plan.replaced).toEqual(span(2, 19));
  });

  it("keeps at least 4 turns when half the limit is fewer", () => {
    const plan = planCompaction(turnsOf(...chat(10)), { strategy: "window", trigger: "turns", maxTurns: 5 });
    expect(plan.keptAfter).toEqual(span(6, 9));
  });

  it("takes a first run that spans tool calls into the head", () => {
    const turns = turnsOf(user("start"), call("c1"), result("c1"), assistant("First answer."), ...chat(10));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan.keptBefore).toEqual([0, 1, 2, 3]);
    expect(plan.replaced).toEqual(span(4, 9));
    expectNoSplitPairs(turns, plan);
  });

  it("keeps no head when no assistant turn answers in text", () => {
    const turns = turnsOf(...Array.from({ length: 5 }, (_, i) => [call(`c${i}`), result(`c${i}`)]).flat());
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan.keptBefore).toEqual([]);
    expect(plan.replaced).toEqual(span(0, 5));
    expect(plan.keptAfter).toEqual(span(6, 9));
  });

  it("is a noop at or under the limit, and maxTurns 0 disables it", () => {
    const turns = turnsOf(...chat(8));
    expect(planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 }).noop).toMatch(/under the threshold/i);
    const disabled = planCompaction(turnsOf(...chat(100)), { strategy: "window", trigger: "turns", maxTurns: 0 });
    expect(disabled.noop).toMatch(/0.*disables/);
    expect(disabled.replaced).toEqual([]);
    expect(disabled.keptBefore).toEqual(span(0, 99));
  });

  it("is a noop when nothing lies between head and tail", () => {
    const plan = planCompaction(turnsOf(...chat(5)), { strategy: "window", trigger: "turns", maxTurns: 1 });
    expect(plan.noop).toMatch(/nothing between/i);
    expect(plan.replaced).toEqual([]);
  });

  it("starts the tail earlier rather than leave a result without its call", () => {
    // Naive tail (max(4, 8/2) = 4 turns) starts at 8: the result in 8 would lose its call in 7.
    const turns = turnsOf(...chat(7), call("c1"), result("c1"), ...chat(3, "late"));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan.keptAfter).toEqual(span(7, 11));
    expect(plan.replaced).toEqual(span(2, 6));
    expect(plan.adjustments).toEqual(["Kept turn #8 verbatim: its tool call's result is in turn #9, which is kept."]);
    expectNoSplitPairs(turns, plan);
  });

  it("follows a chain of pairs back when moving the tail", () => {
    const chained: TurnPart[] = [
      { type: "tool_result", toolCallId: "c1", content: "one" },
      { type: "tool_call", id: "c2", name: "grep", arguments: { pattern: "x" } },
    ];
    const turns = turnsOf(...chat(6), call("c1"), { role: "assistant", content: "", parts: chained }, result("c2"), ...chat(3, "late"));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan.keptAfter).toEqual(span(6, 11));
    expect(plan.adjustments).toHaveLength(2);
    expectNoSplitPairs(turns, plan);
  });

  it("ends the head later rather than leave a call without its result", () => {
    const answerWithCall: TurnPart[] = [
      { type: "text", text: "Let me look." },
      { type: "tool_call", id: "c1", name: "read_file", arguments: { path: "src/a.ts" } },
    ];
    const turns = turnsOf(user("q"), { role: "assistant", content: "Let me look.", parts: answerWithCall }, result("c1"), ...chat(9));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan.keptBefore).toEqual([0, 1, 2]);
    expect(plan.replaced).toEqual(span(3, 7));
    expect(plan.adjustments).toEqual(["Kept turn #3 verbatim: it holds the result of the tool call in turn #2, which is kept."]);
    expectNoSplitPairs(turns, plan);
  });

  it("starts the tail earlier rather than leave a tool turn without a tool_result part apart from its call", () => {
    // Naive tail starts at 8: the bare output in 8 (no tool_result, no id) answers the call in 7.
    const turns = turnsOf(...chat(7), call("c1"), toolOutput(), ...chat(3, "late"));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan.keptAfter).toEqual(span(7, 11));
    expect(plan.replaced).toEqual(span(2, 6));
    expect(plan.adjustments).toEqual(["Kept turn #8 verbatim: its tool call's result is in turn #9, which is kept."]);
    expectNoSplitPairs(turns, plan);
  });

  it("ends the head later to take in a run of bare tool outputs after the call", () => {
    const answerWithCall: TurnPart[] = [
      { type: "text", text: "Let me look." },
      { type: "tool_call", id: "c1", name: "bash", arguments: { command: "ls" } },
    ];
    const turns = turnsOf(
      user("q"),
      { role: "assistant", content: "Let me look.", parts: answerWithCall },
      toolOutput("a"),
      toolOutput("b"),
      ...chat(10),
    );
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan.keptBefore).toEqual([0, 1, 2, 3]);
    expect(plan.replaced).toEqual(span(4, 9));
    expect(plan.adjustments).toEqual(["Kept turns #3-#4 verbatim: turn #4 holds the result of the tool call in turn #2, which is kept."]);
    expectNoSplitPairs(turns, plan);
  });

  it("leaves orphan results and calls without results where they fall", () => {
    const turns = turnsOf(...chat(7), call("lonely"), result("nobody-called-me"), ...chat(3, "late"));
    const plan = planCompaction(turns, { strategy: "window", trigger: "turns", maxTurns: 8 });
    expect(plan.keptAfter).toEqual(span(8, 11));
    expect(plan.adjustments).toEqual([]);
  });
});

describe("planCompaction: window by tokens", () => {
  it("keeps the newest turns that fit half the limit", () => {
    const tokens = [500, 500, 500, 500, 500, 10, 10, 10, 10, 10];
    const plan = planCompaction(turnsOf(...chat(10)), { strategy: "window", trigger: "tokens", maxTokens: 200, tokens });
    expect(plan.keptBefore).toEqual([0, 1]);
    expect(plan.replaced).toEqual([2, 3, 4]);
    expect(plan.keptAfter).toEqual(span(5, 9));
  });

  it("keeps at least 4 turns however large they are", () => {
    const tokens = Array.from({ length: 10 }, () => 100);
    const plan = planCompaction(turnsOf(...chat(10)), { strategy: "window", trigger: "tokens", maxTokens: 600, tokens });
    expect(plan.keptAfter).toEqual(span(6, 9));
  });

  it("is a noop at or under the limit; 0 disables it", () => {
    const tokens = Array.from({ length: 10 }, () => 60);
    expect(planCompaction(turnsOf(...chat(10)), { strategy: "window", trigger: "tokens", maxTokens: 600, tokens }).noop).toMatch(
      /600 tokens/,
    );
    expect(planCompaction(turnsOf(...chat(10)), { strategy: "window", trigger: "tokens", maxTokens: 0, tokens }).noop).toMatch(
      /0.*disables/,
    );
  });

  it("needs one count per turn", () => {
    expect(() => planCompaction(turnsOf(...chat(4)), { strategy: "window", trigger: "tokens", maxTokens: 10, tokens: [1, 2] })).toThrow(
      RangeError,
    );
  });

  it("moves the token tail to take in a call", () => {
    const turns = turnsOf(...chat(6), call("c1"), result("c1"), ...chat(4, "late"));
    const tokens = [...Array.from({ length: 6 }, () => 100), 10, 10, 10, 10, 10, 10];
    // Budget 60 fits the newest 6 turns (6..11): the call in 6 and its result in 7 are both kept.
    const plan = planCompaction(turns, { strategy: "window", trigger: "tokens", maxTokens: 120, tokens });
    expect(plan.keptAfter).toEqual(span(6, 11));
    expect(plan.adjustments).toEqual([]);
    // Budget 50 fits 5 turns (7..11): turn 7 holds the result of the call in 6, so the tail starts at 6.
    const tighter = planCompaction(turns, { strategy: "window", trigger: "tokens", maxTokens: 100, tokens });
    expect(tighter.keptAfter).toEqual(span(6, 11));
    expect(tighter.replaced).toEqual(span(2, 5));
    expect(tighter.adjustments).toEqual(["Kept turn #7 verbatim: its tool call's result is in turn #8, which is kept."]);
    expectNoSplitPairs(turns, tighter);
  });
});

describe("planCompaction: full", () => {
  it("replaces every turn, tool pairs included", () => {
    const turns = turnsOf(user("q"), call("c1"), result("c1"), assistant("a"));
    const plan = planCompaction(turns, { strategy: "full" });
    expect(plan).toMatchObject({ keptBefore: [], replaced: [0, 1, 2, 3], keptAfter: [], noop: null, adjustments: [] });
    expectNoSplitPairs(turns, plan);
  });

  it("replaces a call together with the bare tool outputs after it", () => {
    const turns = turnsOf(user("q"), call("c1"), toolOutput("one"), toolOutput("two"), assistant("a"));
    const plan = planCompaction(turns, { strategy: "full" });
    expect(plan).toMatchObject({ keptBefore: [], replaced: span(0, 4), keptAfter: [], noop: null, adjustments: [] });
    expect(bareOutputPairs(turns)).toEqual([
      [1, 2],
      [1, 3],
    ]);
    expectNoSplitPairs(turns, plan);
  });

  it("is a noop under 2 turns: a summary and its acknowledgement would not be shorter", () => {
    expect(planCompaction(turnsOf(user("hi")), { strategy: "full" }).noop).toMatch(/2 turns/);
    expect(planCompaction([], { strategy: "full" }).noop).not.toBeNull();
  });
});

describe("planCompaction: range", () => {
  const turns = turnsOf(...chat(3), call("c1"), result("c1"), ...chat(5, "late"));

  it("summarises up to a turn, inclusive", () => {
    const plan = planCompaction(turns, { strategy: "range", direction: "up-to", at: 5 });
    expect(plan).toMatchObject({ keptBefore: [], replaced: span(0, 5), keptAfter: span(6, 9), noop: null });
  });

  it("summarises from a turn, inclusive", () => {
    const plan = planCompaction(turns, { strategy: "range", direction: "from", at: 6 });
    expect(plan).toMatchObject({ keptBefore: span(0, 5), replaced: span(6, 9), keptAfter: [] });
  });

  it("shrinks an up-to run that would take a call without its result", () => {
    const plan = planCompaction(turns, { strategy: "range", direction: "up-to", at: 3 });
    expect(plan.replaced).toEqual([0, 1, 2]);
    expect(plan.keptAfter).toEqual(span(3, 9));
    expect(plan.adjustments).toEqual(["Kept turn #4 verbatim: its tool call's result is in turn #5, which is kept."]);
    expectNoSplitPairs(turns, plan);
  });

  it("shrinks a from run that would take a result without its call", () => {
    const plan = planCompaction(turns, { strategy: "range", direction: "from", at: 4 });
    expect(plan.keptBefore).toEqual(span(0, 4));
    expect(plan.replaced).toEqual(span(5, 9));
    expect(plan.adjustments).toEqual(["Kept turn #5 verbatim: it holds the result of the tool call in turn #4, which is kept."]);
    expectNoSplitPairs(turns, plan);
  });

  describe("a tool turn without a tool_result part", () => {
    const bare = turnsOf(...chat(3), call("c1"), toolOutput(), ...chat(5, "late"));

    it("shrinks an up-to run that would take the call and leave its output", () => {
      const plan = planCompaction(bare, { strategy: "range", direction: "up-to", at: 3 });
      expect(plan.replaced).toEqual([0, 1, 2]);
      expect(plan.keptAfter).toEqual(span(3, 9));
      expect(plan.adjustments).toEqual(["Kept turn #4 verbatim: its tool call's result is in turn #5, which is kept."]);
      expectNoSplitPairs(bare, plan);
    });

    it("shrinks a from run that would take the output and leave its call", () => {
      const plan = planCompaction(bare, { strategy: "range", direction: "from", at: 4 });
      expect(plan.keptBefore).toEqual(span(0, 4));
      expect(plan.replaced).toEqual(span(5, 9));
      expect(plan.adjustments).toEqual(["Kept turn #5 verbatim: it holds the result of the tool call in turn #4, which is kept."]);
      expectNoSplitPairs(bare, plan);
    });

    it("keeps a whole run of outputs (id results among them) with the call", () => {
      const parallel: TurnPart[] = [
        { type: "tool_call", id: "c1", name: "bash", arguments: { command: "ls" } },
        { type: "tool_call", id: "c2", name: "bash", arguments: { command: "pwd" } },
      ];
      const turns = turnsOf(
        ...chat(2),
        { role: "assistant", content: "", parts: parallel },
        { ...result("c1"), role: "tool" },
        toolOutput("pwd output"),
        ...chat(3, "late"),
      );
      const plan = planCompaction(turns, { strategy: "range", direction: "up-to", at: 3 });
      expect(plan.replaced).toEqual([0, 1]);
      expect(plan.keptAfter).toEqual(span(2, 7));
      expectNoSplitPairs(turns, plan);
    });

    it("pairs with nothing when a turn other than a tool turn lies between it and the call", () => {
      const turns = turnsOf(user("q"), call("c1"), assistant("thinking aloud"), toolOutput(), ...chat(4, "late"));
      const plan = planCompaction(turns, { strategy: "range", direction: "up-to", at: 2 });
      expect(plan).toMatchObject({ replaced: [0, 1, 2], keptAfter: span(3, 7), adjustments: [] });
    });
  });

  it("is a noop when keeping the pair leaves nothing to replace", () => {
    const plan = planCompaction(turnsOf(call("c1"), result("c1"), user("q")), { strategy: "range", direction: "up-to", at: 0 });
    expect(plan.noop).toMatch(/nothing left/i);
    expect(plan.replaced).toEqual([]);
    expect(plan.adjustments).toHaveLength(1);
  });

  it("throws a RangeError for a turn outside the thread", () => {
    for (const at of [-1, 10, 2.5]) {
      expect(() => planCompaction(turns, { strategy: "range", direction: "up-to", at })).toThrow(/out of range.*0\.\.9/);
    }
  });
});

describe("planCompaction: trim-tool-output", () => {
  const long = "x".repeat(500);

  it("lists tool outputs over the limit, outside the last exchange", () => {
    const turns = turnsOf(
      user("look"),
      call("c1"),
      result("c1", long),
      call("c2"),
      result("c2", { lines: [long] }), // JSON, measured stringified
      call("c3"),
      result("c3", "short"),
      { role: "tool", content: long, toolName: "bash" }, // a tool turn without parts
      assistant("found it"),
      user("now the last question"),
      call("c4"),
      result("c4", long), // protected: part of the last exchange
      assistant("done"),
    );
    const plan = planCompaction(turns, { strategy: "trim-tool-output", maxChars: 20 });
    expect(plan.noop).toBeNull();
    expect(plan.replaced).toEqual([]);
    expect(plan.keptBefore).toEqual(span(0, 12));
    expect(plan.trimChars).toBe(20);
    // Over the limit but not by more than the marker adds: left whole (a cut would make it longer).
    expect(plan.trimmed.map(({ index, partIndex, charsBefore }) => ({ index, partIndex, charsBefore }))).toEqual([
      { index: 2, partIndex: 0, charsBefore: 500 },
      { index: 4, partIndex: 0, charsBefore: JSON.stringify({ lines: [long] }).length },
      { index: 7, partIndex: null, charsBefore: 500 },
    ]);
    expect(plan.trimmed[0]!.charsAfter).toBe(20 + "\n[...truncated, 500 chars total]\n".length);
  });

  it("leaves an output just over the limit whole: cut, it would come out longer", () => {
    const turns = turnsOf(user("look"), call("c1"), result("c1", "y".repeat(30)), user("next"), assistant("ok"));
    expect(planCompaction(turns, { strategy: "trim-tool-output", maxChars: 20 }).noop).toMatch(/no tool output/i);
  });

  it("protects the last exchange even when its tool result is the only long one", () => {
    const turns = turnsOf(user("q1"), assistant("a1"), user("q2"), call("c1"), result("c1", long), assistant("a2"));
    expect(planCompaction(turns, { strategy: "trim-tool-output", maxChars: 10 }).noop).toMatch(/no tool output/i);
  });

  it("maxChars 0 disables trimming", () => {
    const turns = turnsOf(user("q"), call("c1"), result("c1", long), user("q2"), assistant("a"));
    expect(planCompaction(turns, { strategy: "trim-tool-output", maxChars: 0 }).noop).toMatch(/0.*disables/);
  });
});

describe("planCompaction: no strategy splits a tool pair (seeded random threads)", () => {
  // A small deterministic PRNG (mulberry32) so failures reproduce.
  function random(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function randomThread(rand: () => number): CompactionTurn[] {
    const specs: Parameters<typeof turnsOf> = [];
    const open: string[] = [];
    let id = 0;
    const length = 5 + Math.floor(rand() * 40);
    while (specs.length < length) {
      const r = rand();
      if (r < 0.3) {
        const c = `c${id++}`;
        open.push(c);
        specs.push(call(c));
        // Outputs without a tool_result part (API appends, ChatGPT imports) answer the call before them.
        while (rand() < 0.35) specs.push(toolOutput());
      } else if (r < 0.6 && open.length > 0) {
        const answered = result(open.splice(Math.floor(rand() * open.length), 1)[0]!);
        specs.push(rand() < 0.3 ? { ...answered, role: "tool" } : answered);
      } else if (r < 0.68) {
        specs.push(toolOutput()); // after a call (and tool turns only) it answers the call; else it pairs with nothing
      } else specs.push(r < 0.85 ? user("q") : assistant(rand() < 0.5 ? "a" : ""));
    }
    return turnsOf(...specs);
  }

  it("holds for window, range and full across 300 threads", () => {
    const rand = random(42);
    for (let k = 0; k < 300; k++) {
      const turns = randomThread(rand);
      const n = turns.length;
      const options: CompactionOptions[] = [
        { strategy: "full" },
        { strategy: "window", trigger: "turns", maxTurns: 1 + Math.floor(rand() * n) },
        {
          strategy: "window",
          trigger: "tokens",
          maxTokens: 1 + Math.floor(rand() * n * 10),
          tokens: turns.map(() => 1 + Math.floor(rand() * 20)),
        },
        { strategy: "range", direction: "up-to", at: Math.floor(rand() * n) },
        { strategy: "range", direction: "from", at: Math.floor(rand() * n) },
      ];
      for (const option of options) {
        const plan = planCompaction(turns, option);
        expectPartition(turns, plan);
        expectNoSplitPairs(turns, plan);
        if (plan.noop === null) expect(plan.replaced.length).toBeGreaterThan(0);
      }
    }
  });
});
