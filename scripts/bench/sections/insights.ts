// The activity dashboard's data (GET /api/insights) on the usage section's database (a year of
// sessions, 1,000,000 turns at BENCH_SCALE=1, with tool calls): insightsReport timed in the usage
// child after the backfill (which fills the insights rollups too), then GET /api/insights over HTTP
// from the usage section's server, for the last 30 days and all time, in UTC and in Asia/Kolkata.
import type { InsightsReport } from "../../../lib/domain/insights/insights-report";
import { CONFIG, TARGETS } from "../config";
import { measure, type summarize } from "../measure";
import type { Bench } from "../section";
import { getBody, getJson } from "../server";
import type { UsageFillSummary } from "../usage-fill";

type Timing = ReturnType<typeof summarize>;
type Asked = { since?: string; until?: string; timeZone: string };

/**
 * The ranges measured: 30 days and all time (since opens before the data), up to the fill's last
 * day (its latest sessions run past today, where an open until would stop).
 */
function ranges(until: string): { label: string; query: Record<string, string> }[] {
  const since30 = new Date(Date.parse(until) - 29 * 86_400_000).toISOString().slice(0, 10);
  return [
    { label: "30 days, UTC", query: { since: since30, until, tz: "UTC" } },
    { label: "all time, UTC", query: { since: "2000-01-01", until, tz: "UTC" } },
    { label: "all time, Asia/Kolkata (+5:30)", query: { since: "2000-01-01", until, tz: "Asia/Kolkata" } },
  ];
}

/** In the usage child, after its backfill: insightsReport in the server's code, without HTTP, and the all-time report's tool figures. */
export async function insightsChildTimings(
  until: string,
): Promise<{ reports: Record<string, Timing>; toolCalls: number; toolErrors: number }> {
  const { insightsReport } = await import("../../../lib/db/insights/insights-report");
  const reports: Record<string, Timing> = {};
  for (const { label, query } of ranges(until)) {
    const asked: Asked = { timeZone: query.tz!, ...(query.since && { since: query.since }), ...(query.until && { until: query.until }) };
    const { samples: _samples, ...stats } = await measure(
      `insightsReport ${label}`,
      async () => JSON.stringify(await insightsReport(asked, {}, null)),
      CONFIG.usageIterations,
      { warmup: 3 },
    );
    reports[label] = stats;
  }
  const all = await insightsReport({ since: "2000-01-01", until, timeZone: "UTC" }, {}, null);
  return {
    reports,
    toolCalls: all.tools.reduce((n, tool) => n + tool.calls, 0),
    toolErrors: all.tools.reduce((n, tool) => n + tool.errors, 0),
  };
}

/** The child's timings recorded, its tool figures held to the fill's, then GET /api/insights over HTTP. */
export async function measureInsights(
  bench: Bench,
  label: string,
  baseUrl: string,
  fill: UsageFillSummary,
  child: { reports: Record<string, Timing>; toolCalls: number; toolErrors: number },
): Promise<void> {
  if (child.toolCalls !== fill.toolCalls || child.toolErrors !== fill.toolErrors)
    throw new Error(
      `insights (${label}): the report counts ${child.toolCalls} tool calls and ${child.toolErrors} errors, the fill wrote ${fill.toolCalls} and ${fill.toolErrors}`,
    );
  for (const [range, stats] of Object.entries(child.reports))
    bench.record({ section: "insights", name: `insights, ${label}: insightsReport, ${range}, in the server's code without HTTP`, stats });
  for (const { label: range, query } of ranges(fill.until)) {
    const pathname = `/api/insights?${new URLSearchParams(query)}`;
    const first = await getJson<InsightsReport>(baseUrl, pathname);
    if (first.activity.length === 0) throw new Error(`insights (${label}): ${pathname} has no activity`);
    let bytes = 0;
    const stats = await measure(`insights ${range}`, async () => (bytes = await getBody(baseUrl, pathname)), CONFIG.usageIterations, {
      warmup: 3,
    });
    bench.record({
      section: "insights",
      name: `insights, ${label}: GET /api/insights, ${range}`,
      stats,
      target: { metric: "p50", maxMs: TARGETS.insightsP50 },
      note: `${first.activity.length} active hours, ${first.sessions.count} sessions, ${first.tools.length} tools; ${(bytes / 1024).toFixed(0)} KiB body`,
    });
  }
}
