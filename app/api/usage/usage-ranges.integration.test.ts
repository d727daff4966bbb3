/**
 * Integration test (real database) of GET /api/usage's ranges and 5-hour blocks: a range of any
 * length answers the days that hold data, an open end is the data's first day or today, a range
 * outside the data answers nothing; blocks start at their first response's hour and last 5 hours,
 * honour the range, carry the token limit, and the one still open has a burn rate.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as usageRoute } from "@/app/api/usage/route";
import { usageReport } from "@/lib/db/usage/usage-report";
import type { UsageReport } from "@/lib/domain/usage/usage-report";
import { json, jsonRequest } from "@/lib/testing/api";
import { api } from "@/lib/testing/integration";

async function usage(query: Record<string, string>): Promise<UsageReport> {
  const response = await usageRoute(jsonRequest("GET", `/api/usage?${new URLSearchParams(query)}`));
  expect(response.status, await response.clone().text()).toBe(200);
  return json<UsageReport>(response);
}

/** The responses, one thread: input tokens double each time, so each block's sum names its responses. */
const RESPONSES = [
  { at: "2026-03-10T10:15:00.000Z", model: "claude-sonnet-4-5", input: 1000 }, // block 10:00-15:00
  { at: "2026-03-10T14:59:00.000Z", model: "claude-haiku-4-5", input: 2000 }, // the same block
  { at: "2026-03-10T15:00:00.000Z", model: "claude-sonnet-4-5", input: 4000 }, // 5 hours after its start: the next block
  { at: "2026-03-12T08:30:00.000Z", model: "claude-sonnet-4-5", input: 8000 }, // after a gap
  { at: "2026-04-02T23:30:00.000Z", model: "claude-sonnet-4-5", input: 16000 }, // block 23:00-04:00, into the next day
  { at: "2026-04-03T00:30:00.000Z", model: "claude-haiku-4-5", input: 32000 },
];

beforeAll(async () => {
  const turns = RESPONSES.flatMap((r, i) => [
    { id: randomUUID(), role: "user", content: `question ${i}`, timestamp: r.at },
    {
      id: randomUUID(),
      role: "assistant",
      content: `answer ${i}`,
      timestamp: r.at,
      modelProvider: "anthropic",
      modelName: r.model,
      modelMetadata: { usage: { input_tokens: r.input, output_tokens: r.input / 10 } },
    },
  ]);
  const thread = {
    id: randomUUID(),
    title: "ranges and blocks",
    toolName: "chat",
    source: "api",
    createdAt: RESPONSES[0]!.at,
    lastUpdatedAt: RESPONSES.at(-1)!.at,
    turns,
  };
  const imported = await api.importDocuments({ format: "threadline/v1", threads: [thread] });
  expect(imported.status, await imported.clone().text()).toBe(201);
});

const inputsBy = (report: UsageReport) => Object.fromEntries(report.rows.map((row) => [row.key, row.inputTokens]));

describe("GET /api/usage ranges", () => {
  it("answers a range of a century with the days that hold data", async () => {
    const report = await usage({ since: "2000-01-01", until: "2100-01-01", tz: "UTC" });
    expect([report.since, report.until]).toEqual(["2026-03-10", "2026-04-03"]);
    expect(inputsBy(report)).toEqual({ "2026-03-10": 7000, "2026-03-12": 8000, "2026-04-02": 16000, "2026-04-03": 32000 });
    expect(report.totals.inputTokens).toBe(63000);
  });

  it("takes since alone as since until today, and until alone as from the data's first day", async () => {
    const since = await usage({ since: "2026-03-11", tz: "UTC", groupBy: "month" });
    expect([since.since, since.until]).toEqual(["2026-03-11", "2026-04-03"]);
    expect(inputsBy(since)).toEqual({ "2026-03": 8000, "2026-04": 48000 });
    const until = await usage({ until: "2026-03-12", tz: "UTC" });
    expect([until.since, until.until]).toEqual(["2026-03-10", "2026-03-12"]);
    expect(until.totals.inputTokens).toBe(15000);
    // In Los Angeles the last response ran on 2 April: the data's days are the zone's.
    const inLosAngeles = await usage({ since: "2026-01-01", tz: "America/Los_Angeles" });
    expect(inLosAngeles.until).toBe("2026-04-02");
  });

  it("answers a range outside the data with no rows, the range as asked", async () => {
    const report = await usage({ since: "2027-01-01", until: "2027-02-01", tz: "UTC" });
    expect([report.since, report.until, report.rows]).toEqual(["2027-01-01", "2027-02-01", []]);
    expect(report.totals).toMatchObject({ responses: 0, costUsd: 0 });
  });
});

