import "server-only";
import { sessionEnding, turnInsight, type TurnOutcome } from "@/lib/domain/insights/turn-insights";
import { relationOf } from "@/lib/domain/threads/links";
import type { JsonObject } from "@/lib/domain/types";
import { quarterOf } from "@/lib/domain/usage/usage-period";
import { chunked } from "../engine/chunks";
import type { DatabaseKind } from "../engine/create-client";
import { run } from "../engine/dialect";
import { parsedOrNull, partsFromStored } from "../engine/mappers";
import { insertValues, type Tx } from "../usage/usage-derived";

/**
 * The /insights rollups (prisma/schema.prisma InsightsActivity, InsightsToolCall, InsightsTool,
 * InsightsSession), kept by the usage refresh (lib/db/usage/usage-aggregates.ts) in the same
 * transactions as the usage buckets: a thread summed whole has its rows replaced, one that only
 * grew has its appended turns added, a purged one's rows are dropped. Turns a fork or compacted
 * revision copied from its source (and Pi's copies of a parent session) count in the source only.
 */

/** Which of a run of a thread's turns are copies: the first `atTurn` + 1 read, or those up to `until`. */
export type Copied = { atTurn: number; until: Date | null } | undefined;

/** A thread being summed whole: its parent and metadata tell a sub-agent's session. */
export type SummingThread = { id: string; parentThreadId: string | null; metadata: string | null };

type TurnRow = {
  threadId: string;
  role: string;
  head: string;
  timestamp: Date | string | number;
  modelName: string | null;
  modelMetadata: string | null;
  parts: string | null;
  compaction: number | bigint | boolean;
};

/** A thread's own turns in a run, as the rollups count them. */
type ThreadFigures = {
  activity: Map<string, { quarter: number; modelName: string; turns: number }>;
  calls: Map<string, { quarter: number; modelName: string; name: string; errored: boolean }>;
  failed: Set<string>;
  firstAt: number | null;
  lastAt: number | null;
  turns: number;
  compactions: number;
  outcomes: TurnOutcome[];
};

/** The turns of some threads from `fromIndex` on, with only what the rollups need of each. */
async function turnRows(tx: Tx, kind: DatabaseKind, threadIds: string[], fromIndex: number): Promise<TurnRow[]> {
  // The head of the content is enough to tell an interrupt or an API error; parts only where they hold tool calls or results.
  return run<TurnRow[]>(
    tx,
    kind,
    `SELECT "threadId" AS "threadId", "role" AS role, SUBSTR("content", 1, 64) AS head, "timestamp" AS timestamp, "modelName" AS "modelName",
            "modelMetadata" AS "modelMetadata", CASE WHEN "parts" LIKE '%"type":"tool%' THEN "parts" ELSE NULL END AS parts,
            CASE WHEN "parts" LIKE '%"type":"compaction"%' THEN 1 ELSE 0 END AS compaction
       FROM "Turn" WHERE "threadId" IN (${threadIds.map(() => "?").join(", ")}) AND "index" >= ? ORDER BY "threadId", "index"`,
    ...threadIds,
    fromIndex,
  );
}

function figuresOf(rows: TurnRow[], copied: Copied): ThreadFigures {
  const figures: ThreadFigures = {
    activity: new Map(),
    calls: new Map(),
    failed: new Set(),
    firstAt: null,
    lastAt: null,
    turns: 0,
    compactions: 0,
    outcomes: [],
  };
  rows.forEach((row, index) => {
    const at = row.timestamp instanceof Date ? row.timestamp : new Date(row.timestamp);
    const modelMetadata = parsedOrNull<JsonObject>(row.modelMetadata);
    if (copied && (index <= copied.atTurn || (copied.until && at <= copied.until))) return;
    if (modelMetadata?.copiedFromParent === true) return;
    const ms = at.getTime();
    const quarter = quarterOf(at);
    const modelName = row.modelName ?? "";
    const insight = turnInsight({ role: row.role, content: row.head, parts: partsFromStored(row.parts, row.head), modelMetadata });
    const key = `${quarter}|${modelName}`;
    const cell = figures.activity.get(key) ?? { quarter, modelName, turns: 0 };
    cell.turns++;
    figures.activity.set(key, cell);
    for (const call of insight.calls)
      if (!figures.calls.has(call.id)) figures.calls.set(call.id, { quarter, modelName, name: call.name, errored: false });
    for (const id of insight.failedCallIds) figures.failed.add(id);
    figures.firstAt = figures.firstAt === null ? ms : Math.min(figures.firstAt, ms);
    figures.lastAt = figures.lastAt === null ? ms : Math.max(figures.lastAt, ms);
    figures.turns++;
    if (Number(row.compaction)) figures.compactions++;
    figures.outcomes.push(insight.outcome);
  });
  for (const id of figures.failed) {
    const call = figures.calls.get(id);
    if (call) call.errored = true;
  }
  return figures;
}

