import "server-only";
import { AppError } from "@/lib/domain/errors";
import { searchableText } from "@/lib/domain/secrets/detect";
import type { JsonObject, Turn } from "@/lib/domain/types";
import { db } from "../engine/client";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { jsonOrNull, withStoredCount, WITH_SNAPSHOTS } from "../engine/mappers";
import { WRITE_TRANSACTION } from "../engine/transactions";
import { getThread } from "./threads";
import { threadsWritten } from "./thread-writes";

/**
 * One turn of a thread by its 0-based index: what the UI loads when a long turn, shown as a
 * preview, is expanded. The thread must be visible (not expired, unless `includeExpired`).
 */
export async function getTurn(threadId: string, index: number, visibility: { includeExpired?: boolean } = {}): Promise<Turn> {
  await getThread(threadId, visibility); // not_found or expired, as for the whole thread
  const row = await (
    await db()
  ).turn.findUnique({
    where: { threadId_index: { threadId, index } },
    include: { ...WITH_SNAPSHOTS, tokenCounts: { where: { tokenizer: DEFAULT_TOKENIZER_ID }, select: { tokens: true, estimated: true } } },
  });
  if (!row) throw new AppError("not_found", `Thread ${threadId} has no turn ${index}`);
  // Counted when the thread was read, as every turn is before its long content can be asked for.
  return withStoredCount(row);
}

/** One turn of a thread by its id (a link to a turn names its id): as getTurn. */
export async function getTurnById(threadId: string, turnId: string, visibility: { includeExpired?: boolean } = {}): Promise<Turn> {
  await getThread(threadId, visibility);
  const row = await (
    await db()
  ).turn.findFirst({
    where: { threadId, id: turnId },
    include: { ...WITH_SNAPSHOTS, tokenCounts: { where: { tokenizer: DEFAULT_TOKENIZER_ID }, select: { tokens: true, estimated: true } } },
  });
  if (!row) throw new AppError("not_found", `Thread ${threadId} has no turn ${turnId}`);
  return withStoredCount(row);
}

/**
 * Replaces a turn's modelMetadata (the chat marks a user turn its model never answered, and
 * unmarks it when a retry is answered); content and attribution stay as they were.
 */
export async function setTurnMetadata(threadId: string, index: number, metadata: JsonObject | null): Promise<Turn> {
  const client = await db();
  const [row] = await client.$transaction([
    client.turn.update({
      where: { threadId_index: { threadId, index } },
      data: { modelMetadata: jsonOrNull(metadata) },
      include: {
        ...WITH_SNAPSHOTS,
        tokenCounts: { where: { tokenizer: DEFAULT_TOKENIZER_ID }, select: { tokens: true, estimated: true } },
      },
    }),
    // The metadata may carry usage: the thread's usage is summed again (lib/db/usage/usage-aggregates.ts).
    client.usageThread.updateMany({ where: { threadId }, data: { turnCount: -1 } }),
  ]);
  threadsWritten([threadId]);
  return withStoredCount(row);
}

/**
 * Takes back the last turn of a thread (a chat message whose history turned out not to fit, or
 * could not be built): the turn goes, with its counts and snapshots, and the thread's turn count
 * and estimate return to what they were; `title` restores a title the turn had given it.
 */
export async function removeLastTurn(threadId: string, turnId: string, title: { restore: string | null } | null): Promise<void> {
  const client = await db();
  await client.$transaction(async (tx) => {
    const turn = await tx.turn.findUnique({ where: { id: turnId }, select: { threadId: true, index: true, tokenEstimate: true } });
    const thread = await tx.thread.findUnique({ where: { id: threadId }, select: { turnCount: true } });
    if (!turn || !thread || turn.threadId !== threadId || turn.index !== thread.turnCount - 1) {
      throw new AppError("conflict", `Turn ${turnId} is no longer the last turn of thread ${threadId}.`);
    }
    await tx.turn.delete({ where: { id: turnId } });
    // Usage buckets add appended turns to what they hold: a removed one makes the thread summed again.
    await tx.usageThread.updateMany({ where: { threadId }, data: { turnCount: -1 } });
    await tx.thread.update({
      where: { id: threadId },
      data: {
        turnCount: { decrement: 1 },
        tokenEstimate: { decrement: turn.tokenEstimate },
        ...(title ? { title: title.restore, searchTitle: searchableText(title.restore) } : {}),
      },
    });
  }, WRITE_TRANSACTION);
  threadsWritten([threadId]);
}
