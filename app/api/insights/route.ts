import { readerFrom } from "@/lib/auth/reader";
import { insightsReport } from "@/lib/db/insights/insights-report";
import { maskedJson } from "@/lib/http/masking";
import { handleRoute, readQuery } from "@/lib/http/responses";
import { insightsQuerySchema } from "@/lib/validation/insights";

/** When the agents worked, their tools, sessions, models and agents over a range of days: lib/db/insights/insights-report.ts. */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const { range, filters } = readQuery(request, insightsQuerySchema());
    return maskedJson(await insightsReport(range, filters, await readerFrom(request.headers)));
  });
}
