import "server-only";
import { mayRead, type Reader } from "@/lib/domain/access";
import { usageScope } from "../usage/usage-report";
import type { UsageScope } from "../usage/usage-sql";
import type {
  ActivityCell,
  AgentInsight,
  InsightsFilters,
  InsightsReport,
  ModelInsight,
  SessionHealth,
  SessionSummary,
  ToolInsight,
} from "@/lib/domain/insights/insights-report";
import {
  dayKey,
  localDayOf,
  offsetSpans,
  QUARTER_MS,
  rangeQuarters,
  resolveRange,
  type AskedRange,
  type OffsetSpan,
  type UsageRange,
} from "@/lib/domain/usage/usage-period";
import { db } from "../engine/client";
import { databaseKind, type Database, type DatabaseKind } from "../engine/create-client";
import { run } from "../engine/dialect";
import { refreshUsageBuckets } from "../usage/usage-aggregates";
import { localQuarterExpression } from "../usage/usage-sql";
import { firstAdminId } from "../people/first-admin";
import { teamInsights, type TeamScans } from "./insights-team";

/**
 * The activity dashboard's report (GET /api/insights): read from the rollups the usage refresh
 * keeps (lib/db/insights/insights-rollups.ts) and the usage buckets, brought up to date first,
 * never from the turns. `source` and `project` keep threads of that source or project; `model`
 * keeps the turns, tool calls and responses of that model (a tool call is the model's that made
 * it; user and tool turns name no model, so they drop out) and the sessions with turns of it.
 */
export async function insightsReport(
  asked: AskedRange,
  filters: InsightsFilters,
  reader: Reader,
  now: Date = new Date(),
  { fromThreadsOnly = false }: { fromThreadsOnly?: boolean } = {},
): Promise<InsightsReport> {
  await refreshUsageBuckets();
  const client = await db();
  const kind = databaseKind(client);
  const today = dayKey(localDayOf(asked.timeZone, now.getTime()));
  const { range, overlaps } = resolveRange(asked, await dataExtent(client, kind, asked.timeZone, usageScope(reader)), today);
  const head = { since: range.since, until: range.until, tz: range.timeZone, filters: definedFilters(filters) };
  // With sign-in on, the figures per person and machine (an admin's: the whole team's).
  const teamOf = async (queries: ReportQueries | null) =>
    reader === null ? {} : queries ? teamInsights(queries.teamScans(), await firstAdminId()) : { people: [], machines: [] };
  if (!overlaps) return { ...head, activity: [], tools: [], models: [], sessions: emptySessions(), agents: [], ...(await teamOf(null)) };
  const queries = new ReportQueries(client, kind, range, filters, usageScope(reader), fromThreadsOnly);
  const activity = await queries.activity();
  const tools = await queries.tools();
  const models = await queries.models();
  const sessions = await queries.sessions(reader);
  return { ...head, activity, tools, models, sessions, agents: queries.agents(), ...(await teamOf(queries)) };
}

/** The first and last local days with any turn; null without any. */
async function dataExtent(
  client: Database,
  kind: DatabaseKind,
  timeZone: string,
  scope: UsageScope,
): Promise<{ first: string; last: string } | null> {
  const [row] = await run<{ first: Numeric; last: Numeric }[]>(
    client,
    kind,
    scope
      ? `SELECT MIN(x."quarter") AS first, MAX(x."quarter") AS last FROM "InsightsActivity" x JOIN "Thread" t ON t."id" = x."threadId" WHERE ${scope.sql}`
      : `SELECT MIN("quarter") AS first, MAX("quarter") AS last FROM "InsightsActivity"`,
    ...(scope?.params ?? []),
  );
  if (!row || row.first === null || row.last === null) return null;
  const dayOf = (quarter: Numeric) => dayKey(localDayOf(timeZone, Number(quarter) * QUARTER_MS));
  return { first: dayOf(row.first), last: dayOf(row.last) };
}

type Numeric = number | bigint | string | null;

function definedFilters(filters: InsightsFilters): InsightsFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}

function emptySessions(): SessionHealth {
  return { count: 0, withCompaction: 0, withSubagents: 0, interrupted: 0, errored: 0, compactions: 0, longest: [], endedBadly: [] };
}

/**
 * The queries of one report: the range's quarters, its zone's offsets and the filters as SQL.
 * Every project in a zone whose offsets are whole hours (the range then starts and ends on UTC
 * hours) is read from the hourly sums without the thread (lib/db/insights/insights-hours.ts);
 * anything else from the rollups per thread. Each scan adds its figures per source to the agents.
 */
class ReportQueries {
  private readonly startQuarter: number;
  private readonly endQuarter: number;
  private readonly spans: OffsetSpan[];
  private readonly fromHours: boolean;
  private readonly agentsBySource = new Map<string, AgentInsight>();

