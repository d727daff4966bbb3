import "server-only";
import { firstAdminId } from "../people/first-admin";
import { personNames } from "../people/people";
import {
  dayKey,
  dayNumber,
  localDayOf,
  monthKey,
  offsetSpans,
  QUARTER_MS,
  QUARTERS_PER_DAY,
  rangeQuarters,
  resolveRange,
  weekKey,
  type DataExtent,
  type OffsetSpan,
  type UsageRange,
} from "@/lib/domain/usage/usage-period";
import {
  addFigures,
  emptyFigures,
  sortRows,
  TIME_GROUPS,
  type UsageFigures,
  type UsageGroup,
  type UsageQuery,
  type UsageReport,
  type UsageRow,
} from "@/lib/domain/usage/usage-report";
import { db } from "../engine/client";
import { databaseKind, type Database, type DatabaseKind } from "../engine/create-client";
import { run } from "../engine/dialect";
import { refreshUsageBuckets } from "./usage-aggregates";
import { readBlocks } from "./usage-blocks";
import { partOfRow, rollUpSessions, withSessionSplits } from "./usage-sessions";
import {
  bucketsOf,
  figuresOf,
  localQuarterExpression,
  MACHINE_OF_THREAD,
  personOfThread,
  SUMS,
  type FigureRow,
  type Numeric,
  type UsageScope,
} from "./usage-sql";
import { readableCondition } from "../engine/readable";
import { mayRead, type Reader } from "@/lib/domain/access";

/**
 * Usage reports (GET /api/usage, the /usage page, `npm run usage`): read from the usage buckets
 * (lib/db/usage/usage-aggregates.ts), brought up to date first, never from the turns. A range of local
 * days is a range of quarter-hours; a bucket's local day is its quarter plus the zone's offset
 * then (a handful of spans a year, lib/domain/usage/usage-period.ts), in whole days. So the database
 * groups a bucket per thread, quarter-hour and model it used. Days, weeks and months of all threads
 * in a zone of whole-hour offsets (most of them) read hourly sums without the thread instead.
 */
