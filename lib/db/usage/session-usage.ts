import "server-only";
import { addCostTotals, compactionRunCosts, costTotals, turnCosts, type Pricer } from "@/lib/domain/usage/cost";
import { relationOf } from "@/lib/domain/threads/links";
import {
  agentReportOf,
  compactionRunUsage,
  sessionUsage,
  type AgentReportSighting,
  type CompactionRunRecord,
  type SubagentNode,
} from "@/lib/domain/usage/session-usage";
import { sessionTotalsCost } from "@/lib/domain/usage/session-totals";
import type {
  CompactionRunUsage,
  CostTotals,
  JsonObject,
  JsonValue,
  Thread,
  ThreadHead,
  ThreadUsage,
  Turn,
  TurnPart,
  TurnRole,
  UsageCounts,
} from "@/lib/domain/types";
import { threadUsage, turnUsages, type UsageInput } from "@/lib/domain/usage/usage";
import { pricerWith } from "@/lib/models/pricing";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { inChunks } from "../engine/chunks";
import { db } from "../engine/client";
import { listCustomModels } from "../settings/custom-models";
import { partsContaining, usageRows, type UsageRow } from "../threads/dialect-turns";
import { parsedOrNull, partsFromStored } from "../engine/mappers";

/** Sub-agents nest rarely; a walk stops this deep (or at this many threads) whatever the data says. */
const MAX_SUBAGENT_DEPTH = 20;
const MAX_SUBAGENTS = 2_000;

/**
 * Adds `usageWithSubagents` to a thread read with its turns (the thread, its sub-agent threads
 * recursively and the compaction runs of all of them), and to each compaction marker the run that
 * wrote its summary. With their prices: each response's `cost`, the thread's `cost` (its own
 * responses) and `costWithSubagents` (as usageWithSubagents), every response priced alone.
 */
export async function withSessionUsage<T extends ThreadHead>(entry: T): Promise<T> {
  const { thread, turns } = entry;
  const price = await pricer();
  const subagents = await subagentThreads(thread.id);
  const usages = await storedUsages(
    subagents.map((s) => s.threadId),
    price,
  );
  const runs = await compactionRuns([thread.id, ...subagents.map((s) => s.threadId)]);
  // A thread read in part: its own tool results are read from the store, as its sub-agents' are.
  const stored = await storedAgentReports([...(entry.turnsTruncated ? [thread.id] : []), ...subagents.map((s) => s.threadId)]);
  const reports = entry.turnsTruncated ? stored : [...agentReports(thread.id, turns), ...stored];
  const nodes: SubagentNode[] = subagents.map((s) => ({
    ...s,
    usage: usages.get(s.threadId)?.usage ?? threadUsage([]),
    lastResponse: usages.get(s.threadId)?.lastResponse ?? null,
  }));
  const own = thread.usage ?? threadUsage(turnUsages(turns));
  const runsByMarker = new Map(
    runs.filter((r) => r.threadId === thread.id && r.afterTurnKey).map((r) => [r.afterTurnKey!, compactionRunUsage(r)]),
  );
  const costs = turnCosts(
    turns,
    turns.map((turn) => turn.usage),
    price,
  );
  // A thread read in part is priced over all its stored responses, as its usage is counted.
  const ownCost = entry.turnsTruncated
    ? (thread.cost ?? (await storedThreadCosts([thread])).get(thread.id)!)
    : withSessionTotals(costTotals(costs), sessionTotalsCost(thread.metadata, price));
  const fallback = new Date(thread.lastUpdatedAt);
  const runCosts = costTotals(runs.flatMap((run) => compactionRunCosts(run, price, fallback)));
  const costWithSubagents = addCostTotals(ownCost, runCosts, ...subagents.map((s) => usages.get(s.threadId)?.cost ?? costTotals([])));
  return {
    ...entry,
    thread: { ...thread, usageWithSubagents: sessionUsage(own, nodes, runs, reports), cost: ownCost, costWithSubagents },
    turns: turns.map((turn, i) => {
      const key = turn.parts?.some((p) => p.type === "compaction") ? turn.modelMetadata?.logicalParentUuid : undefined;
      const run = typeof key === "string" ? runsByMarker.get(key) : undefined;
      return { ...turn, cost: costs[i] ?? null, ...(run ? { compactionRun: run } : {}) };
    }),
  };
}

