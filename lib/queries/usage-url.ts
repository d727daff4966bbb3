/**
 * Client-safe: the /usage page's state in its URL, read with GET /api/usage's own query schema
 * (lib/queries/report-url.ts: the report pages' parameters, how they are refused and written).
 */
import type { UsageQuery } from "@/lib/domain/usage/usage-report";
import { usageQuerySchema } from "@/lib/validation/usage";
import { readReportPageQuery, type ReportPageRead } from "./report-url";

/** The API's other parameters: the page chooses them itself for each of its tables, so they are ignored (an /api/usage address pasted as /usage still opens). */
const API_ONLY_KEYS = ["groupBy", "breakdown", "limit"];

/** What the page reports on: a range in a zone and the filters, for each of its usageReport calls. */
export type UsagePageQuery = Omit<UsageQuery, "groupBy" | "breakdown" | "limit">;

/** The page's query from its URL: a value GET /api/usage refuses is named, not dropped. */
export function readUsagePageQuery(
  params: Record<string, string | string[] | undefined> | URLSearchParams,
  now: () => Date = () => new Date(),
): ReportPageRead<UsagePageQuery> {
  const read = readReportPageQuery(params, usageQuerySchema(now), API_ONLY_KEYS);
  if (!read.ok) return read;
  const { groupBy: _groupBy, breakdown: _breakdown, limit: _limit, ...query } = read.query;
  return { ...read, query };
}
