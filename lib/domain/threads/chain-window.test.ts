import { describe, expect, it } from "vitest";
import { chainPosition, offsetOf, parseTurnParam, slicesOf, threadStarts, windowAt, windowLinks } from "./chain-window";

describe("windowAt", () => {
  it("aligns windows, so a turn is always on the same page", () => {
    expect(windowAt(1, 10_000, 50)).toEqual({ start: 0, end: 50 });
    expect(windowAt(50, 10_000, 50)).toEqual({ start: 0, end: 50 });
    expect(windowAt(51, 10_000, 50)).toEqual({ start: 50, end: 100 });
    expect(windowAt(10_000, 10_000, 50)).toEqual({ start: 9_950, end: 10_000 });
  });

  it("clamps a turn past either end, and ends the last window at the last turn", () => {
    expect(windowAt(99_999, 120, 50)).toEqual({ start: 100, end: 120 });
    expect(windowAt(0, 120, 50)).toEqual({ start: 0, end: 50 });
    expect(windowAt(-3, 120, 50)).toEqual({ start: 0, end: 50 });
    expect(windowAt(1, 8, 50)).toEqual({ start: 0, end: 8 });
    expect(windowAt(5, 0, 50)).toEqual({ start: 0, end: 0 });
  });
});

describe("parseTurnParam", () => {
  it("reads a turn number, with separators, and falls back to 1", () => {
    expect(parseTurnParam("250")).toBe(250);
    expect(parseTurnParam("10,000")).toBe(10_000);
    expect(parseTurnParam(["7", "9"])).toBe(7);
    expect(parseTurnParam("2.9")).toBe(2);
    for (const bad of [undefined, "", "abc", "0", "-4", "Infinity"]) expect(parseTurnParam(bad)).toBe(1);
  });
});

describe("windowLinks", () => {
  it("links the neighbours and the last window, none past the ends", () => {
    expect(windowLinks(0, 10_000, 50)).toEqual({ previous: null, next: 51, last: 9_951 });
    expect(windowLinks(50, 10_000, 50)).toEqual({ previous: 1, next: 101, last: 9_951 });
    expect(windowLinks(9_950, 10_000, 50)).toEqual({ previous: 9_901, next: null, last: null });
    expect(windowLinks(0, 50, 50)).toEqual({ previous: null, next: null, last: null });
    expect(windowLinks(0, 51, 50)).toEqual({ previous: null, next: 51, last: 51 });
    expect(windowLinks(0, 0, 50)).toEqual({ previous: null, next: null, last: null });
  });
});

describe("slicesOf", () => {
  const counts = [500, 0, 3, 500];

  it("cuts a range across threads, skipping empty and untouched ones", () => {
    expect(slicesOf(counts, 0, 50)).toEqual([{ thread: 0, from: 0, to: 50, firstOffset: 0 }]);
    expect(slicesOf(counts, 480, 530)).toEqual([
      { thread: 0, from: 480, to: 500, firstOffset: 480 },
      { thread: 2, from: 0, to: 3, firstOffset: 500 },
      { thread: 3, from: 0, to: 27, firstOffset: 503 },
    ]);
    expect(slicesOf(counts, 1_000, 1_100)).toEqual([{ thread: 3, from: 497, to: 500, firstOffset: 1_000 }]);
    expect(slicesOf(counts, 1_003, 1_100)).toEqual([]);
  });

  it("covers every offset of the range exactly once, in order", () => {
    const sizes = [7, 1, 0, 12, 5];
    const total = sizes.reduce((a, b) => a + b, 0);
    for (let start = 0; start < total; start += 3) {
      const end = Math.min(start + 6, total);
      const offsets = slicesOf(sizes, start, end).flatMap((s) => Array.from({ length: s.to - s.from }, (_, i) => s.firstOffset + i));
      expect(offsets).toEqual(Array.from({ length: end - start }, (_, i) => start + i));
    }
  });
});

describe("offsetOf", () => {
  it("numbers a thread's turn across the chain, and refuses one not in it", () => {
    expect(offsetOf([500, 0, 3], 0, 0)).toBe(0);
    expect(offsetOf([500, 0, 3], 2, 2)).toBe(502);
    expect(offsetOf([500, 0, 3], 2, 3)).toBeNull();
    expect(offsetOf([500, 0, 3], 1, 0)).toBeNull();
    expect(offsetOf([500, 0, 3], 3, 0)).toBeNull();
    expect(offsetOf([500, 0, 3], -1, 0)).toBeNull();
  });
});

describe("threadStarts", () => {
  it("gives each thread's first turn number across the chain", () => {
    expect(threadStarts([500, 0, 3, 500])).toEqual([1, 501, 501, 504]);
    expect(threadStarts([])).toEqual([]);
  });
});

describe("chainPosition", () => {
  it("counts from 1 by id, whichever copy of the thread is asked about", () => {
    const path = [{ id: "a" }, { id: "b" }, { id: "c" }];
    expect(chainPosition(path, "a")).toBe(1);
    expect(chainPosition(path, { ...path[2]! }.id)).toBe(3);
    expect(chainPosition(path, "z")).toBe(0);
  });
});
