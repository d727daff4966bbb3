import "server-only";
import { relationOf } from "@/lib/domain/threads/links";
import { addParts, emptyPart, partOfResponses, sessionFigures, withoutPart } from "@/lib/domain/usage/thread-figures";
import type { UsagePart } from "@/lib/domain/types";
import { quarterOf } from "@/lib/domain/usage/usage-period";
import { addFigures, sortRows, type UsageFigures, type UsageQuery, type UsageRow } from "@/lib/domain/usage/usage-report";
import { pricerWith } from "@/lib/models/pricing";
import { inChunks } from "../engine/chunks";
import { db } from "../engine/client";
import { listCustomModels } from "../settings/custom-models";
import { compactionRunResponsesOf } from "./session-figures";

/**
 * /usage's threads as sessions (GET /api/usage?groupBy=thread): a sub-agent thread's row is added
 * to its session's, the thread at the top of its sub-agent links, as the thread list and header
 * count it (lib/db/usage/session-figures.ts); the session's row then says what it covers, with the split
 * (lib/domain/usage/thread-figures.ts). Rows are only regrouped, so the totals stay the same.
 */

/** Sub-agents nest rarely; the walk up stops this high whatever the data says. */
const MAX_DEPTH = 20;

/** Rows of threads rolled up into rows of their sessions: each keyed by the session's thread, its members with it. */
export async function rollUpSessions(rows: UsageRow[]): Promise<{ rows: UsageRow[]; members: Map<string, string[]> }> {
  const rootOf = await sessionRoots(rows.map((row) => row.key));
  const byRoot = new Map<string, UsageRow>();
  const members = new Map<string, string[]>();
  for (const row of rows) {
    const root = rootOf.get(row.key) ?? row.key;
    members.set(root, [...(members.get(root) ?? []), row.key]);
    const entry = byRoot.get(root);
    if (!entry) {
      byRoot.set(root, { ...row, key: root, ...(row.breakdown ? { breakdown: row.breakdown.map((part) => ({ ...part })) } : {}) });
      continue;
    }
    addFigures(entry, row);
    // The members are distinct threads: their counts add up.
    entry.threads += row.threads;
    if (row.breakdown) entry.breakdown = mergedBreakdown(entry.breakdown ?? [], row.breakdown);
  }
  return { rows: [...byRoot.values()], members };
}

function mergedBreakdown(
  into: (UsageFigures & { key: string })[],
  from: (UsageFigures & { key: string })[],
): (UsageFigures & { key: string })[] {
  const byModel = new Map(into.map((part) => [part.key, part]));
  for (const part of from) {
    const known = byModel.get(part.key);
    if (known) {
      addFigures(known, part);
      known.threads += part.threads;
    } else byModel.set(part.key, { ...part });
  }
  return sortRows([...byModel.values()], "model");
}

/** The thread at the top of each thread's sub-agent links: itself when it is no sub-agent, else its highest stored ancestor that way. */
async function sessionRoots(ids: string[]): Promise<Map<string, string>> {
  const client = await db();
  // A stored thread's parent when it is that parent's sub-agent, else null.
  const parentOf = new Map<string, string | null>();
  let asking = [...new Set(ids)];
  for (let depth = 0; depth <= MAX_DEPTH && asking.length > 0; depth++) {
    const rows = await inChunks(asking, (chunk) =>
      client.thread.findMany({ where: { id: { in: chunk } }, select: { id: true, parentThreadId: true, metadata: true } }),
    );
    const next = new Set<string>();
    for (const row of rows) {
      const parent =
        row.parentThreadId && row.parentThreadId !== row.id && relationOf(row.metadata)?.kind === "subagent" ? row.parentThreadId : null;
      parentOf.set(row.id, parent);
      if (parent && !parentOf.has(parent)) next.add(parent);
    }
    asking = [...next];
  }
  const roots = new Map<string, string>();
  for (const id of ids) {
    let root = id;
    const path = new Set([id]);
    for (let parent = parentOf.get(root); parent && parentOf.has(parent) && !path.has(parent); parent = parentOf.get(root)) {
      path.add(parent);
      root = parent;
    }
    roots.set(id, root);
  }
  return roots;
}

/**
 * Each session row's figures and split: its thread's own responses, its sub-agents', and the
 * compaction runs of both, those in the report's range and of its model (runs are summed in their
 * thread's buckets; their share is priced again here, as it was there, to split it out).
 */
export async function withSessionSplits(
  rows: UsageRow[],
  members: Map<string, string[]>,
  query: UsageQuery,
  range: { startQuarter: number; endQuarter: number },
  threads: { parts: Map<string, UsagePart>; unpriced: Map<string, Set<string>> },
): Promise<UsageRow[]> {
  if (rows.length === 0) return rows;
  const client = await db();
  const ids = rows.flatMap((row) => members.get(row.key) ?? [row.key]);
  const stored = await inChunks(ids, (chunk) =>
    client.thread.findMany({ where: { id: { in: chunk } }, select: { id: true, lastUpdatedAt: true, turnCount: true } }),
  );
  const runs = await compactionRunResponsesOf(stored, pricerWith(await listCustomModels()));
  const inRange = (at: Date) => quarterOf(at) >= range.startQuarter && quarterOf(at) < range.endQuarter;
  return rows.map((row) => {
    const runParts = new Map<string, { part: UsagePart; count: number }>();
    for (const id of members.get(row.key) ?? [row.key]) {
      const kept = (runs.get(id) ?? [])
        .map((run) => run.filter((r) => inRange(r.at) && (query.model === undefined || (r.model ?? "") === query.model)))
        .filter((run) => run.length > 0);
      if (kept.length > 0) runParts.set(id, { part: partOfResponses(kept.flat()), count: kept.length });
    }
    const own = (id: string) => withoutPart(threads.parts.get(id) ?? emptyPart(), runParts.get(id)?.part ?? emptyPart());
    const subagents = (members.get(row.key) ?? []).filter((id) => id !== row.key);
    const everyone = [row.key, ...subagents];
    const figures = sessionFigures({
      thread: own(row.key),
      subagents: subagents.map(own),
      compactionRuns: addParts(...everyone.map((id) => runParts.get(id)?.part ?? emptyPart())),
      compactionRunCount: everyone.reduce((n, id) => n + (runParts.get(id)?.count ?? 0), 0),
      unpricedModels: everyone.flatMap((id) => [...(threads.unpriced.get(id) ?? [])]),
    });
    return { ...row, figures };
  });
}

/** A row's figures as a part (its tokens, cost and response counts; not its threads). */
export function partOfRow(row: UsageFigures): UsagePart {
  const {
    inputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    outputTokens,
    reasoningTokens,
    costUsd,
    responses,
    unpricedResponses,
    estimatedResponses,
  } = row;
  return {
    inputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    outputTokens,
    reasoningTokens,
    costUsd,
    responses,
    unpricedResponses,
    estimatedResponses,
  };
}
