import "server-only";
import type { TokenCount, TokenizerId } from "@/lib/domain/tokens/tokenizer";
import type { Thread, Turn } from "@/lib/domain/types";
import { threadUsage, turnUsages } from "@/lib/domain/usage/usage";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { serverSettings } from "@/lib/env";
import { db } from "../engine/client";
import { inChunks } from "../engine/chunks";
import { withImportWriter } from "../imports/import-writer";

type CountedTurn = { id: string; threadId: string; content: string };

/** A count to store: the turn as it was read for counting (its seq and id), its thread, the count. */
export type TokenCountRow = { turnSeq: number; turnId: string; threadId: string } & TokenCount;

/**
 * Each turn's content measured by `tokenizer`, keyed by turn id. Counts are stored the first
 * time they are asked for and read back afterwards, so no request re-tokenises a thread; they are
 * measured with countTexts, off the event loop when there is much to count.
 */
export async function contentTokenCounts(turns: CountedTurn[], tokenizer: TokenizerId): Promise<Map<string, TokenCount>> {
  const client = await db();
  const threadIds = [...new Set(turns.map((turn) => turn.threadId))];
  const stored = await inChunks(threadIds, (chunk) =>
    client.turnTokenCount.findMany({
      where: { tokenizer, threadId: { in: chunk } },
      select: { tokens: true, estimated: true, turn: { select: { id: true } } },
    }),
  );
  const counts = new Map(stored.map((row) => [row.turn.id, { tokens: row.tokens, estimated: row.estimated }]));
  const missing = turns.filter((turn) => !counts.has(turn.id));
  if (missing.length === 0) return counts;

  const measured = await countTexts(
    tokenizer,
    missing.map((turn) => turn.content),
  );
  missing.forEach((turn, i) => counts.set(turn.id, measured[i]!));
  const keys = await inChunks(
    missing.map((turn) => turn.id),
    (chunk) => client.turn.findMany({ where: { id: { in: chunk } }, select: { id: true, seq: true, threadId: true } }),
  );
  await storeTokenCounts(
    tokenizer,
    keys.map((k) => ({ turnSeq: k.seq, turnId: k.id, threadId: k.threadId, ...(counts.get(k.id) ?? { tokens: 0, estimated: false }) })),
  );
  return counts;
}

/**
 * Stores counts measured for turns that had none under `tokenizer`. Another request may have
 * stored some meanwhile, or deleted their turns (or rewritten them: a new seq or id): those are
 * skipped rather than failing.
 *
 * Through the import writer's statements, prepared once, in a transaction of their own: through
 * Prisma, each statement of a thousand counts went through its query compiler first (19 ms a
 * thousand on SQLite against 10), and a server counting a million turns held its event loop
 * for most of the time it counted.
 */
export async function storeTokenCounts(tokenizer: string, rows: TokenCountRow[]): Promise<void> {
  if (rows.length === 0) return;
  await withImportWriter(serverSettings().databaseUrl, (writer) => writer.insertTokenCounts(rows.map((row) => ({ ...row, tokenizer }))));
}

/**
 * Attaches real token counts (default tokenizer) to each turn and thread, counting turns not yet
 * counted, and the usage per response and per thread (reported, else estimated from those counts).
 */
export async function withCountedTokens<T extends { thread: Thread; turns: Turn[] }>(threads: T[]): Promise<T[]> {
  const counts = await contentTokenCounts(
    threads.flatMap((t) => t.turns),
    DEFAULT_TOKENIZER_ID,
  );
  return threads.map((entry) => {
    const counted = entry.turns.map((turn) => {
      const count = counts.get(turn.id) ?? { tokens: 0, estimated: false };
      return { ...turn, tokens: count.tokens, tokensEstimated: count.estimated };
    });
    const usages = turnUsages(counted);
    const turns = counted.map((turn, i) => ({ ...turn, usage: usages[i] ?? null }));
    const count = counted.reduce((sum, turn) => sum + turn.tokens, 0);
    const estimated = counted.some((turn) => turn.tokensEstimated);
    return {
      ...entry,
      turns,
      thread: { ...entry.thread, tokens: { tokenizer: DEFAULT_TOKENIZER_ID, count, estimated }, usage: threadUsage(usages) },
    };
  });
}
