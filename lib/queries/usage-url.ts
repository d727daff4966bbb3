/**
 * Client-safe: the /usage page's state in its URL, under GET /api/usage's parameter names
 * (`/usage?since=2026-01-01&until=2026-02-01&model=…`), read with the API's own query schema so
 * the page and the API accept and refuse the same things. Unlike the thread list's filters, a bad
 * value is shown as an error naming the parameter, not dropped: a report for another range than
 * the one asked for would be read as the answer.
 */
import type { z } from "zod";
import { formatIssuePath, type FieldIssue } from "@/lib/domain/parse";
import { defaultRange } from "@/lib/domain/usage/usage-period";
import type { UsageQuery } from "@/lib/domain/usage/usage-report";
import { USAGE_VIEWS, type UsageView } from "@/lib/domain/usage/usage-views";
import { usageQuerySchema } from "@/lib/validation/usage";

/** The parameters the page reads and writes: the API's, and `view`, which of the page's views of the range it shows. */
const USAGE_PAGE_KEYS = ["since", "until", "tz", "model", "project", "source", "view"] as const;
type UsagePageKey = (typeof USAGE_PAGE_KEYS)[number];
export type UsagePageParams = Partial<Record<UsagePageKey, string>>;
/** The API's other parameters: the page chooses them itself for each of its tables, so they are ignored (an /api/usage address pasted as /usage still opens). */
const API_ONLY_KEYS = ["groupBy", "breakdown", "limit"];

/** What the page reports on: a range in a zone and the filters, for each of its usageReport calls. */
export type UsagePageQuery = Omit<UsageQuery, "groupBy" | "breakdown" | "limit">;

export type UsagePageRead =
  | { ok: true; query: UsagePageQuery; view: UsageView; params: UsagePageParams }
  | { ok: false; issues: FieldIssue[]; params: UsagePageParams };

type SearchParams = Record<string, string | string[] | undefined> | URLSearchParams;

function entries(params: SearchParams): [string, string[]][] {
  if (params instanceof URLSearchParams) return [...new Set(params.keys())].map((key) => [key, params.getAll(key)]);
  return Object.entries(params).flatMap(([key, value]): [string, string[]][] =>
    value === undefined ? [] : [[key, Array.isArray(value) ? value : [value]]],
  );
}

/**
 * The page's query from its URL. An empty value is no value (the filter form sends `model=` for
 * "All models" and `since=` for a cleared date). A parameter given twice, or one the page does not
 * take, is refused by name (here, before the API's schema, so the message lists the page's own
 * parameters), as are the values GET /api/usage refuses.
 */
export function readUsagePageQuery(params: SearchParams, now: () => Date = () => new Date()): UsagePageRead {
  const given: Record<string, string> = {};
  const kept: UsagePageParams = {};
  const issues: FieldIssue[] = [];
  for (const [key, values] of entries(params)) {
    const nonEmpty = values.filter((value) => value !== "");
    if (nonEmpty.length === 0 || API_ONLY_KEYS.includes(key)) continue;
    if (!(USAGE_PAGE_KEYS as readonly string[]).includes(key)) {
      issues.push({ field: key, message: `is not a parameter of this page (it takes ${USAGE_PAGE_KEYS.join(", ")})` });
      continue;
    }
    if (nonEmpty.length > 1) {
      issues.push({ field: key, message: `is given ${nonEmpty.length} times: give it once` });
      continue;
    }
    given[key] = nonEmpty[0]!;
    kept[key as UsagePageKey] = nonEmpty[0]!;
  }
  const { view: askedView = "day", ...apiParams } = given;
  const view = isView(askedView) ? askedView : undefined;
  if (!view) issues.push({ field: "view", message: `must be one of ${USAGE_VIEWS.join(", ")}` });
  if (issues.length > 0 || !view) return { ok: false, issues, params: kept };
  const parsed = usageQuerySchema(now).safeParse(apiParams);
  if (!parsed.success) return { ok: false, issues: pageIssues(parsed.error), params: kept };
  const { groupBy: _groupBy, breakdown: _breakdown, limit: _limit, ...query } = parsed.data;
  return { ok: true, query, view, params: kept };
}

function isView(value: string): value is UsageView {
  return (USAGE_VIEWS as readonly string[]).includes(value);
}

/** The first issue of each parameter (a malformed date is not also "not a calendar date"). */
function pageIssues(error: z.ZodError): FieldIssue[] {
  const issues = error.issues.map((issue) => ({ field: formatIssuePath(issue.path), message: issue.message }));
  return issues.filter((issue, i) => issues.findIndex((other) => other.field === issue.field) === i);
}

/** The page's address for some parameters, in the order of USAGE_PAGE_KEYS; empty ones left out. */
export function usageHref(params: UsagePageParams): string {
  const search = new URLSearchParams();
  for (const key of USAGE_PAGE_KEYS) if (params[key]) search.set(key, params[key]);
  const query = search.toString();
  return query ? `/usage?${query}` : "/usage";
}

/** The last `days` days up to today in the zone, as since/until. */
export function lastDays(days: number, timeZone: string, now: Date): { since: string; until: string } {
  const { since, until } = defaultRange(timeZone, now, days);
  return { since, until };
}
