import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import { quoteInput } from "@/lib/domain/secrets/quote";
import type { ShareLinkView } from "@/lib/domain/sharing/share-links";
import { db } from "../engine/client";

/** Who a list or a revocation is for: everyone's links (an admin, or sign-in off), or one person's. */
export type ShareLinkScope = { createdById: string } | "all";

/** A stored link as the shared page needs it. */
type StoredShareLink = { id: string; threadId: string; tokenHash: string; expiresAt: Date; subagents: boolean };

/** Stores a link by its token's hash (the token itself is never stored). */
export async function insertShareLink(input: {
  threadId: string;
  tokenHash: string;
  createdById: string | null;
  createdByName: string | null;
  expiresAt: Date;
  subagents: boolean;
  now: Date;
}): Promise<{ id: string }> {
  const client = await db();
  const id = randomUUID();
  await client.shareLink.create({
    data: {
      id,
      threadId: input.threadId,
      tokenHash: input.tokenHash,
      createdById: input.createdById,
      createdByName: input.createdByName,
      createdAt: input.now,
      expiresAt: input.expiresAt,
      subagents: input.subagents,
    },
  });
  return { id };
}

/** The links a scope sees, optionally one thread's, newest first, with their thread's title. */
export async function listShareLinks(scope: ShareLinkScope, options: { threadId?: string; now: Date }): Promise<ShareLinkView[]> {
  const client = await db();
  const rows = await client.shareLink.findMany({
    where: {
      ...(scope === "all" ? {} : { createdById: scope.createdById }),
      ...(options.threadId ? { threadId: options.threadId } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: { thread: { select: { title: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    threadId: row.threadId,
    threadTitle: row.thread.title,
    createdBy: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt <= options.now,
    views: row.views,
    subagents: row.subagents,
  }));
}

/** The link stored under a token's hash, or null. */
export async function findShareLinkByHash(tokenHash: string): Promise<StoredShareLink | null> {
  const client = await db();
  return client.shareLink.findUnique({
    where: { tokenHash },
    select: { id: true, threadId: true, tokenHash: true, expiresAt: true, subagents: true },
  });
}

/** Counts one view of a link; false when it was revoked meanwhile. */
export async function countShareView(id: string, now: Date): Promise<boolean> {
  const client = await db();
  const { count } = await client.shareLink.updateMany({ where: { id }, data: { views: { increment: 1 }, lastViewedAt: now } });
  return count > 0;
}

/**
 * Revokes (deletes) a link at once: an unknown id is not found; another person's link, for a
 * scope that is one person's, is forbidden.
 */
export async function deleteShareLink(id: string, scope: ShareLinkScope): Promise<void> {
  const client = await db();
  const row = await client.shareLink.findUnique({ where: { id }, select: { createdById: true } });
  if (!row) throw new AppError("not_found", `Share link ${quoteInput(id)} not found`);
  if (scope !== "all" && row.createdById !== scope.createdById) {
    throw new AppError("forbidden", "Only an admin may revoke a link someone else made.");
  }
  await client.shareLink.deleteMany({ where: { id } });
}