/** The session a sub-agent thread belongs to (its parent), null for any other thread. */
function subagentOf(thread: SummingThread): string | null {
  return thread.parentThreadId && thread.parentThreadId !== thread.id && relationOf(thread.metadata)?.kind === "subagent"
    ? thread.parentThreadId
    : null;
}

/** Removes some threads' rollups (before they are summed whole, or once they are purged). */
export async function dropInsights(tx: Tx, kind: DatabaseKind, threadIds: string[]): Promise<void> {
  if (threadIds.length === 0) return;
  const list = threadIds.map(() => "?").join(", ");
  for (const table of ["InsightsActivity", "InsightsToolCall", "InsightsTool", "InsightsSession"])
    await run(tx, kind, `DELETE FROM "${table}" WHERE "threadId" IN (${list}) RETURNING "threadId"`, ...threadIds);
}

/** Sums some threads' rollups from all their turns, replacing what they held: a few multi-row statements for them all. */
export async function sumInsights(
  tx: Tx,
  kind: DatabaseKind,
  threads: SummingThread[],
  copiedOf: (threadId: string) => Copied,
): Promise<void> {
  const threadIds = threads.map((thread) => thread.id);
  await dropInsights(tx, kind, threadIds);
  const rows = await turnRows(tx, kind, threadIds, 0);
  const byThread = new Map<string, TurnRow[]>();
  for (const row of rows) {
    const list = byThread.get(row.threadId);
    if (list) list.push(row);
    else byThread.set(row.threadId, [row]);
  }
  const activity: unknown[][] = [];
  const calls: unknown[][] = [];
  const sessions: unknown[][] = [];
  for (const thread of threads) {
    const list = byThread.get(thread.id);
    if (!list) continue;
    const figures = figuresOf(list, copiedOf(thread.id));
    activity.push(...activityValues(thread.id, figures));
    calls.push(...callValues(thread.id, figures));
    const session = sessionValues(thread.id, subagentOf(thread), figures, null, undefined);
    if (session) sessions.push(session);
  }
  await insertValues(tx, kind, "InsightsActivity", ACTIVITY_COLUMNS, activity);
  await insertValues(tx, kind, "InsightsToolCall", CALL_COLUMNS, calls);
  await insertValues(tx, kind, "InsightsSession", SESSION_COLUMNS, sessions);
  await resumTools(tx, kind, [...byThread.keys()]);
}

