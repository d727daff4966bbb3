import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { admin, genericOAuth } from "better-auth/plugins";
import { adminAc, userAc } from "better-auth/plugins/admin/access";
import { db } from "@/lib/db/engine/client";
import { databaseKind } from "@/lib/db/engine/create-client";
import { serverSecret } from "@/lib/db/people/server-secrets";
import { disabledAuthPaths, SIGN_IN_PEER_LIMIT } from "@/lib/domain/requests/sign-in";
import { serverSettings, type AuthSettings } from "@/lib/env";
import { ensureFirstAdmin } from "./first-admin";
import { CLIENT_HEADER, countAccountAttempt, settleAccountAttempt, withClientAddress, withRetryAfter } from "./sign-in-limits";

/** The provider id of single sign-on: it starts at POST /api/auth/sign-in/social {provider: "oidc"} and returns to /api/auth/callback/oidc. */
const OIDC_PROVIDER_ID = "oidc";

function createAuth(options: {
  settings: AuthSettings;
  secret: string;
  secure: boolean;
  database: Awaited<ReturnType<typeof db>>;
  trustedOrigins: string[];
}) {
  const { settings } = options;
  // Roles for managing people; impersonation, bans and the rest are turned off below.
  const adminPlugin = admin({ defaultRole: "member", adminRoles: ["admin"], roles: { admin: adminAc, member: userAc, viewer: userAc } });
  const disabled = disabledAuthPaths(Object.values(adminPlugin.endpoints).map((endpoint) => endpoint.path));
  const refused = new Set(disabled.always);
  return betterAuth({
    appName: "Threadline",
    secret: options.secret,
    // Unset: Better Auth takes each request's own origin (the proxy has checked its Host already).
    ...(settings.publicUrl ? { baseURL: settings.publicUrl } : {}),
    basePath: "/api/auth",
    database: prismaAdapter(options.database, { provider: databaseKind(options.database) === "postgres" ? "postgresql" : "sqlite" }),
    // Passwords are hashed by Better Auth with scrypt (memory-hard); nobody signs themselves up.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8, maxPasswordLength: 256 },
    // Sessions live in the database only (no cookie cache), so a sign-out or a removed person ends at once on every instance.
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      // Per client address; /sign-in/email is limited per account as well (the hooks below).
      customRules: { "/sign-in/email": SIGN_IN_PEER_LIMIT, "/sign-in/social": SIGN_IN_PEER_LIMIT },
    },
    // The proxy has checked the Host header against the server's names and refused foreign
    // Origins already; Better Auth's own Origin check then trusts the page on that Host (the
    // request URL Next.js hands a route may name the bind address instead) and the listed origins.
    trustedOrigins: (request?: Request) => {
      const host = request?.headers.get("host");
      return [...options.trustedOrigins, ...(host ? [`http://${host}`, `https://${host}`] : [])];
    },
    telemetry: { enabled: false },
    advanced: {
      useSecureCookies: options.secure,
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true, secure: options.secure },
      // The address handleAuthRequest works out (never X-Forwarded-For as a client wrote it).
      ipAddress: { ipAddressHeaders: [CLIENT_HEADER] },
    },
    logger: { level: "warn" },
    // Better Auth's supported switch: these answer 404 over HTTP, however the caller is signed in.
    disabledPaths: disabled.overHttp,
    hooks: {
      // Keyed on the endpoint's own path, so no spelling of a URL reaches them, and a call from the
      // server (auth.api.impersonateUser) is refused too.
      before: createAuthMiddleware(async (ctx) => {
        if (refused.has(ctx.path)) throw new APIError("NOT_FOUND", { message: "Threadline does not use this endpoint." });
        await countAccountAttempt(ctx.path, ctx.body, ctx.context);
      }),
      after: createAuthMiddleware(async (ctx) => {
        await settleAccountAttempt(ctx.context.returned, ctx.context);
      }),
    },
    plugins: [
      adminPlugin,
      ...(settings.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  discoveryUrl: `${settings.oidc.issuer}/.well-known/openid-configuration`,
                  clientId: settings.oidc.clientId,
                  clientSecret: settings.oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
      // Server actions that sign in or out set the cookies through next/headers.
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { threadlineAuth?: Map<string, Promise<Auth>> };

/**
 * The Better Auth instance for a request: cookies are Secure when the server is reached over
 * https (THREADLINE_URL's scheme when set, else the request's own or its proxy's
 * X-Forwarded-Proto), so there is one instance for each. Built on first use: the secret comes
 * from THREADLINE_AUTH_SECRET or the database, and the first admin is created from the
 * environment when nobody exists yet.
 */
export function authFor(secure: boolean): Promise<Auth> {
  const settings = serverSettings();
  const key = `${serverSettings().databaseUrl}|${secure}`;
  const cache = (globalForAuth.threadlineAuth ??= new Map());
  let entry = cache.get(key);
  if (!entry) {
    entry = (async () => {
      const database = await db();
      const secret = settings.auth.secret ?? (await serverSecret("auth"));
      const trustedOrigins = [...settings.requestGuard.allowedOrigins, ...(settings.auth.publicUrl ? [settings.auth.publicUrl] : [])];
      const auth = createAuth({ settings: settings.auth, secret, secure, database, trustedOrigins });
      await ensureFirstAdmin(auth, settings.auth.admin);
      return auth;
    })();
    entry.catch(() => cache.delete(key));
    cache.set(key, entry);
  }
  return entry;
}

/** Better Auth's answer to an HTTP request under /api/auth, with the client's address worked out first. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const auth = await authFor(isSecureRequest(request.headers, request.url));
  return withRetryAfter(await auth.handler(withClientAddress(request)));
}

/** Whether a request reached the server over https (directly, or through a proxy that says so). */
export function isSecureRequest(headers: Headers, url?: string): boolean {
  const publicUrl = serverSettings().auth.publicUrl;
  if (publicUrl) return publicUrl.startsWith("https:");
  const forwarded = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === "https";
  return url?.startsWith("https:") ?? false;
}

/**
 * Tests change the environment between cases.
 * @internal exported for its tests
 */
export function resetAuthForTests(): void {
  globalForAuth.threadlineAuth?.clear();
}