export async function usageReport(
  asked: UsageQuery,
  reader: Reader,
  { fromBucketsOnly = false, now = new Date() }: { fromBucketsOnly?: boolean; now?: Date } = {},
): Promise<UsageReport> {
  await refreshUsageBuckets();
  const client = await db();
  const kind = databaseKind(client);
  const scope = usageScope(reader);
  // The range as asked, resolved against the days that hold data: "since 2000" reads the data's days, not 26 years.
  const today = dayKey(localDayOf(asked.timeZone, now.getTime()));
  const { range, overlaps } = resolveRange(asked, await dataExtent(client, kind, { ...asked, scope }), today);
  const firstAdmin = asked.groupBy === "person" ? await firstAdminId() : null;
  const query: RangedQuery = { ...asked, ...range, scope, firstAdminId: firstAdmin };
  const filters = Object.fromEntries(
    (["source", "project", "model"] as const).filter((f) => query[f] !== undefined).map((f) => [f, query[f]!]),
  );
  const report = { groupBy: query.groupBy, since: query.since, until: query.until, tz: query.timeZone, filters };
  if (!overlaps) {
    const none = { rows: [], totals: { ...emptyFigures(), unpricedModels: [] } };
    return {
      ...report,
      ...none,
      ...(query.tokenLimit !== undefined && { tokenLimit: query.tokenLimit === "max" ? null : query.tokenLimit }),
    };
  }
  const { startQuarter, endQuarter } = rangeQuarters(query);
  if (query.groupBy === "block") return { ...report, ...(await readBlocks(client, kind, query, { startQuarter, endQuarter }, now)) };
  const spans = offsetSpans(query.timeZone, startQuarter, endQuarter);
  // Days, weeks and months in a zone whose offsets are whole hours, for all threads: from the
  // hourly sums and the threads' spans. Anything else from the buckets themselves.
  // (fromBucketsOnly: for the tests that hold the two ways to each other.)
  const fromHours =
    !fromBucketsOnly &&
    scope === null &&
    TIME_GROUPS.includes(query.groupBy) &&
    query.source === undefined &&
    query.project === undefined &&
    spans.every((span) => span.offsetQuarters % 4 === 0);
  const withThreadsPerModel = query.breakdown === "model" && query.groupBy !== "model";
  const { keyed, threadsPerKey, threadsPerKeyAndModel, totalThreads } = fromHours
    ? await readHours(client, kind, query, spans, startQuarter, endQuarter, withThreadsPerModel)
    : await readBuckets(client, kind, query, spans, startQuarter, endQuarter, withThreadsPerModel);

  const rowsByKey = new Map<string, UsageRow>();
  const breakdowns = new Map<string, (UsageFigures & { key: string })[]>();
  const totals = emptyFigures();
  const unpricedModels = new Set<string>();
  for (const { key, model, figures } of keyed) {
    if (withThreadsPerModel) figures.threads = threadsPerKeyAndModel.get(JSON.stringify([key, model])) ?? 0;
    let entry = rowsByKey.get(key);
    if (!entry) rowsByKey.set(key, (entry = { key, ...emptyFigures(), threads: threadsPerKey.get(key) ?? 0 }));
    addFigures(entry, figures);
    addFigures(totals, figures);
    if (figures.unpricedResponses > 0) unpricedModels.add(model || "(no model)");
    if (query.breakdown === "model") {
      if (query.groupBy === "model") figures.threads = entry.threads;
      const list = breakdowns.get(key) ?? [];
      list.push({ key: model, ...figures });
      breakdowns.set(key, list);
    }
  }
  totals.threads = totalThreads;
  let rows = [...rowsByKey.values()];
  if (query.breakdown === "model") rows = rows.map((row) => ({ ...row, breakdown: sortRows(breakdowns.get(row.key) ?? [], "model") }));
  // Threads as sessions: a sub-agent's row goes into its session's (lib/db/usage/usage-sessions.ts).
  const sessions = query.groupBy === "thread" && !query.perThread ? await rollUpSessions(rows) : null;
  const threads = { parts: new Map(rows.map((row) => [row.key, partOfRow(row)])), unpriced: unpricedByKey(keyed) };
  rows = sortRows(sessions ? sessions.rows : rows, query.groupBy, query.order);
  if (query.limit !== undefined) rows = rows.slice(0, query.limit);
  if (sessions) rows = await withSessionSplits(rows, sessions.members, query, { startQuarter, endQuarter }, threads);

  if (query.groupBy === "thread" && rows.length > 0) {
    const titles = new Map<string, string | null>();
    const hidden = new Set<string>();
    for (let i = 0; i < rows.length; i += 500) {
      const found = await client.thread.findMany({
        where: { id: { in: rows.slice(i, i + 500).map((r) => r.key) } },
        select: { id: true, title: true, ownerId: true, visibility: true },
      });
      // An admin sums every thread; the title of one they may not read stays its owner's.
      for (const thread of found) {
        if (mayRead(reader, thread)) titles.set(thread.id, thread.title);
        else hidden.add(thread.id);
      }
    }
    rows = rows.map((row) => ({ ...row, title: titles.get(row.key) ?? null, ...(hidden.has(row.key) ? { private: true } : {}) }));
  }
  if (query.groupBy === "person" && rows.length > 0) {
    const names = await personNames(rows.map((row) => row.key));
    rows = rows.map((row) => ({ ...row, title: names(row.key) }));
  }

  return { ...report, rows, totals: { ...totals, unpricedModels: [...unpricedModels].sort() } };
}

/**
 * A range's open ends filled as a report fills them (since: the first day with data of the
 * filters, until: today) but not cut to the data: the days the /usage page shows it asked for.
 */
export async function filledRange(asked: Omit<UsageQuery, "groupBy">, reader: Reader, now = new Date()): Promise<UsageRange> {
  if (asked.since !== undefined && asked.until !== undefined) return { since: asked.since, until: asked.until, timeZone: asked.timeZone };
  await refreshUsageBuckets();
  const client = await db();
  const today = dayKey(localDayOf(asked.timeZone, now.getTime()));
  const extent = asked.since === undefined ? await dataExtent(client, databaseKind(client), { ...asked, scope: usageScope(reader) }) : null;
  const since = asked.since ?? extent?.first ?? today;
  const until = asked.until ?? today;
  return { since: since > until ? until : since, until, timeZone: asked.timeZone };
}

