import "server-only";
import type { Reader } from "@/lib/domain/access";
import { readableWhere } from "../engine/readable";
import { randomUUID } from "node:crypto";
import type { TokenCount } from "@/lib/domain/tokens/tokenizer";
import type { RevisionTurn, TrimmedOutput, References } from "@/lib/domain/compaction/types";
import { titleFromContent } from "@/lib/domain/threads/title";
import type { CompactionJobRecord, CompactionLinks, CompactionRecord, JobStatus } from "@/lib/domain/compaction/records";
import type { JsonObject, Thread, ThreadWithTurns } from "@/lib/domain/types";
import { db } from "../engine/client";
import { insertDerivedThread } from "./derived-threads";
import type { Compaction as CompactionRow, CompactionJob as CompactionJobRow } from "../generated/client";
import { toThread } from "../engine/mappers";
import { threadsWritten } from "./thread-writes";
import { WRITE_TRANSACTION } from "../engine/transactions";

function toRecord(row: CompactionRow): CompactionRecord {
  return {
    id: row.id,
    originalThreadId: row.originalThreadId,
    revisionThreadId: row.revisionThreadId,
    strategy: row.strategy,
    summarizer: row.summarizer,
    summarizerModel: row.summarizerModel,
    targetModel: row.targetModel,
    tokenizer: row.tokenizer,
    options: JSON.parse(row.options) as JsonObject,
    replaced: JSON.parse(row.replaced) as number[],
    trimmed: JSON.parse(row.trimmed) as TrimmedOutput[],
    tokensBefore: row.tokensBefore,
    tokensAfter: row.tokensAfter,
    durationMs: row.durationMs,
    summaryEdited: row.summaryEdited,
    lostReferences: JSON.parse(row.lostReferences) as References,
    createdAt: row.createdAt.toISOString(),
  };
}

export type NewRevision = {
  original: ThreadWithTurns;
  turns: RevisionTurn[];
  /** o200k counts of the revision's turns, in order (stored with them, as appends do). */
  tokens: TokenCount[];
  defaultTokenizer: string;
  compaction: Omit<CompactionRecord, "id" | "originalThreadId" | "revisionThreadId" | "createdAt">;
};

/**
 * Stores a compacted revision as a new thread beside its original, in one transaction: the
 * revision takes the original's place in its chain (same parent), copies the turns it keeps with
 * their attribution and file snapshots, and records how it was made. The original is not written.
 */
export async function createRevision(input: NewRevision): Promise<{ thread: Thread; compaction: CompactionRecord }> {
  const { original, turns } = input;
  const now = new Date();
  const client = await db();
  const summaryTime = lastReplacedTimestamp(original, input.compaction.replaced) ?? now.toISOString();
  const row = await client.$transaction(async (tx) => {
    const thread = await insertDerivedThread(tx, {
      original,
      title: `${original.thread.title ?? titleFromContent(original.turns.find((t) => t.role === "user")?.content ?? "") ?? "Untitled"} (compacted)`,
      source: "compaction",
      metadata: { ...(original.thread.metadata ?? {}), compactedFrom: original.thread.id },
      turns: turns.map((turn) => {
        const source = turn.from === null ? null : (original.turns[turn.from] ?? null);
        // The summary stands where the turns it replaced ended.
        return { ...turn, source, timestamp: source?.timestamp ?? summaryTime };
      }),
      tokens: input.tokens,
      tokenizer: input.defaultTokenizer,
      owner: { ownerId: original.thread.ownerId, visibility: original.thread.visibility },
    });
    const id = thread.id;
    const { compaction } = input;
    const record = await tx.compaction.create({
      data: {
        id: randomUUID(),
        originalThreadId: original.thread.id,
        revisionThreadId: id,
        strategy: compaction.strategy,
        summarizer: compaction.summarizer,
        summarizerModel: compaction.summarizerModel,
        targetModel: compaction.targetModel,
        tokenizer: compaction.tokenizer,
        options: JSON.stringify(compaction.options),
        replaced: JSON.stringify(compaction.replaced),
        trimmed: JSON.stringify(compaction.trimmed),
        tokensBefore: compaction.tokensBefore,
        tokensAfter: compaction.tokensAfter,
        durationMs: Math.round(compaction.durationMs),
        summaryEdited: compaction.summaryEdited,
        lostReferences: JSON.stringify(compaction.lostReferences),
        createdAt: now,
      },
    });
    return { thread, record };
  }, WRITE_TRANSACTION);
  threadsWritten([row.thread.id]);
  return { thread: toThread(row.thread), compaction: toRecord(row.record) };
}

function lastReplacedTimestamp(original: ThreadWithTurns, replaced: number[]): string | null {
  const last = replaced.at(-1);
  return last === undefined ? null : (original.turns[last]?.timestamp ?? null);
}

/** A thread's compaction lineage: the revisions made from it, and what it was made from. */

