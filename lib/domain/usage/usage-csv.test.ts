import { describe, expect, it } from "vitest";
import { csvFilename, decimal, toCsv, usageCsv } from "./usage-csv";
import { emptyFigures, type UsageRow } from "./usage-report";

const row = (key: string, figures: Partial<UsageRow> = {}): UsageRow => ({ ...emptyFigures(), key, ...figures });

describe("CSV of a usage table", () => {
  it("quotes a field with a comma, a quote or a line break (RFC 4180), and ends every line with CRLF", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          ["plain", 'say "hi", twice'],
          ["line\nbreak", "cr\rhere"],
        ],
      ),
    ).toBe('a,b\r\nplain,"say ""hi"", twice"\r\n"line\nbreak","cr\rhere"\r\n');
  });

  it("keeps a cell a spreadsheet would run as a formula as text: =, +, -, @, tab and CR first get a '", () => {
    const cell = (text: string) => toCsv(["c"], [[text]]).slice("c\r\n".length, -2);
    expect(cell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(cell("+1")).toBe("'+1");
    expect(cell("-2+3")).toBe("'-2+3");
    expect(cell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(cell("\tx")).toBe("'\tx");
    expect(cell("\rx")).toBe(`"'\rx"`);
    expect(cell("a=b")).toBe("a=b");
    // Numbers are ours, never a formula: a negative one is written as it is.
    expect(toCsv(["n"], [[-2]])).toBe("n\r\n-2\r\n");
  });

  it("writes numbers unformatted: tokens as integers, cost as decimal dollars with every digit, never in exponent form", () => {
    expect(decimal(1234567)).toBe("1234567");
    expect(decimal(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(decimal(1.5e-7)).toBe("0.00000015");
    expect(decimal(3e21)).toBe("3000000000000000000000");
    const csv = usageCsv("day", [
      row("2026-11-03", { inputTokens: 1204, outputTokens: 88213, cacheReadTokens: 9120345, costUsd: 5.412734, responses: 311 }),
    ]);
    expect(csv.split("\r\n")).toEqual([
      "day,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,reasoning_tokens,total_tokens,cost_usd,responses,threads,unpriced_responses,estimated_responses",
      "2026-11-03,1204,88213,9120345,0,0,9209762,5.412734,311,0,0,0",
      "",
    ]);
  });

  it("gives a session its id and title, a block its ISO instants and models", () => {
    const session = usageCsv("session", [row("t1", { title: "=cmd|' /C calc'!A0" })], (r) => r.title ?? null);
    expect(session.split("\r\n")[1]).toBe("t1,'=cmd|' /C calc'!A0,0,0,0,0,0,0,0,0,0,0,0");
    const block = usageCsv("block", [
      row("2026-11-03T09:00:00.000Z", {
        start: "2026-11-03T09:00:00.000Z",
        end: "2026-11-03T14:00:00.000Z",
        lastResponseAt: "2026-11-03T11:42:10.000Z",
        isActive: false,
        models: ["claude-opus-4-6", "claude-haiku-4-5"],
        outputTokens: 10,
      }),
    ]);
    expect(block.split("\r\n").slice(0, 2)).toEqual([
      expect.stringMatching(/^block_start,block_end,last_response_at,active,models,input_tokens,/),
      "2026-11-03T09:00:00.000Z,2026-11-03T14:00:00.000Z,2026-11-03T11:42:10.000Z,false,claude-opus-4-6 claude-haiku-4-5,0,10,0,0,0,10,0,0,0,0,0",
    ]);
  });

  it("names the file by the table and the range", () => {
    expect(csvFilename("week", "2026-01-01", "2026-03-31")).toBe("threadline-usage-week-2026-01-01-2026-03-31.csv");
  });
});
