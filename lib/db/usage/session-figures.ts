import "server-only";
import { compactionRunResponses, type PricedResponse, type Pricer } from "@/lib/domain/usage/cost";
import { relationOf } from "@/lib/domain/threads/links";
import {
  addParts,
  emptyPart,
  partOfResponses,
  sessionFigures,
  withoutPart,
  type SessionFigures,
  type UsagePart,
} from "@/lib/domain/usage/thread-figures";
import type { ReportedCost, Thread } from "@/lib/domain/types";
import { pricerWith } from "@/lib/models/pricing";
import { inChunks } from "../engine/chunks";
import { db } from "../engine/client";
import { listCustomModels } from "../settings/custom-models";
import { storedThreadCosts } from "./session-usage";
import { refreshUsageOf } from "./usage-aggregates";
import { runRecord } from "./usage-inputs";

/**
 * One figure per thread (lib/domain/usage/thread-figures.ts): what a thread's session used, for the
 * thread list, the thread header and GET /api/threads(/:id). Read from the usage buckets that
 * /usage reads (lib/db/usage/usage-aggregates.ts), brought up to date first where any of the session's
 * threads is stale, so the figures are the ones /usage gives the session over its whole time:
 * each response counted once, a fork's copies left to their source. The compaction runs' share is
 * priced here as the buckets price it, to split it out; the agents' own costs ("agent says") come
 * from the stored turns (storedThreadCosts), beside ours.
 */

/** Sub-agents nest rarely; a walk stops this deep (or at this many threads per session) whatever the data says. */
const MAX_SUBAGENT_DEPTH = 20;
const MAX_SUBAGENTS = 2_000;

type Member = { id: string; turnCount: number; lastUpdatedAt: Date };

/** Each thread's session figures, by thread id (threads unknown to the database are left out). */
export async function sessionFiguresOf(threadIds: string[]): Promise<Map<string, SessionFigures>> {
  const result = new Map<string, SessionFigures>();
  if (threadIds.length === 0) return result;
  const roots = await membersOf(threadIds);
  const subagents = await subagentsOf([...roots.keys()]);
  const all = new Map<string, Member>(roots);
  for (const list of subagents.values()) for (const member of list) all.set(member.id, member);
  const ids = [...all.keys()];
  // These threads' stale buckets summed first, theirs only; fresh ones are only read.
  await refreshUsageOf(ids);
  const [buckets, runs, reported] = await Promise.all([
    bucketParts(ids),
    compactionRunParts([...all.values()]),
    reportedCosts([...all.values()]),
  ]);
  for (const [rootId] of roots) {
    const members = subagents.get(rootId) ?? [];
    const runOf = (id: string) => runs.get(id) ?? { part: emptyPart(), count: 0 };
    const own = (id: string) => withoutPart(buckets.parts.get(id) ?? emptyPart(), runOf(id).part);
    const everyone = [rootId, ...members.map((m) => m.id)];
    const reports = everyone.flatMap((id) => reported.get(id) ?? []);
    result.set(
      rootId,
      sessionFigures({
        thread: own(rootId),
        subagents: members.map((m) => own(m.id)),
        compactionRuns: addParts(...everyone.map((id) => runOf(id).part)),
        compactionRunCount: everyone.reduce((n, id) => n + runOf(id).count, 0),
        unpricedModels: everyone.flatMap((id) => [...(buckets.unpriced.get(id) ?? [])]),
        reported:
          reports.length > 0
            ? { usd: reports.reduce((n, r) => n + r.usd, 0), responses: reports.reduce((n, r) => n + r.responses, 0) }
            : null,
      }),
    );
  }
  return result;
}

/** A page of threads, each with its session's figures (`figures`). */
export async function withSessionFigures<P extends { items: Thread[] }>(page: P): Promise<P> {
  const figures = await sessionFiguresOf(page.items.map((thread) => thread.id));
  return { ...page, items: page.items.map((thread) => ({ ...thread, figures: figures.get(thread.id) })) };
}

/** A thread read with its turns (GET /api/threads/:id, the thread page), with its session's figures. */
export async function withThreadFigures<T extends { thread: Thread }>(entry: T): Promise<T> {
  const figures = (await sessionFiguresOf([entry.thread.id])).get(entry.thread.id);
  return { ...entry, thread: { ...entry.thread, figures } };
}

async function membersOf(ids: string[]): Promise<Map<string, Member>> {
  const client = await db();
  const rows = await inChunks([...new Set(ids)], (chunk) =>
    client.thread.findMany({ where: { id: { in: chunk } }, select: { id: true, turnCount: true, lastUpdatedAt: true } }),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  // In the order asked for.
  return new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : [])));
}

