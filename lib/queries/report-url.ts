/**
 * Client-safe: a report page's state in its URL (/usage, /insights), under its API's parameter
 * names (`/usage?since=2026-01-01&until=2026-02-01&model=…`), read with the API's own query schema
 * so the page and the API accept and refuse the same things. Unlike the thread list's filters, a
 * bad value is shown as an error naming the parameter, not dropped: a report for another range
 * than the one asked for would be read as the answer.
 */
import type { z } from "zod";
import { formatIssuePath, type FieldIssue } from "@/lib/domain/parse";
import { defaultRange, isTimeZone, serverTimeZone } from "@/lib/domain/usage/usage-period";

/** The parameters a report page reads and writes: its range, zone and filters, and (/usage) the view of the range it shows. */
const REPORT_PAGE_KEYS = ["since", "until", "tz", "model", "project", "source", "view"] as const;
type ReportPageKey = (typeof REPORT_PAGE_KEYS)[number];
/** The page's own parameters, which its API does not take. */
type PageOnlyKey = Extract<ReportPageKey, "view">;
export type ReportPageParams = Partial<Record<ReportPageKey, string>>;
/** The report pages, by their path. */
export type ReportPath = "/usage" | "/insights";

export type ReportPageRead<Query> =
  { ok: true; query: Query; params: ReportPageParams } | { ok: false; issues: FieldIssue[]; params: ReportPageParams };

type SearchParams = Record<string, string | string[] | undefined> | URLSearchParams;

function entries(params: SearchParams): [string, string[]][] {
  if (params instanceof URLSearchParams) return [...new Set(params.keys())].map((key) => [key, params.getAll(key)]);
  return Object.entries(params).flatMap(([key, value]): [string, string[]][] =>
    value === undefined ? [] : [[key, Array.isArray(value) ? value : [value]]],
  );
}

/**
 * A report page's query from its URL, parsed by its API's schema. An empty value is no value (the
 * filter form sends `model=` for "All models" and `since=` for a cleared date). A parameter given
 * twice, or one the page does not take, is refused by name (here, before the API's schema, so the
 * message lists the page's own parameters), as are the values the API refuses. `apiOnly` are the
 * API's parameters the page chooses itself: ignored, so an API address pasted as the page's opens.
 * `pageOnly` are the page's own (kept in `params`, not given to the schema: the page checks them).
 */
export function readReportPageQuery<Schema extends z.ZodType>(
  params: SearchParams,
  schema: Schema,
  { apiOnly = [], pageOnly = [] }: { apiOnly?: readonly string[]; pageOnly?: readonly PageOnlyKey[] } = {},
): ReportPageRead<z.output<Schema>> {
  const given: ReportPageParams = {};
  const issues: FieldIssue[] = [];
  const taken: readonly string[] = REPORT_PAGE_KEYS.filter((key) => key !== "view" || pageOnly.includes(key));
  for (const [key, values] of entries(params)) {
    const nonEmpty = values.filter((value) => value !== "");
    if (nonEmpty.length === 0 || apiOnly.includes(key)) continue;
    if (!taken.includes(key)) {
      issues.push({ field: key, message: `is not a parameter of this page (it takes ${taken.join(", ")})` });
      continue;
    }
    if (nonEmpty.length > 1) {
      issues.push({ field: key, message: `is given ${nonEmpty.length} times: give it once` });
      continue;
    }
    given[key as ReportPageKey] = nonEmpty[0]!;
  }
  if (issues.length > 0) return { ok: false, issues, params: given };
  const forApi: Record<string, string> = { ...given };
  for (const key of pageOnly) delete forApi[key];
  const parsed = schema.safeParse(forApi);
  if (!parsed.success) return { ok: false, issues: pageIssues(parsed.error), params: given };
  return { ok: true, query: parsed.data, params: given };
}

/** The first issue of each parameter (a malformed date is not also "not a calendar date"). */
function pageIssues(error: z.ZodError): FieldIssue[] {
  const issues = error.issues.map((issue) => ({ field: formatIssuePath(issue.path), message: issue.message }));
  return issues.filter((issue, i) => issues.findIndex((other) => other.field === issue.field) === i);
}

/** A report page's address for some parameters, in the order of REPORT_PAGE_KEYS; empty ones left out. */
export function reportHref(path: ReportPath, params: ReportPageParams): string {
  const search = new URLSearchParams();
  for (const key of REPORT_PAGE_KEYS) if (params[key]) search.set(key, params[key]);
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** The last `days` days up to today in the zone, as since/until. */
export function lastDays(days: number, timeZone: string, now: Date): { since: string; until: string } {
  const { since, until } = defaultRange(timeZone, now, days);
  return { since, until };
}

/** The zone a report page counts days in: the URL's tz when the server knows it, else the server's (as the APIs read it). */
export function requestedZone(params: ReportPageParams): string {
  return params.tz && isTimeZone(params.tz) ? params.tz : serverTimeZone();
}
