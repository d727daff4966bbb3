/**
 * Sign-in on (THREADLINE_AUTH=on) through the real proxy, Better Auth's route handler and the
 * token routes, on the test file's real database: the first admin from the environment, 401s on
 * every /api route, redirects to /login, roles, API tokens and the sign-in rate limit.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as authGet, POST as authPost } from "@/app/api/auth/[...all]/route";
import { POST as syncRoute } from "@/app/api/sources/sync/route";
import { DELETE as revokeRoute } from "@/app/api/tokens/[id]/route";
import { GET as listTokensRoute, POST as createTokenRoute } from "@/app/api/tokens/route";
import { requireAdmin } from "@/lib/auth/principal";
import { authFor, resetAuthForTests } from "@/lib/auth/server";
import { db } from "@/lib/db/engine/client";
import { COPIED_TABLES } from "@/lib/db/engine/copy";
import { sourceSync } from "@/lib/sources/sync";
import { expectError, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { proxy } from "@/proxy";

const ADMIN = { email: "ada@example.com", password: "correct horse battery staple" };
const MEMBER = { email: "bob@example.com", password: "member password 1" };
const ORIGIN = "http://127.0.0.1:3000";
const HOST = "127.0.0.1:3000";
const logged: string[] = [];

function request(method: string, pathname: string, headers: Record<string, string> = {}, body?: unknown): NextRequest {
  return new NextRequest(`${ORIGIN}${pathname}`, {
    method,
    headers: { host: HOST, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Signs in through Better Auth's handler; the session cookie to send back. */
async function signIn(person: { email: string; password: string }, ip = "10.0.0.1"): Promise<string> {
  const response = await authPost(request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": ip }, person));
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="));
  expect(cookie).toBeDefined();
  return cookie!.split(";")[0]!;
}

const passes = (response: Response) => response.headers.get("x-middleware-next") === "1";

/** Every route handler file under app/api, as a request path with sample parameters, and the methods it exports. */
function apiRoutes(): { path: string; methods: string[] }[] {
  const root = path.join(process.cwd(), "app", "api");
  const found: { path: string; methods: string[] }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "route.ts") {
        const segments = path.relative(root, dir).split(path.sep).filter(Boolean);
        const sample = segments.map((s) =>
          s === "[...path]"
            ? "no-such-endpoint"
            : s === "[...all]"
              ? "get-session"
              : s === "[index]"
                ? "0"
                : s.startsWith("[")
                  ? "3f1c0a52-9d7e-4a55-8a8e-6f7f6b0e9a11"
                  : s,
        );
        const source = readFileSync(full, "utf8");
        const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) =>
          new RegExp(`function ${m}\\b|\\b${m}\\b[^\\n]*\\}\\s*;?\\s*$|as ${m}\\b`, "m").test(source),
        );
        found.push({ path: `/api/${sample.join("/")}`, methods });
      }
    }
  };
  walk(root);
  return found;
}

beforeAll(async () => {
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  }
  setServerEnv({
    THREADLINE_AUTH: "on",
    THREADLINE_ADMIN_EMAIL: ADMIN.email,
    THREADLINE_ADMIN_PASSWORD: ADMIN.password,
    THREADLINE_SOURCES: "off",
    THREADLINE_PEER_HEADER: "1",
  });
  resetAuthForTests();
});
afterAll(() => {
  sourceSync().close();
  restoreServerEnv();
  resetAuthForTests();
  vi.restoreAllMocks();
});