/** The pricer with this server's custom models (Settings), which may carry prices. */
async function pricer(): Promise<Pricer> {
  return pricerWith(await listCustomModels());
}

/** Each turn's cost (null for non-responses), for a page of turns read with their usage. */
export async function withTurnCosts(turns: Turn[]): Promise<Turn[]> {
  if (!turns.some((turn) => turn.usage)) return turns.map((turn) => ({ ...turn, cost: null }));
  const costs = turnCosts(
    turns,
    turns.map((turn) => turn.usage),
    await pricer(),
  );
  return turns.map((turn, i) => ({ ...turn, cost: costs[i] ?? null }));
}

/** Threads whose costs this process remembers (a list page and a thread header ask again and again). */
const COSTS_KEPT = 5_000;
const knownCosts = new Map<string, { version: string; cost: CostTotals }>();

type CostedThread = Pick<Thread, "id" | "lastUpdatedAt" | "turnCount">;

/**
 * Threads' own costs (their responses, each priced alone), read without content: for the thread
 * list and header. A thread's cost is kept while its turns (count, last update) and the custom
 * models are as they were; the others are read and priced together.
 */
export async function storedThreadCosts(threads: CostedThread[]): Promise<Map<string, CostTotals>> {
  const costs = new Map<string, CostTotals>();
  for (const [id, { cost }] of await storedWithCosts(threads, false)) costs.set(id, cost);
  return costs;
}

/**
 * Threads' stored usage (when `withUsage`, else only for those it reads) and own costs: a cost
 * remembered for a thread unchanged is not priced again, and whatever is read is read once.
 */
async function storedWithCosts(
  threads: CostedThread[],
  withUsage: boolean,
): Promise<Map<string, { usage?: ThreadUsage; cost: CostTotals }>> {
  const custom = await listCustomModels();
  const versionOf = (thread: CostedThread) => `${thread.turnCount}|${thread.lastUpdatedAt}|${JSON.stringify(custom)}`;
  const result = new Map<string, { usage?: ThreadUsage; cost: CostTotals }>();
  const missing: CostedThread[] = [];
  const usageOnly: CostedThread[] = [];
  for (const thread of threads) {
    const known = knownCosts.get(thread.id);
    if (known && known.version === versionOf(thread)) {
      result.set(thread.id, { cost: known.cost });
      if (withUsage) usageOnly.push(thread);
    } else {
      missing.push(thread);
    }
  }
  if (usageOnly.length > 0) {
    const usages = await storedUsages(
      usageOnly.map((t) => t.id),
      null,
    );
    for (const thread of usageOnly) result.get(thread.id)!.usage = usages.get(thread.id)?.usage ?? threadUsage([]);
  }
  if (missing.length > 0) {
    const usages = await storedUsages(
      missing.map((t) => t.id),
      pricerWith(custom),
    );
    for (const thread of missing) {
      const stored = usages.get(thread.id);
      const cost = stored?.cost ?? costTotals([]);
      result.set(thread.id, { usage: stored?.usage ?? threadUsage([]), cost });
      knownCosts.delete(thread.id);
      knownCosts.set(thread.id, { version: versionOf(thread), cost });
    }
    for (const id of knownCosts.keys()) {
      if (knownCosts.size <= COSTS_KEPT) break;
      knownCosts.delete(id);
    }
  }
  return result;
}

/** A page of threads with each one's own cost (storedThreadCosts). */
export async function withThreadCosts<P extends { items: Thread[] }>(page: P): Promise<P> {
  const costs = await storedThreadCosts(page.items);
  return { ...page, items: page.items.map((thread) => ({ ...thread, cost: costs.get(thread.id) })) };
}

