import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import { isSecureRequest } from "@/lib/auth/server";
import {
  countShareView,
  deleteShareLink,
  findShareLinkByHash,
  insertShareLink,
  listShareLinks,
  type ShareLinkScope,
} from "@/lib/db/sharing/share-links";
import { getThread } from "@/lib/db/threads/threads";
import { AppError } from "@/lib/domain/errors";
import { maskSecrets } from "@/lib/domain/secrets/detect";
import { isShareToken, shareUrl, type CreatedShareLink, type ShareLinkView } from "@/lib/domain/sharing/share-links";
import { serverSettings } from "@/lib/env";
import type { CreateShareInput } from "@/lib/validation/shares";
import { readableExport } from "./readable-export";

/**
 * Share links: a thread shown read-only, secrets redacted, at /s/<token> to anyone holding the
 * link, until it expires or is revoked. With sign-in off there is one local user, who may do
 * everything; with it on, a person sees and revokes the links they made, an admin everyone's.
 */

const HOUR_MS = 3_600_000;
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** Whose links a principal sees and may revoke: everyone's (an admin, or sign-in off) or their own. */
function scopeOf(principal: Principal | null): ShareLinkScope {
  return principal === null || principal.role === "admin" ? "all" : { createdById: principal.userId };
}

/** Makes a link to a thread; the token comes back here only (its hash is stored). */
export async function createShareLink(
  threadId: string,
  input: CreateShareInput,
  principal: Principal | null,
  request: Request,
): Promise<CreatedShareLink> {
  await getThread(threadId); // an unknown (or expired) thread is not found
  const now = new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + input.expiresInHours * HOUR_MS);
  const { id } = await insertShareLink({
    threadId,
    tokenHash: hashOf(token),
    createdById: principal?.userId ?? null,
    createdByName: principal ? principal.name.trim() || principal.email : null,
    expiresAt,
    subagents: input.subagents,
    now,
  });
  return { id, url: shareUrl(token, originOf(request)), token, expiresAt: expiresAt.toISOString() };
}

/** The origin a link is written on: THREADLINE_URL, else the one the request came to (its Host, checked by the proxy). */
function originOf(request: Request): { publicUrl: string | null; host: string; secure: boolean } {
  return {
    publicUrl: serverSettings().auth.publicUrl,
    host: request.headers.get("host") ?? new URL(request.url).host,
    secure: isSecureRequest(request.headers, request.url),
  };
}

/** The links a principal may see (optionally one thread's), titles masked, never a token. */
export async function listShares(principal: Principal | null, threadId?: string): Promise<ShareLinkView[]> {
  const links = await listShareLinks(scopeOf(principal), { threadId, now: new Date() });
  return links.map((link) => ({ ...link, threadTitle: link.threadTitle === null ? null : maskSecrets(link.threadTitle) }));
}

/** Revokes a link at once: one's own, or (an admin, or sign-in off) anyone's. */
export async function revokeShare(id: string, principal: Principal | null): Promise<void> {
  await deleteShareLink(id, scopeOf(principal));
}

/** What a shared page shows: the thread's page, or why there is none. */
export type SharedPage = { kind: "page"; html: string } | { kind: "missing" } | { kind: "expired"; expiredAt: Date };

/**
 * The page a token opens, counting the view. A token of the wrong shape is missing without a
 * database read; the stored hash is compared in constant time after the indexed lookup.
 */
export async function openSharedPage(token: string, now = new Date()): Promise<SharedPage> {
  if (!isShareToken(token)) return { kind: "missing" };
  const hash = hashOf(token);
  const link = await findShareLinkByHash(hash);
  if (!link || !timingSafeEqual(Buffer.from(link.tokenHash, "hex"), Buffer.from(hash, "hex"))) return { kind: "missing" };
  if (link.expiresAt <= now) return { kind: "expired", expiredAt: link.expiresAt };
  let html: string;
  try {
    ({ body: html } = await readableExport(link.threadId, "html", { redact: true, subagents: link.subagents, chain: false, shared: true }));
  } catch (error) {
    // The thread expired (a purge deletes its links with it): the link shows nothing.
    if (error instanceof AppError && (error.code === "not_found" || error.code === "expired")) return { kind: "missing" };
    throw error;
  }
  // Revoked while the page was being written: it is not shown.
  return (await countShareView(link.id, now)) ? { kind: "page", html } : { kind: "missing" };
}