  constructor(
    private readonly client: Database,
    private readonly kind: DatabaseKind,
    range: UsageRange,
    private readonly filters: InsightsFilters,
    /** The threads it may read from (usageScope); the hourly sums hold every thread's, so a scope reads the rollups per thread. */
    private readonly scope: UsageScope,
    fromThreadsOnly: boolean,
  ) {
    ({ startQuarter: this.startQuarter, endQuarter: this.endQuarter } = rangeQuarters(range));
    this.spans = offsetSpans(range.timeZone, this.startQuarter, this.endQuarter);
    // (fromThreadsOnly: for the tests that hold the two ways to each other.)
    this.fromHours =
      !fromThreadsOnly &&
      scope === null &&
      filters.project === undefined &&
      this.startQuarter % 4 === 0 &&
      this.endQuarter % 4 === 0 &&
      this.spans.every((span) => span.offsetQuarters % 4 === 0 && span.fromQuarter % 4 === 0);
  }

  /**
   * FROM a per-thread rollup (alias x) joined to its thread, or the hourly sums (none: always per
   * thread), WHERE in range and matching the filters; `quarter` and `source` are its quarter-hour
   * and source as SQL.
   */
  private from(table: string, hourlyTable: string | null): { sql: string; params: unknown[]; quarter: string; source: string } {
    const hourly = this.fromHours && hourlyTable !== null;
    const where = hourly ? [`x."hour" >= ?`, `x."hour" < ?`] : [`x."quarter" >= ?`, `x."quarter" < ?`];
    const params: unknown[] = hourly ? [this.startQuarter / 4, this.endQuarter / 4] : [this.startQuarter, this.endQuarter];
    const source = hourly ? `x."source"` : `t."source"`;
    if (this.filters.model !== undefined) {
      where.push(`x."modelName" = ?`);
      params.push(this.filters.model);
    }
    if (this.filters.source !== undefined) {
      where.push(`${source} = ?`);
      params.push(this.filters.source);
    }
    if (this.filters.project !== undefined) {
      where.push(`t."project" = ?`);
      params.push(this.filters.project);
    }
    if (this.scope) {
      where.push(this.scope.sql);
      params.push(...this.scope.params);
    }
    const sql = hourly
      ? `FROM "${hourlyTable!}" x WHERE ${where.join(" AND ")}`
      : `FROM "${table}" x JOIN "Thread" t ON t."id" = x."threadId" WHERE ${where.join(" AND ")}`;
    return { sql, params, quarter: hourly ? `(x."hour" * 4)` : `x."quarter"`, source };
  }

  /** SQL for a quarter's local hour (in the report's zone). */
  private localHour(quarter: string): string {
    return `(${localQuarterExpression(this.spans, quarter)} / 4)`;
  }

  private query<T>(sql: string, ...params: unknown[]): Promise<T> {
    return run<T>(this.client, this.kind, sql, ...params);
  }

  private agentOf(source: string): AgentInsight {
    let agent = this.agentsBySource.get(source);
    if (!agent)
      this.agentsBySource.set(
        source,
        (agent = { source, sessions: 0, turns: 0, responses: 0, costUsd: 0, unpricedResponses: 0, toolCalls: 0, toolErrors: 0 }),
      );
    return agent;
  }

  /** Turns and responses per local hour (and turns per source). */
  async activity(): Promise<ActivityCell[]> {
    const rows: { h: Numeric; source: string; turns: Numeric; responses: Numeric }[] = [];
    if (this.fromHours) {
      const { sql, params, quarter, source } = this.from("InsightsActivity", "InsightsHour");
      rows.push(
        ...(await this.query<typeof rows>(
          `SELECT ${this.localHour(quarter)} AS h, ${source} AS source, SUM(x."turns") AS turns, SUM(x."responses") AS responses ${sql} GROUP BY 1, 2`,
          ...params,
        )),
      );
    } else {
      const turns = this.from("InsightsActivity", "InsightsHour");
      const responses = this.from("UsageBucket", "InsightsHour");
      rows.push(
        ...(await this.query<typeof rows>(
          `SELECT ${this.localHour(turns.quarter)} AS h, ${turns.source} AS source, SUM(x."turns") AS turns, 0 AS responses ${turns.sql} GROUP BY 1, 2`,
          ...turns.params,
        )),
        ...(await this.query<typeof rows>(
          `SELECT ${this.localHour(responses.quarter)} AS h, ${responses.source} AS source, 0 AS turns, SUM(x."responses") AS responses ${responses.sql} GROUP BY 1, 2`,
          ...responses.params,
        )),
      );
    }
    const cells = new Map<number, ActivityCell>();
    for (const row of rows) {
      const turns = Number(row.turns);
      const responses = Number(row.responses);
      if (turns > 0) this.agentOf(row.source).turns += turns;
      if (turns === 0 && responses === 0) continue;
      const localHour = Number(row.h);
      let cell = cells.get(localHour);
      if (!cell) cells.set(localHour, (cell = { day: dayKey(Math.floor(localHour / 24)), hour: localHour % 24, turns: 0, responses: 0 }));
      cell.turns += turns;
      cell.responses += responses;
    }
    return [...cells.entries()].sort(([a], [b]) => a - b).map(([, cell]) => cell);
  }

