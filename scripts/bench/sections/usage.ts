// Usage over time (GET /api/usage) over a year of sessions: a database of its own (1,000,000
// turns at BENCH_SCALE=1), the backfill of its usage buckets timed in a child process, then the
// reports over HTTP from a second production server on it, and an append followed by a report.
// The activity dashboard's report is measured on the same database (./insights.ts).
// On SQLite, and on PostgreSQL too with BENCH_POSTGRES_URL (the fill copied there by db:copy's code).
import { rmSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { copyDatabase, settleCopiedDatabase } from "../../../lib/db/engine/copy";
import { createDatabase } from "../../../lib/db/engine/create-client";
import { migrateDatabase } from "../../../lib/db/engine/migrate";
import type { UsageFigures, UsageGroup, UsageReport } from "../../../lib/domain/usage/usage-report";
import { root } from "../../lib.mjs";
import { BENCH_DIR, CONFIG, KEEP_DB, POSTGRES_ADMIN_URL, TARGETS } from "../config";
import { measure, summarize } from "../measure";
import { Bench, fmtBytes, fmtMs, runBenchChild } from "../section";
import { getBody, getJson, postJson, startServer } from "../server";
import { dropPostgresDatabase, freshPostgresDatabase } from "../store";
import { fillUsageDatabase, type UsageFillSummary, type UsageSums } from "../usage-fill";
import { insightsChildTimings, measureInsights } from "./insights";

export const USAGE_CHILD = "--usage-child";
const USAGE_DB = path.join(BENCH_DIR, "usage.db");
const POSTGRES_USAGE_DB = "threadline_bench_usage";

type Range = { since: string; until: string; tz: string };
type Timing = ReturnType<typeof summarize>;

/** What the child measured in the server's code, without HTTP. */
type ChildRun = {
  backfill: { threads: number; turns: number; seconds: number };
  /** A second refresh right after: nothing stale, the check alone. */
  again: { threads: number; turns: number; ms: number };
  buckets: number;
  reports: Record<string, Timing>;
  totals: UsageReport["totals"];
  insights: Awaited<ReturnType<typeof insightsChildTimings>>;
};

/** The reports measured over HTTP: groupBy=day first (the target), then the others the page and the CLI ask for. */
const REQUESTS: { label: string; query: Record<string, string>; target?: boolean }[] = [
  { label: "groupBy=day, UTC", query: { groupBy: "day", tz: "UTC" }, target: true },
  { label: "groupBy=day, Europe/Berlin (two offset changes)", query: { groupBy: "day", tz: "Europe/Berlin" }, target: true },
  { label: "groupBy=day&breakdown=model", query: { groupBy: "day", tz: "UTC", breakdown: "model" } },
  { label: "groupBy=month", query: { groupBy: "month", tz: "UTC" } },
  { label: "groupBy=model", query: { groupBy: "model", tz: "UTC" } },
  { label: "groupBy=thread&limit=50", query: { groupBy: "thread", tz: "UTC", limit: "50" } },
  { label: "groupBy=thread (every session)", query: { groupBy: "thread", tz: "UTC" } },
];

const SUMMED: (keyof UsageSums)[] = ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", "reasoningTokens", "responses"];

/** The report's totals against what the fill wrote; a list of differences (empty when equal). */
function differences(totals: UsageFigures, sums: UsageSums): string[] {
  return SUMMED.filter((field) => totals[field] !== sums[field]).map((field) => `${field} ${totals[field]}, the fill wrote ${sums[field]}`);
}

export async function sectionUsage(bench: Bench): Promise<void> {
  const files = ["", "-wal", "-shm"].map((suffix) => USAGE_DB + suffix);
  for (const file of files) rmSync(file, { force: true });
  const sqliteUrl = `file:${USAGE_DB}`;
  migrateDatabase(sqliteUrl, root);
  console.log(`[bench] usage: filling ${CONFIG.usageThreads} sessions / ${CONFIG.usageTurns} turns over a year...`);
  const fill = fillUsageDatabase(USAGE_DB);
  const days = Math.round((Date.parse(fill.until) - Date.parse(fill.since)) / 86_400_000) + 1;
  bench.record({
    section: "usage",
    name: `usage: fill, ${fill.turns.toLocaleString("en-US")} turns in ${fill.threads.toLocaleString("en-US")} sessions over ${days} days (turns/s)`,
    value: fill.turns / fill.seconds,
    unit: "turns/s",
    note: `${fill.responses.toLocaleString("en-US")} responses with usage (${Object.entries(fill.models)
      .map(([model, n]) => `${model} ${n}`)
      .join(", ")}); ${fill.seconds.toFixed(1)} s; ${fmtBytes(statSync(USAGE_DB).size)}`,
  });
  bench.facts.usageFill = fill;
  const targets: { label: string; url: string }[] = [{ label: "SQLite", url: sqliteUrl }];
  try {
    if (POSTGRES_ADMIN_URL) targets.push({ label: "PostgreSQL", url: await copyToPostgres(bench, POSTGRES_ADMIN_URL, sqliteUrl) });
    for (const target of targets) await measureOn(bench, target.label, target.url, fill);
  } finally {
    if (!KEEP_DB) {
      for (const file of files) rmSync(file, { force: true });
      if (POSTGRES_ADMIN_URL) await dropPostgresDatabase(POSTGRES_ADMIN_URL, POSTGRES_USAGE_DB);
    }
  }
}

/** The fill copied into a fresh PostgreSQL database, as the main fill is (db:copy's code); its URL. */
async function copyToPostgres(bench: Bench, admin: string, from: string): Promise<string> {
  const url = await freshPostgresDatabase(admin, POSTGRES_USAGE_DB);
  migrateDatabase(url, root);
  console.log(`[bench] usage: copying the fill into PostgreSQL (${POSTGRES_USAGE_DB})...`);
  const source = createDatabase(from);
  const destination = createDatabase(url);
  try {
    const started = performance.now();
    const report = await copyDatabase(source, destination);
    await settleCopiedDatabase(destination);
    const seconds = (performance.now() - started) / 1000;
    const rows = report.reduce((sum, table) => sum + table.rows, 0);
    bench.record({
      section: "usage",
      name: "usage: the fill copied into PostgreSQL (rows/s)",
      value: rows / seconds,
      unit: "rows/s",
      note: `${rows} rows in ${seconds.toFixed(1)} s, then VACUUM (ANALYZE)`,
    });
    return url;
  } finally {
    await Promise.all([source.$disconnect(), destination.$disconnect()]);
  }
}

async function measureOn(bench: Bench, label: string, url: string, fill: UsageFillSummary): Promise<void> {
  const range: Range = { since: fill.since, until: fill.until, tz: "UTC" };
  const child = await runBenchChild<ChildRun>([USAGE_CHILD], `usage child (${label})`, {
    ...process.env,
    DATABASE_URL: url,
    CONVERSATION_TIMEOUT_HOURS: "0",
    THREADLINE_SOURCES: "off",
    BENCH_USAGE_RANGE: JSON.stringify(range),
  });
  const wrong = differences(child.totals, fill.sums);
  if (wrong.length > 0)
    throw new Error(`usage (${label}): the year's report after the backfill is not what the fill wrote: ${wrong.join("; ")}`);
  bench.record({
    section: "usage",
    name: `usage, ${label}: backfill of every session's buckets (s)`,
    value: child.backfill.seconds,
    unit: "s",
    note: `${child.backfill.threads} sessions, ${child.backfill.turns} turns summed into ${child.buckets} buckets and the insights rollups (${(child.backfill.turns / child.backfill.seconds).toFixed(0)} turns/s); a refresh right after, nothing stale: ${fmtMs(child.again.ms)} ms; totals equal the fill's`,
  });
  for (const [group, stats] of Object.entries(child.reports)) {
    bench.record({
      section: "usage",
      name: `usage, ${label}: usageReport groupBy=${group}, a year, in the server's code without HTTP`,
      stats,
    });
  }

  const server = await startServer(url, { logFile: path.join(BENCH_DIR, `usage-server-${label.toLowerCase()}.log`) });
  try {
    const pathname = (query: Record<string, string>) =>
      `/api/usage?${new URLSearchParams({ since: range.since, until: range.until, ...query })}`;
    const first = await getJson<UsageReport>(server.baseUrl, pathname(REQUESTS[0]!.query));
    const wrongHttp = differences(first.totals, fill.sums);
    if (wrongHttp.length > 0)
      throw new Error(`usage (${label}): GET /api/usage's totals are not what the fill wrote: ${wrongHttp.join("; ")}`);
    if (!first.totals.unpricedModels.includes("acme-coder-7b"))
      throw new Error(`usage (${label}): the unknown model is not among the unpriced ones: ${first.totals.unpricedModels.join(", ")}`);
    for (const request of REQUESTS) {
      let bytes = 0;
      const stats = await measure(
        `usage ${request.label}`,
        async () => (bytes = await getBody(server.baseUrl, pathname(request.query))),
        CONFIG.usageIterations,
        { warmup: 3 },
      );
      bench.record({
        section: "usage",
        name: `usage, ${label}: GET /api/usage?${request.label}, a year`,
        stats,
        ...(request.target && { target: { metric: "p50" as const, maxMs: TARGETS.usageDayP50 } }),
        note: `${fmtBytes(bytes)} body`,
      });
    }
    await appendThenReport(bench, label, server.baseUrl, pathname({ groupBy: "day", tz: "UTC" }), fill);
    await measureInsights(bench, label, server.baseUrl, fill, child.insights);
  } finally {
    await server.stop();
  }
}

/**
 * A response appended to the longest session through the API, then at once the year's daily
 * report, which first brings that session's buckets up to date (adding the new turn). Each report
 * must count the appended response.
 */
async function appendThenReport(bench: Bench, label: string, baseUrl: string, pathname: string, fill: UsageFillSummary): Promise<void> {
  const appends: number[] = [];
  const reports: number[] = [];
  let expected = (await getJson<UsageReport>(baseUrl, pathname)).totals.responses;
  for (let i = 0; i < CONFIG.usageAppends; i++) {
    const started = performance.now();
    const appended = await postJson(baseUrl, `/api/threads/${fill.appendThreadId}/turns`, {
      role: "assistant",
      content: `bench usage append ${i}`,
      modelProvider: "anthropic",
      modelName: "claude-sonnet-4-5",
      modelMetadata: { usage: { inputTokens: 3, cacheReadTokens: 42_000, cacheWriteTokens: 800, outputTokens: 250 } },
    });
    if (appended.status !== 201) throw new Error(`usage (${label}): append -> ${appended.status}`);
    const between = performance.now();
    const report = await getJson<UsageReport>(baseUrl, pathname);
    reports.push(performance.now() - between);
    appends.push(between - started);
    expected += 1;
    if (report.totals.responses !== expected)
      throw new Error(
        `usage (${label}): after append ${i + 1} the report counts ${report.totals.responses} responses, expected ${expected}`,
      );
  }
  bench.record({
    section: "usage",
    name: `usage, ${label}: GET /api/usage?groupBy=day right after an append to a session of ${fill.appendThreadTurns} turns`,
    stats: summarize(reports),
    target: { metric: "p50", maxMs: TARGETS.usageDayP50 },
    note: `the new turn added to its session's buckets before the report reads them; the append itself p50 ${fmtMs(summarize(appends).p50)} ms; every report counted its append`,
  });
}

/** The child: the backfill, a refresh with nothing stale, and the reports in this process, on DATABASE_URL. */
export async function usageChild(): Promise<void> {
  const range = JSON.parse(process.env.BENCH_USAGE_RANGE ?? "{}") as Range;
  const { refreshUsageBuckets } = await import("../../../lib/db/usage/usage-aggregates");
  const { usageReport } = await import("../../../lib/db/usage/usage-report");
  const { db } = await import("../../../lib/db/engine/client");
  const client = await db();
  let started = performance.now();
  const backfill = await refreshUsageBuckets();
  const backfillSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const again = await refreshUsageBuckets();
  const againMs = performance.now() - started;
  const buckets = await client.usageBucket.count();
  const query = (groupBy: UsageGroup) => ({ groupBy, since: range.since, until: range.until, timeZone: range.tz });
  const reports: Record<string, Timing> = {};
  for (const groupBy of ["day", "model", "thread"] as const) {
    const { samples: _samples, ...stats } = await measure(
      `usageReport ${groupBy}`,
      async () => JSON.stringify(await usageReport(query(groupBy), null)),
      CONFIG.usageIterations,
      { warmup: 3 },
    );
    reports[groupBy] = stats;
  }
  const { totals } = await usageReport(query("day"), null);
  const insights = await insightsChildTimings(range.until);
  const run: ChildRun = {
    backfill: { ...backfill, seconds: backfillSeconds },
    again: { ...again, ms: againMs },
    buckets,
    reports,
    totals,
    insights,
  };
  process.stdout.write(`${JSON.stringify(run)}\n`);
  process.exit(0);
}
