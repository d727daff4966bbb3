import { describe, expect, it } from "vitest";
import { emptyFigures, type UsageRow } from "./usage-report";
import {
  blockForecast,
  blockStatus,
  formatInstant,
  nextSortOrder,
  periodKeys,
  periodLabel,
  sortPeriodRows,
  TIME_ORDER,
} from "./usage-views";

const row = (key: string, figures: Partial<UsageRow> = {}): UsageRow => ({ ...emptyFigures(), key, ...figures });

describe("the periods of a view", () => {
  it("are every day, ISO week (its Monday) or month that touches the range", () => {
    expect(periodKeys("day", "2026-02-27", "2026-03-02")).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    // 1 March 2026 is a Sunday: its week started on 23 February.
    expect(periodKeys("week", "2026-03-01", "2026-03-10")).toEqual(["2026-02-23", "2026-03-02", "2026-03-09"]);
    expect(periodKeys("month", "2025-12-31", "2026-02-01")).toEqual(["2025-12", "2026-01", "2026-02"]);
  });

  it("read the same on the server and in the browser, a block's start in the page's zone", () => {
    expect(periodLabel("day", "2026-02-03", "UTC")).toBe("3 Feb 2026");
    expect(periodLabel("week", "2026-02-02", "UTC")).toBe("Week of 2 Feb 2026");
    expect(periodLabel("month", "2026-11", "UTC")).toBe("Nov 2026");
    expect(periodLabel("block", "2026-11-03T23:00:00.000Z", "Europe/Berlin")).toBe("4 Nov 2026, 00:00");
    expect(formatInstant("2026-07-01T09:30:00.000Z", "Asia/Kolkata", false)).toBe("15:00");
  });
});

describe("sorting the period table", () => {
  const rows = [
    row("2026-01-02", { inputTokens: 5, outputTokens: 1, costUsd: 0.5, responses: 2 }),
    row("2026-01-01", { inputTokens: 1, cacheReadTokens: 100, costUsd: 2, responses: 2 }),
    row("2026-01-03", { outputTokens: 50, costUsd: 0.5, responses: 1 }),
  ];
  const keys = (sorted: UsageRow[]) => sorted.map((r) => r.key);

  it("is in time order by default, and either way by the period", () => {
    expect(keys(sortPeriodRows(rows, TIME_ORDER))).toEqual(["2026-01-01", "2026-01-02", "2026-01-03"]);
    expect(keys(sortPeriodRows(rows, { column: "period", direction: "descending" }))).toEqual(["2026-01-03", "2026-01-02", "2026-01-01"]);
  });

  it("orders by a figure, ties in time order, without moving the rows it was given", () => {
    expect(keys(sortPeriodRows(rows, { column: "cost", direction: "descending" }))).toEqual(["2026-01-01", "2026-01-02", "2026-01-03"]);
    expect(keys(sortPeriodRows(rows, { column: "cost", direction: "ascending" }))).toEqual(["2026-01-02", "2026-01-03", "2026-01-01"]);
    expect(keys(sortPeriodRows(rows, { column: "totalTokens", direction: "descending" }))).toEqual([
      "2026-01-01",
      "2026-01-03",
      "2026-01-02",
    ]);
    expect(keys(sortPeriodRows(rows, { column: "output", direction: "ascending" }))).toEqual(["2026-01-01", "2026-01-02", "2026-01-03"]);
    expect(keys(sortPeriodRows(rows, { column: "responses", direction: "ascending" }))).toEqual(["2026-01-03", "2026-01-01", "2026-01-02"]);
    expect(keys(rows)).toEqual(["2026-01-02", "2026-01-01", "2026-01-03"]);
  });

  it("turns a column's direction when chosen again; a new figure column starts with the largest", () => {
    expect(nextSortOrder(TIME_ORDER, "period")).toEqual({ column: "period", direction: "descending" });
    expect(nextSortOrder(TIME_ORDER, "cost")).toEqual({ column: "cost", direction: "descending" });
    expect(nextSortOrder({ column: "cost", direction: "descending" }, "cost")).toEqual({ column: "cost", direction: "ascending" });
    expect(nextSortOrder({ column: "cost", direction: "descending" }, "period")).toEqual(TIME_ORDER);
  });
});

describe("a 5-hour block", () => {
  const block = {
    start: "2026-11-03T09:00:00.000Z",
    end: "2026-11-03T14:00:00.000Z",
    lastResponseAt: "2026-11-03T11:42:00.000Z",
    isActive: false,
  };

  it("says how long a closed block ran, and an open one how long it has left", () => {
    const now = new Date("2026-11-03T12:00:00.000Z");
    expect(blockStatus(block, now)).toBe("2 h 42 min used");
    expect(blockStatus({ ...block, isActive: true }, now)).toBe("active — 2 h 00 min left");
    expect(blockStatus({ ...block, isActive: true, projection: { totalTokens: 1, costUsd: 1, remainingMinutes: 37 } }, now)).toBe(
      "active — 37 min left",
    );
  });

  it("says where an open block's pace leads, in the page's zone; nothing for a closed one", () => {
    const active = {
      ...block,
      isActive: true,
      burnRate: { tokensPerMinute: 12_345, costUsdPerMinute: 0.0234 },
      projection: { totalTokens: 1_234_567, costUsd: 4.1, remainingMinutes: 120 },
    };
    expect(blockForecast(active, "Europe/Berlin")).toBe(
      "Using 12.3k tokens and $0.0234 a minute. At this rate: 1.2M tokens and $4.10 by 15:00.",
    );
    expect(blockForecast({ ...active, isActive: false }, "UTC")).toBeNull();
    expect(blockForecast({ ...block, isActive: true }, "UTC")).toBeNull();
  });
});
