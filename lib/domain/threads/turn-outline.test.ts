import { describe, expect, it } from "vitest";
import { buildOutline, decodeIndexes, decodeOutline, encodeIndexes, nextIndex, previousIndex, type OutlineRow } from "./turn-outline";

describe("encodeIndexes / decodeIndexes", () => {
  it("writes equal steps as one run and reads them back", () => {
    expect(encodeIndexes([4, 6, 8])).toEqual([4, 2, 3]);
    expect(encodeIndexes([0, 1, 2, 3, 10, 20, 30, 31])).toEqual([0, 1, 4, 10, 10, 3, 31, 1, 1]);
    expect(encodeIndexes([7])).toEqual([7, 1, 1]);
    expect(encodeIndexes([])).toEqual([]);
    expect(decodeIndexes([4, 2, 3])).toEqual([4, 6, 8]);
    expect(decodeIndexes([0, 1, 4, 10, 10, 3, 31, 1, 1])).toEqual([0, 1, 2, 3, 10, 20, 30, 31]);
  });

  it("round-trips any increasing set, and an agent session's alternating turns stay small", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 50; trial++) {
      const set: number[] = [];
      for (let i = 0, at = 0; i < 200; i++) set.push((at += 1 + Math.floor(random() * 4)));
      expect(decodeIndexes(encodeIndexes(set))).toEqual(set);
    }
    // 35,000 turns, a tool call every other turn but for a user message every 50.
    const calls = Array.from({ length: 35_000 }, (_, i) => i).filter((i) => i % 2 === 1 && i % 50 !== 49);
    const runs = encodeIndexes(calls);
    expect(decodeIndexes(runs)).toEqual(calls);
    expect(JSON.stringify(runs).length).toBeLessThan(12_000);
  });

  it("ignores a truncated run", () => {
    expect(decodeIndexes([4, 2, 3, 9, 1])).toEqual([4, 6, 8]);
  });
});

describe("buildOutline", () => {
  it("sorts turns into kinds by role and flags, and sub-agent spawns as given", () => {
    const rows: OutlineRow[] = [
      { index: 0, role: "user", toolCall: false, error: false, compaction: false },
      { index: 1, role: "assistant", toolCall: true, error: false, compaction: false },
      { index: 2, role: "tool", toolCall: false, error: true, compaction: false },
      { index: 3, role: "system", toolCall: false, error: false, compaction: true },
      { index: 4, role: "assistant", toolCall: true, error: false, compaction: false },
    ];
    const outline = decodeOutline(buildOutline(rows, [4, 1, 4]));
    expect(outline).toEqual({
      turnCount: 5,
      kinds: { user: [0], assistant: [1, 4], system: [3], tool: [2], toolCall: [1, 4], error: [2], compaction: [3], subagent: [1, 4] },
    });
  });
});

describe("nextIndex / previousIndex", () => {
  const sorted = [3, 10, 11, 40];
  it("finds the neighbour strictly after or before an index", () => {
    expect(nextIndex(sorted, 0)).toBe(3);
    expect(nextIndex(sorted, 3)).toBe(10);
    expect(nextIndex(sorted, 11)).toBe(40);
    expect(nextIndex(sorted, 40)).toBeNull();
    expect(previousIndex(sorted, 40)).toBe(11);
    expect(previousIndex(sorted, 12)).toBe(11);
    expect(previousIndex(sorted, 3)).toBeNull();
    expect(nextIndex([], 0)).toBeNull();
    expect(previousIndex([], 5)).toBeNull();
  });
});
