import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { DailyCostChart } from "@/components/usage/daily-cost-chart";
import { ReportFilters } from "@/components/report/report-filters";
import { QueryError, RangeLine } from "@/components/report/report-status";
import { UsageCaveats, UsageTable, UsageTotals } from "@/components/usage/usage-tables";
import { listFacets } from "@/lib/db/threads/threads";
import { usageReport } from "@/lib/db/usage/usage-report";
import { maskSecrets } from "@/lib/domain/secrets/detect";
import { sourceLabel } from "@/lib/domain/display/source";
import { dailyChart, formatDay, modelLabel } from "@/lib/domain/usage/usage-chart";
import { serverTimeZone } from "@/lib/domain/usage/usage-period";
import type { UsageRow } from "@/lib/domain/usage/usage-report";
import { lastDays, reportHref, requestedZone, type ReportPageParams } from "@/lib/queries/report-url";
import { readUsagePageQuery, type UsagePageQuery } from "@/lib/queries/usage-url";

export const metadata: Metadata = { title: "Usage" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** How many of the costliest threads the page lists. */
const TOP_THREADS = 10;

/**
 * Usage over time: what the range's model responses cost, per day and model (the chart), per
 * model, project and source, and its costliest threads. The range and filters are the URL's, under
 * GET /api/usage's parameter names; a parameter the API would refuse is named on the page.
 */
export default async function UsagePage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const now = new Date();
  const read = readUsagePageQuery(await searchParams, () => now);
  const serverZone = serverTimeZone();
  const zone = requestedZone(read.params);
  const quickRanges = [7, 30, 90].map((days) => ({ label: `Last ${days} days`, ...lastDays(days, zone, now) }));
  const facets = await listFacets();
  const filters = (
    <ReportFilters
      path="/usage"
      name="Usage"
      params={read.params}
      range={read.ok ? read.query : null}
      asked={read.ok ? read.query : null}
      zone={zone}
      serverZone={serverZone}
      facets={facets}
      quickRanges={quickRanges}
    />
  );
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Usage</h1>
        {read.ok && <RangeLine query={read.query} testId="usage-range" />}
      </div>
      {filters}
      {read.ok ? (
        <UsageReportView query={read.query} params={read.params} />
      ) : (
        <QueryError path="/usage" report="a usage report" issues={read.issues} testId="usage-error" />
      )}
    </div>
  );
}

async function UsageReportView({ query, params }: Readonly<{ query: UsagePageQuery; params: ReportPageParams }>) {
  // The first report brings the stored aggregates up to date; the others then only read them.
  const byDay = await usageReport({ ...query, groupBy: "day", breakdown: "model" });
  const [byModel, byProject, bySource, byThread] = await Promise.all([
    usageReport({ ...query, groupBy: "model" }),
    usageReport({ ...query, groupBy: "project" }),
    usageReport({ ...query, groupBy: "source" }),
    usageReport({ ...query, groupBy: "thread", limit: TOP_THREADS }),
  ]);
  const { totals } = byDay;
  if (totals.responses === 0) return <EmptyUsage query={query} tz={params.tz} />;

  // Row links keep the range spelled out, so a filtered view covers the same days.
  const keep: ReportPageParams = { ...params, since: query.since, until: query.until };
  const filterLink = (key: "model" | "project" | "source", value: string, text: string) =>
    value === "" || params[key] === value ? (
      <span className="break-all">{text}</span>
    ) : (
      <Link href={reportHref("/usage", { ...keep, [key]: value })} className="break-all text-indigo-700 hover:underline">
        {text}
      </Link>
    );
  const chartLabel = `Daily cost by model, ${formatDay(query.since, true)} to ${formatDay(query.until, true)}`;
  return (
    <>
      <UsageTotals totals={totals} />
      <UsageCaveats totals={totals} byModel={byModel.rows} />
      <section aria-labelledby="daily-title" className="rounded-lg border border-zinc-200 bg-white p-3 sm:p-4">
        <h2 id="daily-title" className="mb-2 text-lg font-semibold tracking-tight">
          Daily cost
        </h2>
        <DailyCostChart chart={dailyChart(byDay.rows, query.since, query.until)} label={chartLabel} />
      </section>
      <UsageTable
        title="By model"
        keyLabel="Model"
        rows={byModel.rows}
        testId="by-model"
        name={(row) => filterLink("model", row.key, modelLabel(row.key))}
      />
      <UsageTable
        title="Most expensive sessions"
        keyLabel="Session"
        rows={byThread.rows}
        testId="by-thread"
        sessions
        name={(row) => <ThreadName row={row} />}
        footer={
          <p className="mt-1 text-xs text-zinc-600">
            {byThread.rows.length === TOP_THREADS
              ? `The ${TOP_THREADS} costliest sessions of the ${totals.threads} threads in the range. `
              : ""}
            A session is a thread with its sub-agent threads and compaction runs, counted once, as the thread list shows it.
          </p>
        }
      />
      <UsageTable
        title="By project"
        keyLabel="Project"
        rows={byProject.rows}
        testId="by-project"
        name={(row) => filterLink("project", row.key, row.key || "(no project)")}
      />
      <UsageTable
        title="By source"
        keyLabel="Source"
        rows={bySource.rows}
        testId="by-source"
        name={(row) => filterLink("source", row.key, row.key ? sourceLabel(row.key) : "(no source)")}
      />
    </>
  );
}

/** A thread's title (conversation content: text, secrets masked), or its id when it has none. */
function ThreadName({ row }: Readonly<{ row: UsageRow }>) {
  return (
    <Link href={`/threads/${encodeURIComponent(row.key)}`} className="text-indigo-700 hover:underline">
      {row.title ? maskSecrets(row.title) : <span className="font-mono break-all">{row.key}</span>}
    </Link>
  );
}

function EmptyUsage({ query, tz }: Readonly<{ query: UsagePageQuery; tz: string | undefined }>) {
  const filtered = Boolean(query.model || query.project || query.source);
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white p-8 text-center text-zinc-600" data-testid="usage-empty">
      <p className="font-medium text-zinc-800">
        No model responses with usage {filtered ? "match these filters" : "in this range"}, {formatDay(query.since, true)} to{" "}
        {formatDay(query.until, true)}.
      </p>
      <p className="mt-2 text-sm">
        {filtered ? (
          <>
            Try{" "}
            <Link href={reportHref("/usage", { since: query.since, until: query.until, tz })} className="text-indigo-700 underline">
              all models, projects and sources
            </Link>{" "}
            or a longer range.
          </>
        ) : (
          <>
            Costs come from the sessions Threadline has: import your agents&apos; sessions on the{" "}
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
