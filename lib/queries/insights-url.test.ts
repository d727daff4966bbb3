import { describe, expect, it } from "vitest";
import { readInsightsPageQuery } from "./insights-url";
import { reportHref } from "./report-url";

const now = () => new Date("2026-03-10T12:00:00Z");

describe("the /insights page's URL", () => {
  it("reads GET /api/insights's names, the same from a page's searchParams and from the address bar", () => {
    const fromServer = readInsightsPageQuery(
      { since: "2026-01-01", until: "2026-02-01", tz: "Europe/Berlin", model: "", source: "import:codex" },
      now,
    );
    const fromBrowser = readInsightsPageQuery(
      new URLSearchParams("since=2026-01-01&until=2026-02-01&tz=Europe%2FBerlin&model=&source=import%3Acodex"),
      now,
    );
    expect(fromServer).toEqual({
      ok: true,
      query: { range: { since: "2026-01-01", until: "2026-02-01", timeZone: "Europe/Berlin" }, filters: { source: "import:codex" } },
      params: { since: "2026-01-01", until: "2026-02-01", tz: "Europe/Berlin", source: "import:codex" },
    });
    expect(fromBrowser).toEqual(fromServer);
  });

  it("leaves the ends open as the API does: none is the last 30 days, until alone starts at the data's first day", () => {
    const none = readInsightsPageQuery({ tz: "UTC" }, now);
    expect(none.ok && none.query.range).toEqual({ since: "2026-02-09", timeZone: "UTC" });
    const untilOnly = readInsightsPageQuery({ until: "2026-03-10", tz: "UTC", since: "" }, now);
    expect(untilOnly.ok && untilOnly.query.range).toEqual({ until: "2026-03-10", timeZone: "UTC" });
  });

  it("names each parameter it refuses, keeping what the URL gave for the form", () => {
    const issues = (params: Record<string, string | string[]>) => {
      const read = readInsightsPageQuery(params, now);
      return read.ok ? [] : read.issues;
    };
    expect(issues({ since: "2026-02-30" })).toEqual([{ field: "since", message: "is not a calendar date" }]);
    expect(issues({ tz: "Mars/Olympus" })[0]?.field).toBe("tz");
    expect(issues({ groupBy: "day" })).toEqual([
      { field: "groupBy", message: "is not a parameter of this page (it takes since, until, tz, model, project, source)" },
    ]);
    expect(issues({ source: ["a", "b"] })).toEqual([{ field: "source", message: "is given 2 times: give it once" }]);
    expect(issues({ since: "2026-02-01", until: "2026-01-01" })).toEqual([
      { field: "until", message: "must not be before since (2026-02-01)" },
    ]);
    expect(readInsightsPageQuery({ since: "x", model: "gpt-5" }, now)).toMatchObject({ ok: false, params: { since: "x", model: "gpt-5" } });
  });

  it("writes an address that reads back the same", () => {
    const href = reportHref("/insights", { source: "import:claude-code", until: "2026-02-01", project: "/a b&c" });
    expect(href).toBe("/insights?until=2026-02-01&project=%2Fa+b%26c&source=import%3Aclaude-code");
    const read = readInsightsPageQuery(new URLSearchParams(href.split("?")[1]), now);
    expect(read.ok && read.params).toEqual({ until: "2026-02-01", project: "/a b&c", source: "import:claude-code" });
    expect(reportHref("/insights", {})).toBe("/insights");
  });
});