  async tools(): Promise<ToolInsight[]> {
    const { sql, params, source } = this.from("InsightsTool", "InsightsToolHour");
    const rows = await this.query<{ name: string; source: string; calls: Numeric; errors: Numeric }[]>(
      `SELECT x."name" AS name, ${source} AS source, SUM(x."calls") AS calls, SUM(x."errors") AS errors ${sql} GROUP BY 1, 2`,
      ...params,
    );
    const tools = new Map<string, ToolInsight>();
    for (const row of rows) {
      const calls = Number(row.calls);
      const errors = Number(row.errors);
      let tool = tools.get(row.name);
      if (!tool) tools.set(row.name, (tool = { name: row.name, calls: 0, errors: 0, agents: [] }));
      tool.calls += calls;
      tool.errors += errors;
      tool.agents.push({ source: row.source, calls, errors });
      const agent = this.agentOf(row.source);
      agent.toolCalls += calls;
      agent.toolErrors += errors;
    }
    for (const tool of tools.values()) tool.agents.sort((a, b) => b.calls - a.calls || a.source.localeCompare(b.source));
    return [...tools.values()].sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
  }

  /** Responses, cost and tokens per model (and responses and cost per source). */
  async models(): Promise<ModelInsight[]> {
    const { sql, params, source } = this.from("UsageBucket", "InsightsHour");
    const rows = await this.query<({ model: string; source: string } & Record<keyof Omit<ModelInsight, "model">, Numeric>)[]>(
      `SELECT x."modelName" AS model, ${source} AS source, SUM(x."responses") AS responses, SUM(x."costUsd") AS "costUsd",
              SUM(x."inputTokens") AS "inputTokens", SUM(x."outputTokens") AS "outputTokens", SUM(x."cacheReadTokens") AS "cacheReadTokens",
              SUM(x."cacheWriteTokens") AS "cacheWriteTokens", SUM(x."unpricedResponses") AS "unpricedResponses" ${sql} GROUP BY 1, 2`,
      ...params,
    );
    const models = new Map<string, ModelInsight>();
    for (const row of rows) {
      const agent = this.agentOf(row.source);
      agent.responses += Number(row.responses);
      agent.costUsd += Number(row.costUsd);
      agent.unpricedResponses += Number(row.unpricedResponses);
      const name = row.model || "(no model)";
      let model = models.get(name);
      if (!model)
        models.set(
          name,
          (model = {
            model: name,
            responses: 0,
            costUsd: 0,
            inputTokens: 0,
            outputTokens: 0,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
            unpricedResponses: 0,
          }),
        );
      for (const field of [
        "responses",
        "costUsd",
        "inputTokens",
        "outputTokens",
        "cacheReadTokens",
        "cacheWriteTokens",
        "unpricedResponses",
      ] as const)
        model[field] += Number(row[field]);
    }
    return [...models.values()]
      .filter((model) => model.responses > 0)
      .sort((a, b) => b.costUsd - a.costUsd || b.responses - a.responses || a.model.localeCompare(b.model));
  }

  /** Sessions (threads that are no sub-agent's) with own turns in the range, matching the filters. */
  private sessionsFrom(): { sql: string; params: unknown[] } {
    const where = [`s."subagentOf" IS NULL`, `s."lastQuarter" >= ?`, `s."firstQuarter" < ?`];
    const params: unknown[] = [this.startQuarter, this.endQuarter];
    for (const field of ["source", "project"] as const) {
      if (this.filters[field] === undefined) continue;
      where.push(`t."${field}" = ?`);
      params.push(this.filters[field]);
    }
    if (this.filters.model !== undefined) {
      where.push(
        `EXISTS (SELECT 1 FROM "InsightsActivity" a WHERE a."threadId" = s."threadId" AND a."modelName" = ? AND a."quarter" >= ? AND a."quarter" < ?)`,
      );
      params.push(this.filters.model, this.startQuarter, this.endQuarter);
    }
    if (this.scope) {
      where.push(this.scope.sql);
      params.push(...this.scope.params);
    }
    return { sql: `FROM "InsightsSession" s JOIN "Thread" t ON t."id" = s."threadId" WHERE ${where.join(" AND ")}`, params };
  }

