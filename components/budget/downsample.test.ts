import { describe, expect, it } from "vitest";
import { m4Indexes } from "./downsample";

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const columnOf = (i: number, n: number, columns: number) => Math.floor((i * columns) / n);

describe("m4Indexes", () => {
  it("keeps every point of a line short enough to draw whole", () => {
    expect(m4Indexes([3, 1, 2], 100)).toEqual([0, 1, 2]);
    expect(
      m4Indexes(
        Array.from({ length: 400 }, (_, i) => i),
        100,
      ),
    ).toHaveLength(400);
    expect(m4Indexes([], 100)).toEqual([]);
  });

  it("keeps the first, last, lowest and highest point of every column, and no more than 4 a column", () => {
    const next = random(42);
    const values = Array.from({ length: 10_000 }, () => Math.round(next() * 1_000));
    const columns = 300;
    const kept = m4Indexes(values, columns);
    expect(kept.length).toBeLessThanOrEqual(4 * columns);
    expect(kept).toEqual([...new Set(kept)].sort((a, b) => a - b));
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(values.length - 1);
    for (let c = 0; c < columns; c++) {
      const all = values.map((v, i) => ({ v, i })).filter(({ i }) => columnOf(i, values.length, columns) === c);
      const drawn = kept.filter((i) => columnOf(i, values.length, columns) === c);
      expect(drawn[0], `column ${c} starts where its points do`).toBe(all[0]!.i);
      expect(drawn.at(-1), `column ${c} ends where its points do`).toBe(all.at(-1)!.i);
      expect(Math.min(...drawn.map((i) => values[i]!))).toBe(Math.min(...all.map((p) => p.v)));
      expect(Math.max(...drawn.map((i) => values[i]!))).toBe(Math.max(...all.map((p) => p.v)));
    }
  });

  it("keeps a single spike that sampling every nth point would miss", () => {
    const values = new Array<number>(10_000).fill(0);
    values[5_003] = 99;
    values[7_777] = -5;
    const kept = m4Indexes(values, 200);
    expect(kept).toContain(5_003);
    expect(kept).toContain(7_777);
  });

  it("keeps the points it is asked to keep, exactly, and ignores ones outside the line", () => {
    const cumulative = Array.from({ length: 10_000 }, (_, i) => i * 80);
    const kept = m4Indexes(cumulative, 500, [4_321, 4_322, 9_001, -1, 10_000, 2.5]);
    for (const i of [4_321, 4_322, 9_001]) expect(kept).toContain(i);
    expect(kept.every((i) => Number.isInteger(i) && i >= 0 && i < 10_000)).toBe(true);
    // A rising line needs only each column's first and last point.
    expect(kept.length).toBeLessThanOrEqual(2 * 500 + 3);
  });
});
