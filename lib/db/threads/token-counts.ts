import "server-only";
import type { TokenCount, TokenizerId } from "@/lib/domain/tokens/tokenizer";
import type { Thread, Turn } from "@/lib/domain/types";
import { threadUsage, turnUsages } from "@/lib/domain/usage/usage";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { db } from "../engine/client";
import { inChunks } from "../engine/chunks";
import { databaseKind } from "../engine/create-client";
import { run } from "../engine/dialect";

type CountedTurn = { id: string; threadId: string; content: string };

/** A stored count's key and value. */
export type TokenCountRow = { turnSeq: number; threadId: string } & TokenCount;

/** Counts one INSERT writes: 5 parameters each, well under both databases' limits. */
const COUNTS_PER_STATEMENT = 1_000;

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
    keys.map((k) => ({ turnSeq: k.seq, threadId: k.threadId, ...(counts.get(k.id) ?? { tokens: 0, estimated: false }) })),
  );
  return counts;
}

/**
 * Stores counts measured for turns that had none under `tokenizer`. Another request may have
 * stored some meanwhile, or deleted their turns: those are skipped rather than failing.
 */
export async function storeTokenCounts(tokenizer: string, rows: TokenCountRow[]): Promise<void> {
  const client = await db();
  const kind = databaseKind(client);
  // Raw multi-row statements: through Prisma (a read of which turns were still uncounted, then
  // createMany) the count backlog's writes held the one SQLite connection for most of its time,
  // and every request of a server counting a million turns waited 100-250 ms. Left out: a turn
  // deleted since it was read (its thread deleted meanwhile), and one another request counted
  // meanwhile (the key exists).
  for (let start = 0; start < rows.length; start += COUNTS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + COUNTS_PER_STATEMENT);
    await run(
      client,
      kind,
      `INSERT INTO "TurnTokenCount" ("turnSeq", "threadId", "tokenizer", "tokens", "estimated")
       SELECT v.column1, v.column2, v.column3, v.column4, v.column5
         FROM (VALUES ${chunk.map(() => "(CAST(? AS INTEGER), ?, ?, CAST(? AS INTEGER), CAST(? AS BOOLEAN))").join(", ")}) v
        WHERE EXISTS (SELECT 1 FROM "Turn" t WHERE t."seq" = v.column1)
       ON CONFLICT DO NOTHING`,
      ...chunk.flatMap((row) => [row.turnSeq, row.threadId, tokenizer, row.tokens, row.estimated]),
    );
  }
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
