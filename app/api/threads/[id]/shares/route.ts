import { requirePrincipal } from "@/lib/auth/principal";
import { parseOrThrow } from "@/lib/domain/parse";
import { unmasked } from "@/lib/http/masking";
import { handleRoute, parseJsonText, readBodyText, threadIdFrom } from "@/lib/http/responses";
import { createShareLink } from "@/lib/sharing/share-links";
import { createShareSchema } from "@/lib/validation/shares";

type Context = { params: Promise<{ id: string }> };

/** Makes a share link to the thread: 201 {id, url, token, expiresAt}; the token is shown this once. An empty body takes the defaults. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const principal = await requirePrincipal(request.headers);
    const threadId = threadIdFrom((await params).id);
    const text = await readBodyText(request);
    const input = parseOrThrow(createShareSchema, text.trim() === "" ? {} : parseJsonText(text));
    const created = await createShareLink(threadId, input, principal, request);
    // The token in full, shown once to its maker: random letters that must arrive whole, no transcript text.
    return unmasked(
      Response.json(created, { status: 201, headers: { "cache-control": "no-store" } }),
      "the share link just made, for its maker",
    );
  });
}
