import type { Metadata } from "next";
import { headers } from "next/headers";
import { readerFrom } from "@/lib/auth/reader";
import type { Reader } from "@/lib/domain/access";
import Link from "next/link";
import { connection } from "next/server";
import { Suspense } from "react";
import { ReportFilters } from "@/components/report/report-filters";
import { QueryError, RangeLine } from "@/components/report/report-status";
import { PeriodSection } from "@/components/usage/period-section";
import { UsageSkeleton } from "@/components/usage/usage-skeleton";
import { UsageCaveats, UsageTable, UsageTotals } from "@/components/usage/usage-tables";
import { UsageViewNav } from "@/components/usage/usage-view-nav";
import { listFacets } from "@/lib/db/threads/threads";
import { filledRange, usageReport } from "@/lib/db/usage/usage-report";
import { maskSecrets } from "@/lib/domain/secrets/detect";
import { machineLabel, sourceLabel } from "@/lib/domain/display/source";
import { formatDay, modelLabel } from "@/lib/domain/usage/usage-chart";
import { csvFilename, usageCsv, type CsvTable } from "@/lib/domain/usage/usage-csv";
import { serverTimeZone, type UsageRange } from "@/lib/domain/usage/usage-period";
import type { UsageRow } from "@/lib/domain/usage/usage-report";
import type { UsageView } from "@/lib/domain/usage/usage-views";
import { lastDays, reportHref, requestedZone, type ReportPageParams } from "@/lib/queries/report-url";
import { readUsagePageQuery, usageHref, type UsagePageQuery } from "@/lib/queries/usage-url";

export const metadata: Metadata = { title: "Usage" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** How many of the costliest threads the page lists. */
const TOP_THREADS = 10;

/**
 * Usage over time: what the range's model responses cost per day, week, month or 5-hour block (the
 * view: a chart by model and a sortable table), per model, project and source, and its costliest
 * threads, each table also as CSV. The range and filters are the URL's, under GET /api/usage's
 * parameter names, with `view`; a parameter the page would refuse is named on it.
 */
export default async function UsagePage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const now = new Date();
  const read = readUsagePageQuery(await searchParams, () => now);
  const reader = await readerFrom(await headers());
  // An open end of the range is the first day with data or today, as the reports fill it.
  const query: ShownQuery | null = read.ok ? { ...read.query, ...(await filledRange(read.query, reader, now)) } : null;
  const serverZone = serverTimeZone();
  const zone = requestedZone(read.params);
  const quickRanges = [7, 30, 90].map((days) => ({ label: `Last ${days} days`, ...lastDays(days, zone, now) }));
  const facets = await listFacets(reader);
  const filters = (
    <ReportFilters
      path="/usage"
      name="Usage"
      params={read.params}
      range={query}
      asked={query}
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
        {query && <RangeLine query={query} testId="usage-range" />}
      </div>
      {filters}
      {read.ok && query ? (
        <>
          <UsageViewNav params={read.params} view={read.view} />
          {/* Keyed by the address: another view or range shows the skeleton while its reports are read. */}
          <Suspense key={usageHref(read.params)} fallback={<UsageSkeleton />}>
            <UsageReportView query={query} view={read.view} params={read.params} now={now} reader={reader} />
          </Suspense>
        </>
      ) : (
        !read.ok && <QueryError path="/usage" report="a usage report" issues={read.issues} testId="usage-error" />
      )}
    </div>
  );
}

/** The page's query with its range's open ends filled. */
type ShownQuery = UsagePageQuery & UsageRange;

