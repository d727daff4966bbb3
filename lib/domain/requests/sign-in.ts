/** Pure rules of sign-in: where to go after it, and which paths need none. */
import { isSharePath } from "../sharing/share-links";

/**
 * Where the login page sends someone after signing in: the path they asked for, only when it is
 * a path of this site ("/threads?q=x"), never another site ("//evil.example", "/\\evil.example",
 * "https://evil.example") or a scheme ("javascript:").
 */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\\]/.test(raw)) return "/";
  try {
    const url = new URL(raw, "http://threadline.invalid");
    if (url.origin !== "http://threadline.invalid") return "/";
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return "/";
  }
}

/**
 * Paths anyone may reach with sign-in on: the sign-in pages, Better Auth's endpoints, static
 * assets, and a shared page (`/s/<token>`: the token is the permission, lib/sharing).
 */
export function isPublicPath(pathname: string): boolean {
  if (pathname === "/login" || pathname === "/setup" || isSharePath(pathname)) return true;
  if (pathname === "/api/auth" || pathname.startsWith("/api/auth/")) return true;
  if (pathname.startsWith("/_next/static/") || pathname.startsWith("/_next/image")) return true;
  return pathname === "/icon.svg" || pathname === "/favicon.ico" || pathname === "/robots.txt";
}

/** The token of an `Authorization: Bearer <token>` header, "" when the header names another scheme or none. */
export function bearerToken(authorization: string | null): string | null {
  if (authorization === null) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  return match ? match[1]! : "";
}

/**
 * The admin plugin's endpoints Threadline calls, from the server only (Settings -> People's
 * actions): adding and removing people, resetting passwords (ending their sessions), and roles.
 */
const ADMIN_ENDPOINTS_USED = [
  "/admin/create-user",
  "/admin/remove-user",
  "/admin/set-user-password",
  "/admin/revoke-user-sessions",
  "/admin/set-role",
] as const;

/**
 * Better Auth's paths Threadline turns off, from its admin plugin's endpoint paths: over HTTP,
 * all of them (Settings calls the ones it uses on the server, after its own checks), and for
 * any caller, HTTP or server, those it never uses (impersonation, bans, listing users and their
 * sessions, and whatever a Better Auth upgrade adds).
 */
export function disabledAuthPaths(adminEndpointPaths: readonly string[]): { overHttp: string[]; always: string[] } {
  const used = new Set<string>(ADMIN_ENDPOINTS_USED);
  const paths = [...new Set(adminEndpointPaths)].sort();
  return { overHttp: paths, always: paths.filter((p) => !used.has(p)) };
}

/** A limit: at most `max` in `window` seconds. */
export type SignInLimit = { readonly window: number; readonly max: number };

/**
 * Sign-in attempts per client address (lib/domain/requests/client-address.ts), successful or not, counted
 * by Better Auth's rate limiter in the database: 5 a minute, then 429 until the minute is over.
 */
export const SIGN_IN_PEER_LIMIT: SignInLimit = { window: 60, max: 5 };

/**
 * Failed password sign-ins per account, whatever address they come from: the 10th failure within
 * 15 minutes of the first locks that email until those 15 minutes are over, the right password
 * included. Attempts during a lock are refused before the password is checked and do not count,
 * so a lock never outlasts its window: an attacker gets 10 guesses per 15 minutes per account,
 * and the owner waits at most 15 minutes (or signs in with single sign-on meanwhile).
 */
export const SIGN_IN_ACCOUNT_LIMIT: SignInLimit = { window: 15 * 60, max: 10 };

/** Longer than any email (RFC 5321 allows 254): such a claim names no account and is not counted. */
const MAX_EMAIL_LENGTH = 320;

/**
 * The account limit's key for the email a sign-in claims (the account need not exist: a lock
 * must not tell who has one): lower-cased as Better Auth looks people up, so "Ada@X" and "ada@x"
 * share one count. Null for anything that is not a plausible email string.
 */
export function signInAccountKey(email: unknown): string | null {
  if (typeof email !== "string") return null;
  const normalized = email.trim().toLowerCase();
  if (normalized === "" || normalized.length > MAX_EMAIL_LENGTH) return null;
  return `sign-in-account:${normalized}`;
}

/** Whole seconds until `untilMs` (a Retry-After value), at least 1. */
export function retryAfterSeconds(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}

/** The login page's words for a 429, from its Retry-After header (seconds) when it has one. */
export function tooManyAttemptsMessage(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  if (!retryAfter || !Number.isFinite(seconds) || seconds <= 60) return "Too many attempts: wait a minute and try again.";
  return `Too many attempts: try again in ${Math.ceil(seconds / 60)} minutes.`;
}