/** A thread's compacted revisions and the original it was compacted from, as far as `reader` may read them. */
export async function compactionLinks(threadId: string, reader: Reader): Promise<CompactionLinks> {
  const client = await db();
  const [made, from] = await Promise.all([
    client.compaction.findMany({
      where: { originalThreadId: threadId, revision: readableWhere(reader) },
      orderBy: { createdAt: "desc" },
      include: { revision: { select: { title: true } } },
    }),
    client.compaction.findUnique({ where: { revisionThreadId: threadId } }),
  ]);
  const original = from
    ? await client.thread.findFirst({ where: { id: from.originalThreadId, ...readableWhere(reader) }, select: { title: true } })
    : null;
  return {
    revisions: made.map((row) => ({ ...toRecord(row), revisionTitle: row.revision.title })),
    compactedFrom: from ? { ...toRecord(from), originalTitle: original?.title ?? null, originalExists: original !== null } : null,
  };
}

function toJob(row: CompactionJobRow): CompactionJobRecord {
  return {
    id: row.id,
    threadId: row.threadId,
    status: row.status as JobStatus,
    request: JSON.parse(row.request) as JsonObject,
    result: row.result === null ? null : (JSON.parse(row.result) as JsonObject),
    error: row.error === null ? null : (JSON.parse(row.error) as { kind: string; message: string }),
    progress: row.progress,
    revisionThreadId: row.revisionThreadId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function createJob(threadId: string, request: JsonObject, progress: string): Promise<CompactionJobRecord> {
  const now = new Date();
  const row = await (
    await db()
  ).compactionJob.create({
    data: { id: randomUUID(), threadId, status: "running", request: JSON.stringify(request), progress, createdAt: now, updatedAt: now },
  });
  return toJob(row);
}

export async function findJob(id: string): Promise<CompactionJobRecord | null> {
  const row = await (await db()).compactionJob.findUnique({ where: { id } });
  return row ? toJob(row) : null;
}

/** The newest job of a thread, so a reopened page finds a result that finished meanwhile. */
export async function latestJob(threadId: string): Promise<CompactionJobRecord | null> {
  const row = await (await db()).compactionJob.findFirst({ where: { threadId }, orderBy: { createdAt: "desc" } });
  return row ? toJob(row) : null;
}

/**
 * Moves a running job on; a job that already ended (cancelled while its summariser was still
 * answering) stays as it ended. Answers whether it moved.
 */
export async function finishJob(
  id: string,
  update: { status: JobStatus; result?: JsonObject; error?: { kind: string; message: string }; progress?: string },
): Promise<boolean> {
  const moved = await (
    await db()
  ).compactionJob.updateMany({
    where: { id, status: "running" },
    data: {
      status: update.status,
      result: update.result === undefined ? undefined : JSON.stringify(update.result),
      error: update.error === undefined ? undefined : JSON.stringify(update.error),
      progress: update.progress,
      updatedAt: new Date(),
    },
  });
  return moved.count > 0;
}

/** Says what a running job is doing; a job that ended meanwhile keeps its last word. */
/** Marks a running job as alive (its heartbeat); false when it is no longer running (cancelled elsewhere). */
export async function touchJob(id: string): Promise<boolean> {
  const touched = await (await db()).compactionJob.updateMany({ where: { id, status: "running" }, data: { updatedAt: new Date() } });
  return touched.count > 0;
}

export async function setJobProgress(id: string, progress: string): Promise<void> {
  await (await db()).compactionJob.updateMany({ where: { id, status: "running" }, data: { progress, updatedAt: new Date() } });
}

/** Compactions made from or into any of these threads (the chain view's lineage), newest first. */
export async function compactionsTouching(
  threadIds: string[],
): Promise<(CompactionRecord & { originalTitle: string | null; revisionTitle: string | null })[]> {
  const client = await db();
  const rows = await client.compaction.findMany({
    where: { OR: [{ originalThreadId: { in: threadIds } }, { revisionThreadId: { in: threadIds } }] },
    orderBy: { createdAt: "desc" },
    include: { revision: { select: { title: true } } },
  });
  const originals = await client.thread.findMany({
    where: { id: { in: rows.map((r) => r.originalThreadId) } },
    select: { id: true, title: true },
  });
  const titleOf = new Map(originals.map((t) => [t.id, t.title]));
  return rows.map((row) => ({
    ...toRecord(row),
    originalTitle: titleOf.get(row.originalThreadId) ?? null,
    revisionTitle: row.revision.title,
  }));
}

/** Records that a finished job was applied, once: false when it was applied already. */
export async function markJobApplied(id: string, revisionThreadId: string): Promise<boolean> {
  const marked = await (
    await db()
  ).compactionJob.updateMany({
    where: { id, status: "succeeded", revisionThreadId: null },
    data: { revisionThreadId, updatedAt: new Date() },
  });
  return marked.count > 0;
}
