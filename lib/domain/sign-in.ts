/** Pure rules of sign-in: where to go after it, and which paths need none. */

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

/** Paths anyone may reach with sign-in on: the sign-in pages, Better Auth's endpoints, static assets. */
export function isPublicPath(pathname: string): boolean {
  if (pathname === "/login" || pathname === "/setup") return true;
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
export const ADMIN_ENDPOINTS_USED = ["/admin/create-user", "/admin/remove-user", "/admin/set-user-password", "/admin/revoke-user-sessions", "/admin/set-role"] as const;

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
