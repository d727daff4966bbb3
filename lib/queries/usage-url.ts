/**
 * Client-safe: the /usage page's state in its URL, read with GET /api/usage's own query schema
 * (lib/queries/report-url.ts: the report pages' parameters, how they are refused and written), and
 * `view`: which of the page's views of the range it shows.
 */
import type { FieldIssue } from "@/lib/domain/parse";
import type { UsageQuery } from "@/lib/domain/usage/usage-report";
import { USAGE_VIEWS, type UsageView } from "@/lib/domain/usage/usage-views";
import { usageQuerySchema } from "@/lib/validation/usage";
import { readReportPageQuery, reportHref, type ReportPageParams } from "./report-url";

/** The API's other parameters: the page chooses them itself for each of its tables, so they are ignored (an /api/usage address pasted as /usage still opens). */
const API_ONLY_KEYS = ["groupBy", "breakdown", "limit"];

/** What the page reports on: a range in a zone and the filters, for each of its usageReport calls. */
export type UsagePageQuery = Omit<UsageQuery, "groupBy" | "breakdown" | "limit">;

export type UsagePageRead =
  | { ok: true; query: UsagePageQuery; view: UsageView; params: ReportPageParams }
  | { ok: false; issues: FieldIssue[]; params: ReportPageParams };

/** The page's query from its URL: a value GET /api/usage refuses, or a view the page does not have, is named, not dropped. */
export function readUsagePageQuery(
  params: Record<string, string | string[] | undefined> | URLSearchParams,
  now: () => Date = () => new Date(),
): UsagePageRead {
  const read = readReportPageQuery(params, usageQuerySchema(now), { apiOnly: API_ONLY_KEYS, pageOnly: ["view"] });
  const view = read.params.view ?? "day";
  const viewIssue = isView(view) ? [] : [{ field: "view", message: `must be one of ${USAGE_VIEWS.join(", ")}` }];
  if (!read.ok) return { ...read, issues: [...read.issues, ...viewIssue] };
  if (!isView(view)) return { ok: false, issues: viewIssue, params: read.params };
  const { groupBy: _groupBy, breakdown: _breakdown, limit: _limit, ...query } = read.query;
  return { ok: true, query, view, params: read.params };
}

function isView(value: string): value is UsageView {
  return (USAGE_VIEWS as readonly string[]).includes(value);
}

/** The /usage page's address for some parameters. */
export function usageHref(params: ReportPageParams): string {
  return reportHref("/usage", params);
}
