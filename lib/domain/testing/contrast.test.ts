import { describe, expect, it } from "vitest";
import { contrastRatio, luminance } from "./contrast";

describe("contrastRatio", () => {
  it("is 21:1 from black to white, either way round, and 1:1 for a colour with itself", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#71717a", "#71717a")).toBe(1);
  });

  it("matches the figures axe-core reported on the pages", () => {
    // Tailwind's zinc-500 on zinc-100, and white on emerald-600 (the compaction workbench's Apply button before).
    expect(contrastRatio("#71717b", "#f4f4f5")).toBeCloseTo(4.39, 2);
    expect(contrastRatio("#ffffff", "#009966")).toBeCloseTo(3.65, 2);
  });

  it("refuses what is not #rrggbb", () => {
    expect(() => luminance("red")).toThrow(/#rrggbb/);
    expect(luminance("#FFFFFF")).toBeCloseTo(1, 10);
  });
});
