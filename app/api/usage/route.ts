import { readerFrom } from "@/lib/auth/reader";
import { usageReport } from "@/lib/db/usage/usage-report";
import { maskedJson } from "@/lib/http/masking";
import { handleRoute, readQuery } from "@/lib/http/responses";
import { usageQuerySchema } from "@/lib/validation/usage";

/** Tokens, money and counts of model responses over a range of days: lib/db/usage/usage-report.ts. */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    return maskedJson(await usageReport(readQuery(request, usageQuerySchema()), await readerFrom(request.headers)));
  });
}
