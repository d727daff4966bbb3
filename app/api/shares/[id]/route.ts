import { requirePrincipal } from "@/lib/auth/principal";
import { handleRoute } from "@/lib/http/responses";
import { revokeShare } from "@/lib/sharing/share-links";

type Context = { params: Promise<{ id: string }> };

/** Revokes a share link at once (its page answers 404 from now on): one's own, or (an admin) anyone's. 204. */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    await revokeShare((await params).id, await requirePrincipal(request.headers));
    return new Response(null, { status: 204 });
  });
}