/** A report's query with its range resolved, the threads it may sum, and whose the threads nobody owns are (groupBy=person). */
type RangedQuery = UsageQuery & UsageRange & { scope: UsageScope; firstAdminId: string | null };

/** Groups by a column of the thread. */
const THREAD_GROUPS = new Set<UsageGroup>(["project", "source", "person", "machine"]);

/**
 * The threads whose figures a reader's reports sum: an admin's, every thread (the team's figures,
 * not their texts: titles of threads they may not read are left out); anyone else's, the threads
 * they may read (lib/domain/access).
 */
export function usageScope(reader: Reader): UsageScope {
  return reader?.role === "admin" ? null : readableCondition(reader, "t");
}

/**
 * The first and last local days of the buckets a report's filters keep: their first and last
 * quarter-hour (on the buckets' quarter index), each within one local day.
 */
async function dataExtent(
  client: Database,
  kind: DatabaseKind,
  query: Omit<UsageQuery, "groupBy"> & { scope: UsageScope },
): Promise<DataExtent> {
  const { from, params } = bucketsOf(query, null);
  const [row] = await run<{ first: Numeric; last: Numeric }[]>(
    client,
    kind,
    `SELECT MIN(b."quarter") AS first, MAX(b."quarter") AS last ${from}`,
    ...params,
  );
  if (!row || row.first === null || row.last === null) return null;
  const localDay = (quarter: Numeric) => dayKey(localDayOf(query.timeZone, Number(quarter) * QUARTER_MS));
  return { first: localDay(row.first), last: localDay(row.last) };
}

const THREADS = `COUNT(DISTINCT b."threadId") AS threads`;

/** The models of each key's unpriced responses. */
function unpricedByKey(keyed: Keyed[]): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const { key, model, figures } of keyed)
    if (figures.unpricedResponses > 0) result.set(key, (result.get(key) ?? new Set()).add(model || "(no model)"));
  return result;
}

/** Figures by key and model (for groupBy=model, the model is the key). */
type Keyed = { key: string; model: string; figures: UsageFigures };
type Read = { keyed: Keyed[]; threadsPerKey: Map<string, number>; threadsPerKeyAndModel: Map<string, number>; totalThreads: number };

/**
 * The figures by key and model from the buckets (one pass), with distinct threads counted apart,
 * per key and in all (on the (quarter, threadId) index alone when nothing is joined).
 */
async function readBuckets(
  client: Database,
  kind: DatabaseKind,
  query: RangedQuery,
  spans: OffsetSpan[],
  startQuarter: number,
  endQuarter: number,
  threadsPerModel: boolean,
): Promise<Read> {
  const group = groupExpression(query.groupBy, localDayExpression(spans, `b."quarter"`), query);
  const { from, params } = bucketsOf(query, { startQuarter, endQuarter }, THREAD_GROUPS.has(query.groupBy));
  const grouped = (keys: string[], figures: string) =>
    `SELECT ${keys.map((k, i) => `${k} AS k${i}, `).join("")}${figures} ${from}${keys.length > 0 ? ` GROUP BY ${keys.map((_, i) => i + 1).join(", ")}` : ""}`;
  const byModel = query.groupBy !== "model";
  const rows = await run<FigureRow[]>(
    client,
    kind,
    grouped(byModel ? [group.sql, `b."modelName"`] : [group.sql], threadsPerModel ? `${SUMS}, ${THREADS}` : SUMS),
    ...params,
  );
  const keyed = rows.map((row) => ({
    key: group.key(row.k0),
    model: byModel ? String(row.k1 ?? "") : group.key(row.k0),
    figures: figuresOf(row),
  }));
  const threadsPerKey = new Map(
    (await run<FigureRow[]>(client, kind, grouped([group.sql], THREADS), ...params)).map((row) => [group.key(row.k0), Number(row.threads)]),
  );
  const threadsPerKeyAndModel = new Map(
    threadsPerModel ? keyed.map((row) => [JSON.stringify([row.key, row.model]), row.figures.threads]) : [],
  );
  const [all] = await run<FigureRow[]>(client, kind, grouped([], THREADS), ...params);
  return { keyed, threadsPerKey, threadsPerKeyAndModel, totalThreads: all ? Number(all.threads) : 0 };
}

