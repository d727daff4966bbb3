import "server-only";
import { dayKey, dayNumber, monthKey, offsetSpans, QUARTERS_PER_DAY, rangeQuarters, weekKey } from "@/lib/domain/usage-period";
import { emptyFigures, sortRows, type UsageFigures, type UsageGroup, type UsageQuery, type UsageReport, type UsageRow } from "@/lib/domain/usage-report";
import { db } from "./client";
import { databaseKind } from "./create-client";
import { run } from "./dialect";
import { refreshUsageBuckets } from "./usage-aggregates";

/**
 * Usage reports (GET /api/usage, the /usage page, `npm run usage`): read from the usage buckets
 * (lib/db/usage-aggregates.ts), brought up to date first, never from the turns. A range of local
 * days is a range of quarter-hours; a bucket's local day is its quarter plus the zone's offset
 * then (a handful of spans a year, lib/domain/usage-period.ts), in whole days. So the database
 * groups a few thousand rows per year of use, whatever the zone.
 */
export async function usageReport(query: UsageQuery): Promise<UsageReport> {
  await refreshUsageBuckets();
  const client = await db();
  const kind = databaseKind(client);
  const { startQuarter, endQuarter } = rangeQuarters(query);
  const localDay = localDayExpression(query.timeZone, startQuarter, endQuarter);
  const group = groupExpression(query.groupBy, localDay, query);
  const joinThread = query.groupBy === "project" || query.groupBy === "source" || query.source !== undefined || query.project !== undefined;

  const where = [`b."quarter" >= ?`, `b."quarter" < ?`];
  const params: unknown[] = [startQuarter, endQuarter];
  if (query.model !== undefined) {
    where.push(`b."modelName" = ?`);
    params.push(query.model);
  }
  if (query.source !== undefined) {
    where.push(`t."source" = ?`);
    params.push(query.source);
  }
  if (query.project !== undefined) {
    where.push(`t."project" = ?`);
    params.push(query.project);
  }
  const from = `FROM "UsageBucket" b${joinThread ? ` JOIN "Thread" t ON t."id" = b."threadId"` : ""} WHERE ${where.join(" AND ")}`;
  const select = (keys: string[]) => `SELECT ${keys.map((k, i) => `${k} AS k${i}, `).join("")}${FIGURES} ${from}${keys.length > 0 ? ` GROUP BY ${keys.map((_, i) => i + 1).join(", ")}` : ""}`;

  const grouped = await run<FigureRow[]>(client, kind, select([group.sql]), ...params);
  let rows: UsageRow[] = grouped.map((row) => ({ key: group.key(row.k0), ...figuresOf(row) }));
  rows = sortRows(rows, query.groupBy);
  if (query.limit !== undefined) rows = rows.slice(0, query.limit);

  if (query.breakdown === "model") {
    const byModel = await run<FigureRow[]>(client, kind, select([group.sql, `b."modelName"`]), ...params);
    const breakdowns = new Map<string, (UsageFigures & { key: string })[]>();
    for (const row of byModel) {
      const key = group.key(row.k0);
      const list = breakdowns.get(key) ?? [];
      list.push({ key: String(row.k1 ?? ""), ...figuresOf(row) });
      breakdowns.set(key, list);
    }
    rows = rows.map((row) => ({ ...row, breakdown: sortRows(breakdowns.get(row.key) ?? [], "model") }));
  }

  if (query.groupBy === "thread" && rows.length > 0) {
    const titles = new Map<string, string | null>();
    for (let i = 0; i < rows.length; i += 500) {
      const found = await client.thread.findMany({ where: { id: { in: rows.slice(i, i + 500).map((r) => r.key) } }, select: { id: true, title: true } });
      for (const thread of found) titles.set(thread.id, thread.title);
    }
    rows = rows.map((row) => ({ ...row, title: titles.get(row.key) ?? null }));
  }

  const [total] = await run<FigureRow[]>(client, kind, select([]), ...params);
  const unpriced = await run<{ modelName: string }[]>(client, kind, `SELECT DISTINCT b."modelName" AS "modelName" ${from} AND b."unpricedResponses" > 0`, ...params);
  const filters = Object.fromEntries((["source", "project", "model"] as const).filter((f) => query[f] !== undefined).map((f) => [f, query[f]!]));
  return {
    groupBy: query.groupBy,
    since: query.since,
    until: query.until,
    tz: query.timeZone,
    filters,
    rows,
    totals: { ...(total ? figuresOf(total) : emptyFigures()), unpricedModels: unpriced.map((u) => u.modelName || "(no model)").sort() },
  };
}

const FIGURES = [
  `SUM(b."inputTokens") AS "inputTokens"`,
  `SUM(b."outputTokens") AS "outputTokens"`,
  `SUM(b."cacheReadTokens") AS "cacheReadTokens"`,
  `SUM(b."cacheWriteTokens") AS "cacheWriteTokens"`,
  `SUM(b."reasoningTokens") AS "reasoningTokens"`,
  `SUM(b."costUsd") AS "costUsd"`,
  `SUM(b."responses") AS responses`,
  `COUNT(DISTINCT b."threadId") AS threads`,
  `SUM(b."unpricedResponses") AS "unpricedResponses"`,
  `SUM(b."estimatedResponses") AS "estimatedResponses"`,
].join(", ");

type Numeric = number | bigint | string | null;
type FigureRow = { k0?: unknown; k1?: unknown } & Record<keyof UsageFigures, Numeric>;

function figuresOf(row: FigureRow): UsageFigures {
  const figures = emptyFigures();
  for (const field of Object.keys(figures) as (keyof UsageFigures)[]) figures[field] = Number(row[field] ?? 0);
  return figures;
}

/**
 * SQL for a bucket's local day number: its quarter plus the zone's offset in the span it falls in,
 * in whole days. Every number in it is computed here, none comes from the request.
 */
function localDayExpression(timeZone: string, startQuarter: number, endQuarter: number): string {
  const spans = offsetSpans(timeZone, startQuarter, endQuarter);
  for (const span of spans) if (!Number.isInteger(span.fromQuarter) || !Number.isInteger(span.offsetQuarters)) throw new Error("offsetSpans: not whole quarter-hours");
  const offset =
    spans.length === 1
      ? String(spans[0]!.offsetQuarters)
      : `CASE ${spans
          .slice(1)
          .map((span, i) => `WHEN b."quarter" < ${span.fromQuarter} THEN ${spans[i]!.offsetQuarters}`)
          .join(" ")} ELSE ${spans.at(-1)!.offsetQuarters} END`;
  return `((b."quarter" + ${offset}) / ${QUARTERS_PER_DAY})`;
}

type GroupSql = { sql: string; key: (value: unknown) => string };

function groupExpression(group: UsageGroup, localDay: string, range: UsageQuery): GroupSql {
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
      for (let day = dayNumber(range.since); day <= dayNumber(range.until); day++) if (dayKey(day).endsWith("-01") && day > dayNumber(range.since)) starts.push(day);
      const firstDays = [dayNumber(range.since), ...starts];
      const sql = starts.length === 0 ? "0" : `CASE ${starts.map((day, i) => `WHEN ${localDay} < ${day} THEN ${i}`).join(" ")} ELSE ${starts.length} END`;
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
  }
}