async function UsageReportView({
  query,
  view,
  params,
  now,
  reader,
}: Readonly<{ query: ShownQuery; view: UsageView; params: ReportPageParams; now: Date; reader: Reader }>) {
  // The first report brings the stored aggregates up to date; the others then only read them.
  const byPeriod = await usageReport({ ...query, groupBy: view, breakdown: "model" }, reader);
  const [byModel, byProject, bySource, byThread] = await Promise.all([
    usageReport({ ...query, groupBy: "model" }, reader),
    usageReport({ ...query, groupBy: "project" }, reader),
    usageReport({ ...query, groupBy: "source" }, reader),
    usageReport({ ...query, groupBy: "thread", limit: TOP_THREADS }, reader),
  ]);
  // With sign-in on: whose the figures are, and which machines pushed them (an admin's: the whole team's).
  const [byPerson, byMachine] = reader
    ? await Promise.all([usageReport({ ...query, groupBy: "person" }, reader), usageReport({ ...query, groupBy: "machine" }, reader)])
    : [null, null];
  const { totals } = byPeriod;
  if (totals.responses === 0) return <EmptyUsage query={query} params={params} view={view} />;

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
  const csv = (table: CsvTable, rows: UsageRow[], title?: (row: UsageRow) => string | null) => ({
    text: usageCsv(table, rows, title),
    filename: csvFilename(table, query.since, query.until),
  });
  return (
    <>
      <UsageTotals totals={totals} />
      <UsageCaveats totals={totals} byModel={byModel.rows} />
      <PeriodSection view={view} rows={byPeriod.rows} totals={totals} range={query} now={now} />
      <UsageTable
        title="By model"
        keyLabel="Model"
        rows={byModel.rows}
        testId="by-model"
        csv={csv("model", byModel.rows)}
        name={(row) => filterLink("model", row.key, modelLabel(row.key))}
      />
      <UsageTable
        title="Most expensive sessions"
        keyLabel="Session"
        rows={byThread.rows}
        testId="by-thread"
        csv={csv("session", byThread.rows, (row) => (row.title ? maskSecrets(row.title) : null))}
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
      {byPerson && (
        <UsageTable
          title="By person"
          keyLabel="Person"
          rows={byPerson.rows}
          testId="by-person"
          csv={csv("person", byPerson.rows)}
          name={(row) => <span className="break-all">{row.title}</span>}
        />
      )}
      {byMachine && byMachine.rows.some((row) => row.key !== "") && (
        <UsageTable
          title="By machine"
          keyLabel="Machine"
          rows={byMachine.rows}
          testId="by-machine"
          csv={csv("machine", byMachine.rows)}
          name={(row) => <span className="break-all">{machineLabel(row.key)}</span>}
        />
      )}
      <UsageTable
        title="By project"
        keyLabel="Project"
        rows={byProject.rows}
        testId="by-project"
        csv={csv("project", byProject.rows)}
        name={(row) => filterLink("project", row.key, row.key || "(no project)")}
      />
      <UsageTable
        title="By source"
        keyLabel="Source"
        rows={bySource.rows}
        testId="by-source"
        csv={csv("source", bySource.rows)}
        name={(row) => filterLink("source", row.key, row.key ? sourceLabel(row.key) : "(no source)")}
      />
    </>
  );
}

/** A thread's title (conversation content: text, secrets masked), or its id when it has none. */
function ThreadName({ row }: Readonly<{ row: UsageRow }>) {
  // An admin's team figures: a thread they may not read is counted, not named.
  if (row.private) return <span className="text-zinc-600">A private thread</span>;
  return (
    <Link href={`/threads/${encodeURIComponent(row.key)}`} className="text-indigo-700 hover:underline">
      {row.title ? maskSecrets(row.title) : <span className="font-mono break-all">{row.key}</span>}
    </Link>
  );
}

function EmptyUsage({ query, params, view }: Readonly<{ query: ShownQuery; params: ReportPageParams; view: UsageView }>) {
  const filtered = Boolean(query.model || query.project || query.source);
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white p-8 text-center text-zinc-600" data-testid="usage-empty">
      <p className="font-medium text-zinc-800">
        {view === "block" && "No 5-hour blocks: "}No model responses with usage {filtered ? "match these filters" : "in this range"},{" "}
        {formatDay(query.since, true)} to {formatDay(query.until, true)}.
      </p>
      <p className="mt-2 text-sm">
        {filtered ? (
          <>
            Try{" "}
            <Link
              href={usageHref({ since: query.since, until: query.until, tz: params.tz, view: params.view })}
              className="text-indigo-700 underline"
            >
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
