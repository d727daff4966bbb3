import { requireAdmin } from "@/lib/auth/principal";
import { readerFrom } from "@/lib/auth/reader";
import { requireReadableThread } from "@/lib/auth/thread-access";
import { secretValue } from "@/lib/db/secrets/secret-findings";
import { AppError } from "@/lib/domain/errors";
import { quoteInput } from "@/lib/domain/secrets/quote";
import { unmasked } from "@/lib/http/masking";
import { handleRoute, readJson } from "@/lib/http/responses";
import { revealSecretSchema } from "@/lib/validation/secrets";

/**
 * The value of one masked secret: `{value}`. A POST, so no page, cache or prefetch asks for it by
 * accident; pages carry only masks, and this is the one way a value reaches the browser. Who may:
 * with sign-in off, anyone who reaches the server; with sign-in on, admins (a member gets 403 and
 * sees masks only). Nothing of the value is logged.
 */
export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    await requireAdmin(request.headers, "reveal secrets");
    const { threadId, turnId, fingerprint } = await readJson(request, revealSecretSchema);
    // A value is the thread's text: an admin reveals only in threads they may read.
    await requireReadableThread(await readerFrom(request.headers), threadId);
    const value = await secretValue(threadId, turnId, fingerprint);
    if (value === null) throw new AppError("not_found", `No secret ${fingerprint} in turn ${quoteInput(turnId)} of thread ${threadId}.`);
    return unmasked(
      Response.json({ value }, { headers: { "cache-control": "no-store" } }),
      "the reveal endpoint: one value, for those allowed to see it",
    );
  });
}
