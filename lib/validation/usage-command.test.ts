import { describe, expect, it } from "vitest";
import { parseUsageCommand } from "./usage-command";

const now = () => new Date("2026-03-15T12:00:00Z");

describe("parseUsageCommand", () => {
  it("maps each command to the API's groupBy, daily by default", () => {
    const groups = Object.fromEntries(
      ["daily", "weekly", "monthly", "session", "blocks", "model", "provider", "project", "source"].map((command) => {
        const parsed = parseUsageCommand([command], { tz: "UTC" }, now);
        return [command, parsed.ok ? parsed.query.groupBy : parsed.error];
      }),
    );
    expect(groups).toEqual({
      daily: "day",
      weekly: "week",
      monthly: "month",
      session: "thread",
      blocks: "block",
      model: "model",
      provider: "provider",
      project: "project",
      source: "source",
    });
    // Without dates, all time (ccusage's default): both ends open, for the report to resolve.
    expect(parseUsageCommand([], { tz: "UTC" }, now)).toEqual({
      ok: true,
      command: "daily",
      json: false,
      query: { groupBy: "day", timeZone: "UTC" },
    });
  });

  it("takes ccusage's short flags and --timezone", () => {
    const parsed = parseUsageCommand(["blocks"], { since: "20260101", until: "20260107", timezone: "Asia/Tokyo", json: true }, now);
    expect(parsed).toEqual({
      ok: true,
      command: "blocks",
      json: true,
      query: { groupBy: "block", since: "2026-01-01", until: "2026-01-07", timeZone: "Asia/Tokyo" },
    });
    expect(parseUsageCommand([], { since: "20260101" }, now)).toMatchObject({ ok: true, query: { since: "2026-01-01" } });
    expect(parseUsageCommand([], { since: "20260101" }, now)).not.toHaveProperty("query.until");
  });

  it("takes --order, --threads and --token-limit", () => {
    const query = (positionals: string[], options: Parameters<typeof parseUsageCommand>[1]) => {
      const parsed = parseUsageCommand(positionals, { tz: "UTC", ...options }, now);
      return parsed.ok ? parsed.query : parsed.error;
    };
    expect(query(["daily"], { order: "desc" })).toEqual({ groupBy: "day", timeZone: "UTC", order: "desc" });
    expect(query(["session"], { threads: true })).toEqual({ groupBy: "thread", timeZone: "UTC", perThread: true });
    expect(query(["blocks"], { "token-limit": "max" })).toEqual({ groupBy: "block", timeZone: "UTC", tokenLimit: "max" });
    expect(query(["blocks"], { "token-limit": "500000" })).toEqual({ groupBy: "block", timeZone: "UTC", tokenLimit: 500_000 });
  });

  it("passes every option through the API's schema", () => {
    const parsed = parseUsageCommand(
      ["monthly"],
      {
        since: "2026-01-01",
        until: "2026-03-31",
        tz: "Europe/Berlin",
        source: "import:codex",
        project: "/home/dev/app",
        model: "gpt-5",
        limit: "20",
        breakdown: true,
        json: true,
      },
      now,
    );
    expect(parsed).toEqual({
      ok: true,
      command: "monthly",
      json: true,
      query: {
        groupBy: "month",
        since: "2026-01-01",
        until: "2026-03-31",
        timeZone: "Europe/Berlin",
        source: "import:codex",
        project: "/home/dev/app",
        model: "gpt-5",
        limit: 20,
        breakdown: "model",
      },
    });
  });

  it("takes ccusage's compact dates too", () => {
    const parsed = parseUsageCommand(["daily"], { since: "20260101", until: "20260107", tz: "UTC" }, now);
    expect(parsed.ok && [parsed.query.since, parsed.query.until]).toEqual(["2026-01-01", "2026-01-07"]);
  });

  it.each([
    [["daily"], { since: "2026-1-5" }, "--since: must be a date as YYYY-MM-DD"],
    [["daily"], { since: "20261305" }, "--since: is not a calendar date"],
    [["daily"], { until: "yesterday" }, "--until: must be a date as YYYY-MM-DD"],
    [["daily"], { since: "2026-03-10", until: "2026-03-01" }, "--until: must not be before since (2026-03-10)"],
    [["daily"], { order: "newest" }, "--order: must be one of asc, desc"],
    [["daily"], { threads: true }, "--threads: applies to sessions (groupBy=thread, the session command) only"],
    [["daily"], { "token-limit": "max" }, "--token-limit: applies to 5-hour blocks (groupBy=block, the blocks command) only"],
    [["blocks"], { "token-limit": "lots" }, "--token-limit: must be a whole number of tokens or max"],
    [["blocks"], { "token-limit": "0" }, "--token-limit: must be at least 1"],
    [["daily"], { tz: "UTC", timezone: "Europe/Berlin" }, "--tz and --timezone name the same option: give one"],
    [["daily"], { tz: "Mars/Olympus" }, "--tz: is not a time zone this server knows (use an IANA name such as Europe/Berlin or UTC)"],
    [["daily"], { limit: "ten" }, "--limit: must be a whole number written in decimal digits"],
    [["daily"], { limit: "0" }, "--limit: must be at least 1"],
    [["daily"], { limit: "2.5" }, "--limit: must be a whole number written in decimal digits"],
    [["daily"], { limit: "1e2" }, "--limit: must be a whole number written in decimal digits"],
    [["daily"], { model: "m".repeat(1001) }, "--model: must be at most 1000 characters"],
    [["hourly"], {}, 'unknown command "hourly": use one of daily, weekly, monthly, session, model, provider, project, source, blocks'],
    [["daily", "monthly"], {}, "one command at a time, got 2: daily monthly"],
  ])("%j %j is refused: %s", (positionals, options, error) => {
    expect(parseUsageCommand(positionals, options, now)).toEqual({ ok: false, error });
  });
});
