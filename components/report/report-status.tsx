import Link from "next/link";
import type { FieldIssue } from "@/lib/domain/parse";
import { sourceLabel } from "@/lib/domain/display/source";
import type { InsightsQuery } from "@/lib/domain/insights/insights-report";
import { formatDay } from "@/lib/domain/usage/usage-chart";
import type { ReportPath } from "@/lib/queries/report-url";

/** "1 Jan 2026 to 31 Jan 2026, days in UTC; model gpt-5, agent Codex": what a report page covers. */
export function RangeLine({ query, testId }: Readonly<{ query: InsightsQuery; testId: string }>) {
  const parts = [
    query.model && `model ${query.model}`,
    query.project && `project ${query.project}`,
    query.source && `agent ${sourceLabel(query.source)}`,
  ].filter(Boolean);
  return (
    <p className="mt-1 text-sm break-words text-zinc-600" data-testid={testId}>
      {formatDay(query.since, true)} to {formatDay(query.until, true)}, days in {query.timeZone}
      {parts.length > 0 && `; ${parts.join(", ")}`}
    </p>
  );
}

/** The parameters a report page's URL gave that its API refuses, each named, with a way back to the page's default range. */
export function QueryError({
  path,
  report,
  issues,
  testId,
}: Readonly<{ path: ReportPath; report: string; issues: FieldIssue[]; testId: string }>) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900" data-testid={testId}>
      <h2 className="font-semibold">This address does not describe {report}</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {issues.map((issue) => (
          <li key={`${issue.field}:${issue.message}`} className="break-words">
            <code className="rounded bg-red-100 px-1 font-mono break-all">{issue.field}</code> {issue.message}
          </li>
        ))}
      </ul>
      <p className="mt-3">
        <Link href={path} className="font-medium text-indigo-700 underline">
          Show the last 30 days instead
        </Link>{" "}
        or correct the range and filters above.
      </p>
    </div>
  );
}
