import "server-only";
import type { OffsetSpan } from "@/lib/domain/usage/usage-period";
import { emptyFigures, type UsageFigures, type UsageQuery } from "@/lib/domain/usage/usage-report";

// The SQL the usage reports (usage-report.ts, usage-blocks.ts) share: the sums of a bucket's
// figures, and the buckets a report's filters and range keep.

export const SUMS = [
  `SUM(b."inputTokens") AS "inputTokens"`,
  `SUM(b."outputTokens") AS "outputTokens"`,
  `SUM(b."cacheReadTokens") AS "cacheReadTokens"`,
  `SUM(b."cacheWriteTokens") AS "cacheWriteTokens"`,
  `SUM(b."reasoningTokens") AS "reasoningTokens"`,
  `SUM(b."costUsd") AS "costUsd"`,
  `SUM(b."responses") AS responses`,
  `SUM(b."unpricedResponses") AS "unpricedResponses"`,
  `SUM(b."estimatedResponses") AS "estimatedResponses"`,
].join(", ");

export type Numeric = number | bigint | string | null;
export type FigureRow = { k0?: unknown; k1?: unknown } & Record<keyof UsageFigures, Numeric>;

export function figuresOf(row: FigureRow): UsageFigures {
  const figures = emptyFigures();
  for (const field of Object.keys(figures) as (keyof UsageFigures)[]) figures[field] = Number(row[field] ?? 0);
  return figures;
}

/** The threads a report may sum (lib/db/usage/usage-report.ts usageScope), on the thread `t`; null: all. */
export type UsageScope = { sql: string; params: unknown[] } | null;

/**
 * `FROM "UsageBucket" b … WHERE …` for the buckets of a report's filters and scope (the thread
 * joined as `t` when a filter, the scope or `joinThread` needs it), within [startQuarter,
 * endQuarter) when given.
 */
export function bucketsOf(
  query: Pick<UsageQuery, "source" | "project" | "model"> & { scope?: UsageScope },
  quarters: { startQuarter: number; endQuarter: number } | null,
  joinThread = false,
): { from: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (quarters) {
    where.push(`b."quarter" >= ?`, `b."quarter" < ?`);
    params.push(quarters.startQuarter, quarters.endQuarter);
  }
  const join = joinThread || query.source !== undefined || query.project !== undefined || Boolean(query.scope);
  for (const [column, value] of [
    [`b."modelName"`, query.model],
    [`t."source"`, query.source],
    [`t."project"`, query.project],
  ] as const) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    params.push(value);
  }
  if (query.scope) {
    where.push(query.scope.sql);
    params.push(...query.scope.params);
  }
  const from = `FROM "UsageBucket" b${join ? ` JOIN "Thread" t ON t."id" = b."threadId"` : ""}${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""}`;
  return { from, params };
}

/**
 * SQL for a quarter's local quarter in a zone: the quarter plus the zone's offset in the span it
 * falls in (usage's local days and insights' local hours are whole parts of it). Every number in it
 * is computed here, none comes from the request.
 */
export function localQuarterExpression(spans: OffsetSpan[], quarter: string): string {
  for (const span of spans)
    if (!Number.isInteger(span.fromQuarter) || !Number.isInteger(span.offsetQuarters))
      throw new Error("offsetSpans: not whole quarter-hours");
  const offset =
    spans.length === 1
      ? String(spans[0]!.offsetQuarters)
      : `CASE ${spans
          .slice(1)
          .map((span, i) => `WHEN ${quarter} < ${span.fromQuarter} THEN ${spans[i]!.offsetQuarters}`)
          .join(" ")} ELSE ${spans.at(-1)!.offsetQuarters} END`;
  return `(${quarter} + ${offset})`;
}

/** A text literal in SQL (an id read from the database, never from the request): quotes doubled. */
const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * The team figures' groups (usage's groupBy=person and groupBy=machine, insights' people and
 * machines), as SQL on the thread `t`: whose it is, the threads nobody owns counting as the first
 * admin's (lib/domain/access; "" when there is no admin), and the machine it was pushed from (""
 * for the server's own).
 */
export function personOfThread(firstAdminId: string | null): string {
  return `COALESCE(t."ownerId", ${sqlText(firstAdminId ?? "")})`;
}

export const MACHINE_OF_THREAD = `COALESCE(t."machine", '')`;
