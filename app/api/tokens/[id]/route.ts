import { tokenManager } from "@/lib/auth/tokens";
import { revokeApiToken } from "@/lib/db/people/api-tokens";
import { handleRoute } from "@/lib/http/responses";

type Context = { params: Promise<{ id: string }> };

/** Revokes a token at once: one's own, or (an admin) anyone's. 204. */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const principal = await tokenManager(request.headers);
    await revokeApiToken((await params).id, principal.role === "admin" ? null : { userId: principal.userId });
    return new Response(null, { status: 204 });
  });
}
