import "server-only";
import { threadTools, toolKey, toolOptions } from "@/lib/domain/threads/thread-tools";
import { chunked } from "../engine/chunks";
import { db } from "../engine/client";
import { databaseKind, type Database } from "../engine/create-client";
import { lockForWrite, run } from "../engine/dialect";
import { WRITE_TRANSACTION } from "../engine/transactions";

/**
 * The tools each thread used (prisma/schema.prisma ThreadTool), for the list's Tool filter: made
 * from its turns (tool calls' names, turns' tool names) whenever the thread no longer matches the
 * state they were made from (ThreadToolState: turn count and last update; an import that rewrites
 * turns in place deletes the state). Whatever wrote the turns, the next refresh catches up, so the
 * writers need not know about it.
 */

const THREADS_PER_BATCH = 100;

type StaleThread = { id: string; source: string; toolName: string; turnCount: number | bigint; lastUpdatedAt: Date };

const globalForTools = globalThis as unknown as { threadlineToolsRefresh?: Promise<number> | null };

/** Brings every thread's tools up to date; answers how many threads were read. Calls while one runs wait for it and then run their own (it may have read the state before their write). */
export async function refreshThreadTools(): Promise<number> {
  const running = globalForTools.threadlineToolsRefresh;
  if (running) await running.catch(() => 0);
  const pass = refreshOnce();
  globalForTools.threadlineToolsRefresh = pass;
  try {
    return await pass;
  } finally {
    if (globalForTools.threadlineToolsRefresh === pass) globalForTools.threadlineToolsRefresh = null;
  }
}

async function refreshOnce(): Promise<number> {
  const client = await db();
  const kind = databaseKind(client);
  const stale = await run<StaleThread[]>(
    client,
    kind,
    `SELECT t."id" AS id, t."source" AS source, t."toolName" AS "toolName", t."turnCount" AS "turnCount", t."lastUpdatedAt" AS "lastUpdatedAt"
     FROM "Thread" t LEFT JOIN "ThreadToolState" s ON s."threadId" = t."id"
     WHERE s."threadId" IS NULL OR s."turnCount" <> t."turnCount" OR s."lastUpdatedAt" <> t."lastUpdatedAt"`,
  );
  for (const batch of chunked(stale, THREADS_PER_BATCH)) await refreshBatch(client, batch);
  return stale.length;
}

async function refreshBatch(client: Database, batch: StaleThread[]): Promise<void> {
  const kind = databaseKind(client);
  const ids = batch.map((thread) => thread.id);
  // Parts are read only where they hold a tool call: the rest can be long and name no tool.
  const turns = await run<{ threadId: string; toolName: string | null; parts: string | null }[]>(
    client,
    kind,
    `SELECT u."threadId" AS "threadId", u."toolName" AS "toolName", CASE WHEN u."parts" LIKE '%"tool_call"%' THEN u."parts" END AS parts
     FROM "Turn" u WHERE u."threadId" IN (${ids.map(() => "?").join(", ")}) AND (u."toolName" IS NOT NULL OR u."parts" LIKE '%"tool_call"%')`,
    ...ids,
  );
  const byThread = new Map<string, typeof turns>();
  for (const turn of turns) byThread.set(turn.threadId, [...(byThread.get(turn.threadId) ?? []), turn]);
  const rows = batch.flatMap((thread) =>
    threadTools(thread, byThread.get(thread.id) ?? []).map((tool) => ({ threadId: thread.id, ...tool })),
  );
  await client.$transaction(async (tx) => {
    await lockForWrite(tx, kind);
    // A thread purged meanwhile gets no rows (the foreign key would refuse them).
    const present = new Set((await tx.thread.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((row) => row.id));
    await tx.threadTool.deleteMany({ where: { threadId: { in: ids } } });
    await tx.threadToolState.deleteMany({ where: { threadId: { in: ids } } });
    const kept = rows.filter((row) => present.has(row.threadId));
    if (kept.length > 0) await tx.threadTool.createMany({ data: kept });
    const states = batch
      .filter((thread) => present.has(thread.id))
      .map((thread) => ({ threadId: thread.id, turnCount: Number(thread.turnCount), lastUpdatedAt: new Date(thread.lastUpdatedAt) }));
    if (states.length > 0) await tx.threadToolState.createMany({ data: states });
  }, WRITE_TRANSACTION);
}

/** The Tool filter's options: every tool any thread used, once each whatever its case. */
export async function listToolOptions(): Promise<{ value: string; label: string }[]> {
  await refreshThreadTools();
  const rows = await (await db()).threadTool.groupBy({ by: ["key", "name"], _count: { threadId: true } });
  return toolOptions(rows.map((row) => ({ key: row.key, name: row.name, threads: row._count.threadId })));
}

/** What a Tool filter value is matched by (the key; an old link's "Bash" finds bash). */
export function toolFilterKey(tool: string): string {
  return toolKey(tool);
}