  /** Session health (and sessions per source). */
  async sessions(reader: Reader): Promise<SessionHealth> {
    const { sql, params } = this.sessionsFrom();
    const withSubagents = `EXISTS (SELECT 1 FROM "InsightsSession" c WHERE c."subagentOf" = s."threadId")`;
    const perSource = await this.query<({ source: string } & Record<string, Numeric>)[]>(
      `SELECT t."source" AS source, COUNT(*) AS count, SUM(CASE WHEN s."compactions" > 0 THEN 1 ELSE 0 END) AS "withCompaction",
              SUM(CASE WHEN ${withSubagents} THEN 1 ELSE 0 END) AS "withSubagents",
              SUM(CASE WHEN s."endedWith" = 'interrupt' THEN 1 ELSE 0 END) AS interrupted,
              SUM(CASE WHEN s."endedWith" = 'error' THEN 1 ELSE 0 END) AS errored, SUM(s."compactions") AS compactions ${sql} GROUP BY 1`,
      ...params,
    );
    for (const row of perSource) this.agentOf(row.source).sessions = Number(row.count);
    const columns = `s."threadId" AS "threadId", t."title" AS title, t."ownerId" AS "ownerId", t."visibility" AS visibility, t."source" AS source, t."project" AS project, s."turns" AS turns,
      s."firstAt" AS "firstAt", s."lastAt" AS "lastAt", s."compactions" AS compactions, s."endedWith" AS "endedWith"`;
    const longest = await this.query<SessionRow[]>(
      `SELECT ${columns} ${sql} ORDER BY s."lastAt" - s."firstAt" DESC, s."threadId" LIMIT 10`,
      ...params,
    );
    const endedBadly = await this.query<SessionRow[]>(
      `SELECT ${columns} ${sql} AND s."endedWith" IN ('error', 'interrupt') ORDER BY s."lastAt" DESC, s."threadId" LIMIT 20`,
      ...params,
    );
    const subagents = await this.subagentCounts([...longest, ...endedBadly].map((row) => row.threadId));
    // An admin sees every session's figures; the title of one they may not read stays its owner's.
    const summary = (row: SessionRow) => {
      const readable = mayRead(reader, row);
      const listed = sessionSummary({ ...row, title: readable ? row.title : null }, subagents.get(row.threadId) ?? 0);
      return readable ? listed : { ...listed, private: true };
    };
    const count = (field: string) => perSource.reduce((sum, row) => sum + Number(row[field] ?? 0), 0);
    return {
      count: count("count"),
      withCompaction: count("withCompaction"),
      withSubagents: count("withSubagents"),
      interrupted: count("interrupted"),
      errored: count("errored"),
      compactions: count("compactions"),
      longest: longest.map(summary),
      endedBadly: endedBadly.map(summary),
    };
  }

  private async subagentCounts(threadIds: string[]): Promise<Map<string, number>> {
    const ids = [...new Set(threadIds)];
    if (ids.length === 0) return new Map();
    const rows = await this.query<{ id: string; n: Numeric }[]>(
      `SELECT "subagentOf" AS id, COUNT(*) AS n FROM "InsightsSession" WHERE "subagentOf" IN (${ids.map(() => "?").join(", ")}) GROUP BY 1`,
      ...ids,
    );
    return new Map(rows.map((row) => [row.id, Number(row.n)]));
  }

  /** What the team figures read (lib/db/insights/insights-team.ts): the same rollups and sessions, per thread. */
  teamScans(): TeamScans {
    return {
      rollup: (table) => this.from(table, null),
      sessions: () => this.sessionsFrom(),
      localHour: (quarter) => this.localHour(quarter),
      query: <T>(sql: string, ...params: unknown[]) => this.query<T>(sql, ...params),
    };
  }

  /** The agents side by side, from what the other scans added per source. */
  agents(): AgentInsight[] {
    return [...this.agentsBySource.values()].sort(
      (a, b) => b.sessions - a.sessions || b.turns - a.turns || a.source.localeCompare(b.source),
    );
  }
}

type SessionRow = {
  ownerId: string | null;
  visibility: string;
  threadId: string;
  title: string | null;
  source: string;
  project: string | null;
  turns: Numeric;
  firstAt: Numeric;
  lastAt: Numeric;
  compactions: Numeric;
  endedWith: string | null;
};

function sessionSummary(row: SessionRow, subagents: number): SessionSummary {
  return {
    threadId: row.threadId,
    title: row.title,
    source: row.source,
    project: row.project,
    turns: Number(row.turns),
    startedAt: new Date(Number(row.firstAt)).toISOString(),
    endedAt: new Date(Number(row.lastAt)).toISOString(),
    compactions: Number(row.compactions),
    subagents,
    endedWith: row.endedWith === "error" || row.endedWith === "interrupt" ? row.endedWith : null,
  };
}
