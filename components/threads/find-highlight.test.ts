import { describe, expect, it } from "vitest";
import { termRanges } from "./find-highlight";

describe("termRanges", () => {
  const cut = (text: string, terms: string[]) => termRanges(text, terms).map(([a, b]) => text.slice(a, b));

  it("marks each whole word a term begins, as the full-text search matches", () => {
    expect(cut("Authentication and the auth token; reauth is not it", ["auth"])).toEqual(["Authentication", "auth"]);
    expect(cut("Zanzibarquux, then ZANZIBARQUUX again.", ["zanzibarquux"])).toEqual(["Zanzibarquux", "ZANZIBARQUUX"]);
    expect(cut("the parser reads the input", ["parse", "input"])).toEqual(["parser", "input"]);
  });

  it("matches a short term as a whole word only, and accents aside", () => {
    expect(cut("go gone ago go.", ["go"])).toEqual(["go", "go"]);
    expect(cut("Le café est fermé", ["cafe"])).toEqual(["café"]);
    expect(termRanges("anything", [])).toEqual([]);
  });
});
