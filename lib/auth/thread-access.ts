import "server-only";
import { db } from "@/lib/db/engine/client";
import { firstAdminId } from "@/lib/db/people/first-admin";
import { threadNotFound } from "@/lib/db/threads/threads";
import { mayChangeVisibility, mayRead, mayWrite, type OwnedThread, type Reader } from "@/lib/domain/access";
import { AppError } from "@/lib/domain/errors";
import { normalizeId } from "@/lib/domain/ids";

/** Who owns a stored thread and who may read it; null when no thread has this id. */
async function threadAccess(id: string): Promise<OwnedThread | null> {
  const normalized = normalizeId(id);
  if (!normalized) return null;
  return (await db()).thread.findUnique({ where: { id: normalized }, select: { ownerId: true, visibility: true } });
}

/**
 * Refuses a thread the reader may not read with the same answer as a thread that does not exist
 * (existence is private too). A thread that does not exist is left to the caller's own lookup.
 */
export async function requireReadableThread(reader: Reader, id: string): Promise<void> {
  if (reader === null) return;
  const thread = await threadAccess(id);
  if (thread && !mayRead(reader, thread)) throw threadNotFound(id.toLowerCase());
}

/** As requireReadableThread, then refuses anyone but its owner or an admin: changing, sharing, purging. */
export async function requireManageableThread(reader: Reader, id: string): Promise<void> {
  if (reader === null) return;
  const thread = await threadAccess(id);
  if (!thread) return;
  if (!mayRead(reader, thread) && reader.role !== "admin") throw threadNotFound(id.toLowerCase());
  if (!mayChangeVisibility(reader, thread)) throw new AppError("forbidden", "Only the thread's owner or an admin may change it.");
}

/** Refuses a viewer what would create or change a thread (they read what the team shares). */
export function refuseViewer(reader: Reader): void {
  if (!mayWrite(reader)) throw viewerRefusal();
}

export const viewerRefusal = (): AppError =>
  new AppError("forbidden", "A viewer reads what the team shares; an admin can make you a member to write.");

/**
 * What the thread page says of who reads a thread, with sign-in on (undefined with it off): whose
 * it is ("you", or their name) and whether the reader may share it or make it private.
 */
export async function threadAccessView(reader: Reader, thread: OwnedThread): Promise<{ owner: string; canChange: boolean } | undefined> {
  if (reader === null) return undefined;
  const ownerId = thread.ownerId ?? (await firstAdminId());
  const owner =
    ownerId === reader.userId
      ? "you"
      : ownerId === null
        ? "the first admin"
        : ((await (await db()).user.findUnique({ where: { id: ownerId }, select: { name: true } }))?.name ?? "a former member");
  return { owner, canChange: mayChangeVisibility(reader, thread) };
}
