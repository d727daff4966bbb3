import "server-only";
import type { CompactionRunRecord } from "@/lib/domain/usage/session-usage";
import type { JsonValue } from "@/lib/domain/types";
import type { DatabaseKind } from "../engine/create-client";
import { run } from "../engine/dialect";
import { parsedOrNull } from "../engine/mappers";
import type { Copied, SummingThread } from "../insights/insights-rollups";
import type { Tx } from "./usage-derived";

// What the usage refresh (usage-aggregates.ts) reads of some threads besides their turns: a few
// raw statements per batch of threads, whatever their number.

type SummedThread = SummingThread & { lastUpdatedAt: Date };

type RunRow = {
  threadId: string;
  runId: string;
  afterTurnKey: string | null;
  modelProvider: string | null;
  modelName: string | null;
  responses: string;
};

/**
 * What summing some threads needs besides their turns, in one read each: the threads (their last
 * update prices compaction runs, their metadata holds session totals, their parent makes a
 * sub-agent), the turns each one copied (a fork's, a compacted revision's), and their compaction runs.
 */
export async function threadsToSum(
  tx: Tx,
  kind: DatabaseKind,
  threadIds: string[],
): Promise<{ threads: SummedThread[]; copiedThrough: Map<string, Copied>; runsByThread: Map<string, RunRow[]> }> {
  const list = threadIds.map(() => "?").join(", ");
  const threadRows = await run<(Omit<SummedThread, "lastUpdatedAt"> & { lastUpdatedAt: Date | string | number })[]>(
    tx,
    kind,
    `SELECT "id" AS id, "lastUpdatedAt" AS "lastUpdatedAt", "metadata" AS metadata, "parentThreadId" AS "parentThreadId" FROM "Thread" WHERE "id" IN (${list})`,
    ...threadIds,
  );
  const runs = await run<RunRow[]>(
    tx,
    kind,
    `SELECT "threadId" AS "threadId", "runId" AS "runId", "afterTurnKey" AS "afterTurnKey", "modelProvider" AS "modelProvider",
            "modelName" AS "modelName", "responses" AS responses
       FROM "CompactionRun" WHERE "threadId" IN (${list}) ORDER BY "threadId", "runId"`,
    ...threadIds,
  );
  const { forks, revisions } = await copiesOf(tx, kind, threadIds);
  const copiedThrough = new Map<string, Copied>([...forks].map(([id, atTurn]) => [id, { atTurn, until: null }]));
  for (const [id, until] of revisions) copiedThrough.set(id, { atTurn: -1, until });
  return {
    threads: threadRows.map((row) => ({ ...row, lastUpdatedAt: dateOf(row.lastUpdatedAt) })),
    copiedThrough,
    runsByThread: groupBy(runs, (row) => row.threadId),
  };
}

/** Of some threads, the forks (the source's turn index each ends its copy with) and the compacted revisions (when each was made). */
export async function copiesOf(
  tx: Tx,
  kind: DatabaseKind,
  threadIds: string[],
): Promise<{ forks: Map<string, number>; revisions: Map<string, Date> }> {
  const list = threadIds.map(() => "?").join(", ");
  const forks = await run<{ forkThreadId: string; atTurn: number | bigint }[]>(
    tx,
    kind,
    `SELECT "forkThreadId" AS "forkThreadId", "atTurn" AS "atTurn" FROM "Fork" WHERE "forkThreadId" IN (${list})`,
    ...threadIds,
  );
  const revisions = await run<{ revisionThreadId: string; createdAt: Date | string | number }[]>(
    tx,
    kind,
    `SELECT "revisionThreadId" AS "revisionThreadId", "createdAt" AS "createdAt" FROM "Compaction" WHERE "revisionThreadId" IN (${list})`,
    ...threadIds,
  );
  return {
    forks: new Map(forks.map((f) => [f.forkThreadId, Number(f.atTurn)])),
    revisions: new Map(revisions.map((r) => [r.revisionThreadId, dateOf(r.createdAt)])),
  };
}

/** A DateTime as a raw read gives it: a Date, or SQLite's stored text or number. */
const dateOf = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));

export function runRecord(row: RunRow): CompactionRunRecord {
  return { ...row, responses: parsedOrNull<{ usage: JsonValue; timestamp?: string | null }[]>(row.responses) ?? [] };
}

export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
