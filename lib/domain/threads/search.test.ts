import { describe, expect, it } from "vitest";
import { searchTerms, toFtsMatch, turnSearchDocument } from "./search";

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

describe("what search reads of a turn", () => {
  it("adds tool calls' names and arguments, tool outputs and thinking the content does not hold", () => {
    const text = turnSearchDocument("Running it.", [
      { type: "text", text: "Running it." },
      { type: "thinking", text: "Check the logs first" },
      { type: "tool_call", id: "c1", name: "bash", arguments: { command: "grep -rn needle src/" } },
      { type: "tool_result", toolCallId: "c1", content: [{ type: "text", text: "src/a.ts: needle" }], diff: "+added line" },
    ]);
    expect(text.split("\n\n")).toEqual([
      "Running it.",
      "Check the logs first",
      'bash {"command":"grep -rn needle src/"}',
      "src/a.ts: needle\n+added line",
    ]);
  });

  it("is the content itself when the parts add nothing to it", () => {
    const content = "total 4\n-rw-r--r-- a.ts";
    expect(turnSearchDocument(content, [{ type: "tool_result", toolCallId: "c1", content }])).toBe(content);
    expect(turnSearchDocument(content, null)).toBe(content);
    expect(turnSearchDocument("", [{ type: "tool_call", id: "c", name: "read", arguments: "a.ts" }])).toBe("read a.ts");
  });
});
