import { describe, expect, it } from "vitest";
import { searchTerms, toFtsMatch } from "./search";

describe("search terms", () => {
  it("splits on anything but letters and digits, lower-cased and de-duplicated", () => {
    expect(searchTerms('Auth  "token" auth-Flow')).toEqual(["auth", "token", "flow"]);
    expect(searchTerms("проверка 認証 v2")).toEqual(["проверка", "認証", "v2"]);
  });

  it("never lets FTS syntax through", () => {
    expect(searchTerms('NEAR(a b) OR * "^x" :col')).toEqual(["near", "a", "b", "or", "x", "col"]);
    expect(toFtsMatch(["near", "or"])).toBe('"near"* AND "or"');
    expect(searchTerms("*** ()")).toEqual([]);
  });

  it("expands terms of three or more characters as prefixes, shorter ones as whole words", () => {
    expect(toFtsMatch(["s", "go", "api", "认证"])).toBe('"s" AND "go" AND "api"* AND "认证"');
  });
});
