import { requirePrincipal } from "@/lib/auth/principal";
import { handleRoute, readQuery } from "@/lib/http/responses";
import { listShares } from "@/lib/sharing/share-links";
import { listSharesQuerySchema } from "@/lib/validation/shares";

/** The share links the caller may see (an admin: everyone's; a member: their own), optionally one thread's. Never a token. */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const principal = await requirePrincipal(request.headers);
    const { threadId } = readQuery(request, listSharesQuerySchema);
    return Response.json({ items: await listShares(principal, threadId) }, { headers: { "cache-control": "no-store" } });
  });
}
