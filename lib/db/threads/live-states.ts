import "server-only";
import type { OwnedThread } from "@/lib/domain/access";
import type { ThreadLiveState } from "@/lib/domain/threads/live";
import { db } from "../engine/client";
import { threadLiveRows } from "../engine/dialect";
import { threadNotFound } from "./threads";

/**
 * Each thread's live state, in the order asked, with whose it is (`access`, for the live stream to
 * send it only to those who may read it); a thread that is gone (purged) is turnCount 0,
 * lastUpdatedAt null, and nobody's.
 */
export async function threadLiveStates(ids: string[]): Promise<{ state: ThreadLiveState; access: OwnedThread | null }[]> {
  const rows = new Map((await threadLiveRows(await db(), ids)).map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = rows.get(id);
    return row
      ? {
          state: { id, turnCount: row.turnCount, lastUpdatedAt: row.lastUpdatedAt.toISOString() },
          access: { ownerId: row.ownerId, visibility: row.visibility },
        }
      : { state: { id, turnCount: 0, lastUpdatedAt: null }, access: null };
  });
}

/** One thread's live state, expired or not (the thread page shows expired threads); 404 when there is no such thread. */
export async function threadLiveState(id: string): Promise<ThreadLiveState> {
  const [row] = await threadLiveRows(await db(), [id]);
  if (!row) throw threadNotFound(id);
  return { id, turnCount: row.turnCount, lastUpdatedAt: row.lastUpdatedAt.toISOString() };
}
