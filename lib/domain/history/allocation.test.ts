import { describe, expect, it } from "vitest";
import { calculateTokenAllocation } from "./allocation";

// Expected values worked out by hand from PAL's formula:
//   < 300,000: content = int(T * 0.6), response = int(T * 0.4), file = int(content * 0.3), history = int(content * 0.5)
//   >= 300,000: content = int(T * 0.8), response = int(T * 0.2), file = int(content * 0.4), history = int(content * 0.4)
describe("calculateTokenAllocation", () => {
  it("200,000 (o3 class): 60/40, files 30% and history 50% of content", () => {
    // 200,000 * 0.6 = 120,000; * 0.4 = 80,000; 120,000 * 0.3 = 36,000; 120,000 * 0.5 = 60,000
    expect(calculateTokenAllocation(200_000)).toEqual({
      total: 200_000,
      content: 120_000,
      response: 80_000,
      file: 36_000,
      history: 60_000,
    });
  });

  it("1,000,000 (Gemini class): 80/20, files and history 40% of content each", () => {
    // 1,000,000 * 0.8 = 800,000; * 0.2 = 200,000; 800,000 * 0.4 = 320,000 (both)
    expect(calculateTokenAllocation(1_000_000)).toEqual({
      total: 1_000_000,
      content: 800_000,
      response: 200_000,
      file: 320_000,
      history: 320_000,
    });
  });

  it("128,000", () => {
    // 128,000 * 0.6 = 76,800; * 0.4 = 51,200; 76,800 * 0.3 = 23,040; 76,800 * 0.5 = 38,400
    expect(calculateTokenAllocation(128_000)).toEqual({
      total: 128_000,
      content: 76_800,
      response: 51_200,
      file: 23_040,
      history: 38_400,
    });
  });

  it("32,000", () => {
    // 32,000 * 0.6 = 19,200; * 0.4 = 12,800; 19,200 * 0.3 = 5,760; 19,200 * 0.5 = 9,600
    expect(calculateTokenAllocation(32_000)).toEqual({
      total: 32_000,
      content: 19_200,
      response: 12_800,
      file: 5_760,
      history: 9_600,
    });
  });

  it("299,999 is still a small window and truncates at every step", () => {
    // 299,999 * 0.6 = 179,999.4 -> 179,999
    // 299,999 * 0.4 = 119,999.6 -> 119,999   (content + response = 299,998: one token lost, as in PAL)
    // 179,999 * 0.3 =  53,999.7 ->  53,999
    // 179,999 * 0.5 =  89,999.5 ->  89,999
    expect(calculateTokenAllocation(299_999)).toEqual({
      total: 299_999,
      content: 179_999,
      response: 119_999,
      file: 53_999,
      history: 89_999,
    });
  });

  it("300,000 switches to the large split", () => {
    // 300,000 * 0.8 = 240,000; * 0.2 = 60,000; 240,000 * 0.4 = 96,000 (both)
    expect(calculateTokenAllocation(300_000)).toEqual({
      total: 300_000,
      content: 240_000,
      response: 60_000,
      file: 96_000,
      history: 96_000,
    });
  });

  it("truncates rather than rounds (8,192)", () => {
    // 8,192 * 0.6 = 4,915.2 -> 4,915; * 0.4 = 3,276.8 -> 3,276 (not 3,277)
    // 4,915 * 0.3 = 1,474.5 -> 1,474; 4,915 * 0.5 = 2,457.5 -> 2,457
    expect(calculateTokenAllocation(8_192)).toEqual({
      total: 8_192,
      content: 4_915,
      response: 3_276,
      file: 1_474,
      history: 2_457,
    });
  });

  it("a reserve for the response replaces only the response share", () => {
    // content, file and history stay as PAL computes them from the window
    expect(calculateTokenAllocation(200_000, 16_000)).toEqual({
      total: 200_000,
      content: 120_000,
      response: 16_000,
      file: 36_000,
      history: 60_000,
    });
    // larger than PAL's share: not rebalanced (content + response > total, as in PAL)
    expect(calculateTokenAllocation(1_000_000, 500_000)).toMatchObject({ content: 800_000, response: 500_000 });
  });

  it("a reserve of 0, null or undefined means no override (PAL's `reserved_for_response or ...`)", () => {
    const base = calculateTokenAllocation(128_000);
    expect(calculateTokenAllocation(128_000, 0)).toEqual(base);
    expect(calculateTokenAllocation(128_000, null)).toEqual(base);
    expect(calculateTokenAllocation(128_000, undefined)).toEqual(base);
  });

  it("a zero window gives zero budgets", () => {
    expect(calculateTokenAllocation(0)).toEqual({ total: 0, content: 0, response: 0, file: 0, history: 0 });
  });

  it("rejects windows and reserves that are not non-negative integers", () => {
    expect(() => calculateTokenAllocation(-1)).toThrow(RangeError);
    expect(() => calculateTokenAllocation(1.5)).toThrow(RangeError);
    expect(() => calculateTokenAllocation(Number.NaN)).toThrow(RangeError);
    expect(() => calculateTokenAllocation(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => calculateTokenAllocation(200_000, -5)).toThrow(RangeError);
    expect(() => calculateTokenAllocation(200_000, 0.5)).toThrow(RangeError);
  });
});
