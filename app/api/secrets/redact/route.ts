import { requireAdmin } from "@/lib/auth/principal";
import { redactInPlace } from "@/lib/db/secrets/secret-findings";
import { handleRoute, readJson } from "@/lib/http/responses";
import { redactSecretsSchema } from "@/lib/validation/secrets";

/**
 * Redacts secrets in place, irreversibly: `{redacted}` (how many distinct secrets). The turn's
 * text keeps `[REDACTED:<kind>:<fingerprint>]` instead; the thread records each redaction. With
 * sign-in on, an admin's: it destroys shared data for good (a member asks an admin).
 */
export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    await requireAdmin(request.headers, "redact secrets in place");
    const body = await readJson(request, redactSecretsSchema);
    const target = body.turnId ? { turnId: body.turnId, fingerprint: body.fingerprint ?? null } : null;
    return Response.json(await redactInPlace(body.threadId, target));
  });
}
