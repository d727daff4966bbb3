import { describe, expect, test } from "vitest";
import { regressions } from "./baseline-regressions";

describe("regressions", () => {
  const baseline = { peakRssMb: 200, writeCallsPerFile: 100 };

  test("passes figures up to the tolerance over their baseline, and any below it", () => {
    expect(regressions(baseline, { peakRssMb: 250, writeCallsPerFile: 10 }, 0.25)).toEqual([]);
  });

  test("names each figure over the tolerance, with how far over", () => {
    expect(regressions(baseline, { peakRssMb: 260, writeCallsPerFile: 300 }, 0.25)).toEqual([
      "peakRssMb: 260, 30% over the baseline 200",
      "writeCallsPerFile: 300, 200% over the baseline 100",
    ]);
  });

  test("a figure the baseline has but the run did not measure is a failure; a new one is not", () => {
    expect(regressions(baseline, { peakRssMb: 200, newFigure: 1 }, 0.25)).toEqual(["writeCallsPerFile: not measured (baseline 100)"]);
    expect(regressions(baseline, { peakRssMb: Number.NaN, writeCallsPerFile: 1 }, 0.25)).toEqual([
      "peakRssMb: not measured (baseline 200)",
    ]);
  });
});
