import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { isPublicPath } from "@/lib/domain/requests/sign-in";
import { principalFrom } from "./principal";
import { readerOf } from "./reader";
import { threadGate } from "./thread-gate";

const UNAUTHORIZED_MESSAGE = "Sign in first: a session (sign in at /login) or an Authorization: Bearer API token.";

/**
 * With sign-in on, after the Host and Origin checks: every request but the sign-in pages, Better
 * Auth's own endpoints and static assets needs a session or an API token. /api answers 401 in the
 * API's error shape, a server action (a POST to a page) 401, a page redirects to /login with the
 * path it asked for.
 */
export async function requireSignIn(request: NextRequest): Promise<NextResponse> {
  const { pathname, search } = request.nextUrl;
  if (isPublicPath(pathname)) return NextResponse.next();
  let renewed: string[] = [];
  const principal = await principalFrom(request.headers, { url: request.url, setCookies: (cookies) => (renewed = cookies) });
  if (principal) {
    const refused = await threadGate(request, await readerOf(principal));
    const response = refused ?? NextResponse.next();
    for (const cookie of renewed) response.headers.append("set-cookie", cookie);
    return response;
  }
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { code: "unauthorized", message: UNAUTHORIZED_MESSAGE } }, { status: 401 });
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new NextResponse(`401 ${UNAUTHORIZED_MESSAGE}\n`, { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  // On the name the browser used: its Host header, which the guard has checked (nextUrl turns
  // 127.0.0.1 into localhost, another origin with other cookies).
  const login = new URL("/login", `${request.nextUrl.protocol}//${request.headers.get("host") ?? request.nextUrl.host}`);
  if (pathname !== "/") login.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(login, 307);
}