describe("GET /api/usage?groupBy=block", () => {
  it("starts a block at its first response's hour and the next at the first response 5 hours after", async () => {
    const report = await usage({ groupBy: "block", tz: "UTC", since: "2026-01-01" });
    expect(report.rows.map((row) => [row.start, row.end, row.inputTokens, row.responses])).toEqual([
      ["2026-03-10T10:00:00.000Z", "2026-03-10T15:00:00.000Z", 3000, 2],
      ["2026-03-10T15:00:00.000Z", "2026-03-10T20:00:00.000Z", 4000, 1],
      ["2026-03-12T08:00:00.000Z", "2026-03-12T13:00:00.000Z", 8000, 1],
      ["2026-04-02T23:00:00.000Z", "2026-04-03T04:00:00.000Z", 48000, 2],
    ]);
    expect(report.rows[0]).toMatchObject({
      key: "2026-03-10T10:00:00.000Z",
      lastResponseAt: "2026-03-10T14:59:00.000Z",
      isActive: false,
      models: ["claude-sonnet-4-5", "claude-haiku-4-5"],
      threads: 1,
    });
    expect(report.rows.every((row) => row.burnRate === undefined && row.projection === undefined)).toBe(true);
    expect(report.totals.inputTokens).toBe(63000);
  });

  it("keeps the responses of the range's days, lists them newest first with order=desc and marks blocks over the token limit", async () => {
    const report = await usage({
      groupBy: "block",
      tz: "UTC",
      since: "2026-03-11",
      until: "2026-04-02",
      order: "desc",
      tokenLimit: "10000",
    });
    expect(report.rows.map((row) => [row.start, row.inputTokens, row.overTokenLimit])).toEqual([
      ["2026-04-02T23:00:00.000Z", 16000, true],
      ["2026-03-12T08:00:00.000Z", 8000, false],
    ]);
    expect(report.tokenLimit).toBe(10000);
    // max: the most tokens (input, output, cache) any completed block used, the last one's 48,000 + 4,800.
    const max = await usage({ groupBy: "block", tz: "UTC", since: "2026-01-01", tokenLimit: "max" });
    expect(max.tokenLimit).toBe(52800);
    expect(max.rows.map((row) => row.overTokenLimit)).toEqual([false, false, false, false]);
  });

  it("gives the block still open its burn rate and projection", async () => {
    const report = await usageReport({ groupBy: "block", timeZone: "UTC" }, null, { now: new Date("2026-04-03T01:00:00Z") });
    const active = report.rows.at(-1)!;
    expect(active).toMatchObject({ isActive: true, lastResponseAt: "2026-04-03T00:30:00.000Z" });
    expect(report.rows.slice(0, -1).every((row) => !row.isActive)).toBe(true);
    // 52,800 tokens between 23:30 and 00:30; 180 minutes left at 01:00.
    expect(active.burnRate!.tokensPerMinute).toBeCloseTo(52800 / 60, 9);
    expect(active.burnRate!.costUsdPerMinute).toBeCloseTo(active.costUsd / 60, 12);
    expect(active.projection).toMatchObject({ totalTokens: 52800 + (52800 / 60) * 180, remainingMinutes: 180 });
  });
});
