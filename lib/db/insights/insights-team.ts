import "server-only";
import type { MachineInsight, PersonInsight } from "@/lib/domain/insights/insights-report";
import { costliestFirst } from "@/lib/domain/usage/usage-report";
import { personNames } from "../people/people";
import { MACHINE_OF_THREAD, personOfThread } from "../usage/usage-sql";

/** What the team figures read of a report (lib/db/insights/insights-report.ts ReportQueries), always per thread. */
export type TeamScans = {
  /** `FROM` a per-thread rollup (alias x) joined to its thread (t) `WHERE` in the range, the filters and the scope; `quarter` as SQL. */
  rollup(table: string): { sql: string; params: unknown[]; quarter: string };
  /** `FROM` the sessions (s) joined to their thread (t) `WHERE` the report's sessions are. */
  sessions(): { sql: string; params: unknown[] };
  /** SQL for a quarter's local hour in the report's zone. */
  localHour(quarter: string): string;
  query<T>(sql: string, ...params: unknown[]): Promise<T>;
};

type Numeric = number | bigint | string | null;
type Figures = Omit<PersonInsight, "id" | "name">;
type Keys = { p: string | null; m: string | null };

const RESPONSE_FIELDS = [
  "responses",
  "costUsd",
  "unpricedResponses",
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
] as const satisfies (keyof Figures)[];

/**
 * A report's figures per person and per machine (with sign-in on: /insights' By person and By
 * machine): sessions, active hours, turns, responses, cost, tokens and tool calls, grouped the way
 * usage's groupBy=person and groupBy=machine group (lib/db/usage/usage-sql.ts), so a person's row
 * is what a report of their threads alone sums and the rows add up to the report's. Read from the
 * rollups per thread: the hourly sums hold no owner. Each scan groups by person and machine at once.
 */
export async function teamInsights(
  scans: TeamScans,
  firstAdminId: string | null,
): Promise<{ people: PersonInsight[]; machines: MachineInsight[] }> {
  const keys = `${personOfThread(firstAdminId)} AS p, ${MACHINE_OF_THREAD} AS m`;
  const people = new Map<string, Tally>();
  const machines = new Map<string, Tally>();
  const add = (row: Keys, figures: Partial<Record<keyof Figures, Numeric>>, hour?: number) => {
    for (const [map, key] of [
      [people, row.p ?? ""],
      [machines, row.m ?? ""],
    ] as const) {
      let tally = map.get(key);
      if (!tally) map.set(key, (tally = { figures: emptyFigures(), hours: new Set() }));
      for (const [field, value] of Object.entries(figures)) tally.figures[field as keyof Figures] += Number(value ?? 0);
      if (hour !== undefined) tally.hours.add(hour);
    }
  };

  const activity = scans.rollup("InsightsActivity");
  const hours = await scans.query<(Keys & { h: Numeric; turns: Numeric })[]>(
    `SELECT ${scans.localHour(activity.quarter)} AS h, ${keys}, SUM(x."turns") AS turns ${activity.sql} GROUP BY 1, 2, 3`,
    ...activity.params,
  );
  for (const row of hours) add(row, { turns: row.turns }, Number(row.h));
  const buckets = scans.rollup("UsageBucket");
  const responses = await scans.query<(Keys & Record<(typeof RESPONSE_FIELDS)[number], Numeric>)[]>(
    `SELECT ${keys}, ${RESPONSE_FIELDS.map((field) => `SUM(x."${field}") AS "${field}"`).join(", ")} ${buckets.sql} GROUP BY 1, 2`,
    ...buckets.params,
  );
  for (const row of responses) add(row, Object.fromEntries(RESPONSE_FIELDS.map((field) => [field, row[field]])));
  const tools = scans.rollup("InsightsTool");
  const calls = await scans.query<(Keys & { calls: Numeric; errors: Numeric })[]>(
    `SELECT ${keys}, SUM(x."calls") AS calls, SUM(x."errors") AS errors ${tools.sql} GROUP BY 1, 2`,
    ...tools.params,
  );
  for (const row of calls) add(row, { toolCalls: row.calls, toolErrors: row.errors });
  const sessions = scans.sessions();
  const counted = await scans.query<(Keys & { n: Numeric })[]>(
    `SELECT ${keys}, COUNT(*) AS n ${sessions.sql} GROUP BY 1, 2`,
    ...sessions.params,
  );
  for (const row of counted) add(row, { sessions: row.n });

  const names = await personNames([...people.keys()]);
  return {
    people: sorted(people).map(([id, figures]) => ({ id, name: names(id), ...figures })),
    machines: sorted(machines).map(([machine, figures]) => ({ machine, ...figures })),
  };
}

type Tally = { figures: Figures; hours: Set<number> };

function emptyFigures(): Figures {
  return {
    sessions: 0,
    activeHours: 0,
    turns: 0,
    responses: 0,
    costUsd: 0,
    unpricedResponses: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    toolCalls: 0,
    toolErrors: 0,
  };
}

/** The rows in /usage's order for its tables that are not periods (costliest, then tokens, then key), active hours counted. */
function sorted(tallies: Map<string, Tally>): [string, Figures][] {
  return [...tallies]
    .map(([key, tally]): [string, Figures] => [key, { ...tally.figures, activeHours: tally.hours.size }])
    .sort(([a, x], [b, y]) => costliestFirst(x, y) || (a < b ? -1 : a > b ? 1 : 0));
}
