import { describe, expect, it } from "vitest";
import { emptyFigures, type UsageFigures, type UsageReport, type UsageRow } from "./usage-report";
import { displayWidth, formatTokens, printable, usageTable } from "./usage-table";

function figures(over: Partial<UsageFigures>): UsageFigures {
  return { ...emptyFigures(), ...over };
}

function report(over: Partial<UsageReport> & Pick<UsageReport, "rows">): UsageReport {
  const totals = over.rows.reduce(
    (sum, row) => {
      for (const field of [
        "inputTokens",
        "outputTokens",
        "cacheReadTokens",
        "cacheWriteTokens",
        "reasoningTokens",
        "costUsd",
        "responses",
        "threads",
        "unpricedResponses",
        "estimatedResponses",
      ] as const)
        sum[field] += row[field];
      return sum;
    },
    { ...emptyFigures(), unpricedModels: [] as string[] },
  );
  return { groupBy: "day", since: "2026-03-01", until: "2026-03-31", tz: "Europe/Berlin", filters: {}, totals, ...over };
}

const day = (key: string, over: Partial<UsageFigures>): UsageRow => ({ key, ...figures({ responses: 1, threads: 1, ...over }) });

describe("usageTable", () => {
  it("aligns every column, right-aligns the figures and ends with the totals", () => {
    const text = usageTable(
      report({
        rows: [
          day("2026-03-01", {
            inputTokens: 1_234,
            outputTokens: 56,
            cacheReadTokens: 1_234_567,
            cacheWriteTokens: 12_345,
            costUsd: 1.5,
            responses: 12,
          }),
          day("2026-03-02", {
            inputTokens: 7,
            outputTokens: 120_000,
            cacheReadTokens: 0,
            cacheWriteTokens: 9,
            costUsd: 0.0123,
            responses: 3,
          }),
        ],
      }),
    );
    const lines = text.split("\n");
    expect(lines[0]).toBe("Usage by day, 2026-03-01 to 2026-03-31 (Europe/Berlin)");
    expect(lines[2]).toMatch(/^Day +Input +Output +Cache read +Cache write +Cost +Responses$/);
    expect(lines[3]).toMatch(/^─+$/);
    expect(lines[4]).toMatch(/^2026-03-01 +1,234 +56 +1,234,567 +12,345 +\$1\.50 +12$/);
    expect(lines[5]).toMatch(/^2026-03-02 +7 +120,000 +0 +9 +\$0\.0123 +3$/);
    expect(lines[7]).toMatch(/^Total +1,241 +120,056 +1,234,567 +12,354 +\$1\.51 +15$/);
    // Right-aligned: every line of the table ends in the same column, the rules as wide as the rows.
    const table = lines.slice(2, 8);
    expect(new Set(table.map((l) => [...l].length)).size).toBe(1);
    expect(text).toContain("15 responses in 2 threads, 2 days.");
    expect(text).not.toContain("Reasoning");
    expect(text).not.toContain("*");
  });

  it("shows reasoning only when some was reported", () => {
    const text = usageTable(report({ rows: [day("2026-03-01", { outputTokens: 100, reasoningTokens: 40 })] }));
    expect(text).toMatch(/Output +Cache read +Cache write +Reasoning +Cost/);
    expect(text).toMatch(/^Total +0 +100 +0 +0 +40 +\$0 +1$/m);
  });

  it("marks unpriced responses, names their models and says the cost leaves them out", () => {
    const base = report({
      groupBy: "model",
      rows: [
        { key: "claude-sonnet-4-5", ...figures({ inputTokens: 10, costUsd: 2.25, responses: 4, threads: 2 }) },
        { key: "my-local-llama", ...figures({ inputTokens: 99, responses: 2, threads: 1, unpricedResponses: 2 }) },
        { key: "gpt-5", ...figures({ inputTokens: 5, costUsd: 0.5, responses: 3, threads: 1, unpricedResponses: 1 }) },
      ],
    });
    const text = usageTable({ ...base, totals: { ...base.totals, unpricedModels: ["my-local-llama", "gpt-5-preview"] } });
    expect(text).toMatch(/^claude-sonnet-4-5 .* \$2\.25 +4$/m);
    expect(text).toMatch(/^my-local-llama .* unpriced\* +2$/m);
    expect(text).toMatch(/^gpt-5 .* \$0\.5\* +3$/m);
    expect(text).toMatch(/^Total .* \$2\.75\* +9$/m);
    expect(text).toContain(
      "* 3 responses of models without a known price, counted in the tokens but not in the cost: my-local-llama, gpt-5-preview.",
    );
  });

  it("says how many responses were estimated", () => {
    const text = usageTable(report({ rows: [day("2026-03-01", { responses: 5, estimatedResponses: 2 })] }));
    expect(text).toContain("2 responses without reported usage: estimated by our tokenizer (a lower bound).");
  });

  it("puts each row's models under it with --breakdown", () => {
    const row: UsageRow = {
      ...day("2026-03", { inputTokens: 300, costUsd: 3 }),
      breakdown: [
        { key: "claude-sonnet-4-5", ...figures({ inputTokens: 200, costUsd: 2.5, responses: 1 }) },
        { key: "", ...figures({ inputTokens: 100, costUsd: 0.5, responses: 1 }) },
      ],
    };
    const lines = usageTable(report({ groupBy: "month", rows: [row] })).split("\n");
    expect(lines[2]).toMatch(/^Month +Input/);
    expect(lines[4]).toMatch(/^2026-03 +300 /);
    expect(lines[5]).toMatch(/^ {2}claude-sonnet-4-5 +200 .* \$2\.50 +1$/);
    expect(lines[6]).toMatch(/^ {2}\(no model\) +100 .* \$0\.5 +1$/);
    expect(lines[8]).toMatch(/^Total +300 /);
  });

  it("lists sessions by title with their ids, a title's control characters replaced", () => {
    const text = usageTable(
      report({
        groupBy: "thread",
        rows: [
          {
            key: "3f0b8c3e-1d2a-4b5c-8d9e-0a1b2c3d4e5f",
            title: "Fix the \u001b[31mlogin\u001b[0m\nbug",
            ...figures({ responses: 2, threads: 1, costUsd: 1 }),
          },
          { key: "0a0b8c3e-1d2a-4b5c-8d9e-0a1b2c3d4e5f", title: null, ...figures({ responses: 1, threads: 1 }) },
          { key: "1b0b8c3e-1d2a-4b5c-8d9e-0a1b2c3d4e5f", title: "x".repeat(80), ...figures({ responses: 1, threads: 1 }) },
        ],
      }),
    );
    expect(text).not.toContain("\u001b");
    expect(text).toMatch(/^Session +Input .* Responses +Thread id$/m);
    expect(text).toMatch(/^Fix the  \[31mlogin \[0m bug .* 3f0b8c3e-1d2a-4b5c-8d9e-0a1b2c3d4e5f$/m);
    expect(text).toMatch(/^\(untitled\) .* 0a0b8c3e-/m);
    expect(text).toMatch(new RegExp(`^${"x".repeat(47)}… `, "m"));
    expect(text).toContain("Usage by session,");
  });

  it("names an empty key, keeps a long project's end, and says which filters applied", () => {
    const text = usageTable(
      report({
        groupBy: "project",
        filters: { source: "import:claude-code", model: "gpt-5" },
        rows: [
          { key: "", ...figures({ responses: 1, threads: 1 }) },
          { key: `/home/dev/${"deep/".repeat(12)}threadline`, ...figures({ responses: 1, threads: 1 }) },
        ],
      }),
    );
    expect(text.split("\n")[0]).toBe("Usage by project, 2026-03-01 to 2026-03-31 (Europe/Berlin); source import:claude-code, model gpt-5");
    expect(text).toMatch(/^\(none\) /m);
    expect(text).toMatch(/^….*deep\/threadline /m);
  });

  it("says so when nothing was used", () => {
    expect(usageTable(report({ since: "2026-03-05", until: "2026-03-05", rows: [] }))).toBe(
      "Usage by day, 2026-03-05 (Europe/Berlin)\n\nNo model responses with usage in this range.\n",
    );
  });
});

describe("wide characters", () => {
  it("counts CJK and emoji as two columns, so a row of them stays aligned, and cuts by columns", () => {
    const text = usageTable(
      report({
        groupBy: "thread",
        rows: [
          { key: "a", title: "請幫我更新 README", ...figures({ inputTokens: 5, responses: 1, threads: 1 }) },
          { key: "b", title: "plain title", ...figures({ inputTokens: 7, responses: 1, threads: 1 }) },
          { key: "c", title: "漢".repeat(40), ...figures({ inputTokens: 9, responses: 1, threads: 1 }) },
        ],
      }),
    );
    const rows = text.split("\n").filter((line) => / [abc]$/.test(line));
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map(displayWidth)).size).toBe(1);
    expect(rows[2]).toMatch(new RegExp(`^${"漢".repeat(23)}… `));
  });

  it("measures text in terminal columns", () => {
    expect([displayWidth("abc"), displayWidth("漢字"), displayWidth("한국"), displayWidth("🚀 go"), displayWidth("ü")]).toEqual([
      3, 4, 4, 5, 1,
    ]);
  });
});

