import "server-only";
import type { DatabaseKind } from "../engine/create-client";
import { run } from "../engine/dialect";
import { parsedOrNull } from "../engine/mappers";
import { inRuns, runGroups, runsOf, type Tx } from "../usage/usage-derived";

// The hourly sums without the thread (InsightsHour, InsightsToolHour) that a report of all
// projects in a zone of whole-hour offsets reads instead of every thread's rollups: remade for the
// UTC hours whose rollups or usage buckets changed, once at the end of a refresh. Each of its
// transactions marks the hours it changed (markHoursToResum), and the last one remakes them all
// (resumMarkedHours): remade after each transaction of 400 threads, they were a third to a half of
// a first sync's refresh, since each transaction's threads span most of the hours there are. A
// refresh cut short leaves its marks for the next one; a report waits for a refresh.

/** The columns of the usage buckets InsightsHour sums (a report's models and agents). */
const RESPONSE_COLUMNS = [
  "responses",
  "costUsd",
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "unpricedResponses",
] as const;

/** The UTC hours some threads' activity and tool rollups are in. */
export async function insightsHoursOf(tx: Tx, kind: DatabaseKind, threadIds: string[]): Promise<Set<number>> {
  const hours = new Set<number>();
  if (threadIds.length === 0) return hours;
  const list = threadIds.map(() => "?").join(", ");
  for (const table of ["InsightsActivity", "InsightsTool"]) {
    const rows = await run<{ hour: number | bigint }[]>(
      tx,
      kind,
      `SELECT DISTINCT "quarter" / 4 AS hour FROM "${table}" WHERE "threadId" IN (${list})`,
      ...threadIds,
    );
    for (const row of rows) hours.add(Number(row.hour));
  }
  return hours;
}

const HOURS_TO_RESUM = "insights.hoursToResum";

/** Notes, in the transaction that changed their threads' rollups or buckets, hours whose sums are to be remade. */
export async function markHoursToResum(tx: Tx, kind: DatabaseKind, hours: Set<number>): Promise<void> {
  if (hours.size === 0) return;
  const marked = await markedHours(tx, kind);
  for (const hour of hours) marked.add(hour);
  await run(
    tx,
    kind,
    `INSERT INTO "AppSetting" ("key", "value") VALUES (?, ?) ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value" RETURNING "key"`,
    HOURS_TO_RESUM,
    JSON.stringify(runsOf(marked)),
  );
}

/** Remakes the sums of every hour marked, and clears the marks (in a transaction holding the write lock). */
export async function resumMarkedHours(tx: Tx, kind: DatabaseKind): Promise<void> {
  const marked = await markedHours(tx, kind);
  if (marked.size === 0) return;
  await resumInsightsHours(tx, kind, marked);
  await run(tx, kind, `DELETE FROM "AppSetting" WHERE "key" = ? RETURNING "key"`, HOURS_TO_RESUM);
}

/** The hours marked, kept as runs of consecutive hours ([first, last]): a few runs for months of them. */
async function markedHours(tx: Tx, kind: DatabaseKind): Promise<Set<number>> {
  const [row] = await run<{ value: string }[]>(tx, kind, `SELECT "value" AS value FROM "AppSetting" WHERE "key" = ?`, HOURS_TO_RESUM);
  const hours = new Set<number>();
  for (const [first, last] of parsedOrNull<[number, number][]>(row?.value ?? null) ?? []) for (let h = first; h <= last; h++) hours.add(h);
  return hours;
}

/** Replaces the hourly sums of some UTC hours with those of every thread's rollups and buckets there. */
async function resumInsightsHours(tx: Tx, kind: DatabaseKind, hours: Set<number>): Promise<void> {
  const columns = RESPONSE_COLUMNS.map((c) => `"${c}"`).join(", ");
  const zeros = RESPONSE_COLUMNS.map((c) => `${c === "costUsd" ? "CAST(0 AS DOUBLE PRECISION)" : "0"} AS "${c}"`).join(", ");
  const bucketColumns = RESPONSE_COLUMNS.map((c) => `b."${c}"`).join(", ");
  const sums = RESPONSE_COLUMNS.map((c) => `SUM(u."${c}")`).join(", ");
  for (const runs of runGroups(hours, kind)) {
    const own = inRuns(`"hour"`, runs);
    for (const table of ["InsightsHour", "InsightsToolHour"])
      await run(tx, kind, `DELETE FROM "${table}" WHERE ${own.sql} RETURNING "hour"`, ...own.params);
    const activity = inRuns(`a."quarter"`, runs, 4);
    const buckets = inRuns(`b."quarter"`, runs, 4);
    const tools = inRuns(`x."quarter"`, runs, 4);
    await run(
      tx,
      kind,
      `INSERT INTO "InsightsHour" ("hour", "source", "modelName", "turns", ${columns})
       SELECT u."hour", u."source", u."modelName", SUM(u."turns"), ${sums} FROM (
         SELECT a."quarter" / 4 AS "hour", t."source" AS "source", a."modelName" AS "modelName", a."turns" AS "turns", ${zeros}
           FROM "InsightsActivity" a JOIN "Thread" t ON t."id" = a."threadId" WHERE ${activity.sql}
         UNION ALL
         SELECT b."quarter" / 4, t."source", b."modelName", 0, ${bucketColumns}
           FROM "UsageBucket" b JOIN "Thread" t ON t."id" = b."threadId" WHERE ${buckets.sql}
       ) u GROUP BY 1, 2, 3 RETURNING "hour"`,
      ...activity.params,
      ...buckets.params,
    );
    await run(
      tx,
      kind,
      `INSERT INTO "InsightsToolHour" ("hour", "source", "modelName", "name", "calls", "errors")
       SELECT x."quarter" / 4, t."source", x."modelName", x."name", SUM(x."calls"), SUM(x."errors")
         FROM "InsightsTool" x JOIN "Thread" t ON t."id" = x."threadId" WHERE ${tools.sql} GROUP BY 1, 2, 3, 4 RETURNING "hour"`,
      ...tools.params,
    );
  }
}
