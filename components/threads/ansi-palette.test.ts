import { describe, expect, it } from "vitest";
import { AA_TEXT, contrastRatio } from "@/lib/domain/testing/contrast";
import { DEFAULT_FOREGROUND, DIM_FOREGROUND, FOREGROUND_16 } from "./ansi-palette";

/** What tool output is shown on: the card's white box, a card (zinc-50, zinc-100) and a failed call's tint (red-50). */
const OUTPUT_BACKGROUNDS = ["#ffffff", "#fafafa", "#f4f4f5", "#fef2f2"] as const;

describe("the terminal palette on the page's backgrounds", () => {
  it("has every foreground (and the default and dim text) at 4.5:1 or more on each background tool output sits on", () => {
    const weak = [...FOREGROUND_16, DEFAULT_FOREGROUND, DIM_FOREGROUND].flatMap((colour) =>
      OUTPUT_BACKGROUNDS.filter((background) => contrastRatio(colour, background) < AA_TEXT).map(
        (background) => `${colour} on ${background}: ${contrastRatio(colour, background).toFixed(2)}`,
      ),
    );
    expect(weak).toEqual([]);
  });

  it("keeps 16 colours", () => {
    expect(FOREGROUND_16).toHaveLength(16);
  });
});
