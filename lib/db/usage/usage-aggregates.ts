import "server-only";
import { wakeAfterQuiet, type WakeState } from "@/lib/domain/background-runs";
import { compactionRunResponses, turnCosts, type PricedResponse, type Pricer } from "@/lib/domain/usage/cost";
import { sessionTotalResponses, sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import type { JsonObject } from "@/lib/domain/types";
import { turnUsages } from "@/lib/domain/usage/usage";
import { usageBuckets } from "@/lib/domain/usage/usage-buckets";
import { catalogPricing, type ModelInfo } from "@/lib/models/catalog";
import { pricerWith } from "@/lib/models/pricing";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { chunked } from "../engine/chunks";
import { db } from "../engine/client";
import { databaseKind, type Database, type DatabaseKind } from "../engine/create-client";
import { listCustomModels } from "../settings/custom-models";
import { parsedOrNull } from "../engine/mappers";
import { usageInputOf } from "./session-usage";
import { lockForWrite, run } from "../engine/dialect";
import { contextTokensBefore, usageRows, type UsageRow } from "../threads/dialect-turns";
import { onThreadsWritten } from "../threads/thread-writes";
import { afterBulkRuns } from "../imports/import-batch";
import { writeTransaction } from "./usage-transaction";
import { ADDED, bucketHours, insertValues, rebuildDerived, type Tx } from "./usage-derived";
import { copiesOf, groupBy, runRecord, threadsToSum } from "./usage-inputs";
import { WRITE_TRANSACTION } from "../engine/transactions";
import { insightsHoursOf, markHoursToResum, resumMarkedHours } from "../insights/insights-hours";
import { addInsights, dropInsights, sumInsights, type SummingThread } from "../insights/insights-rollups";

/**
 * Usage buckets (prisma/schema.prisma UsageBucket): every thread's responses, priced one by one,
 * summed per UTC quarter-hour and model, so that a usage report reads thousands of rows rather than
 * every turn. A thread's buckets are made from its stored turns and compaction runs, and remade
 * whenever the thread no longer matches the state they were made from (UsageThread: its turn count
 * and last update; writes that change turns in place forget that state). Nothing else writes them:
 * whatever wrote the turns (append, import, a followed session, a fork), a refresh catches up.
 *
 * Each response counts once: the copies a fork or a compacted revision holds of their source's
 * turns were paid for in the source and are left out.
 *
 * The /insights rollups (lib/db/insights/insights-rollups.ts) are kept by the same passes, in the
 * same transactions: summed whole, added to, or dropped with the buckets.
 */

/**
 * Bump when what a bucket or an insights rollup holds changes for the same turns (the pricing
 * code, the catalog's data after a dependency upgrade, a new rollup): every thread is summed again
 * on the next refresh. 2: the insights rollups.
 */
const BUCKETS_REVISION = 3;
const PRICING_SETTING = "usage.pricing";

/** Turns read in one transaction: the write lock is held while they are summed. */
const TURNS_PER_TRANSACTION = 5_000;
const THREADS_PER_TRANSACTION = 400;

type RefreshResult = { threads: number; turns: number };

/** `reading`: the running pass has begun to read which threads are stale (a later call needs another pass). */
/** `wake`: the refresh a run of writes has scheduled. */
type State = WakeState & {
  running: Promise<RefreshResult> | null;
  reading: boolean;
  again: boolean;
  listening: boolean;
  heldForBulkRuns: boolean;
};
const globalForUsage = globalThis as unknown as { threadlineUsageBuckets?: State };

function state(): State {
  globalForUsage.threadlineUsageBuckets ??= {
    running: null,
    reading: false,
    again: false,
    listening: false,
    wake: null,
    heldForBulkRuns: false,
  };
  return globalForUsage.threadlineUsageBuckets;
}

/**
 * Brings every thread's buckets up to date; resolves once a pass that read the threads' state
 * after the call has finished, so a report that awaits it sees every write committed before it
 * asked. A call before the running pass reads joins it (the /usage page's reports, asked
 * together, share one pass); a later one makes it go round once more.
 */
export function refreshUsageBuckets(): Promise<RefreshResult> {
  const s = state();
  if (s.running) {
    if (s.reading) s.again = true;
    return s.running;
  }
  s.running = (async () => {
    const total = { threads: 0, turns: 0 };
    try {
      do {
        s.again = false;
        s.reading = false;
        const pass = await refreshOnce(() => (s.reading = true));
        total.threads += pass.threads;
        total.turns += pass.turns;
      } while (s.again);
      return total;
    } finally {
      s.running = null;
      s.reading = false;
    }
  })();
  return s.running;
}

/**
 * A refresh runs this long after the last write of a run of them, and at most
 * REFRESH_MAX_DELAY_MS after the first: not a pass per file while imports follow one another. A
 * bulk run's writes (a full sync's) are summed once it ends (afterBulkRuns); the pages shown
 * meanwhile sum their own threads (refreshUsageOf).
 */
const REFRESH_DELAY_MS = 250;
const REFRESH_MAX_DELAY_MS = 5_000;

/**
 * Keeps the buckets up to date after writes in this process (REFRESH_DELAY_MS after a run of them
 * ends, or REFRESH_MAX_DELAY_MS into it; after a bulk run, such as a full sync, once it has ended).
 */
export function startUsageBuckets(): void {
  const s = state();
  if (s.listening) return;
  s.listening = true;
  const refresh = () =>
    afterBulkRuns(s, () => void refreshUsageBuckets().catch((error) => console.error("[threadline] summing usage failed", error)));
  onThreadsWritten(() => wakeAfterQuiet(s, { delayMs: REFRESH_DELAY_MS, maxDelayMs: REFRESH_MAX_DELAY_MS }, refresh));
  refresh();
}

/**
 * Brings the buckets of some threads up to date (those of them that are stale), not every
 * thread's: a page that shows 25 threads' figures waits for those alone. Waiting for
 * refreshUsageBuckets instead, a thread list waited for a first start's backfill of every thread
 * (over a million turns, ten minutes with no answer on SQLite) or for the thousands a first sync
 * leaves stale at once. Summing a thread the background pass sums too gives the same buckets.
 */
export async function refreshUsageOf(threadIds: string[]): Promise<void> {
  const client = await db();
  const kind = databaseKind(client);
  const staleOf = async () => {
    const stale: StaleThread[] = [];
    for (const chunk of chunked([...new Set(threadIds)], 500)) stale.push(...(await staleThreads(client, kind, chunk)));
    return stale;
  };
  // All fresh (a page's usual case): one read. A price change is noticed with the next stale thread, or by the background refresh.
  if ((await staleOf()).length === 0) return;
  const custom = await listCustomModels();
  await forgetRepriced(client, kind, custom);
  await sumStale(client, kind, await staleOf(), pricerWith(custom));
  await resumMarked(client, kind);
}

async function refreshOnce(startReading: () => void): Promise<RefreshResult> {
  const client = await db();
  const kind = databaseKind(client);
  const custom = await listCustomModels();
  await forgetRepriced(client, kind, custom);
  startReading();
  const stale = await staleThreads(client, kind);
  const purged = await purgedThreads(client, kind);
  for (const chunk of chunked(purged, 200)) await dropPurged(client, kind, chunk);
  const turns = await sumStale(client, kind, stale, pricerWith(custom));
  await resumMarked(client, kind);
  // PostgreSQL plans from statistics that autovacuum gathers later: after a backfill the new rows
  // would be read with plans made for empty tables.
  if (kind === "postgres" && turns >= ANALYZE_AFTER_TURNS)
    await client.$executeRawUnsafe(
      `ANALYZE "UsageBucket", "UsageHour", "UsageDay", "UsageThreadSpan", "UsageThread", "InsightsActivity", "InsightsTool", "InsightsToolCall", "InsightsSession"`,
    );
  return { threads: stale.length + purged.length, turns };
}

/** Sums stale threads into their buckets, in batches of transactions; the turns read. */
async function sumStale(client: Database, kind: DatabaseKind, stale: StaleThread[], price: Pricer): Promise<number> {
  // Turns only appended since the buckets were made (every write that removes or rewrites turns
  // forgets the state): only the new ones are read and added. The others are summed whole.
  const appendedOnly = (t: StaleThread) => t.summedTurns !== null && t.summedTurns >= 0 && t.summedTurns < t.turnCount;
  const grown = stale.filter(appendedOnly);
  const whole = stale.filter((t) => !appendedOnly(t));
  let turns = 0;
  for (const batch of batches(grown.map((t) => ({ ...t, turnCount: t.turnCount - t.summedTurns! })))) {
    turns += await addAppended(client, kind, batch, price);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  for (const batch of batches(whole)) {
    turns += await sumThreads(
      client,
      kind,
      batch.map((t) => t.id),
      price,
    );
    // Other requests run between batches of a long backfill.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return turns;
}

const ANALYZE_AFTER_TURNS = 50_000;

type StaleThread = { id: string; turnCount: number; summedTurns: number | null };

/** Threads (all, or of `among`) with no bucket state or a stale one, with their turn counts and the count their buckets hold. */
async function staleThreads(client: Database, kind: DatabaseKind, among?: string[]): Promise<StaleThread[]> {
  const rows = await run<{ id: string; turnCount: number | bigint; summedTurns: number | bigint | null }[]>(
    client,
    kind,
    `SELECT t."id" AS id, t."turnCount" AS "turnCount", u."turnCount" AS "summedTurns" FROM "Thread" t LEFT JOIN "UsageThread" u ON u."threadId" = t."id"
      WHERE (u."threadId" IS NULL OR u."turnCount" <> t."turnCount" OR u."lastUpdatedAt" <> t."lastUpdatedAt")
        ${among ? `AND t."id" IN (${among.map(() => "?").join(", ")})` : ""}`,
    ...(among ?? []),
  );
  return rows.map((row) => ({
    id: row.id,
    turnCount: Number(row.turnCount),
    summedTurns: row.summedTurns === null ? null : Number(row.summedTurns),
  }));
}

/** Threads that have buckets (a state row) but are gone: purged, expired and deleted. */
async function purgedThreads(client: Database, kind: DatabaseKind): Promise<string[]> {
  const rows = await run<{ threadId: string }[]>(
    client,
    kind,
    `SELECT u."threadId" AS "threadId" FROM "UsageThread" u LEFT JOIN "Thread" t ON t."id" = u."threadId" WHERE t."id" IS NULL`,
  );
  return rows.map((row) => row.threadId);
}

/** The insights' hourly sums remade where this refresh's transactions (or an earlier one's, cut short) changed them. */
async function resumMarked(client: Database, kind: DatabaseKind): Promise<void> {
  await writeTransaction(client, kind, (tx) => resumMarkedHours(tx, kind));
}

/** Takes purged threads' buckets out of the sums. */
async function dropPurged(client: Database, kind: DatabaseKind, threadIds: string[]): Promise<void> {
  const list = threadIds.map(() => "?").join(", ");
  await writeTransaction(client, kind, async (tx) => {
    const hours = await bucketHours(tx, kind, threadIds);
    const insightsHours = await insightsHoursOf(tx, kind, threadIds);
    await run(tx, kind, `DELETE FROM "UsageBucket" WHERE "threadId" IN (${list}) RETURNING "threadId"`, ...threadIds);
    await run(tx, kind, `DELETE FROM "UsageThread" WHERE "threadId" IN (${list}) RETURNING "threadId"`, ...threadIds);
    await rebuildDerived(tx, kind, threadIds, hours);
    await dropInsights(tx, kind, threadIds);
    await markHoursToResum(tx, kind, new Set([...hours, ...insightsHours]));
  });
}

function batches<T extends { turnCount: number }>(threads: T[]): T[][] {
  const result: T[][] = [];
  let current: T[] = [];
  let turns = 0;
  for (const thread of threads) {
    if (current.length > 0 && (turns + thread.turnCount > TURNS_PER_TRANSACTION || current.length >= THREADS_PER_TRANSACTION)) {
      result.push(current);
      current = [];
      turns = 0;
    }
    current.push(thread);
    turns += thread.turnCount;
  }
  if (current.length > 0) result.push(current);
  return result;
}

/**
 * Sums some threads' responses into their buckets, replacing what they held, in one transaction
 * holding the write lock: the turns read are the turns stored. Returns the turns read.
 */
async function sumThreads(client: Database, kind: DatabaseKind, threadIds: string[], price: Pricer): Promise<number> {
  return writeTransaction(client, kind, async (tx) => {
    const { threads, copiedThrough, runsByThread } = await threadsToSum(tx, kind, threadIds);
    const rows = await usageRows(tx, threadIds, DEFAULT_TOKENIZER_ID, kind);
    const turnsByThread = groupBy(rows, (row) => row.threadId);
    const buckets: unknown[][] = [];
    const hours = await bucketHours(tx, kind, threadIds);
    for (const thread of threads) {
      const responses = [
        ...threadResponses(turnsByThread.get(thread.id) ?? [], price, copiedThrough.get(thread.id), 0),
        ...(runsByThread.get(thread.id) ?? []).flatMap((row) => compactionRunResponses(runRecord(row), price, thread.lastUpdatedAt)),
        ...sessionTotalsResponsesOf(thread.metadata, price),
      ];
      for (const bucket of usageBuckets(responses)) {
        hours.add(Math.floor(bucket.quarter / 4));
        buckets.push([thread.id, bucket.quarter, bucket.modelProvider, bucket.modelName, ...ADDED.map((c) => bucket[c])]);
      }
    }
    const insightsHours = await insightsHoursOf(tx, kind, threadIds);
    await run(
      tx,
      kind,
      `DELETE FROM "UsageBucket" WHERE "threadId" IN (${threadIds.map(() => "?").join(", ")}) RETURNING "threadId"`,
      ...threadIds,
    );
    await insertValues(tx, kind, "UsageBucket", [...BUCKET_KEY, ...ADDED], buckets);
    await rebuildDerived(tx, kind, threadIds, hours);
    await sumInsights(tx, kind, threads, (id) => copiedThrough.get(id));
    for (const hour of await insightsHoursOf(tx, kind, threadIds)) insightsHours.add(hour);
    await markHoursToResum(tx, kind, new Set([...hours, ...insightsHours]));
    await recordStates(
      tx,
      kind,
      threads.map((thread) => ({ threadId: thread.id, summedTurns: turnsByThread.get(thread.id)?.length ?? 0 })),
    );
    return rows.length;
  });
}

const BUCKET_KEY = ["threadId", "quarter", "modelProvider", "modelName"] as const;

/**
 * Adds the turns appended to some threads since their buckets were made (from each one's
 * summedTurns on) into those buckets, under the write lock. A thread whose state changed since
 * it was found stale (summed by another instance, or forgotten by a rewrite) is left for the next
 * pass. Returns the turns read.
 */
async function addAppended(client: Database, kind: DatabaseKind, threads: StaleThread[], price: Pricer): Promise<number> {
  return writeTransaction(client, kind, async (tx) => {
    const ids = threads.map((t) => t.id);
    const states = await run<{ threadId: string; turnCount: number | bigint }[]>(
      tx,
      kind,
      `SELECT "threadId" AS "threadId", "turnCount" AS "turnCount" FROM "UsageThread" WHERE "threadId" IN (${ids.map(() => "?").join(", ")})`,
      ...ids,
    );
    const summed = new Map(states.map((row) => [row.threadId, Number(row.turnCount)]));
    const rowsOfThreads = await run<SummingThread[]>(
      tx,
      kind,
      `SELECT "id" AS id, "parentThreadId" AS "parentThreadId", "metadata" AS metadata FROM "Thread" WHERE "id" IN (${ids.map(() => "?").join(", ")})`,
      ...ids,
    );
    const threadRows = new Map(rowsOfThreads.map((row) => [row.id, row]));
    const { forks, revisions } = await copiesOf(tx, kind, ids);
    let read = 0;
    const hours = new Set<number>();
    const changed: { threadId: string; summedTurns: number }[] = [];
    const buckets: unknown[][] = [];
    const insightsHours = new Set<number>();
    for (const { id, summedTurns } of threads) {
      const from = summedTurns!;
      if (summed.get(id) !== from) continue;
      const rows = await usageRows(tx, [id], DEFAULT_TOKENIZER_ID, kind, from);
      read += rows.length;
      const fork = forks.get(id);
      const revision = revisions.get(id);
      const copied = fork !== undefined ? { atTurn: fork - from, until: null } : revision ? { atTurn: -1, until: revision } : undefined;
      // An estimate's input is the turns before it since the last compaction: read only when some new response has no usage of its own.
      let responses = threadResponses(rows, price, copied, 0);
      if (responses.some((r) => r.usage.source === "estimated")) {
        responses = threadResponses(rows, price, copied, await contextTokensBefore(tx, id, from, DEFAULT_TOKENIZER_ID, kind));
      }
      changed.push({ threadId: id, summedTurns: from + rows.length });
      const thread = threadRows.get(id) ?? { id, parentThreadId: null, metadata: null };
      for (const hour of await addInsights(tx, kind, thread, from, copied)) insightsHours.add(hour);
      for (const bucket of usageBuckets(responses)) {
        hours.add(Math.floor(bucket.quarter / 4));
        buckets.push([id, bucket.quarter, bucket.modelProvider, bucket.modelName, ...ADDED.map((c) => bucket[c])]);
      }
    }
    // Each thread's buckets have keys of their own: no statement adds to one row twice.
    await insertValues(
      tx,
      kind,
      "UsageBucket",
      [...BUCKET_KEY, ...ADDED],
      buckets,
      `ON CONFLICT (${BUCKET_KEY.map((c) => `"${c}"`).join(", ")}) DO UPDATE SET ${ADDED.map((c) => `"${c}" = "UsageBucket"."${c}" + excluded."${c}"`).join(", ")}`,
    );
    if (changed.length > 0) {
      await rebuildDerived(
        tx,
        kind,
        changed.map((c) => c.threadId),
        hours,
      );
      await recordStates(tx, kind, changed);
    }
    await markHoursToResum(tx, kind, new Set([...hours, ...insightsHours]));
    return read;
  });
}

/**
 * The session totals a thread's metadata carries (Copilot CLI), as responses to sum. A thread
 * whose metadata changes is summed whole (every import writer forgets its state), so totals are
 * replaced when a resumed session reports again, never added to.
 */
function sessionTotalsResponsesOf(metadata: string | null, price: Pricer): PricedResponse[] {
  if (metadata === null || !metadata.includes('"sessionTotals"')) return [];
  const totals = sessionTotalsOf(parsedOrNull<JsonObject>(metadata));
  return totals ? sessionTotalResponses(totals, price) : [];
}

/**
 * Records the state threads' buckets were made from, replacing what was recorded: each one's own
 * row's turn count and last update (the stored values themselves, not a Date Prisma might write in
 * another form, so staleThreads compares exactly). Where its turn count is not the number of turns
 * summed (on PostgreSQL an append may commit between the reads), or the thread is gone, the count
 * is -1: summed again, or dropped, next time. A state row is always left, so a purged thread's
 * buckets are found.
 */
async function recordStates(tx: Tx, kind: DatabaseKind, states: { threadId: string; summedTurns: number }[]): Promise<void> {
  for (const chunk of chunked(states, 500)) {
    const ids = chunk.map((s) => s.threadId);
    await run(tx, kind, `DELETE FROM "UsageThread" WHERE "threadId" IN (${ids.map(() => "?").join(", ")}) RETURNING "threadId"`, ...ids);
    await run(
      tx,
      kind,
      `INSERT INTO "UsageThread" ("threadId", "turnCount", "lastUpdatedAt")
       SELECT t."id", CASE WHEN t."turnCount" = s.column2 THEN t."turnCount" ELSE -1 END, t."lastUpdatedAt"
         FROM (VALUES ${chunk.map(() => "(?, CAST(? AS INTEGER))").join(", ")}) s JOIN "Thread" t ON t."id" = s.column1 RETURNING "threadId"`,
      ...chunk.flatMap((s) => [s.threadId, s.summedTurns]),
    );
    await insertValues(
      tx,
      kind,
      "UsageThread",
      ["threadId", "turnCount", "lastUpdatedAt"],
      ids.map((id) => [id, -1, new Date(0)]),
      "ON CONFLICT DO NOTHING",
    );
  }
}

/**
 * A thread's responses, priced, in order, from a run of its turns (`context`: the tokens before
 * them since the last compaction, for estimates). Usage is computed over every turn read (an
 * estimate needs the turns before it); the copies a fork or compacted revision starts with (the
 * first `atTurn` + 1 turns read, or those up to `until`), and turns an importer marked as copied
 * from the parent session, are then left out: each was paid for in its source.
 */
function threadResponses(
  rows: UsageRow[],
  price: Pricer,
  copied: { atTurn: number; until: Date | null } | undefined,
  context: number,
): PricedResponse[] {
  const inputs = rows.map(usageInputOf);
  const usages = turnUsages(inputs, context);
  const costs = turnCosts(inputs, usages, price);
  const responses: PricedResponse[] = [];
  inputs.forEach((input, index) => {
    const usage = usages[index];
    const cost = costs[index];
    if (!usage || !cost) return;
    if (copied && (index <= copied.atTurn || (copied.until && input.timestamp <= copied.until))) return;
    // A session branched into a file of its own starts with a copy of its parent's history (Pi's branchedFrom).
    if (input.modelMetadata?.copiedFromParent === true) return;
    responses.push({ at: input.timestamp, provider: input.modelProvider, model: input.modelName, usage, cost });
  });
  return responses;
}

/**
 * When custom models' prices changed since the buckets were priced (or BUCKETS_REVISION did),
 * forgets the state of the threads whose models now price differently, so they are summed again.
 */
async function forgetRepriced(client: Database, kind: DatabaseKind, custom: ModelInfo[]): Promise<void> {
  const wanted = JSON.stringify({ revision: BUCKETS_REVISION, custom });
  const stored = await client.appSetting.findUnique({ where: { key: PRICING_SETTING } });
  if (stored?.value === wanted) return;
  const previous = parsedOrNull<{ revision: number; custom: ModelInfo[] }>(stored?.value ?? null);
  await client.$transaction(async (tx) => {
    await lockForWrite(tx, kind);
    if (!previous || previous.revision !== BUCKETS_REVISION) {
      await tx.usageThread.updateMany({ data: { turnCount: -1 } });
    } else {
      const models = await tx.usageBucket.findMany({ distinct: ["modelName"], select: { modelName: true } });
      const changed = models
        .map((m) => m.modelName)
        .filter((name) => JSON.stringify(catalogPricing(name, previous.custom)) !== JSON.stringify(catalogPricing(name, custom)));
      for (const chunk of chunked(changed, 200)) {
        await run(
          tx,
          kind,
          `UPDATE "UsageThread" SET "turnCount" = -1 WHERE "threadId" IN (SELECT DISTINCT "threadId" FROM "UsageBucket" WHERE "modelName" IN (${chunk.map(() => "?").join(", ")})) RETURNING "threadId"`,
          ...chunk,
        );
      }
    }
    await tx.appSetting.upsert({
      where: { key: PRICING_SETTING },
      create: { key: PRICING_SETTING, value: wanted },
      update: { value: wanted },
    });
  }, WRITE_TRANSACTION);
}