/** Adds a thread's turns from `fromIndex` on (appended since its rollups were made); returns the UTC hours whose rollups changed. */
export async function addInsights(
  tx: Tx,
  kind: DatabaseKind,
  thread: SummingThread,
  fromIndex: number,
  copied: Copied,
): Promise<Set<number>> {
  const threadId = thread.id;
  const figures = figuresOf(await turnRows(tx, kind, [threadId], fromIndex), copied);
  const hours = new Set<number>();
  if (figures.turns === 0 && figures.failed.size === 0) return hours;
  for (const { quarter } of [...figures.activity.values(), ...figures.calls.values()]) hours.add(Math.floor(quarter / 4));
  await insertValues(
    tx,
    kind,
    "InsightsActivity",
    ACTIVITY_COLUMNS,
    activityValues(threadId, figures),
    `ON CONFLICT ("threadId", "quarter", "modelName") DO UPDATE SET "turns" = "InsightsActivity"."turns" + excluded."turns"`,
  );
  // A call id already counted (an earlier run of turns repeating it) is left as it was.
  await insertValues(
    tx,
    kind,
    "InsightsToolCall",
    CALL_COLUMNS,
    callValues(threadId, figures),
    `ON CONFLICT ("threadId", "callId") DO NOTHING`,
  );
  // A result appended after its call (in an earlier run of turns) marks that call failed.
  for (const chunk of chunked([...figures.failed], 200)) {
    const marked = await run<{ quarter: number | bigint }[]>(
      tx,
      kind,
      `UPDATE "InsightsToolCall" SET "errored" = ? WHERE "threadId" = ? AND "callId" IN (${chunk.map(() => "?").join(", ")}) RETURNING "quarter"`,
      true,
      threadId,
      ...chunk,
    );
    for (const row of marked) hours.add(Math.floor(Number(row.quarter) / 4));
  }
  const [old] = await run<SessionSoFar[]>(
    tx,
    kind,
    `SELECT "firstAt" AS "firstAt", "lastAt" AS "lastAt", "turns" AS turns, "compactions" AS compactions, "endedWith" AS "endedWith"
       FROM "InsightsSession" WHERE "threadId" = ?`,
    threadId,
  );
  const session = sessionValues(threadId, subagentOf(thread), figures, (old?.endedWith ?? null) as TurnOutcome, old);
  if (session) {
    await run(tx, kind, `DELETE FROM "InsightsSession" WHERE "threadId" = ? RETURNING "threadId"`, threadId);
    await insertValues(tx, kind, "InsightsSession", SESSION_COLUMNS, [session]);
  }
  await resumTools(tx, kind, [threadId]);
  return hours;
}

const ACTIVITY_COLUMNS = ["threadId", "quarter", "modelName", "turns"];
const CALL_COLUMNS = ["threadId", "callId", "quarter", "modelName", "name", "errored"];
const SESSION_COLUMNS = ["threadId", "subagentOf", "firstAt", "lastAt", "firstQuarter", "lastQuarter", "turns", "compactions", "endedWith"];

function activityValues(threadId: string, figures: ThreadFigures): unknown[][] {
  return [...figures.activity.values()].map((cell) => [threadId, cell.quarter, cell.modelName, cell.turns]);
}

function callValues(threadId: string, figures: ThreadFigures): unknown[][] {
  return [...figures.calls].map(([id, call]) => [threadId, id, call.quarter, call.modelName, call.name, call.errored]);
}

type SessionSoFar = { firstAt: number; lastAt: number; turns: number | bigint; compactions: number | bigint; endedWith: string | null };

/**
 * A thread's session row: the sums so far (`old`, when adding) plus these turns' (`endedBefore`:
 * its ending before them); null while neither has a turn with a time.
 */
function sessionValues(
  threadId: string,
  parent: string | null,
  figures: ThreadFigures,
  endedBefore: TurnOutcome,
  old: SessionSoFar | undefined,
): unknown[] | null {
  const firsts = [old?.firstAt, figures.firstAt].filter((v): v is number => typeof v === "number");
  const lasts = [old?.lastAt, figures.lastAt].filter((v): v is number => typeof v === "number");
  if (firsts.length === 0 || lasts.length === 0) return null;
  const firstAt = Math.min(...firsts);
  const lastAt = Math.max(...lasts);
  return [
    threadId,
    parent,
    firstAt,
    lastAt,
    quarterOf(new Date(firstAt)),
    quarterOf(new Date(lastAt)),
    Number(old?.turns ?? 0) + figures.turns,
    Number(old?.compactions ?? 0) + figures.compactions,
    sessionEnding(endedBefore, figures.outcomes),
  ];
}

/** Some threads' tool sums, made again from their calls. */
async function resumTools(tx: Tx, kind: DatabaseKind, threadIds: string[]): Promise<void> {
  for (const chunk of chunked(threadIds, 200)) {
    const list = chunk.map(() => "?").join(", ");
    await run(tx, kind, `DELETE FROM "InsightsTool" WHERE "threadId" IN (${list}) RETURNING "threadId"`, ...chunk);
    await run(
      tx,
      kind,
      `INSERT INTO "InsightsTool" ("threadId", "quarter", "modelName", "name", "calls", "errors")
       SELECT "threadId", "quarter", "modelName", "name", COUNT(*), SUM(CASE WHEN "errored" THEN 1 ELSE 0 END)
         FROM "InsightsToolCall" WHERE "threadId" IN (${list}) GROUP BY 1, 2, 3, 4 RETURNING "threadId"`,
      ...chunk,
    );
  }
}
