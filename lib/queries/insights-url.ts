/**
 * Client-safe: the /insights page's state in its URL, read with GET /api/insights's own query
 * schema (lib/queries/report-url.ts: the report pages' parameters, how they are refused and written).
 */
import { insightsQuerySchema } from "@/lib/validation/insights";
import { readReportPageQuery } from "./report-url";

/** The page's range as asked (either end may be open) and its filters: a value GET /api/insights refuses is named, not dropped. */
export function readInsightsPageQuery(
  params: Record<string, string | string[] | undefined> | URLSearchParams,
  now: () => Date = () => new Date(),
) {
  return readReportPageQuery(params, insightsQuerySchema(now));
}
