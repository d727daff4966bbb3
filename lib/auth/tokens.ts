import "server-only";
import { AppError } from "@/lib/domain/errors";
import { authEnabled, requirePrincipal, type Principal } from "./principal";

/**
 * Who may manage API tokens: a person signed in with a session. Not a token: a leaked token could
 * otherwise mint more tokens that outlive its own revocation. With sign-in off there is nobody to
 * act as, so there are no tokens.
 */
export async function tokenManager(headers: Headers): Promise<Principal> {
  if (!authEnabled()) throw new AppError("conflict", "API tokens need sign-in: start the server with THREADLINE_AUTH=on.");
  const principal = (await requirePrincipal(headers))!;
  if (principal.via !== "session")
    throw new AppError("forbidden", "API tokens are managed by a signed-in person (Settings), not with an API token.");
  return principal;
}
