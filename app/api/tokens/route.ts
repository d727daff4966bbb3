import { tokenManager } from "@/lib/auth/tokens";
import { createApiToken, listApiTokens } from "@/lib/db/people/api-tokens";
import { parseOrThrow } from "@/lib/domain/parse";
import { unmasked } from "@/lib/http/masking";
import { handleRoute, parseJsonText, readBodyText } from "@/lib/http/responses";
import { createTokenSchema } from "@/lib/validation/tokens";

/** Creates an API token for the signed-in person: 201 {id, token}; the token is shown this once. */
export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const principal = await tokenManager(request.headers);
    const input = parseOrThrow(createTokenSchema, parseJsonText(await readBodyText(request)));
    const created = await createApiToken({ userId: principal.userId, name: input.name, expiresAt: input.expiresAt });
    // The new token in full, shown once to its owner: no transcript text, and it must arrive whole.
    return unmasked(
      Response.json(created, { status: 201, headers: { "cache-control": "no-store" } }),
      "the API token just created, for its owner",
    );
  });
}

/** The signed-in person's tokens (an admin: everyone's), without the tokens themselves. */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const principal = await tokenManager(request.headers);
    return Response.json({ tokens: await listApiTokens(principal.role === "admin" ? null : principal.userId) });
  });
}