describe("formatTokens and printable", () => {
  it("groups thousands", () => {
    expect([0, 999, 1_000, 1_234_567, -4_500].map(formatTokens)).toEqual(["0", "999", "1,000", "1,234,567", "-4,500"]);
  });

  it("replaces C0, DEL and C1 control characters, nothing else", () => {
    expect(printable("a\tb\r\nc\u001bd\u007fe\u009bf ü 漢")).toBe("a b  c d e f ü 漢");
  });
});

describe("usageTable of 5-hour blocks", () => {
  it("shows each block's local start, duration or time left, models, all its tokens, the limit and the active block's projection", () => {
    const block = (start: string, over: Partial<UsageRow>): UsageRow => ({
      key: start,
      ...figures({
        inputTokens: 100,
        outputTokens: 50,
        cacheReadTokens: 1_000,
        cacheWriteTokens: 200,
        costUsd: 0.5,
        responses: 4,
        threads: 1,
      }),
      start,
      end: new Date(Date.parse(start) + 5 * 3_600_000).toISOString(),
      lastResponseAt: start,
      isActive: false,
      models: ["claude-opus-4-6"],
      ...over,
    });
    const text = usageTable(
      report({
        groupBy: "block",
        tz: "Europe/Berlin",
        tokenLimit: 1_000,
        rows: [
          block("2026-03-10T09:00:00.000Z", { lastResponseAt: "2026-03-10T11:05:00.000Z", overTokenLimit: true }),
          block("2026-03-11T14:00:00.000Z", {
            lastResponseAt: "2026-03-11T15:00:00.000Z",
            isActive: true,
            models: ["claude-opus-4-6", "claude-haiku-4-5"],
            overTokenLimit: true,
            burnRate: { tokensPerMinute: 1_350 / 60, costUsdPerMinute: 0.5 / 60 },
            projection: { totalTokens: 5_400, costUsd: 2, remainingMinutes: 180 },
          }),
        ],
      }),
      new Date("2026-03-11T16:00:00Z"),
    );
    expect(text).toMatch(/^Usage by block, 2026-03-01 to 2026-03-31 \(Europe\/Berlin\)$/m);
    expect(text).toMatch(/^Block start +Duration +Tokens +Cost +Responses +Models$/m);
    // 09:00 UTC is 10:00 in Berlin in March (before the change to summer time).
    expect(text).toMatch(/^2026-03-10 10:00 +2h 05m +1,350 ! +\$0\.5 +4 +claude-opus-4-6$/m);
    expect(text).toMatch(/^2026-03-11 15:00 +active, 180 min left +1,350 ! +\$0\.5 +4 +claude-opus-4-6, claude-haiku-4-5$/m);
    expect(text).toContain("Active block: 23 tokens and $0.00833 a minute; at this rate 5,400 tokens and $2.00 by 2026-03-11 20:00.");
    expect(text).toContain("8 responses in 2 threads, 2 blocks.");
    expect(text).toContain("Token limit 1,000: blocks over it are marked !.");
  });
});
