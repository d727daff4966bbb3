import "server-only";
import type { JsonObject, ThreadHead, Turn, TurnRole } from "@/lib/domain/types";
import { encodeTurnCursor } from "@/lib/domain/threads/cursor";
import { turnUsages } from "@/lib/domain/usage/usage";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { db } from "../engine/client";
import { contextTokensBefore } from "./dialect-turns";
import { withStoredCount, WITH_SNAPSHOTS } from "../engine/mappers";
import { storedThreadUsage, withTurnCosts } from "../usage/session-usage";
import { getThread, getThreadWithTurns, withTokenTotals } from "./threads";

type Visibility = { includeExpired?: boolean };

/** GET /api/threads/:id answers at most this many turns; the rest are paged (GET /api/threads/:id/turns). */
const THREAD_TURN_CAP = 1_000;

/**
 * A thread and its turns, whole up to THREAD_TURN_CAP; a longer thread with its first turns,
 * `turnsTruncated` and the address of the next page. Its token total and usage are the whole
 * thread's either way (and, past the cap, its own cost, priced from the same read of its usage).
 */
export async function getThreadHead(threadId: string, cap = THREAD_TURN_CAP, visibility: Visibility = {}): Promise<ThreadHead> {
  const thread = await getThread(threadId, visibility);
  if (thread.turnCount <= cap) return getThreadWithTurns(threadId, visibility);
  const [page, [counted], { usage, cost }] = await Promise.all([
    listTurns(threadId, 0, cap, visibility),
    withTokenTotals([thread]),
    storedThreadUsage(thread),
  ]);
  return {
    thread: { ...counted!, usage, cost },
    turns: page.items,
    ...(page.nextCursor ? { turnsTruncated: true as const, moreTurns: `/api/threads/${threadId}/turns?cursor=${page.nextCursor}` } : {}),
  };
}

export type TurnPage = { items: Turn[]; nextCursor: string | null };

/**
 * A page of a thread's turns in index order, from index `start`: keyset on (threadId, index), so
 * the 30,000th turn costs what the first does. Each turn as GET /api/threads/:id gives it: its
 * stored token count, its usage (an estimated one starts from the tokens before the page) and its price.
 */
export async function listTurns(threadId: string, start: number, limit: number, visibility: Visibility = {}): Promise<TurnPage> {
  await getThread(threadId, visibility); // not found or expired (unless asked for), as for the whole thread
  const client = await db();
  const rows = await client.turn.findMany({
    where: { threadId, index: { gte: start } },
    orderBy: { index: "asc" },
    take: limit + 1,
    include: { ...WITH_SNAPSHOTS, tokenCounts: { where: { tokenizer: DEFAULT_TOKENIZER_ID }, select: { tokens: true, estimated: true } } },
  });
  const page = rows.slice(0, limit);
  const turns = page.map(withStoredCount);
  const needsContext = turns.some((turn) => turn.role === "assistant");
  const context = needsContext ? await contextTokensBefore(client, threadId, start, DEFAULT_TOKENIZER_ID) : 0;
  const usages = turnUsages(turns, context);
  const last = page.at(-1);
  return {
    items: await withTurnCosts(turns.map((turn, i) => ({ ...turn, usage: usages[i] ?? null }))),
    nextCursor: rows.length > limit && last ? encodeTurnCursor(last.index + 1) : null,
  };
}

/**
 * How many of a thread's turns are model responses (a usage reported, or an assistant turn: as
 * turnUsages counts them), read from their roles and metadata only: the thread page's totals say
 * "N responses" without reading every turn.
 */
export async function countResponses(threadId: string): Promise<number> {
  const rows = await (await db()).turn.findMany({ where: { threadId }, select: { role: true, modelMetadata: true } });
  const usages = turnUsages(
    rows.map((row) => ({ role: row.role as TurnRole, modelMetadata: metadataOf(row.modelMetadata), tokens: 0, tokenEstimate: 0 })),
  );
  return usages.filter((usage) => usage !== null).length;
}

function metadataOf(text: string | null): JsonObject | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as JsonObject;
  } catch {
    return null;
  }
}