/** The sub-agent threads below each root, all levels, level by level (forks and continuations are no sub-agents). */
async function subagentsOf(rootIds: string[]): Promise<Map<string, Member[]>> {
  const client = await db();
  const found = new Map<string, Member[]>(rootIds.map((id) => [id, []]));
  const seen = new Map<string, Set<string>>(rootIds.map((id) => [id, new Set([id])]));
  // Each thread reached, with the roots it was reached from (one thread may sit below two roots of a page).
  let frontier = new Map<string, string[]>(rootIds.map((id) => [id, [id]]));
  for (let depth = 0; depth < MAX_SUBAGENT_DEPTH && frontier.size > 0; depth++) {
    const children = await inChunks([...frontier.keys()], (chunk) =>
      client.thread.findMany({
        where: { parentThreadId: { in: chunk } },
        select: { id: true, parentThreadId: true, metadata: true, turnCount: true, lastUpdatedAt: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      }),
    );
    const next = new Map<string, string[]>();
    for (const child of children) {
      if (relationOf(child.metadata)?.kind !== "subagent") continue;
      for (const root of frontier.get(child.parentThreadId!) ?? []) {
        const list = found.get(root)!;
        if (seen.get(root)!.has(child.id) || list.length >= MAX_SUBAGENTS) continue;
        seen.get(root)!.add(child.id);
        list.push({ id: child.id, turnCount: child.turnCount, lastUpdatedAt: child.lastUpdatedAt });
        next.set(child.id, [...(next.get(child.id) ?? []), root]);
      }
    }
    frontier = next;
  }
  return found;
}

/** Each thread's buckets summed over all time, and the models of its unpriced responses. */
async function bucketParts(ids: string[]): Promise<{ parts: Map<string, UsagePart>; unpriced: Map<string, Set<string>> }> {
  const client = await db();
  const rows = await inChunks(ids, (chunk) =>
    client.usageBucket.groupBy({
      by: ["threadId", "modelName"],
      where: { threadId: { in: chunk } },
      _sum: {
        inputTokens: true,
        cacheReadTokens: true,
        cacheWriteTokens: true,
        outputTokens: true,
        reasoningTokens: true,
        costUsd: true,
        responses: true,
        unpricedResponses: true,
        estimatedResponses: true,
      },
    }),
  );
  const parts = new Map<string, UsagePart>();
  const unpriced = new Map<string, Set<string>>();
  for (const row of rows) {
    const sum = row._sum;
    const part: UsagePart = {
      inputTokens: sum.inputTokens ?? 0,
      cacheReadTokens: sum.cacheReadTokens ?? 0,
      cacheWriteTokens: sum.cacheWriteTokens ?? 0,
      outputTokens: sum.outputTokens ?? 0,
      reasoningTokens: sum.reasoningTokens ?? 0,
      costUsd: sum.costUsd ?? 0,
      responses: sum.responses ?? 0,
      unpricedResponses: sum.unpricedResponses ?? 0,
      estimatedResponses: sum.estimatedResponses ?? 0,
    };
    parts.set(row.threadId, addParts(parts.get(row.threadId) ?? emptyPart(), part));
    if (part.unpricedResponses > 0)
      unpriced.set(row.threadId, (unpriced.get(row.threadId) ?? new Set()).add(row.modelName || "(no model)"));
  }
  return { parts, unpriced };
}

/**
 * Each thread's compaction runs' responses, priced as its buckets priced them (at each response's
 * time, else the thread's last update) and only those a bucket holds (a time it can place).
 */
export async function compactionRunResponsesOf(threads: Member[], price: Pricer): Promise<Map<string, PricedResponse[][]>> {
  const client = await db();
  const lastUpdate = new Map(threads.map((t) => [t.id, t.lastUpdatedAt]));
  const rows = await inChunks([...lastUpdate.keys()], (chunk) =>
    client.compactionRun.findMany({ where: { threadId: { in: chunk } }, orderBy: [{ threadId: "asc" }, { runId: "asc" }] }),
  );
  const result = new Map<string, PricedResponse[][]>();
  for (const row of rows) {
    const responses = compactionRunResponses(runRecord(row), price, lastUpdate.get(row.threadId)!).filter((r) =>
      Number.isFinite(r.at.getTime()),
    );
    if (responses.length === 0) continue;
    result.set(row.threadId, [...(result.get(row.threadId) ?? []), responses]);
  }
  return result;
}

async function compactionRunParts(threads: Member[]): Promise<Map<string, { part: UsagePart; count: number }>> {
  const runs = await compactionRunResponsesOf(threads, pricerWith(await listCustomModels()));
  return new Map([...runs].map(([id, list]) => [id, { part: partOfResponses(list.flat()), count: list.length }]));
}

/** What the agents themselves said each thread's responses cost, where they said it. */
async function reportedCosts(threads: Member[]): Promise<Map<string, ReportedCost>> {
  const costs = await storedThreadCosts(
    threads.map((t) => ({ id: t.id, turnCount: t.turnCount, lastUpdatedAt: t.lastUpdatedAt.toISOString() })),
  );
  return new Map([...costs].flatMap(([id, cost]) => (cost.reported ? [[id, cost.reported] as const] : [])));
}
