import { secretValue } from "@/lib/db/secret-findings";
import { AppError } from "@/lib/domain/errors";
import { handleRoute, readJson } from "@/lib/http/responses";
import { revealSecretSchema } from "@/lib/validation/secrets";

/**
 * The value of one masked secret: `{value}`. A POST, so no page, cache or prefetch asks for it by
 * accident; pages carry only masks, and this is the one way a value reaches the browser. Auth is
 * off today: anyone who can reach the server may reveal.
 */
export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const { threadId, turnId, fingerprint } = await readJson(request, revealSecretSchema);
    const value = await secretValue(threadId, turnId, fingerprint);
    if (value === null) throw new AppError("not_found", `No secret ${fingerprint} in turn ${turnId} of thread ${threadId}.`);
    return Response.json({ value }, { headers: { "cache-control": "no-store" } });
  });
}
