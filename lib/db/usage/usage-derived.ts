import type { DatabaseKind } from "../engine/create-client";
import { chunked } from "../engine/chunks";
import { run, type RawReader } from "../engine/dialect";

// What is derived from the usage buckets (usage-aggregates.ts): each thread's spans, and the
// thread-less hourly and daily sums, remade for the threads and hours whose buckets changed.

/** The columns a bucket adds up, and the hourly and daily sums with it. */
export const ADDED = [
  "inputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "outputTokens",
  "reasoningTokens",
  "costUsd",
  "responses",
  "unpricedResponses",
  "estimatedResponses",
] as const;

/** A transaction's raw statements: Prisma's, or the import connection's (withImportTransaction). */
export type Tx = RawReader;

/** Bound parameters in one multi-row statement: under SQLite's limit (32,766) and PostgreSQL's (65,535). */
const MAX_PARAMETERS = 30_000;
const MAX_ROWS = 1_000;

/**
 * Inserts rows, a few multi-row statements for them all (each row its values in `columns`' order),
 * `then` after the VALUES (an ON CONFLICT clause): through Prisma, a statement's fixed cost was
 * most of a row's. Nothing is returned (a thousand keys read back through Prisma for nothing).
 */
export async function insertValues(
  tx: Tx,
  kind: DatabaseKind,
  table: string,
  columns: readonly string[],
  rows: unknown[][],
  then = "",
): Promise<void> {
  const perStatement = Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / columns.length));
  const row = `(${columns.map(() => "?").join(", ")})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    await run(
      tx,
      kind,
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${chunk.map(() => row).join(", ")} ${then}`,
      ...chunk.flat(),
    );
  }
}

/** The UTC hours some threads' buckets are in. */
export async function bucketHours(tx: Tx, kind: DatabaseKind, threadIds: string[]): Promise<Set<number>> {
  const rows = await run<{ hour: number | bigint }[]>(
    tx,
    kind,
    `SELECT DISTINCT "quarter" / 4 AS hour FROM "UsageBucket" WHERE "threadId" IN (${threadIds.map(() => "?").join(", ")})`,
    ...threadIds,
  );
  return new Set(rows.map((row) => Number(row.hour)));
}

/**
 * Brings what is derived from the buckets in step with them, for threads whose buckets changed:
 * their spans (UsageThreadSpan), and the thread-less hourly and daily sums (UsageHour, UsageDay)
 * of the hours their old and new buckets are in, summed again from every thread's buckets there.
 */
export async function rebuildDerived(tx: Tx, kind: DatabaseKind, threadIds: string[], hours: Set<number>): Promise<void> {
  const list = threadIds.map(() => "?").join(", ");
  await run(tx, kind, `DELETE FROM "UsageThreadSpan" WHERE "threadId" IN (${list}) RETURNING "threadId"`, ...threadIds);
  await run(
    tx,
    kind,
    `INSERT INTO "UsageThreadSpan" ("threadId", "halfDay", "modelName", "firstQuarter", "lastQuarter")
     SELECT "threadId", "quarter" / 48, "modelName", MIN("quarter"), MAX("quarter") FROM "UsageBucket" WHERE "threadId" IN (${list}) GROUP BY 1, 2, 3 RETURNING "threadId"`,
    ...threadIds,
  );
  await resum(tx, kind, "UsageHour", "hour", "UsageBucket", "quarter", 4, hours);
  await resum(tx, kind, "UsageDay", "day", "UsageHour", "hour", 24, new Set([...hours].map((hour) => Math.floor(hour / 24))));
}

/**
 * Sums a table of finer units into a coarser one (quarter-hours into hours, hours into days) for
 * some of the coarser units: their rows replaced by the sums of the finer rows within them.
 */
async function resum(
  tx: Tx,
  kind: DatabaseKind,
  table: string,
  unit: string,
  from: string,
  fromUnit: string,
  per: number,
  units: Set<number>,
): Promise<void> {
  const columns = ADDED.map((c) => `"${c}"`).join(", ");
  const sums = ADDED.map((c) => `SUM("${c}")`).join(", ");
  for (const runs of runGroups(units, kind)) {
    const own = inRuns(`"${unit}"`, runs);
    await run(tx, kind, `DELETE FROM "${table}" WHERE ${own.sql} RETURNING "${unit}"`, ...own.params);
    const finer = inRuns(`"${fromUnit}"`, runs, per);
    await run(
      tx,
      kind,
      `INSERT INTO "${table}" ("${unit}", "modelProvider", "modelName", ${columns})
       SELECT "${fromUnit}" / ${per}, "modelProvider", "modelName", ${sums} FROM "${from}" WHERE ${finer.sql} GROUP BY 1, 2, 3 RETURNING "${unit}"`,
      ...finer.params,
    );
  }
}

/**
 * Runs of consecutive units (runsOf) to resum together, one statement for many on SQLite: a
 * statement's fixed cost through Prisma was most of a run's resum, and a first sync's threads
 * spread over 174 separate hours (six statements each). PostgreSQL plans a disjunction of ranges
 * worse than one range (app/api/usage's test over time went from 27 s to over 30): one run each there.
 */
export function runGroups(units: Set<number>, kind: DatabaseKind): [number, number][][] {
  return chunked(runsOf(units), kind === "postgres" ? 1 : 100);
}

/** A condition that `column`, in units `per` times finer than the runs', is within one of `runs`; with its parameters. */
export function inRuns(column: string, runs: [number, number][], per = 1): { sql: string; params: number[] } {
  return {
    sql: `(${runs.map(() => `(${column} >= ? AND ${column} < ?)`).join(" OR ")})`,
    params: runs.flatMap(([first, last]) => [first * per, (last + 1) * per]),
  };
}

/** Sorted numbers as runs of consecutive ones, [first, last]. */
export function runsOf(numbers: Set<number>): [number, number][] {
  const sorted = [...numbers].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const n of sorted) {
    const last = runs.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  return runs;
}
