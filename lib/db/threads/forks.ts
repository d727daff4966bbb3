import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import { titleFromContent } from "@/lib/domain/threads/title";
import type { ForkLinks, ForkRecord } from "@/lib/domain/threads/links";
import type { Thread } from "@/lib/domain/types";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { db } from "../engine/client";
import { insertDerivedThread } from "./derived-threads";
import { toThread } from "../engine/mappers";
import { getThreadWithTurns } from "./threads";
import { threadsWritten } from "./thread-writes";
import { WRITE_TRANSACTION } from "../engine/transactions";
import { newThreadOwner } from "../people/visibility";
import { readableWhere } from "../engine/readable";
import type { Reader } from "@/lib/domain/access";

/**
 * Forks a thread at a turn: a new thread holding copies of its turns 0..atTurn (attribution, parts
 * and file snapshots included), titled "<title> (fork)", in the source's place in its chain, with
 * the lineage recorded. The source is not written. An expired source answers 404, as the API does.
 */
/** `reader`: who forks; the fork is theirs. */
export async function forkThread(sourceId: string, atTurn: number, reader: Reader): Promise<{ thread: Thread; fork: ForkRecord }> {
  const source = await getThreadWithTurns(sourceId);
  if (atTurn >= source.turns.length) {
    const range = source.turns.length === 0 ? "it has no turns" : `turns are 0-${source.turns.length - 1}`;
    throw new AppError("validation_failed", `atTurn: thread ${sourceId} has ${source.turns.length} turns (${range}); got ${atTurn}`, [
      { field: "atTurn", message: `must be below ${source.turns.length}` },
    ]);
  }
  const kept = source.turns.slice(0, atTurn + 1);
  // Turns stored without a count are counted on the worker, before the transaction: never a vocabulary load on this thread.
  const uncounted = kept.filter((turn) => turn.tokens === null);
  const measured = await countTexts(
    DEFAULT_TOKENIZER_ID,
    uncounted.map((turn) => turn.content),
  );
  let next = 0;
  const tokens = kept.map((turn) =>
    turn.tokens !== null ? { tokens: turn.tokens, estimated: turn.tokensEstimated ?? false } : measured[next++]!,
  );
  const client = await db();
  const owner = await newThreadOwner(reader, source.thread.project);
  const { thread, fork } = await client.$transaction(async (tx) => {
    const thread = await insertDerivedThread(tx, {
      original: source,
      title: `${source.thread.title ?? titleFromContent(kept.find((t) => t.role === "user")?.content ?? "") ?? "Untitled"} (fork)`,
      source: "fork",
      metadata: { ...(source.thread.metadata ?? {}), forkedFrom: { threadId: sourceId, atTurn } },
      turns: kept.map((turn) => ({ ...turn, source: turn })),
      // Read with the thread, counted when it was stored: no re-tokenising.
      tokens,
      tokenizer: DEFAULT_TOKENIZER_ID,
      owner,
    });
    const fork = await tx.fork.create({
      data: { id: randomUUID(), sourceThreadId: sourceId, forkThreadId: thread.id, atTurn, createdAt: thread.createdAt },
    });
    return { thread, fork };
  }, WRITE_TRANSACTION);
  threadsWritten([thread.id]);
  return { thread: toThread(thread), fork: { ...fork, createdAt: fork.createdAt.toISOString() } };
}

/** The forks made of a thread and the fork it is, as far as `reader` may read them (one they may not is left out, or shown as gone). */
export async function forkLinks(threadId: string, reader: Reader): Promise<ForkLinks> {
  const client = await db();
  const [made, from] = await Promise.all([
    client.fork.findMany({
      where: { sourceThreadId: threadId, fork: readableWhere(reader) },
      orderBy: { createdAt: "desc" },
      include: { fork: { select: { title: true } } },
    }),
    client.fork.findUnique({ where: { forkThreadId: threadId } }),
  ]);
  const source = from
    ? await client.thread.findFirst({ where: { id: from.sourceThreadId, ...readableWhere(reader) }, select: { title: true } })
    : null;
  const record = (row: { id: string; sourceThreadId: string; forkThreadId: string; atTurn: number; createdAt: Date }): ForkRecord => ({
    id: row.id,
    sourceThreadId: row.sourceThreadId,
    forkThreadId: row.forkThreadId,
    atTurn: row.atTurn,
    createdAt: row.createdAt.toISOString(),
  });
  return {
    forks: made.map((row) => ({ ...record(row), forkTitle: row.fork.title })),
    forkedFrom: from ? { ...record(from), sourceTitle: source?.title ?? null, sourceExists: source !== null } : null,
  };
}
