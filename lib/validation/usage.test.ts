import { describe, expect, it } from "vitest";
import { parseOrThrow } from "@/lib/domain/parse";
import { usageQuerySchema } from "./usage";

const now = () => new Date("2026-11-26T10:00:00Z");
const parse = (query: Record<string, string>) => parseOrThrow(usageQuerySchema(now), query);

describe("usage query", () => {
  it("defaults to days grouped over the last 30 days in the asked zone", () => {
    expect(parse({ tz: "UTC" })).toEqual({ groupBy: "day", since: "2026-10-28", until: "2026-11-26", timeZone: "UTC" });
  });

  it("leaves the other end of a half-given range open, for the report to resolve against the data", () => {
    expect(parse({ tz: "UTC", since: "2026-01-01" })).toEqual({ groupBy: "day", timeZone: "UTC", since: "2026-01-01" });
    expect(parse({ tz: "UTC", until: "2026-01-30" })).toEqual({ groupBy: "day", timeZone: "UTC", until: "2026-01-30" });
  });

  it("takes ranges of any length, and leaves both ends open when asked for all time", () => {
    expect(parse({ tz: "UTC", since: "2000-01-01", until: "2100-01-01" })).toMatchObject({ since: "2000-01-01", until: "2100-01-01" });
    expect(parseOrThrow(usageQuerySchema(now, "all-time"), { tz: "UTC" })).toEqual({ groupBy: "day", timeZone: "UTC" });
  });

  it("takes the order, per-thread rows and a token limit", () => {
    expect(parse({ tz: "UTC", groupBy: "thread", perThread: "true", order: "asc" })).toMatchObject({ perThread: true, order: "asc" });
    expect(parse({ tz: "UTC", groupBy: "thread", perThread: "false" })).not.toHaveProperty("perThread");
    expect(parse({ tz: "UTC", groupBy: "block", tokenLimit: "max" })).toMatchObject({ tokenLimit: "max" });
    expect(() => parse({ groupBy: "block", tokenLimit: "-5" })).toThrow(/^tokenLimit: must be a whole number of tokens or max/);
    expect(() => parse({ groupBy: "day", perThread: "true" })).toThrow(/^perThread: applies to sessions/);
  });

  it("keeps filters, the breakdown and a limit", () => {
    expect(
      parse({ tz: "Europe/Berlin", groupBy: "thread", model: "gpt-5", project: "/p", source: "codex", breakdown: "model", limit: "10" }),
    ).toEqual({
      groupBy: "thread",
      since: "2026-10-28",
      until: "2026-11-26",
      timeZone: "Europe/Berlin",
      model: "gpt-5",
      project: "/p",
      source: "codex",
      breakdown: "model",
      limit: 10,
    });
  });

  it("names the parameter that is wrong", () => {
    expect(() => parse({ groupBy: "year" })).toThrow(/^groupBy: must be one of day, week/);
    expect(() => parse({ tz: "Nowhere/Else" })).toThrow(/^tz: is not a time zone/);
    expect(() => parse({ since: "2026-02-29" })).toThrow(/^since: is not a calendar date/);
    expect(() => parse({ since: "2026-03-02", until: "2026-03-01" })).toThrow(/^until: must not be before since/);
    expect(() => parse({ limit: "ten" })).toThrow(/^limit: must be a whole number written in decimal digits/);
    expect(() => parse({ group: "day" })).toThrow(/^group: is not a parameter of usage reports/);
  });
});

describe("a malformed date", () => {
  it("is refused once, for its form", () => {
    const parsed = usageQuerySchema(now).safeParse({ since: "26-1-1" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.message)).toEqual(["must be a date as YYYY-MM-DD"]);
  });
});
