import "server-only";
import type { ThreadLiveState } from "@/lib/domain/threads/live";
import { db } from "../engine/client";
import { threadLiveRows } from "../engine/dialect";
import { threadNotFound } from "./threads";

/** Each thread's live state, in the order asked; a thread that is gone (purged) is turnCount 0, lastUpdatedAt null. */
export async function threadLiveStates(ids: string[]): Promise<ThreadLiveState[]> {
  const rows = new Map((await threadLiveRows(await db(), ids)).map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = rows.get(id);
    return row
      ? { id, turnCount: row.turnCount, lastUpdatedAt: row.lastUpdatedAt.toISOString() }
      : { id, turnCount: 0, lastUpdatedAt: null };
  });
}

/** One thread's live state, expired or not (the thread page shows expired threads); 404 when there is no such thread. */
export async function threadLiveState(id: string): Promise<ThreadLiveState> {
  const [row] = await threadLiveRows(await db(), [id]);
  if (!row) throw threadNotFound(id);
  return { id, turnCount: row.turnCount, lastUpdatedAt: row.lastUpdatedAt.toISOString() };
}
