import { describe, expect, it } from "vitest";
import { parseAnsi, stripAnsi, type AnsiSegment } from "./ansi";

const ESC = "\u001b";
const text = (segments: AnsiSegment[]) => segments.map((s) => s.text).join("");

describe("parseAnsi", () => {
  it("gives plain text back as one unstyled segment", () => {
    expect(parseAnsi("hello\nworld")).toEqual([{ text: "hello\nworld", style: null }]);
    expect(parseAnsi("")).toEqual([]);
  });

  it("turns SGR codes into styles and drops them from the text (Claude Code's dim local output)", () => {
    const input = `${ESC}[2mCompacted (ctrl+o to see full summary)${ESC}[22m\nKept model as ${ESC}[1mDefault (recommended)${ESC}[22m`;
    expect(parseAnsi(input)).toEqual([
      { text: "Compacted (ctrl+o to see full summary)", style: { dim: true } },
      { text: "\nKept model as ", style: null },
      { text: "Default (recommended)", style: { bold: true } },
    ]);
  });

  it("reads italic, underline, strike, inverse and their resets, and 0 or nothing as a full reset", () => {
    const segments = parseAnsi(`${ESC}[1;3;4;9;7ma${ESC}[23;24mb${ESC}[29;27mc${ESC}[md${ESC}[1me${ESC}[0mf`);
    expect(segments).toEqual([
      { text: "a", style: { bold: true, italic: true, underline: true, strike: true, inverse: true } },
      { text: "b", style: { bold: true, strike: true, inverse: true } },
      { text: "c", style: { bold: true } },
      { text: "d", style: null },
      { text: "e", style: { bold: true } },
      { text: "f", style: null },
    ]);
  });

  it("reads the 16 colours, 256 colours and truecolour, in semicolon and colon forms", () => {
    const segments = parseAnsi(
      `${ESC}[31ma${ESC}[94;42mb${ESC}[39;49mc${ESC}[38;5;208md${ESC}[38;2;10;20;30;48;5;17me${ESC}[38:2::1:2:3mf${ESC}[38:5:99mg`,
    );
    expect(segments).toEqual([
      { text: "a", style: { fg: { index: 1 } } },
      { text: "b", style: { fg: { index: 12 }, bg: { index: 2 } } },
      { text: "c", style: null },
      { text: "d", style: { fg: { index: 208 } } },
      { text: "e", style: { fg: { rgb: [10, 20, 30] }, bg: { index: 17 } } },
      { text: "f", style: { fg: { rgb: [1, 2, 3] }, bg: { index: 17 } } },
      { text: "g", style: { fg: { index: 99 }, bg: { index: 17 } } },
    ]);
  });

  it("ignores colour arguments out of range and an underline colour, keeping what follows", () => {
    expect(parseAnsi(`${ESC}[38;5;300;1ma${ESC}[58;2;1;2;3;4mb`)).toEqual([
      { text: "a", style: { bold: true } },
      { text: "b", style: { bold: true, underline: true } },
    ]);
  });

  it("strips cursor movement, erase line, private modes and OSC titles and hyperlinks, keeping the link text", () => {
    const input = `${ESC}[2K${ESC}[1G${ESC}[?25lone${ESC}[3A two${ESC}]0;window title\u0007 three ${ESC}]8;;https://example.com/${ESC}\\link${ESC}]8;;${ESC}\\ ${ESC}(Bfour${ESC}7${ESC}8${ESC}=`;
    expect(text(parseAnsi(input))).toBe("one two three link four");
    expect(parseAnsi(input).every((s) => s.style === null)).toBe(true);
  });

  it("never leaves an escape character in the text, however malformed the input", () => {
    const malformed = [
      `a${ESC}`,
      `a${ESC}[`,
      `a${ESC}[12;3`,
      `a${ESC}[12;\u0001b`,
      `a${ESC}]0;title never ended`,
      `a${ESC}P dcs never ended`,
      `${ESC}${ESC}[31m${ESC}x`,
      `${ESC}[${"9".repeat(50)}mbig`,
      `${ESC}[38;5mshort${ESC}[38;2;1mshorter`,
    ];
    for (const input of malformed) {
      const out = text(parseAnsi(input));
      expect(out, JSON.stringify(input)).not.toContain(ESC);
      expect(out.startsWith("a") || !input.startsWith("a")).toBe(true);
    }
    // An unterminated OSC swallows nothing but its introducer: the rest stays readable.
    expect(text(parseAnsi(`a${ESC}]0;title never ended`))).toBe("a0;title never ended");
    expect(text(parseAnsi(`${ESC}[12;\u0001b`))).toBe("\u0001b");
  });

  // No timing asserted (speed belongs to benchmarks): a quadratic scan of these 5 MB inputs would take
  // hours, so the test's own time limit is what fails it.
  it("stays linear on huge and adversarial inputs (5 MB)", { timeout: 60_000 }, () => {
    const cases = [
      `${ESC}[1m`.repeat(1_000_000),
      `${ESC}]`.repeat(2_500_000), // unterminated OSCs, each would scan to the end
      `${ESC}[`.repeat(2_500_000),
      `${ESC}[31mx${ESC}[22m`.repeat(400_000),
      "plain ".repeat(900_000),
      `${ESC}[${"1;".repeat(2_500_000)}m`,
    ];
    for (const input of cases) {
      const segments = parseAnsi(input);
      expect(text(segments), `${input.slice(0, 8)}…`).not.toContain(ESC);
    }
  });

  it("styles at most maxSegments runs and gives the rest as plain text", () => {
    const input = `${ESC}[31mr${ESC}[32mg`.repeat(10);
    const segments = parseAnsi(input, { maxSegments: 4 });
    expect(segments).toHaveLength(5);
    expect(segments.at(-1)).toEqual({ text: "rg".repeat(8), style: null });
    expect(text(segments)).toBe("rg".repeat(10));
  });
});

describe("stripAnsi", () => {
  it("leaves the text without any escape sequence", () => {
    expect(stripAnsi(`${ESC}[2mdim${ESC}[22m and ${ESC}]8;;u${ESC}\\link${ESC}]8;;${ESC}\\`)).toBe("dim and link");
    expect(stripAnsi("no codes")).toBe("no codes");
  });
});
