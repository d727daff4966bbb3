import "server-only";
import { threadTools, toolKey, toolOptions } from "@/lib/domain/threads/thread-tools";
import { chunked } from "../engine/chunks";
import { db } from "../engine/client";
import { databaseKind, type Database, type DatabaseKind } from "../engine/create-client";
import { lockForWrite, run } from "../engine/dialect";
import { WRITE_TRANSACTION } from "../engine/transactions";
import { onThreadsWritten } from "./thread-writes";

/**
 * The tools each thread used (prisma/schema.prisma ThreadTool), for the list's Tool filter: made
 * from its turns (tool calls' names, turns' tool names) whenever the thread no longer matches the
 * state they were made from (ThreadToolState: turn count and last update; an import that rewrites
 * turns in place deletes the state). Whatever wrote the turns, the next refresh catches up, so the
 * writers need not know about it.
 */

const THREADS_PER_BATCH = 100;

type StaleThread = { id: string; source: string; toolName: string; turnCount: number | bigint; lastUpdatedAt: Date };

/**
 * How long a check that found every thread's tools up to date is trusted while this process
 * writes no thread. The check reads every thread (about 90 ms at 50,000 threads), and each
 * request of the list's Tool filter waited for it. Writes in this process are heard at once
 * (thread-writes.ts); another process's (the import CLI, a second server on one PostgreSQL
 * database) show in the filter this long after at most, and one request later.
 * @internal exported for its tests
 */
export const TOOLS_TRUSTED_MS = 10_000;

type Tools = {
  running: Promise<number> | null;
  listening: boolean;
  /** A thread was written in this process since the last pass began to read. */
  written: boolean;
  /** When the last pass that ended began to read (ms), null before the first. */
  checkedAt: number | null;
};
const globalForTools = globalThis as unknown as { threadlineTools?: Tools };

function tools(): Tools {
  globalForTools.threadlineTools ??= { running: null, listening: false, written: true, checkedAt: null };
  return globalForTools.threadlineTools;
}

/**
 * Every thread's tools as up to date as the list needs: brought up to date first when this
 * process wrote a thread since the last check (or there was none); else as they are, with a
 * check in the background once the last is TOOLS_TRUSTED_MS old. `now`: the clock, for tests.
 */
export async function currentThreadTools(now = Date.now()): Promise<void> {
  const state = tools();
  if (!state.listening) {
    state.listening = true;
    onThreadsWritten(() => void (state.written = true));
  }
  if (state.written || state.checkedAt === null) {
    await refreshThreadTools();
    return;
  }
  if (now - state.checkedAt >= TOOLS_TRUSTED_MS && !state.running)
    void refreshThreadTools().catch((error) => console.error("[threadline] reading the threads' tools failed", error));
}

/**
 * Brings every thread's tools up to date; answers how many threads were read. Calls while one runs wait for it and then run their own (it may have read the state before their write).
 * @internal exported for its tests
 */
export async function refreshThreadTools(): Promise<number> {
  const state = tools();
  if (state.running) await state.running.catch(() => 0);
  const pass = refreshOnce(state);
  state.running = pass;
  try {
    return await pass;
  } finally {
    if (state.running === pass) state.running = null;
  }
}

async function refreshOnce(state: Tools): Promise<number> {
  const client = await db();
  const kind = databaseKind(client);
  const began = Date.now();
  state.written = false;
  try {
    const read = await refreshStale(client, kind);
    state.checkedAt = began;
    return read;
  } catch (error) {
    state.written = true;
    throw error;
  }
}

async function refreshStale(client: Database, kind: DatabaseKind): Promise<number> {
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
  await currentThreadTools();
  const rows = await (await db()).threadTool.groupBy({ by: ["key", "name"], _count: { threadId: true } });
  return toolOptions(rows.map((row) => ({ key: row.key, name: row.name, threads: row._count.threadId })));
}

/** What a Tool filter value is matched by (the key; an old link's "Bash" finds bash). */
export function toolFilterKey(tool: string): string {
  return toolKey(tool);
}
