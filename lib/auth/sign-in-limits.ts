import "server-only";
import { APIError } from "better-auth/api";
import { releaseSignInAttempt, reserveSignInAttempt } from "@/lib/db/people/sign-in-limits";
import { clientAddress } from "@/lib/domain/requests/client-address";
import { SIGN_IN_ACCOUNT_LIMIT, signInAccountKey } from "@/lib/domain/requests/sign-in";
import { serverSettings } from "@/lib/env";

/** Set by scripts/server.mjs on every request to the connection's address (any client-sent copy is dropped). */
const PEER_HEADER = "x-threadline-peer";
/** The client's address as clientAddress() works it out: the one header Better Auth reads an address from. */
export const CLIENT_HEADER = "x-threadline-client";

let warnedUnknownPeer = false;

/**
 * The request Better Auth is handed: CLIENT_HEADER set to the client's address, worked out from
 * the peer and, behind trusted proxies, X-Forwarded-For (lib/domain/requests/client-address.ts), and
 * removed when unknown, so a client can never name its own.
 */
export function withClientAddress(request: Request): Request {
  const settings = serverSettings().clientAddress;
  if (!settings.peerHeader && !warnedUnknownPeer) {
    warnedUnknownPeer = true;
    console.warn(
      "[threadline] started without scripts/server.mjs (npm start, npm run dev): client addresses are unknown, so every sign-in attempt counts against one shared limit",
    );
  }
  const address = clientAddress({
    peer: settings.peerHeader ? request.headers.get(PEER_HEADER) : null,
    forwardedFor: request.headers.get("x-forwarded-for"),
    trustedProxies: settings.trustedProxies,
  });
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_HEADER);
  if (address) headers.set(CLIENT_HEADER, address);
  return new Request(request, { headers });
}

/**
 * Better Auth's rate limiter answers 429 with its own X-Retry-After; clients and proxies read
 * the standard Retry-After (seconds).
 */
export function withRetryAfter(response: Response): Response {
  const retryAfter = response.headers.get("x-retry-after");
  if (response.status === 429 && retryAfter && !response.headers.has("retry-after")) response.headers.set("retry-after", retryAfter);
  return response;
}

/** The account and window an attempt was counted in, by the Better Auth call it belongs to. */
const counted = new WeakMap<object, { key: string; windowEnd: bigint }>();

/**
 * Better Auth's before hook for /sign-in/email: counts the attempt against the account it claims
 * (SIGN_IN_ACCOUNT_LIMIT), or refuses a locked account with 429 and Retry-After before the
 * password is checked. `call` is the hook's context object, which Better Auth hands to the
 * before and the after hooks of one call alike.
 */
export async function countAccountAttempt(path: string, body: unknown, call: object): Promise<void> {
  if (path !== "/sign-in/email") return;
  const key = signInAccountKey(body && typeof body === "object" ? (body as { email?: unknown }).email : undefined);
  if (!key) return;
  const reservation = await reserveSignInAttempt(key, SIGN_IN_ACCOUNT_LIMIT);
  if (!reservation.allowed) {
    const minutes = Math.ceil(reservation.retryAfter / 60);
    throw new APIError(
      "TOO_MANY_REQUESTS",
      {
        code: "ACCOUNT_LOCKED",
        message: `Too many failed sign-ins for this account: try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      },
      { "Retry-After": String(reservation.retryAfter) },
    );
  }
  counted.set(call, { key, windowEnd: reservation.windowEnd });
}

/**
 * Better Auth's after hook: an attempt that was not a wrong email or password (it signed in, or
 * was refused for another reason) is handed back, so only failures count. An attempt whose
 * handling threw is left counted.
 */
export async function settleAccountAttempt(returned: unknown, call: object): Promise<void> {
  const attempt = counted.get(call);
  if (!attempt) return;
  counted.delete(call);
  const status = returned && typeof returned === "object" && "statusCode" in returned ? returned.statusCode : 200;
  if (status !== 401) await releaseSignInAttempt(attempt.key, attempt.windowEnd);
}
