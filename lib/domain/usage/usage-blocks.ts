/**
 * 5-hour blocks (groupBy=block, `npm run usage -- blocks`): the windows Claude's plans meter use
 * in, counted as ccusage counts them. All responses in time order; a block starts at its first
 * response's UTC hour (floored) and lasts 5 hours; the first response after that starts the next.
 * (ccusage also starts a block after 5 hours without a response: that response is necessarily more
 * than 5 hours after its block's start, so the one rule covers both.) Pure.
 */
import { addFigures, emptyFigures, type UsageFigures, type UsageRow } from "./usage-report";

export const BLOCK_HOURS = 5;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const BLOCK_MS = BLOCK_HOURS * HOUR_MS;

/** Responses summed at one instant or hour, for one model (the buckets a report reads, or single responses). */
export type BlockEntry = { at: number; model: string; figures: UsageFigures };

/** The entries of one block, in time order. */
export type BlockGroup<E extends BlockEntry> = { start: number; end: number; entries: E[] };

/**
 * Entries grouped into blocks. An entry at `start + 5 h` or later opens the next block: entries
 * are at most hour-exact (the report reads hourly sums), so a response at the very millisecond a
 * block ends opens the next one, where ccusage still counts it in the ending block.
 */
export function groupIntoBlocks<E extends BlockEntry>(entries: readonly E[]): BlockGroup<E>[] {
  const sorted = [...entries].sort((a, b) => a.at - b.at);
  const blocks: BlockGroup<E>[] = [];
  for (const entry of sorted) {
    const current = blocks.at(-1);
    if (current && entry.at < current.end) {
      current.entries.push(entry);
      continue;
    }
    const start = Math.floor(entry.at / HOUR_MS) * HOUR_MS;
    blocks.push({ start, end: start + BLOCK_MS, entries: [entry] });
  }
  return blocks;
}

/** All tokens a block's responses used: input, output and cache (what ccusage's totalTokens and burn rate count). */
export function blockTokens(figures: UsageFigures): number {
  return figures.inputTokens + figures.outputTokens + figures.cacheReadTokens + figures.cacheWriteTokens;
}

/** What a block's row needs besides its entries: its first and last response's exact instants, and its distinct threads. */
export type BlockEdges = { firstResponseAt: number; lastResponseAt: number; threads: number };

/**
 * A block's report row: the entries' figures summed, keyed by its start, with the block's fields.
 * Active (now within 5 hours of its last response and before its end): the burn rate between its
 * first and last response (none when they are the same instant) and what it comes to at the end.
 */
export function blockRow(block: BlockGroup<BlockEntry>, edges: BlockEdges, now: Date): UsageRow {
  const figures = emptyFigures();
  const models: string[] = [];
  for (const entry of block.entries) {
    addFigures(figures, entry.figures);
    if (entry.model !== "" && !models.includes(entry.model)) models.push(entry.model);
  }
  figures.threads = edges.threads;
  const at = now.getTime();
  const isActive = at - edges.lastResponseAt < BLOCK_MS && at < block.end;
  const row: UsageRow = {
    key: new Date(block.start).toISOString(),
    ...figures,
    start: new Date(block.start).toISOString(),
    end: new Date(block.end).toISOString(),
    lastResponseAt: new Date(edges.lastResponseAt).toISOString(),
    isActive,
    models,
  };
  const minutes = (edges.lastResponseAt - edges.firstResponseAt) / MINUTE_MS;
  if (!isActive || minutes <= 0) return row;
  const tokensPerMinute = blockTokens(figures) / minutes;
  const costUsdPerMinute = figures.costUsd / minutes;
  const remainingMinutes = Math.max(0, (block.end - at) / MINUTE_MS);
  return {
    ...row,
    burnRate: { tokensPerMinute, costUsdPerMinute },
    projection: {
      totalTokens: Math.round(blockTokens(figures) + tokensPerMinute * remainingMinutes),
      costUsd: figures.costUsd + costUsdPerMinute * remainingMinutes,
      remainingMinutes: Math.round(remainingMinutes),
    },
  };
}

/**
 * A token limit as a number: "max" is the most tokens a completed (not active) block used, as
 * ccusage resolves it; null when there is no completed block to take it from.
 */
export function resolveTokenLimit(limit: number | "max", rows: readonly UsageRow[]): number | null {
  if (limit !== "max") return limit;
  const completed = rows.filter((row) => !row.isActive).map(blockTokens);
  return completed.length > 0 ? Math.max(...completed) : null;
}

/** Rows marked with whether their tokens exceed the limit. */
export function withTokenLimit(rows: readonly UsageRow[], limit: number): UsageRow[] {
  return rows.map((row) => ({ ...row, overTokenLimit: blockTokens(row) > limit }));
}