/**
 * Days, weeks or months in a zone of whole-hour offsets, from the thread-less hourly sums (a few
 * thousand rows a year) and the threads' half-day spans: a thread was active on the local days of
 * its spans' first and last quarters, and on no other (lib/db/usage/usage-aggregates.ts UsageThreadSpan).
 */
async function readHours(
  client: Database,
  kind: DatabaseKind,
  query: RangedQuery,
  spans: OffsetSpan[],
  startQuarter: number,
  endQuarter: number,
  threadsPerModel: boolean,
): Promise<Read> {
  const model = query.model !== undefined ? ` AND b."modelName" = ?` : "";
  const modelParams = query.model !== undefined ? [query.model] : [];
  // Each UTC day's sums, then the hours that fall on another local day moved there: in a zone
  // some hours off UTC, that many hours a day (the offset is whole hours, so hours never split).
  const firstDay = Math.floor(startQuarter / QUARTERS_PER_DAY) - 1;
  const lastDay = Math.floor((endQuarter - 1) / QUARTERS_PER_DAY) + 1;
  const byDay = await run<FigureRow[]>(
    client,
    kind,
    `SELECT b."day" AS k0, b."modelName" AS k1, ${SUMS} FROM "UsageDay" b WHERE b."day" >= ? AND b."day" <= ?${model} GROUP BY 1, 2`,
    firstDay,
    lastDay,
    ...modelParams,
  );
  const localDay = localDayExpression(spans, `(b."hour" * 4)`);
  const moved = await run<(FigureRow & { k2: unknown })[]>(
    client,
    kind,
    `SELECT b."hour" / 24 AS k0, ${localDay} AS k2, b."modelName" AS k1, ${SUMS} FROM "UsageHour" b
      WHERE b."hour" >= ? AND b."hour" < ?${model} AND ${localDay} <> b."hour" / 24 GROUP BY 1, 2, 3`,
    firstDay * 24,
    (lastDay + 1) * 24,
    ...modelParams,
  );
  const perDay = new Map<string, { day: number; model: string; figures: UsageFigures }>();
  const add = (day: number, model: string, figures: UsageFigures, sign: 1 | -1) => {
    const id = `${day}|${model}`;
    let entry = perDay.get(id);
    if (!entry) perDay.set(id, (entry = { day, model, figures: emptyFigures() }));
    for (const field of SUMMED_FIELDS) entry.figures[field] += sign * figures[field];
  };
  for (const row of byDay) add(Number(row.k0), String(row.k1 ?? ""), figuresOf(row), 1);
  for (const row of moved) {
    add(Number(row.k0), String(row.k1 ?? ""), figuresOf(row), -1);
    add(Number(row.k2), String(row.k1 ?? ""), figuresOf(row), 1);
  }
  const period = periodOf(query);
  const since = dayNumber(query.since);
  const until = dayNumber(query.until);
  const byPeriod = new Map<string, Keyed>();
  for (const { day, model: name, figures } of perDay.values()) {
    // A day all of whose hours moved away is left with nothing (and a cost of rounding dust).
    if (day < since || day > until || figures.responses === 0) continue;
    const key = period(day);
    const id = `${key}|${name}`;
    const entry = byPeriod.get(id);
    if (entry) addFigures(entry.figures, figures);
    else byPeriod.set(id, { key, model: name, figures: { ...figures } });
  }
  const keyed = [...byPeriod.values()];
  const group = groupExpression(query.groupBy, localDay, query);
  // A span counts on the key of its first quarter and, where that differs or lies before the
  // range, on the key of its last: most spans start and end on one day, and are read once.
  const keyOf = (column: "firstQuarter" | "lastQuarter") =>
    groupExpression(query.groupBy, localDayExpression(spans, `b."${column}"`), query).sql;
  const select = (column: "firstQuarter" | "lastQuarter") =>
    `SELECT ${keyOf(column)} AS k0, b."modelName" AS k1, b."threadId" AS "threadId" FROM "UsageThreadSpan" b`;
  const active = `${select("firstQuarter")} WHERE b."firstQuarter" >= ? AND b."firstQuarter" < ?${model}
     UNION ALL ${select("lastQuarter")} WHERE b."lastQuarter" >= ? AND b."lastQuarter" < ?${model} AND (b."firstQuarter" < ? OR ${keyOf("lastQuarter")} <> ${keyOf("firstQuarter")})`;
  const activeParams = [startQuarter, endQuarter, ...modelParams, startQuarter, endQuarter, ...modelParams, startQuarter];
  const perKey = await run<{ k0: unknown; threads: Numeric }[]>(
    client,
    kind,
    `SELECT k0, COUNT(DISTINCT "threadId") AS threads FROM (${active}) x GROUP BY k0`,
    ...activeParams,
  );
  const perKeyAndModel = threadsPerModel
    ? await run<{ k0: unknown; k1: unknown; threads: Numeric }[]>(
        client,
        kind,
        `SELECT k0, k1, COUNT(DISTINCT "threadId") AS threads FROM (${active}) x GROUP BY k0, k1`,
        ...activeParams,
      )
    : [];
  // A span is at most half a day and a range at least 23 hours: one that meets the range has its
  // first or last quarter in it.
  const [all] = await run<{ threads: Numeric }[]>(
    client,
    kind,
    `SELECT COUNT(DISTINCT b."threadId") AS threads FROM "UsageThreadSpan" b WHERE b."lastQuarter" >= ? AND b."firstQuarter" < ?${model}`,
    startQuarter,
    endQuarter,
    ...modelParams,
  );
  return {
    keyed,
    threadsPerKey: new Map(perKey.map((row) => [group.key(row.k0), Number(row.threads)])),
    threadsPerKeyAndModel: new Map(
      perKeyAndModel.map((row) => [JSON.stringify([group.key(row.k0), String(row.k1 ?? "")]), Number(row.threads)]),
    ),
    totalThreads: all ? Number(all.threads) : 0,
  };
}

