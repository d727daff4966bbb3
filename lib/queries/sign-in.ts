/**
 * Signing in and out through Better Auth's endpoints (/api/auth/*), by the API client like every
 * other call: a failure is an ApiError (401 wrong password, 429 with Retry-After, 0 no answer),
 * which signInFailure turns into the sentence the login page shows.
 */
import { tooManyAttemptsMessage } from "@/lib/domain/requests/sign-in";
import { ApiError, apiFetch } from "./api-client";

/** Signs in with email and password; resolves once the session cookie is set. */
export async function signInWithPassword(email: string, password: string): Promise<void> {
  await apiFetch("/api/auth/sign-in/email", { json: { email, password } });
}

/** Starts single sign-on: answers the provider's page to go to. */
export async function startSingleSignOn(next: string): Promise<string> {
  const body = await apiFetch<{ url?: string } | null>("/api/auth/sign-in/social", {
    json: { provider: "oidc", callbackURL: next, errorCallbackURL: "/login?error=sso" },
  });
  if (!body?.url) throw new ApiError("Single sign-on could not start; see the server log.", 502, "sso_unavailable");
  return body.url;
}

/** Ends the session; a server that does not answer still leaves the person signed out of this page. */
export async function signOut(): Promise<void> {
  await apiFetch("/api/auth/sign-out", { json: {} }).catch(() => undefined);
}

/** What the login page says for a failed sign-in. */
export function signInFailure(error: unknown, { sso = false } = {}): string {
  if (!(error instanceof ApiError)) return "The server did not answer; try again.";
  if (error.status === 429) return tooManyAttemptsMessage(error.retryAfter);
  if (error.status === 0) return "The server did not answer; try again.";
  if (sso) return "Single sign-on could not start; see the server log.";
  if (error.status === 401) return "Wrong email or password.";
  return `Sign-in failed: ${error.message}`;
}
