import "server-only";
import { blockRow, groupIntoBlocks, resolveTokenLimit, withTokenLimit, type BlockEntry } from "@/lib/domain/usage/usage-blocks";
import { QUARTER_MS } from "@/lib/domain/usage/usage-period";
import { addFigures, emptyFigures, sortRows, type UsageQuery, type UsageReport } from "@/lib/domain/usage/usage-report";
import type { Database, DatabaseKind } from "../engine/create-client";
import { run } from "../engine/dialect";
import { bucketsOf, figuresOf, SUMS, type FigureRow, type Numeric, type UsageScope } from "./usage-sql";

const HOUR_MS = 3_600_000;
const QUARTERS_PER_HOUR = 4;

type BlockRead = Pick<UsageReport, "rows" | "totals" | "tokenLimit">;

/**
 * GET /api/usage?groupBy=block: 5-hour blocks (lib/domain/usage/usage-blocks.ts) from the buckets
 * of the range and filters, summed per UTC hour and model. A block starts and ends on a whole hour,
 * so hourly sums decide which block each response is in; only each block's first and last
 * response instants (its burn rate, whether it is still active) are read from the turns, in the
 * block's first and last quarter-hour with data, of the threads that have buckets there.
 */
export async function readBlocks(
  client: Database,
  kind: DatabaseKind,
  query: UsageQuery & { scope: UsageScope },
  quarters: { startQuarter: number; endQuarter: number },
  now: Date,
): Promise<BlockRead> {
  const { from, params } = bucketsOf(query, quarters);
  const perHour = await run<FigureRow[]>(
    client,
    kind,
    `SELECT b."quarter" / ${QUARTERS_PER_HOUR} AS k0, b."modelName" AS k1, ${SUMS} ${from} GROUP BY 1, 2`,
    ...params,
  );
  const entries: BlockEntry[] = perHour.map((row) => ({
    at: Number(row.k0) * HOUR_MS,
    model: String(row.k1 ?? ""),
    figures: figuresOf(row),
  }));
  const blocks = groupIntoBlocks(entries);
  // Which threads have buckets in which quarter: each block's distinct threads, and those to look for its edges in.
  const present = await run<{ quarter: Numeric; threadId: string }[]>(
    client,
    kind,
    `SELECT DISTINCT b."quarter" AS quarter, b."threadId" AS "threadId" ${from}`,
    ...params,
  );
  const threadsByQuarter = new Map<number, Set<string>>();
  for (const { quarter, threadId } of present) {
    const set = threadsByQuarter.get(Number(quarter)) ?? new Set<string>();
    threadsByQuarter.set(Number(quarter), set.add(threadId));
  }
  const quartersInOrder = [...threadsByQuarter.keys()].sort((a, b) => a - b);

  const totals = emptyFigures();
  const unpricedModels = new Set<string>();
  const allThreads = new Set<string>();
  const rows = [];
  // Blocks and quarters both in time order: each block takes the quarters from where the last left off.
  let next = 0;
  for (const block of blocks) {
    while (quartersInOrder[next]! * QUARTER_MS < block.start) next++;
    const first = next;
    while (next < quartersInOrder.length && quartersInOrder[next]! * QUARTER_MS < block.end) next++;
    const inBlock = quartersInOrder.slice(first, next);
    const threads = new Set(inBlock.flatMap((q) => [...threadsByQuarter.get(q)!]));
    for (const id of threads) allThreads.add(id);
    const edges = await blockEdges(client, query, inBlock[0]!, inBlock.at(-1)!, threadsByQuarter);
    rows.push(blockRow(block, { ...edges, threads: threads.size }, now));
    for (const entry of block.entries) {
      addFigures(totals, entry.figures);
      if (entry.figures.unpricedResponses > 0) unpricedModels.add(entry.model || "(no model)");
    }
  }
  totals.threads = allThreads.size;

  const limit = query.tokenLimit === undefined ? undefined : resolveTokenLimit(query.tokenLimit, rows);
  let listed = sortRows(limit === undefined || limit === null ? rows : withTokenLimit(rows, limit), "block", query.order);
  if (query.limit !== undefined) listed = listed.slice(0, query.limit);
  return {
    rows: listed,
    totals: { ...totals, unpricedModels: [...unpricedModels].sort() },
    ...(limit !== undefined && { tokenLimit: limit }),
  };
}

/**
 * A block's first and last response instants: the earliest model response in its first quarter
 * with buckets and the latest in its last, of the threads with buckets there. A quarter whose
 * buckets hold only compaction runs (which are no turns) falls back to the quarter's own bounds.
 */
async function blockEdges(
  client: Database,
  query: UsageQuery,
  firstQuarter: number,
  lastQuarter: number,
  threadsByQuarter: Map<number, Set<string>>,
): Promise<{ firstResponseAt: number; lastResponseAt: number }> {
  const within = (quarter: number) => ({
    threadId: { in: [...threadsByQuarter.get(quarter)!] },
    role: "assistant",
    timestamp: { gte: new Date(quarter * QUARTER_MS), lt: new Date((quarter + 1) * QUARTER_MS) },
    ...(query.model !== undefined && { modelName: query.model }),
  });
  const [first, last] = await Promise.all([
    client.turn.aggregate({ where: within(firstQuarter), _min: { timestamp: true } }),
    client.turn.aggregate({ where: within(lastQuarter), _max: { timestamp: true } }),
  ]);
  return {
    firstResponseAt: first._min.timestamp?.getTime() ?? firstQuarter * QUARTER_MS,
    lastResponseAt: last._max.timestamp?.getTime() ?? (lastQuarter + 1) * QUARTER_MS - 1,
  };
}
