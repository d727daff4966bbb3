import { requireAdmin } from "@/lib/auth/principal";
import { setThreadSendsSecrets, threadSendsSecrets } from "@/lib/db/secrets/secret-findings";
import { getThread } from "@/lib/db/threads/threads";
import { maskedJson } from "@/lib/http/masking";
import { handleRoute, readJson, threadIdFrom } from "@/lib/http/responses";
import { secretSettingsSchema } from "@/lib/validation/secrets";

type Context = { params: Promise<{ id: string }> };

/** The thread's secrets setting: `{sendToModels}` (false: models get the redacted text, the default). */
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    await getThread(id, { includeExpired: true });
    return maskedJson({ sendToModels: await threadSendsSecrets(id) }, { headers: { "cache-control": "no-store" } });
  });
}

/**
 * Sets it: `{sendToModels, confirm}` (confirm: true to turn it on). An admin's when sign-in is on
 * (403 for members): sending secrets to a provider is not a member's call.
 */
export async function PUT(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    await requireAdmin(request.headers, "change whether a thread's secrets are sent to models");
    const { sendToModels } = await readJson(request, secretSettingsSchema);
    await getThread(id, { includeExpired: true });
    await setThreadSendsSecrets(id, sendToModels);
    return maskedJson({ sendToModels });
  });
}
