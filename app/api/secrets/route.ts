import { readerFrom } from "@/lib/auth/reader";
import { listSecretFindings } from "@/lib/db/secrets/secret-findings";
import { maskedJson } from "@/lib/http/masking";
import { handleRoute, readQuery } from "@/lib/http/responses";
import { secretScanStatus } from "@/lib/secrets/scan";
import { listSecretsQuerySchema } from "@/lib/validation/secrets";

/**
 * Secrets found across threads, paged: `{findings: [{threadId, threadTitle, turnId, turnIndex,
 * kind, rules, fingerprint, ...}], nextCursor, total, scan}`. Never a secret's value; titles are
 * masked like every other text.
 */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const query = readQuery(request, listSecretsQuerySchema);
    const [page, scan] = await Promise.all([listSecretFindings(query, await readerFrom(request.headers)), secretScanStatus()]);
    return maskedJson({ ...page, scan }, { headers: { "cache-control": "no-store" } });
  });
}
