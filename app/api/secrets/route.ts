import { listSecretFindings } from "@/lib/db/secret-findings";
import { parseOrThrow } from "@/lib/domain/parse";
import { maskedJson } from "@/lib/http/masking";
import { handleRoute } from "@/lib/http/responses";
import { secretScanStatus } from "@/lib/secrets/scan";
import { listSecretsQuerySchema } from "@/lib/validation/secrets";

/**
 * Secrets found across threads, paged: `{findings: [{threadId, threadTitle, turnId, turnIndex,
 * kind, rules, fingerprint, ...}], nextCursor, total, scan}`. Never a secret's value; titles are
 * masked like every other text.
 */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const query = parseOrThrow(listSecretsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const [page, scan] = await Promise.all([listSecretFindings(query), secretScanStatus()]);
    return maskedJson({ ...page, scan }, { headers: { "cache-control": "no-store" } });
  });
}
