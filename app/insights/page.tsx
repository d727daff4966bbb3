import type { Metadata } from "next";
import { headers } from "next/headers";
import { readerFrom } from "@/lib/auth/reader";
import Link from "next/link";
import { connection } from "next/server";
import { InsightsView } from "@/components/insights/insights-view";
import { ReportFilters, type QuickRange } from "@/components/report/report-filters";
import { QueryError, RangeLine } from "@/components/report/report-status";
import { insightsReport } from "@/lib/db/insights/insights-report";
import { listFacets } from "@/lib/db/threads/threads";
import type { InsightsReport } from "@/lib/domain/insights/insights-report";
import { formatDay } from "@/lib/domain/usage/usage-chart";
import { serverTimeZone } from "@/lib/domain/usage/usage-period";
import { readInsightsPageQuery } from "@/lib/queries/insights-url";
import { lastDays, reportHref, requestedZone } from "@/lib/queries/report-url";

export const metadata: Metadata = { title: "Insights" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * When the agents worked, which tools they leaned on and failed with, how sessions went, and the
 * models and agents side by side, over a range of days. The range and filters are the URL's,
 * under GET /api/insights's parameter names, read with its schema; the report is the one the API
 * answers for the same address (lib/db/insights/insights-report.ts), its range cut to the data's days.
 */
export default async function InsightsPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const now = new Date();
  const read = readInsightsPageQuery(await searchParams, () => now);
  const serverZone = serverTimeZone();
  const zone = requestedZone(read.params);
  const today = lastDays(1, zone, now).until;
  const quickRanges: QuickRange[] = [
    ...[7, 30, 90].map((days) => ({ label: `Last ${days} days`, ...lastDays(days, zone, now) })),
    { label: "All days", until: today },
  ];
  const reader = await readerFrom(await headers());
  const [facets, report] = await Promise.all([
    listFacets(reader),
    read.ok ? insightsReport(read.query.range, read.query.filters, reader, now) : null,
  ]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Insights</h1>
        {report && (
          <RangeLine query={{ since: report.since, until: report.until, timeZone: report.tz, ...report.filters }} testId="insights-range" />
        )}
      </div>
      <ReportFilters
        path="/insights"
        name="Insights"
        params={read.params}
        range={report && { since: report.since, until: report.until, timeZone: report.tz }}
        asked={read.ok ? { since: read.query.range.since, until: read.query.range.until ?? today } : null}
        zone={zone}
        serverZone={serverZone}
        facets={facets}
        quickRanges={quickRanges}
      />
      {!read.ok ? (
        <QueryError path="/insights" report="an insights report" issues={read.issues} testId="insights-error" />
      ) : report && report.activity.length > 0 ? (
        <InsightsView report={report} />
      ) : (
        report && <EmptyInsights report={report} tz={read.params.tz} />
      )}
    </div>
  );
}

function EmptyInsights({ report, tz }: Readonly<{ report: InsightsReport; tz: string | undefined }>) {
  const { filters } = report;
  const filtered = Boolean(filters.model || filters.project || filters.source);
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white p-8 text-center text-zinc-600" data-testid="insights-empty">
      <p className="font-medium text-zinc-800">
        No sessions {filtered ? "match these filters" : "in this range"}, {formatDay(report.since, true)} to {formatDay(report.until, true)}
        .
      </p>
      <p className="mt-2 text-sm">
        {filtered ? (
          <>
            Try{" "}
            <Link href={reportHref("/insights", { since: report.since, until: report.until, tz })} className="text-indigo-700 underline">
              all agents, projects and models
            </Link>{" "}
            or a longer range.
          </>
        ) : (
          <>
            Insights come from the sessions Threadline has: import your agents&apos; sessions on the{" "}
            <Link href="/import" className="text-indigo-700 underline">
              Import
            </Link>{" "}
            page (or follow their folders, see{" "}
            <Link href="/sources" className="text-indigo-700 underline">
              Sources
            </Link>
            ), or pick a range that holds them.
          </>
        )}
      </p>
    </div>
  );
}
