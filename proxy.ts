import { NextResponse, type NextRequest } from "next/server";
import { requireSignIn } from "@/lib/auth/proxy-gate";
import { checkRequest } from "@/lib/domain/requests/request-guard";
import { serverSettings } from "@/lib/env";

/**
 * Every request passes here first: one whose Host is not one of the server's own names (DNS
 * rebinding), or a write from another origin (a hostile page's form or no-cors fetch), is refused
 * before any page, route, server action or MCP call runs. See lib/domain/requests/request-guard.ts. With
 * sign-in on, everything else but the sign-in pages needs a session or an API token.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const verdict = checkRequest(
    {
      method: request.method,
      host: request.headers.get("host"),
      origin: request.headers.get("origin"),
      secFetchSite: request.headers.get("sec-fetch-site"),
    },
    serverSettings().requestGuard,
  );
  // Then, with THREADLINE_AUTH=on, a session or an API token (lib/auth/proxy-gate.ts).
  if (verdict.allowed) return serverSettings().auth.enabled ? await requireSignIn(request) : NextResponse.next();
  const message = `Forbidden: ${verdict.reason}.`;
  const { pathname } = request.nextUrl;
  if (pathname === "/api/mcp") {
    // MCP clients read JSON-RPC errors.
    return NextResponse.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status: 403 });
  }
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { code: "forbidden", message } }, { status: 403 });
  }
  return new NextResponse(`403 ${message}\n`, {
    status: 403,
    headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" },
  });
}
