import { usageReport } from "@/lib/db/usage-report";
import { parseOrThrow } from "@/lib/domain/parse";
import { maskedJson } from "@/lib/http/masking";
import { handleRoute } from "@/lib/http/responses";
import { usageQuerySchema } from "@/lib/validation/usage";

/** Tokens, money and counts of model responses over a range of days: lib/db/usage-report.ts. */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const params = Object.fromEntries(new URL(request.url).searchParams);
    return maskedJson(await usageReport(parseOrThrow(usageQuerySchema(), params)));
  });
}
