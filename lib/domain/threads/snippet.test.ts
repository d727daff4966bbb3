import { describe, expect, it } from "vitest";
import {
  cutAround,
  groupHitsByThread,
  highlightSegments,
  parseMarkedSnippet,
  SNIPPET_CLOSE as C,
  SNIPPET_OPEN as O,
  withoutMarkers,
  type SearchHit,
} from "./snippet";

/** The marked pieces of a parsed snippet. */
const pieces = ({ snippet, highlights }: { snippet: string; highlights: [number, number][] }) =>
  highlights.map(([s, e]) => snippet.slice(s, e));

describe("parseMarkedSnippet", () => {
  it("strips the markers into offsets of the marked words", () => {
    const parsed = parseMarkedSnippet(`…the ${O}session${C} drops after a ${O}refresh${C}…`);
    expect(parsed.snippet).toBe("…the session drops after a refresh…");
    expect(parsed.highlights).toEqual([
      [5, 12],
      [27, 34],
    ]);
    expect(pieces(parsed)).toEqual(["session", "refresh"]);
  });

  it("makes one line of white space and keeps the offsets right", () => {
    const parsed = parseMarkedSnippet(`  line one\n\n\t${O}needle${C}\r\n  line   three  `);
    expect(parsed.snippet).toBe("line one needle line three");
    expect(pieces(parsed)).toEqual(["needle"]);
  });

  it("merges marked words that touch, and leaves an unclosed or empty mark harmless", () => {
    expect(pieces(parseMarkedSnippet(`${O}auth${C}${O}entication${C} x ${O}${C}y`))).toEqual(["authentication"]);
    expect(pieces(parseMarkedSnippet(`a ${O}tail`))).toEqual(["tail"]);
  });

  it("counts in UTF-16 code units, as the page slices", () => {
    const parsed = parseMarkedSnippet(`😀 café ${O}naïve${C} 認証`);
    expect(pieces(parsed)).toEqual(["naïve"]);
  });

  it("cuts a long snippet around its first match with ellipses, offsets moved", () => {
    const long = `${"a".repeat(500)} ${O}needle${C} ${"b".repeat(500)}`;
    const parsed = parseMarkedSnippet(long, 100);
    expect(parsed.snippet.length).toBeLessThanOrEqual(102);
    expect(parsed.snippet.startsWith("…")).toBe(true);
    expect(parsed.snippet.endsWith("…")).toBe(true);
    expect(pieces(parsed)).toEqual(["needle"]);
  });

  it("never cuts a surrogate pair in half", () => {
    const cut = cutAround({ snippet: "😀".repeat(100), highlights: [[100, 102]] }, 51);
    expect(cut.snippet).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(pieces(cut)).toEqual(["😀"]);
  });
});

describe("withoutMarkers", () => {
  it("replaces marker characters a text holds, so any left in a snippet are the database's", () => {
    expect(withoutMarkers(`a${O}b${C}c`)).toBe("a\uFFFDb\uFFFDc");
    expect(pieces(parseMarkedSnippet(withoutMarkers(`fake ${O}mark${C} real`)))).toEqual([]);
  });
});

describe("highlightSegments", () => {
  it("splits a text into marked and plain pieces that join back to it", () => {
    const segments = highlightSegments("token refresh token", [
      [0, 5],
      [14, 19],
    ]);
    expect(segments).toEqual([
      { text: "token", marked: true },
      { text: " refresh ", marked: false },
      { text: "token", marked: true },
    ]);
  });

  it("drops or clips offsets that are out of order, overlapping, outside the text or not whole", () => {
    const text = "<b>html</b> stays text";
    const segments = highlightSegments(text, [
      [3, 7],
      [5, 9],
      [1.5, 2],
      [-4, 1],
      [18, 400],
    ]);
    expect(segments.map((s) => s.text).join("")).toBe(text);
    expect(segments.filter((s) => s.marked).map((s) => s.text)).toEqual(["html", "</", "text"]);
    expect(highlightSegments("abc", [])).toEqual([{ text: "abc", marked: false }]);
  });
});

describe("groupHitsByThread", () => {
  const hit = (threadId: string, turnIndex: number): SearchHit => ({
    threadId,
    threadTitle: `T ${threadId}`,
    turnId: `${threadId}-${turnIndex}`,
    turnIndex,
    role: "user",
    snippet: "",
    highlights: [],
  });

  it("keeps threads in the order of their best hit and each thread's hits in rank order, once each", () => {
    const groups = groupHitsByThread([hit("b", 4), hit("a", 9), hit("b", 1), hit("a", 2), hit("b", 4)]);
    expect(groups.map((g) => [g.threadId, g.hits.map((h) => h.turnIndex)])).toEqual([
      ["b", [4, 1]],
      ["a", [9, 2]],
    ]);
  });
});
