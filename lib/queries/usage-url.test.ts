import { describe, expect, it } from "vitest";
import { lastDays } from "./report-url";
import { readUsagePageQuery, usageHref } from "./usage-url";

const now = () => new Date("2026-03-10T12:00:00Z");

describe("the /usage page's URL", () => {
  it("reads the API's parameter names, the same from a page's searchParams and from the address bar", () => {
    const fromServer = readUsagePageQuery(
      { since: "2026-01-01", until: "2026-02-01", tz: "Europe/Berlin", model: "claude-opus-4-6", project: "", source: "import:codex" },
      now,
    );
    const fromBrowser = readUsagePageQuery(
      new URLSearchParams("since=2026-01-01&until=2026-02-01&tz=Europe%2FBerlin&model=claude-opus-4-6&project=&source=import%3Acodex"),
      now,
    );
    expect(fromServer).toEqual({
      ok: true,
      query: { since: "2026-01-01", until: "2026-02-01", timeZone: "Europe/Berlin", model: "claude-opus-4-6", source: "import:codex" },
      view: "day",
      params: { since: "2026-01-01", until: "2026-02-01", tz: "Europe/Berlin", model: "claude-opus-4-6", source: "import:codex" },
    });
    expect(fromBrowser).toEqual(fromServer);
  });

  it("without a range, covers the last 30 days up to today in the zone", () => {
    const read = readUsagePageQuery({ tz: "UTC" }, now);
    expect(read.ok && read.query).toEqual({ since: "2026-02-09", until: "2026-03-10", timeZone: "UTC" });
    // Empty fields from the form are no filter at all.
    expect(readUsagePageQuery({ since: "", until: "", tz: "UTC", model: "" }, now)).toEqual(read);
  });

  it("names each parameter it refuses: a malformed date, an unknown zone, an unknown name, a value given twice, a reversed range", () => {
    const issues = (params: Record<string, string | string[]>) => {
      const read = readUsagePageQuery(params, now);
      return read.ok ? [] : read.issues;
    };
    expect(issues({ since: "2026-13-01" })).toEqual([{ field: "since", message: "is not a calendar date" }]);
    expect(issues({ since: "yesterday" })).toEqual([{ field: "since", message: "must be a date as YYYY-MM-DD" }]);
    expect(issues({ tz: "Mars/Olympus" })[0]?.field).toBe("tz");
    expect(issues({ modle: "x" })).toEqual([
      { field: "modle", message: "is not a parameter of this page (it takes since, until, tz, model, project, source, view)" },
    ]);
    expect(issues({ model: ["a", "b"] })).toEqual([{ field: "model", message: "is given 2 times: give it once" }]);
    expect(issues({ since: "2026-02-01", until: "2026-01-01", tz: "UTC" })).toEqual([
      { field: "until", message: "must not be before since (2026-02-01)" },
    ]);
  });

  it("reads the view of the range, day unless the URL says otherwise, and names a view it does not have", () => {
    const read = readUsagePageQuery(new URLSearchParams("tz=UTC&view=week"), now);
    expect(read).toMatchObject({ ok: true, view: "week", params: { tz: "UTC", view: "week" } });
    expect(readUsagePageQuery({ tz: "UTC", view: "" }, now)).toMatchObject({ ok: true, view: "day" });
    expect(readUsagePageQuery({ tz: "UTC", view: "year" }, now)).toEqual({
      ok: false,
      issues: [{ field: "view", message: "must be one of day, week, month, block" }],
      params: { tz: "UTC", view: "year" },
    });
    expect(usageHref({ view: "block", tz: "UTC", since: "2026-01-01" })).toBe("/usage?since=2026-01-01&tz=UTC&view=block");
  });

  it("keeps what the URL gave when it refuses it, so the form can show it again", () => {
    const read = readUsagePageQuery({ since: "2026-13-01", model: "gpt-5" }, now);
    expect(read).toMatchObject({ ok: false, params: { since: "2026-13-01", model: "gpt-5" } });
  });

  it("ignores the API's groupBy, breakdown and limit: the page picks its own", () => {
    const read = readUsagePageQuery({ groupBy: "week", breakdown: "model", limit: "3", tz: "UTC" }, now);
    expect(read).toEqual({
      ok: true,
      query: { since: "2026-02-09", until: "2026-03-10", timeZone: "UTC" },
      view: "day",
      params: { tz: "UTC" },
    });
  });

  it("writes an address that reads back the same", () => {
    const href = usageHref({ model: "claude-3.5-sonnet", since: "2026-01-01", until: "2026-02-01", project: "/a b&c" });
    expect(href).toBe("/usage?since=2026-01-01&until=2026-02-01&model=claude-3.5-sonnet&project=%2Fa+b%26c");
    const read = readUsagePageQuery(new URLSearchParams(href.split("?")[1]), now);
    expect(read.ok && read.params).toEqual({ since: "2026-01-01", until: "2026-02-01", model: "claude-3.5-sonnet", project: "/a b&c" });
    expect(usageHref({})).toBe("/usage");
  });

  it("spells out the last N days as since/until in a zone", () => {
    expect(lastDays(7, "UTC", now())).toEqual({ since: "2026-03-04", until: "2026-03-10" });
    // Already the 11th in Auckland.
    expect(lastDays(7, "Pacific/Auckland", now())).toEqual({ since: "2026-03-05", until: "2026-03-11" });
  });
});
