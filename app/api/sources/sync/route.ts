import { requireAdmin } from "@/lib/auth/principal";
import { parseOrThrow } from "@/lib/domain/parse";
import { handleRoute, parseJsonText, readBodyText } from "@/lib/http/responses";
import { sourceSync } from "@/lib/sources/sync";
import { syncSourcesSchema } from "@/lib/validation/sources";

/**
 * Starts a full sync of the followed folders in the background (joining one that runs) and
 * answers 202 with the status; GET /api/sources follows its progress.
 */
export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    await requireAdmin(request.headers, "sync the followed folders");
    const text = await readBodyText(request);
    parseOrThrow(syncSourcesSchema, text.trim() === "" ? {} : parseJsonText(text));
    return Response.json(sourceSync().start(), { status: 202 });
  });
}