const SUMMED_FIELDS = [
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "reasoningTokens",
  "costUsd",
  "responses",
  "unpricedResponses",
  "estimatedResponses",
] as const;

/** A local day number's key under a time group. */
function periodOf(query: RangedQuery): (day: number) => string {
  return query.groupBy === "week" ? weekKey : query.groupBy === "month" ? monthKey : dayKey;
}

/**
 * SQL for a bucket's local day number: its quarter plus the zone's offset in the span it falls in,
 * in whole days. Every number in it is computed here, none comes from the request.
 */
function localDayExpression(spans: OffsetSpan[], quarter: string): string {
  return `(${localQuarterExpression(spans, quarter)} / ${QUARTERS_PER_DAY})`;
}

type GroupSql = { sql: string; key: (value: unknown) => string };

function groupExpression(group: UsageGroup, localDay: string, range: RangedQuery): GroupSql {
  const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
  switch (group) {
    case "day":
      return { sql: localDay, key: (value) => dayKey(Number(value)) };
    case "week":
      // 1970-01-01 was a Thursday: (day + 3) / 7 counts Monday-to-Sunday weeks.
      return { sql: `((${localDay} + 3) / 7)`, key: (value) => weekKey(Number(value) * 7 - 3) };
    case "month": {
      // The first day of each month the range touches, after the first.
      const starts: number[] = [];
      for (let day = dayNumber(range.since); day <= dayNumber(range.until); day++)
        if (dayKey(day).endsWith("-01") && day > dayNumber(range.since)) starts.push(day);
      const firstDays = [dayNumber(range.since), ...starts];
      const sql =
        starts.length === 0
          ? "0"
          : `CASE ${starts.map((day, i) => `WHEN ${localDay} < ${day} THEN ${i}`).join(" ")} ELSE ${starts.length} END`;
      return { sql, key: (value) => monthKey(firstDays[Number(value)]!) };
    }
    case "model":
      return { sql: `b."modelName"`, key: text };
    case "provider":
      return { sql: `b."modelProvider"`, key: text };
    case "project":
      return { sql: `COALESCE(t."project", '')`, key: text };
    case "source":
      return { sql: `t."source"`, key: text };
    case "thread":
      return { sql: `b."threadId"`, key: text };
    case "person":
      return { sql: personOfThread(range.firstAdminId), key: text };
    case "machine":
      return { sql: MACHINE_OF_THREAD, key: text };
    case "block":
      throw new Error("blocks are not a column's values: readBlocks reads them");
  }
}
