import "server-only";
import { userOfApiToken } from "@/lib/db/people/api-tokens";
import { roleOf, type Role } from "@/lib/domain/access";
import { AppError } from "@/lib/domain/errors";
import { bearerToken } from "@/lib/domain/requests/sign-in";
import { serverSettings } from "@/lib/env";
import { authFor, isSecureRequest } from "./server";

/** Who a request acts as: a signed-in person (session cookie) or the person whose API token it sends. */
export type Principal = { userId: string; email: string; name: string; role: Role; via: "session" | "token" };

export const authEnabled = (): boolean => serverSettings().auth.enabled;

/**
 * The principal of a request from its headers: an `Authorization: Bearer` token when there is
 * one (and only that: a bad token is not rescued by a cookie), otherwise Better Auth's session
 * cookie. `setCookies` receives the cookies Better Auth renews a session with, when it does.
 */
export async function principalFrom(
  headers: Headers,
  options: { url?: string; setCookies?: (cookies: string[]) => void } = {},
): Promise<Principal | null> {
  const token = bearerToken(headers.get("authorization"));
  if (token !== null) {
    const user = token === "" ? null : await userOfApiToken(token);
    return user ? { userId: user.id, email: user.email, name: user.name, role: roleOf(user.role), via: "token" } : null;
  }
  if (!/(^|;\s*)(__Secure-)?better-auth\.session_token=/.test(headers.get("cookie") ?? "")) return null;
  const auth = await authFor(isSecureRequest(headers, options.url));
  const { headers: answer, response } = await auth.api.getSession({ headers, returnHeaders: true });
  const renewed = answer.getSetCookie();
  if (renewed.length > 0) options.setCookies?.(renewed);
  if (!response) return null;
  const { user } = response;
  return { userId: user.id, email: user.email, name: user.name, role: roleOf(user.role), via: "session" };
}

/**
 * The principal a route or action acts as; null when sign-in is off (everyone may do everything,
 * as before). With sign-in on and nobody signed in: unauthorized (the proxy answers that first).
 */
export async function requirePrincipal(headers: Headers): Promise<Principal | null> {
  if (!authEnabled()) return null;
  const principal = await principalFrom(headers);
  if (!principal) throw new AppError("unauthorized", "Sign in first: a session (sign in at /login) or an Authorization: Bearer API token.");
  return principal;
}

/** Refuses anyone but an admin when sign-in is on: providers, models, sources and others' tokens are theirs. */
export async function requireAdmin(headers: Headers, what: string): Promise<void> {
  const principal = await requirePrincipal(headers);
  if (principal && principal.role !== "admin") throw new AppError("forbidden", `Only an admin may ${what}.`);
}

/**
 * Whether the person a page is for may use admin-only controls (sync, models and providers,
 * people, revealing a secret, sending a thread's secrets to models): everyone with sign-in off,
 * only admins with it on. Pages hide what the server would refuse; the routes and actions check
 * again (requireAdmin).
 */
export async function mayAdminister(headers: Headers): Promise<boolean> {
  if (!authEnabled()) return true;
  return (await principalFrom(headers))?.role === "admin";
}
