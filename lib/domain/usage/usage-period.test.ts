import { describe, expect, it } from "vitest";
import {
  dayKey,
  dayNumber,
  defaultRange,
  isTimeZone,
  localDayOf,
  localDayStart,
  monthKey,
  offsetMinutes,
  offsetSpans,
  QUARTER_MS,
  quarterOf,
  rangeQuarters,
  resolveRange,
  weekKey,
} from "./usage-period";

const at = (iso: string) => Date.parse(iso);

describe("offsets", () => {
  it("reads a zone's offset at an instant, daylight saving included", () => {
    expect(offsetMinutes("Europe/Berlin", at("2026-01-15T12:00:00Z"))).toBe(60);
    expect(offsetMinutes("Europe/Berlin", at("2026-07-15T12:00:00Z"))).toBe(120);
    expect(offsetMinutes("Asia/Kolkata", at("2026-07-15T12:00:00Z"))).toBe(330);
    expect(offsetMinutes("Asia/Kathmandu", at("2026-07-15T12:00:00Z"))).toBe(345);
    expect(offsetMinutes("America/Los_Angeles", at("2026-01-15T12:00:00Z"))).toBe(-480);
    expect(offsetMinutes("UTC", at("2026-01-15T12:00:00Z"))).toBe(0);
  });

  it("knows zones and refuses names it does not know", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("finds each change of offset to the quarter-hour it happens in", () => {
    const start = quarterOf(new Date("2026-01-01T00:00:00Z"));
    const end = quarterOf(new Date("2027-01-01T00:00:00Z"));
    const spans = offsetSpans("Europe/Berlin", start, end);
    // 2026: summer time from 29 March 01:00Z to 25 October 01:00Z.
    expect(spans).toEqual([
      { fromQuarter: start, offsetQuarters: 4 },
      { fromQuarter: at("2026-03-29T01:00:00Z") / QUARTER_MS, offsetQuarters: 8 },
      { fromQuarter: at("2026-10-25T01:00:00Z") / QUARTER_MS, offsetQuarters: 4 },
    ]);
    expect(offsetSpans("Asia/Kolkata", start, end)).toEqual([{ fromQuarter: start, offsetQuarters: 22 }]);
    // Lord Howe moves by half an hour.
    const lordHowe = offsetSpans("Australia/Lord_Howe", start, end);
    expect(lordHowe.map((s) => s.offsetQuarters)).toEqual([44, 42, 44]);
  });

  it("finds a change in the last day of a range and none after its end", () => {
    const change = at("2026-03-29T01:00:00Z") / QUARTER_MS;
    expect(offsetSpans("Europe/Berlin", change - 10, change + 1)).toEqual([
      { fromQuarter: change - 10, offsetQuarters: 4 },
      { fromQuarter: change, offsetQuarters: 8 },
    ]);
    expect(offsetSpans("Europe/Berlin", change - 10, change)).toEqual([{ fromQuarter: change - 10, offsetQuarters: 4 }]);
  });
});

describe("days", () => {
  it("names days, ISO weeks (their Monday) and months", () => {
    expect(dayNumber("1970-01-01")).toBe(0);
    expect(dayKey(dayNumber("2026-03-01"))).toBe("2026-03-01");
    expect(weekKey(dayNumber("2026-11-26"))).toBe("2026-11-23"); // a Thursday
    expect(weekKey(dayNumber("2026-11-23"))).toBe("2026-11-23"); // a Monday
    expect(weekKey(dayNumber("2026-11-29"))).toBe("2026-11-23"); // a Sunday
    expect(weekKey(dayNumber("2027-01-01"))).toBe("2026-12-28");
    expect(monthKey(dayNumber("2026-02-28"))).toBe("2026-02");
  });

  it("starts local days at the zone's midnight, also on the days the clocks change", () => {
    expect(new Date(localDayStart("Europe/Berlin", dayNumber("2026-01-10"))).toISOString()).toBe("2026-01-09T23:00:00.000Z");
    expect(new Date(localDayStart("Europe/Berlin", dayNumber("2026-03-29"))).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(new Date(localDayStart("Europe/Berlin", dayNumber("2026-03-30"))).toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(new Date(localDayStart("America/New_York", dayNumber("2026-11-01"))).toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(new Date(localDayStart("America/New_York", dayNumber("2026-11-02"))).toISOString()).toBe("2026-11-02T05:00:00.000Z");
    expect(new Date(localDayStart("Asia/Kathmandu", dayNumber("2026-06-01"))).toISOString()).toBe("2026-05-31T18:15:00.000Z");
  });

  it("puts an instant on its local day", () => {
    expect(dayKey(localDayOf("Europe/Berlin", at("2026-06-30T22:30:00Z")))).toBe("2026-07-01");
    expect(dayKey(localDayOf("America/Los_Angeles", at("2026-07-01T06:30:00Z")))).toBe("2026-06-30");
  });

  it("covers a range of local days with whole quarter-hours", () => {
    const { startQuarter, endQuarter } = rangeQuarters({ since: "2026-03-29", until: "2026-03-29", timeZone: "Europe/Berlin" });
    expect(new Date(startQuarter * QUARTER_MS).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    // A 23-hour day.
    expect(endQuarter - startQuarter).toBe(92);
  });

  it("defaults to the last 30 days up to today in the zone", () => {
    expect(defaultRange("Asia/Tokyo", new Date("2026-11-25T16:00:00Z"))).toEqual({
      since: "2026-10-28",
      until: "2026-11-26",
      timeZone: "Asia/Tokyo",
    });
    expect(defaultRange("UTC", new Date("2026-11-25T16:00:00Z"))).toEqual({ since: "2026-10-27", until: "2026-11-25", timeZone: "UTC" });
  });
});

describe("resolveRange", () => {
  const zone = "Europe/Berlin";
  const extent = { first: "2025-09-07", last: "2026-02-12" };

  it("cuts a range wider than the data to the data's days", () => {
    expect(resolveRange({ since: "2000-01-01", until: "2100-01-01", timeZone: zone }, extent, "2026-11-28")).toEqual({
      range: { since: "2025-09-07", until: "2026-02-12", timeZone: zone },
      overlaps: true,
    });
  });

  it("reads an open since as the data's first day and an open until as today", () => {
    expect(resolveRange({ timeZone: zone }, extent, "2026-11-28").range).toEqual({
      since: "2025-09-07",
      until: "2026-02-12",
      timeZone: zone,
    });
    expect(resolveRange({ since: "2026-01-01", timeZone: zone }, extent, "2026-01-20").range).toEqual({
      since: "2026-01-01",
      until: "2026-01-20",
      timeZone: zone,
    });
  });

  it("keeps a range inside the data as it is", () => {
    const asked = { since: "2025-10-01", until: "2025-10-31", timeZone: zone };
    expect(resolveRange(asked, extent, "2026-11-28")).toEqual({ range: asked, overlaps: true });
  });

  it("says when no day of the range holds data, and keeps the asked range to name it", () => {
    const asked = { since: "2024-01-01", until: "2024-12-31", timeZone: zone };
    expect(resolveRange(asked, extent, "2026-11-28")).toEqual({ range: asked, overlaps: false });
    expect(resolveRange({ timeZone: zone }, null, "2026-11-28")).toEqual({
      range: { since: "2026-11-28", until: "2026-11-28", timeZone: zone },
      overlaps: false,
    });
  });
});