/**
 * A thread's compaction runs by the key of the marker each wrote (`logicalParentUuid`), as
 * withSessionUsage attaches them: for a page that reads the turns after the first in blocks.
 */
export async function compactionRunsByMarker(threadId: string): Promise<Record<string, CompactionRunUsage>> {
  const runs = await compactionRuns([threadId]);
  return Object.fromEntries(runs.filter((r) => r.afterTurnKey).map((r) => [r.afterTurnKey!, compactionRunUsage(r)]));
}

/** A thread's usage and own cost over all its stored turns, read without their content (for a thread too long to read whole). */
export async function storedThreadUsage(thread: CostedThread): Promise<{ usage: ThreadUsage; cost: CostTotals }> {
  const stored = (await storedWithCosts([thread], true)).get(thread.id)!;
  return { usage: stored.usage ?? threadUsage([]), cost: stored.cost };
}

type SubagentThread = Omit<SubagentNode, "usage" | "lastResponse">;

/** The sub-agent threads below a thread, level by level (forks and continuations are no sub-agents). */
async function subagentThreads(rootId: string): Promise<SubagentThread[]> {
  const client = await db();
  const found: SubagentThread[] = [];
  const seen = new Set([rootId]);
  let frontier = [rootId];
  for (let depth = 0; depth < MAX_SUBAGENT_DEPTH && frontier.length > 0 && found.length < MAX_SUBAGENTS; depth++) {
    const children = await inChunks(frontier, (chunk) =>
      client.thread.findMany({
        where: { parentThreadId: { in: chunk } },
        select: { id: true, parentThreadId: true, title: true, metadata: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      }),
    );
    frontier = [];
    for (const child of children) {
      const relation = relationOf(child.metadata);
      if (relation?.kind !== "subagent" || seen.has(child.id) || found.length >= MAX_SUBAGENTS) continue;
      seen.add(child.id);
      frontier.push(child.id);
      found.push({
        threadId: child.id,
        parentThreadId: child.parentThreadId!,
        title: child.title,
        agentId: relation.agentId,
        toolCallId: relation.toolCallId,
      });
    }
  }
  return found;
}

type StoredUsage = { usage: ThreadUsage; lastResponse: UsageCounts | null; cost: CostTotals | null };

/** Threads per query: well under SQLite's bound on variables. */
const THREADS_PER_QUERY = 500;

/**
 * Each thread's usage from its stored turns (reported, else estimated from the stored counts), its
 * final response and, given a pricer, the sum of its responses' prices; read without content or parts.
 */
async function storedUsages(threadIds: string[], price: Pricer | null): Promise<Map<string, StoredUsage>> {
  const result = new Map<string, StoredUsage>();
  if (threadIds.length === 0) return result;
  const client = await db();
  const byThread = new Map<string, (UsageInput & { modelProvider: string | null; modelName: string | null; timestamp: Date })[]>();
  for (let start = 0; start < threadIds.length; start += THREADS_PER_QUERY) {
    for (const row of await usageRows(client, threadIds.slice(start, start + THREADS_PER_QUERY), DEFAULT_TOKENIZER_ID)) {
      const input = usageInputOf(row);
      const list = byThread.get(row.threadId);
      if (list) list.push(input);
      else byThread.set(row.threadId, [input]);
    }
  }
  const totals = price ? await sessionTotalsCosts(threadIds, price) : new Map<string, CostTotals>();
  for (const [threadId, inputs] of byThread) {
    const usages = turnUsages(inputs);
    const last = usages.findLast((u) => u !== null) ?? null;
    const cost = price ? withSessionTotals(costTotals(turnCosts(inputs, usages, price)), totals.get(threadId)) : null;
    result.set(threadId, { usage: threadUsage(usages), lastResponse: last ? countsOf(last) : null, cost });
  }
  return result;
}

/** The cost of the session totals some threads carry (Copilot CLI's), by thread; threads without any are left out. */
async function sessionTotalsCosts(threadIds: string[], price: Pricer): Promise<Map<string, CostTotals>> {
  const client = await db();
  const result = new Map<string, CostTotals>();
  for (let start = 0; start < threadIds.length; start += THREADS_PER_QUERY) {
    const rows = await client.thread.findMany({
      where: { id: { in: threadIds.slice(start, start + THREADS_PER_QUERY) }, metadata: { contains: '"sessionTotals"' } },
      select: { id: true, metadata: true },
    });
    for (const row of rows) {
      const cost = sessionTotalsCost(parsedOrNull<JsonObject>(row.metadata), price);
      if (cost) result.set(row.id, cost);
    }
  }
  return result;
}

/** A thread's own cost: its responses' and, where its source reports tokens only per session, its session totals'. */
function withSessionTotals(responses: CostTotals, sessionTotals: CostTotals | null | undefined): CostTotals {
  return sessionTotals ? addCostTotals(responses, sessionTotals) : responses;
}

/** What turnUsages needs to know of a compaction marker's parts. */
const COMPACTION_PARTS = [{ type: "compaction" }] as const;

/** What usage and its price need of a turn read without its content (usageRows), as turnUsages and turnCosts take it. */
export function usageInputOf(row: UsageRow): UsageInput & { modelProvider: string | null; modelName: string | null; timestamp: Date } {
  return {
    role: row.role as TurnRole,
    modelMetadata: parsedOrNull<JsonObject>(row.modelMetadata),
    tokens: row.tokens,
    tokenEstimate: row.tokenEstimate,
    parts: row.compaction ? COMPACTION_PARTS : null,
    modelProvider: row.modelProvider,
    modelName: row.modelName,
    timestamp: row.timestamp,
  };
}

/** The tool results of some threads that carry a sub-agent's report (agentReport), read from the store. */
async function storedAgentReports(threadIds: string[]): Promise<AgentReportSighting[]> {
  const client = await db();
  const sightings: AgentReportSighting[] = [];
  for (let start = 0; start < threadIds.length; start += THREADS_PER_QUERY) {
    for (const row of await partsContaining(client, threadIds.slice(start, start + THREADS_PER_QUERY), `"agentReport"`)) {
      sightings.push(...agentReports(row.threadId, [{ parts: partsFromStored(row.parts, "") }]));
    }
  }
  return sightings;
}

async function compactionRuns(threadIds: string[]): Promise<CompactionRunRecord[]> {
  const client = await db();
  const rows = await inChunks(threadIds, (chunk) =>
    client.compactionRun.findMany({ where: { threadId: { in: chunk } }, orderBy: [{ threadId: "asc" }, { runId: "asc" }] }),
  );
  return rows.map((row) => ({
    threadId: row.threadId,
    runId: row.runId,
    afterTurnKey: row.afterTurnKey,
    modelProvider: row.modelProvider,
    modelName: row.modelName,
    responses: parsedOrNull<{ usage: JsonValue; timestamp?: string | null }[]>(row.responses) ?? [],
  }));
}

/** The tool results of a thread that name a sub-agent, with what they report of it. */
function agentReports(threadId: string, turns: readonly { parts: TurnPart[] | null }[]): AgentReportSighting[] {
  const sightings: AgentReportSighting[] = [];
  for (const turn of turns) {
    for (const part of turn.parts ?? []) {
      if (part.type !== "tool_result") continue;
      const report = agentReportOf(part.agentReport);
      if (report)
        sightings.push({
          parentThreadId: threadId,
          toolCallId: part.toolCallId,
          agentId: typeof part.agentId === "string" ? part.agentId : null,
          report,
        });
    }
  }
  return sightings;
}

function countsOf({ inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens, reasoningTokens }: UsageCounts): UsageCounts {
  return { inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens, reasoningTokens };
}