describe("sign-in on", () => {
  it("creates the first admin from THREADLINE_ADMIN_EMAIL and THREADLINE_ADMIN_PASSWORD, once, with a scrypt hash", async () => {
    await authFor(false);
    const users = await (await db()).user.findMany({ include: { accounts: true } });
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: ADMIN.email, role: "admin" });
    const hash = users[0]!.accounts[0]!.password!;
    expect(hash).not.toContain(ADMIN.password);
    expect(hash).toMatch(/^[0-9a-f]+:[0-9a-f]+$/); // Better Auth's scrypt: salt:key
    resetAuthForTests();
    await authFor(false);
    expect(await (await db()).user.count()).toBe(1);
  });

  it("answers 401 in the API's error shape on every /api route without a session or token, after the Host check", async () => {
    const routes = apiRoutes();
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(["/api/mcp", "/api/events", "/api/tokens", "/api/sources/sync", "/api/threads"]),
    );
    let checked = 0;
    for (const route of routes) {
      if (route.path.startsWith("/api/auth/")) continue; // Better Auth's own: sign-in must be reachable
      expect(route.methods.length, route.path).toBeGreaterThan(0);
      for (const method of route.methods) {
        const response = await proxy(request(method, route.path, {}, method === "GET" || method === "DELETE" ? undefined : {}));
        const body = await expectError(response, 401, "unauthorized");
        expect(body.message).toContain("/login");
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    // A bad token is no better, and a cookie does not rescue it.
    await expectError(await proxy(request("GET", "/api/threads", { authorization: "Bearer tl_nonsense" })), 401, "unauthorized");
    // The Host check still runs first.
    const foreign = await proxy(new NextRequest(`${ORIGIN}/api/threads`, { headers: { host: "evil.example:3000" } }));
    expect(foreign.status).toBe(403);
  });

  it("redirects pages to /login keeping the same-site path they asked for, and refuses server actions", async () => {
    const page = await proxy(request("GET", "/threads/abc?q=x%20y"));
    expect(page.status).toBe(307);
    const location = new URL(page.headers.get("location")!, ORIGIN);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("next")).toBe("/threads/abc?q=x%20y");
    expect((await proxy(request("GET", "/"))).headers.get("location")).toBe(`${ORIGIN}/login`);
    const action = await proxy(request("POST", "/settings", { "next-action": "abc" }, {}));
    expect(action.status).toBe(401);
    for (const open of ["/login", "/setup", "/api/auth/get-session", "/_next/static/x.js", "/icon.svg"])
      expect(passes(await proxy(request("GET", open))), open).toBe(true);
  });

  it("signs in with email and password: a database session in an HttpOnly, SameSite=Lax cookie, Secure over https; sign-out ends it", async () => {
    const wrong = await authPost(
      request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": "10.0.0.9" }, { ...ADMIN, password: "wrong password" }),
    );
    expect(wrong.status).toBe(401);
    const response = await authPost(request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": "10.0.0.2" }, ADMIN));
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const session = cookie.split(";")[0]!;
    expect(await (await db()).session.count()).toBeGreaterThan(0);
    expect(passes(await proxy(request("GET", "/api/threads", { cookie: session })))).toBe(true);
    expect(passes(await proxy(request("GET", "/threads", { cookie: session })))).toBe(true);

    const secure = await authPost(
      request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": "10.0.0.3", "x-forwarded-proto": "https" }, ADMIN),
    );
    expect(secure.status).toBe(200);
    const secureCookie = secure.headers.getSetCookie().find((c) => c.startsWith("__Secure-better-auth.session_token="))!;
    expect(secureCookie).toMatch(/;\s*Secure/i);

    const out = await authPost(request("POST", "/api/auth/sign-out", { cookie: session, origin: ORIGIN }, {}));
    expect(out.status).toBe(200);
    await expectError(await proxy(request("GET", "/api/threads", { cookie: session })), 401, "unauthorized");
  });

  it("rate-limits sign-in attempts per client address (the peer scripts/server.mjs records), in the database", async () => {
    const attempt = (ip: string) =>
      authPost(request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": ip }, { email: ADMIN.email, password: "guess" }));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await attempt("10.9.9.9")).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Even the right password waits now, from that address; another address signs in.
    expect((await authPost(request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": "10.9.9.9" }, ADMIN))).status).toBe(429);
    expect((await authPost(request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": "10.9.9.10" }, ADMIN))).status).toBe(200);
    expect(await (await db()).rateLimit.count()).toBeGreaterThan(0);
  });

  it("lets only admins sync sources and change models and providers; a member's token is a member too", async () => {
    const admin = await signIn(ADMIN, "10.1.0.1");
    const auth = await authFor(false);
    await auth.api.createUser({
      body: { email: MEMBER.email, password: MEMBER.password, name: "Bob", role: "member" },
      headers: new Headers({ cookie: admin }),
    });
    const member = await signIn(MEMBER, "10.1.0.2");
    await expectError(await syncRoute(request("POST", "/api/sources/sync", { cookie: member })), 403, "forbidden");
    expect((await syncRoute(request("POST", "/api/sources/sync", { cookie: admin }))).status).toBe(202);
    await expect(requireAdmin(new Headers({ cookie: member }), "change the models and providers")).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(requireAdmin(new Headers({ cookie: admin }), "change the models and providers")).resolves.toBeUndefined();

    const memberToken = (await (await createTokenRoute(request("POST", "/api/tokens", { cookie: member }, { name: "bob's agent" }))).json())
      .token as string;
    const adminToken = (await (await createTokenRoute(request("POST", "/api/tokens", { cookie: admin }, { name: "ada's agent" }))).json())
      .token as string;
    await expectError(await syncRoute(request("POST", "/api/sources/sync", { authorization: `Bearer ${memberToken}` })), 403, "forbidden");
    expect((await syncRoute(request("POST", "/api/sources/sync", { authorization: `Bearer ${adminToken}` }))).status).toBe(202);
    // The admin plugin's endpoints are not reachable over HTTP, a member's request least of all.
    const promote = await authPost(
      request("POST", "/api/auth/admin/set-role", { cookie: member, origin: ORIGIN }, { userId: "x", role: "admin" }),
    );
    expect(promote.status).toBe(404);
  });

  it("refuses impersonation and the admin plugin's other endpoints Threadline does not use, even to an admin", async () => {
    const admin = await signIn(ADMIN, "10.5.0.1");
    const database = await db();
    const member = await database.user.findUniqueOrThrow({ where: { email: MEMBER.email } });
    const sessionsBefore = await database.session.count();
    const post = (pathname: string, body: unknown) => authPost(request("POST", pathname, { cookie: admin, origin: ORIGIN }, body));
    for (const pathname of [
      "/api/auth/admin/impersonate-user",
      "/api/auth/admin/impersonate-user/",
      "/api/auth//admin/impersonate-user",
      "/api/auth/admin/impersonate-user?x=1",
    ]) {
      const response = await post(pathname, { userId: member.id });
      expect(response.status, pathname).toBe(404);
      expect(response.headers.getSetCookie().join(";"), pathname).not.toContain("session_token");
    }
    expect((await post("/api/auth/admin/stop-impersonating", {})).status).toBe(404);
    expect((await post("/api/auth/admin/ban-user", { userId: member.id })).status).toBe(404);
    expect((await post("/api/auth/admin/set-role", { userId: member.id, role: "admin" })).status).toBe(404);
    expect(
      (await post("/api/auth/admin/create-user", { email: "mallory@example.com", password: "mallory password", name: "Mallory" })).status,
    ).toBe(404);
    expect((await authGet(request("GET", `/api/auth/admin/list-users`, { cookie: admin }))).status).toBe(404);
    expect((await authGet(request("GET", `/api/auth/admin/get-user?id=${member.id}`, { cookie: admin }))).status).toBe(404);

    // Called on the server with an admin's session, impersonation is refused as well.
    const auth = await authFor(false);
    await expect(auth.api.impersonateUser({ body: { userId: member.id }, headers: new Headers({ cookie: admin }) })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(auth.api.banUser({ body: { userId: member.id }, headers: new Headers({ cookie: admin }) })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await database.session.count()).toBe(sessionsBefore);
    expect(await database.session.count({ where: { impersonatedBy: { not: null } } })).toBe(0);
    expect(await database.user.findUniqueOrThrow({ where: { id: member.id } })).toMatchObject({ role: "member", banned: false });
    expect(await database.user.count({ where: { email: "mallory@example.com" } })).toBe(0);
  });

  it("creates, lists and revokes API tokens: a member sees and revokes their own, an admin everyone's; revoked and expired tokens are refused at once", async () => {
    const admin = await signIn(ADMIN, "10.2.0.1");
    const member = await signIn(MEMBER, "10.2.0.2");
    const created = await createTokenRoute(request("POST", "/api/tokens", { cookie: member, origin: ORIGIN }, { name: "ci" }));
    expect(created.status).toBe(201);
    const { id, token } = (await created.json()) as { id: string; token: string };
    expect(token).toMatch(/^tl_[A-Za-z0-9_-]{43}$/);

    // The token acts as the member, on the REST API and MCP alike, without an Origin.
    expect(passes(await proxy(request("GET", "/api/threads", { authorization: `Bearer ${token}` })))).toBe(true);
    expect(passes(await proxy(request("POST", "/api/mcp", { authorization: `Bearer ${token}` }, {})))).toBe(true);
    expect(passes(await proxy(request("GET", "/api/events", { authorization: `Bearer ${token}` })))).toBe(true);

    const memberList = (await (await listTokensRoute(request("GET", "/api/tokens", { cookie: member }))).json()).tokens as any[];
    expect(memberList.every((t) => t.userEmail === MEMBER.email)).toBe(true);
    const mine = memberList.find((t) => t.id === id);
    expect(mine).toMatchObject({ name: "ci", prefix: token.slice(0, 7), expiresAt: null });
    expect(mine.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(memberList)).not.toContain(token);
    const adminList = (await (await listTokensRoute(request("GET", "/api/tokens", { cookie: admin }))).json()).tokens as any[];
    expect(new Set(adminList.map((t) => t.userEmail))).toEqual(new Set([ADMIN.email, MEMBER.email]));

    // A member cannot revoke an admin's token; an API token manages no tokens.
    const adminTokenId = adminList.find((t) => t.userEmail === ADMIN.email).id as string;
    await expectError(
      await revokeRoute(request("DELETE", `/api/tokens/${adminTokenId}`, { cookie: member }), {
        params: Promise.resolve({ id: adminTokenId }),
      }),
      404,
      "not_found",
    );
    await expectError(
      await createTokenRoute(request("POST", "/api/tokens", { authorization: `Bearer ${token}` }, { name: "child" })),
      403,
      "forbidden",
    );
    await expectError(
      await createTokenRoute(request("POST", "/api/tokens", { cookie: member }, { name: "old", expiresAt: "2020-01-01T00:00:00Z" })),
      400,
      "validation_failed",
    );

    // Revoked: refused on the next request.
    expect(
      (await revokeRoute(request("DELETE", `/api/tokens/${id}`, { cookie: member }), { params: Promise.resolve({ id }) })).status,
    ).toBe(204);
    await expectError(await proxy(request("GET", "/api/threads", { authorization: `Bearer ${token}` })), 401, "unauthorized");

    // Expired: refused the moment its expiry passes.
    const soon = (await (
      await createTokenRoute(
        request("POST", "/api/tokens", { cookie: member }, { name: "short", expiresAt: new Date(Date.now() + 60_000).toISOString() }),
      )
    ).json()) as { id: string; token: string };
    expect(passes(await proxy(request("GET", "/api/threads", { authorization: `Bearer ${soon.token}` })))).toBe(true);
    await (await db()).apiToken.update({ where: { id: soon.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expectError(await proxy(request("GET", "/api/threads", { authorization: `Bearer ${soon.token}` })), 401, "unauthorized");

    // An admin revokes anyone's.
    const other = (await (await createTokenRoute(request("POST", "/api/tokens", { cookie: member }, { name: "other" }))).json()) as {
      id: string;
      token: string;
    };
    expect(
      (await revokeRoute(request("DELETE", `/api/tokens/${other.id}`, { cookie: admin }), { params: Promise.resolve({ id: other.id }) }))
        .status,
    ).toBe(204);
    await expectError(await proxy(request("GET", "/api/threads", { authorization: `Bearer ${other.token}` })), 401, "unauthorized");
  });

  it("keeps no plain token, password or session cookie anywhere in the database or the logs", async () => {
    const session = await signIn(MEMBER, "10.3.0.1");
    const { token } = (await (await createTokenRoute(request("POST", "/api/tokens", { cookie: session }, { name: "scan" }))).json()) as {
      token: string;
    };
    expect(passes(await proxy(request("GET", "/api/threads", { authorization: `Bearer ${token}` })))).toBe(true);
    const database = (await db()) as unknown as Record<string, { findMany(): Promise<unknown[]> }>;
    let dump = "";
    for (const table of COPIED_TABLES)
      dump += JSON.stringify(await database[table.model]!.findMany(), (_k, v) => (typeof v === "bigint" ? String(v) : v));
    expect(dump).toContain(token.slice(0, 7)); // the listed prefix
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.slice(7));
    expect(dump).not.toContain(MEMBER.password);
    expect(dump).not.toContain(ADMIN.password);
    const logs = logged.join("\n");
    for (const secret of [token, MEMBER.password, ADMIN.password, decodeURIComponent(session.split("=")[1]!)])
      expect(logs).not.toContain(secret);
  });

  it("answers Better Auth's session endpoint", async () => {
    const session = await signIn(ADMIN, "10.4.0.1");
    const response = await authGet(request("GET", "/api/auth/get-session", { cookie: session }));
    expect((await response.json()).user.email).toBe(ADMIN.email);
  });

  it("with sign-in off, keeps today's behaviour: no session asked, and no tokens", async () => {
    setServerEnv({ THREADLINE_AUTH: "off" });
    try {
      expect(passes(await proxy(request("GET", "/api/threads")))).toBe(true);
      expect(passes(await proxy(request("GET", "/threads")))).toBe(true);
      await expectError(await createTokenRoute(request("POST", "/api/tokens", {}, { name: "x" })), 409, "conflict");
      expect((await syncRoute(request("POST", "/api/sources/sync"))).status).toBe(202);
    } finally {
      setServerEnv({ THREADLINE_AUTH: "on" });
    }
  });
});
