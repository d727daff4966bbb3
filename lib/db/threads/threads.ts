import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import { normalizeId } from "@/lib/domain/ids";
import { collectChain, MAX_CHAIN_DEPTH } from "@/lib/domain/threads/chain";
import { decodeCursor, encodeCursor } from "@/lib/domain/threads/cursor";
import { describeTimeout, expiresAtFor, threadNotFoundMessage } from "@/lib/domain/threads/expiry";
import { searchTerms } from "@/lib/domain/threads/search";
import { searchableText, searchableTurnText } from "@/lib/domain/secrets/detect";
import { titleFromContent } from "@/lib/domain/threads/title";
import { estimateTokens } from "@/lib/domain/tokens/tokens";
import { isSubagentThread, relationOf, type ChildThreadLink, type ThreadLink } from "@/lib/domain/threads/links";
import type { Thread, ThreadPage, ThreadWithTurns, Turn } from "@/lib/domain/types";
import { sortedSources } from "@/lib/domain/display/source";
import { serverSettings } from "@/lib/env";
import type { AppendTurnInput, CreateThreadInput, ListThreadsQuery } from "@/lib/validation/threads";
import { db } from "../engine/client";
import { withCountedTokens } from "./token-counts";
import { countTexts } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { chainRows, containsPattern, searchThreadIds, type ChainRow } from "../engine/dialect";
import type { Prisma, Thread as ThreadRow } from "../generated/client";
import { withLargeValues } from "../engine/large-values";
import { jsonOrNull, mergeModels, storedParts, toThread, toTurn, WITH_SNAPSHOTS } from "../engine/mappers";

import { threadsWritten } from "./thread-writes";
import { currentThreadTools, toolFilterKey } from "./thread-tools";
import { snapshotReads, WRITE_TRANSACTION } from "../engine/transactions";
import { databaseKind } from "../engine/create-client";
import { readableWhere } from "../engine/readable";
import { mayRead, type Reader } from "@/lib/domain/access";
import { newThreadOwner } from "../people/visibility";

type Visibility = { includeExpired?: boolean };

/** The one answer to a thread id that names no stored thread, wherever it is looked up (REST, MCP, actions). */
export function threadNotFound(id: string): AppError {
  return new AppError("not_found", threadNotFoundMessage(id, serverSettings().timeoutHours.value));
}

function turnLimitError(threadId: string, maxTurns: number): AppError {
  return new AppError(
    "turn_limit",
    `Thread ${threadId} has reached the limit of ${maxTurns} turns (MAX_CONVERSATION_TURNS); start a new thread with parentThreadId set to continue.`,
  );
}

function expiredError(thread: ThreadRow): AppError {
  const timeout = describeTimeout(serverSettings().timeoutHours.value);
  return new AppError(
    "expired",
    `Thread ${thread.id} has expired (no activity since ${thread.lastUpdatedAt.toISOString()}; timeout ${timeout}). It is kept until purged.`,
  );
}

/** Loads a thread row; an expired thread counts as not found unless `includeExpired`. */
async function loadThreadRow(id: string, visibility: Visibility = {}): Promise<ThreadRow> {
  return visibleRow(id, await (await db()).thread.findUnique({ where: { id } }), visibility);
}

function visibleRow(id: string, row: ThreadRow | null, { includeExpired = false }: Visibility = {}): ThreadRow {
  if (!row) throw threadNotFound(id);
  if (!includeExpired && toThread(row).expired) throw expiredError(row);
  return row;
}

export async function getThread(id: string, visibility?: Visibility): Promise<Thread> {
  return toThread(await loadThreadRow(id, visibility));
}

export async function getThreadWithTurns(id: string, visibility?: Visibility): Promise<ThreadWithTurns> {
  const client = await db();
  // Both reads in one transaction (one snapshot): a turn appended between two separate reads
  // would show turns that turnCount does not count.
  const [row, turns] = await client.$transaction(
    [
      client.thread.findUnique({ where: { id } }),
      client.turn.findMany({ where: { threadId: id }, orderBy: { index: "asc" }, include: WITH_SNAPSHOTS }),
    ],
    snapshotReads(databaseKind(client)),
  );
  const [counted] = await withCountedTokens([{ thread: toThread(visibleRow(id, row, visibility)), turns: turns.map(toTurn) }]);
  return counted!;
}

/** A new thread through the API or MCP: `reader`'s own (lib/domain/access), with their visibility for new threads. */
export async function createThread(input: CreateThreadInput, reader: Reader): Promise<Thread> {
  const client = await db();
  if (input.parentThreadId) {
    const parent = await client.thread.findUnique({ where: { id: input.parentThreadId } });
    if (!parent || !mayRead(reader, parent)) {
      throw new AppError("validation_failed", "parentThreadId: no thread with this id", [
        { field: "parentThreadId", message: "no thread with this id" },
      ]);
    }
    if (toThread(parent).expired) {
      throw new AppError("validation_failed", "parentThreadId: that thread has expired", [
        { field: "parentThreadId", message: "that thread has expired" },
      ]);
    }
  }
  const now = new Date();
  const row = await client.thread.create({
    data: {
      id: randomUUID(),
      ...(await newThreadOwner(reader, null)),
      parentThreadId: input.parentThreadId ?? null,
      title: input.title ?? null,
      searchTitle: searchableText(input.title ?? null),
      toolName: input.toolName,
      initialContext: JSON.stringify(input.initialContext ?? {}),
      source: "api",
      createdAt: now,
      lastUpdatedAt: now,
      expiresAt: expiresAtFor(now, serverSettings().timeoutHours.value),
    },
  });
  threadsWritten([row.id]);
  return { ...toThread(row), tokens: { tokenizer: DEFAULT_TOKENIZER_ID, count: 0, estimated: false } };
}

/**
 * Appends a turn. The first statement claims the next index with a conditional increment, which
 * takes the write lock (SQLite) or the row lock (PostgreSQL), so parallel writers are serialised:
 * no turn is lost, duplicated or reordered, and the limit and expiry checks cannot race.
 */
/** A turn to append: role and content, and whichever of the validated request's other fields apply. */
export type NewTurn = Pick<AppendTurnInput, "role" | "content"> & Partial<AppendTurnInput>;

/**
 * `beforeCommit` runs in the append's transaction with the stored turn: what it writes commits
 * with the turn, and if it throws the turn is not stored (an Idempotency-Key's record).
 */
export async function appendTurn(
  threadId: string,
  input: NewTurn,
  { beforeCommit }: { beforeCommit?: (tx: Prisma.TransactionClient, turn: Turn) => Promise<void> } = {},
): Promise<Turn> {
  const { maxTurns, timeoutHours } = serverSettings();
  const client = await db();
  const tokens = estimateTokens(input.content);
  // Cheap checks first: a missing, expired or full thread is refused before anything is counted
  // (the transaction checks again). Counted before the write lock is taken, off the event loop
  // when long: tokenising is the slow part.
  const existing = await loadThreadRow(threadId);
  if (existing.turnCount >= maxTurns.value) throw turnLimitError(threadId, maxTurns.value);
  const [counted] = await countTexts(DEFAULT_TOKENIZER_ID, [input.content]);
  // Long texts go to the driver beside Prisma's query compiler (lib/db/engine/large-values.ts).
  const stored = await withLargeValues((large) =>
    client.$transaction(async (tx) => {
      const now = new Date();
      const claimed = await tx.thread.updateMany({
        where: { id: threadId, turnCount: { lt: maxTurns.value }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
        data: {
          turnCount: { increment: 1 },
          tokenEstimate: { increment: tokens },
          lastUpdatedAt: now,
          expiresAt: expiresAtFor(now, timeoutHours.value),
        },
      });
      const row = await tx.thread.findUnique({ where: { id: threadId } });
      if (!row) throw threadNotFound(threadId);
      if (claimed.count === 0) {
        if (toThread(row, now).expired) throw expiredError(row);
        throw turnLimitError(threadId, maxTurns.value);
      }
      const turn = await tx.turn.create({
        data: {
          id: randomUUID(),
          threadId,
          index: row.turnCount - 1,
          role: input.role,
          content: large(input.content),
          searchContent: large(searchableTurnText(input.content, input.parts)),
          timestamp: now,
          files: JSON.stringify(input.files ?? []),
          images: JSON.stringify(input.images ?? []),
          toolName: input.toolName ?? null,
          modelProvider: input.modelProvider ?? null,
          modelName: input.modelName ?? null,
          modelMetadata: jsonOrNull(input.modelMetadata),
          parts: large(storedParts(input.parts, input.content)),
          tokenEstimate: tokens,
          snapshots: {
            create: (input.fileSnapshots ?? []).map((snapshot, position) => ({
              position,
              path: snapshot.path,
              content: large(snapshot.content),
            })),
          },
        },
        include: WITH_SNAPSHOTS,
      });
      const threadUpdate: Prisma.ThreadUpdateInput = {};
      if (row.title === null && input.role === "user") {
        const title = titleFromContent(input.content);
        if (title) Object.assign(threadUpdate, { title, searchTitle: searchableText(title) });
      }
      const known = JSON.parse(row.modelsUsed) as string[];
      const models = mergeModels(known, [input.modelName ?? null]);
      if (models.length !== known.length) threadUpdate.modelsUsed = JSON.stringify(models);
      if (Object.keys(threadUpdate).length > 0) await tx.thread.update({ where: { id: threadId }, data: threadUpdate });
      await tx.turnTokenCount.create({ data: { turnSeq: turn.seq, threadId, tokenizer: DEFAULT_TOKENIZER_ID, ...counted! } });
      const stored = { ...toTurn(turn), tokens: counted!.tokens, tokensEstimated: counted!.estimated };
      await beforeCommit?.(tx, stored);
      return stored;
    }, WRITE_TRANSACTION),
  );
  threadsWritten([threadId]);
  return stored;
}

export async function listThreads(query: ListThreadsQuery, reader: Reader): Promise<ThreadPage> {
  const client = await db();
  let after: { lastUpdatedAt: Date; id: string } | undefined;
  if (query.cursor) {
    const decoded = decodeCursor(query.cursor);
    if (!decoded) {
      throw new AppError("validation_failed", "cursor: not a cursor returned by this API", [
        { field: "cursor", message: "not a cursor returned by this API" },
      ]);
    }
    after = decoded;
  }
  const take = query.limit + 1; // one extra row tells whether there is a next page
  if (query.tool) await currentThreadTools();
  let rows: ThreadRow[];
  if (query.q) {
    const terms = searchTerms(query.q);
    const ids = await searchThreadIds(client, {
      terms,
      titlePattern: containsPattern(query.q),
      toolKey: query.tool ? toolFilterKey(query.tool) : undefined,
      modelName: query.model,
      source: query.source,
      project: query.project,
      after,
      limit: take,
      reader,
    });
    const found = await client.thread.findMany({ where: { id: { in: ids } } });
    const byId = new Map(found.map((row) => [row.id, row]));
    rows = ids.flatMap((id) => byId.get(id) ?? []);
  } else {
    const where: Prisma.ThreadWhereInput[] = [readableWhere(reader)];
    if (query.tool) where.push({ tools: { some: { key: toolFilterKey(query.tool) } } });
    if (query.model) where.push({ turns: { some: { modelName: query.model } } });
    if (query.source) where.push({ source: query.source });
    if (query.project) where.push({ project: query.project });
    if (after) {
      where.push({
        OR: [{ lastUpdatedAt: { lt: after.lastUpdatedAt } }, { lastUpdatedAt: after.lastUpdatedAt, id: { lt: after.id } }],
      });
    }
    rows = await client.thread.findMany({
      where: { AND: where },
      orderBy: [{ lastUpdatedAt: "desc" }, { id: "desc" }],
      take,
    });
  }
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const now = new Date();
  return {
    items: await withParentTitles(await withTokenTotals(page.map((row) => toThread(row, now)))),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ lastUpdatedAt: last.lastUpdatedAt, id: last.id }) : null,
  };
}

/** Sub-agent threads with their parent's title (one read for the page), for the list's "sub-agent of ..." mark. */
async function withParentTitles(threads: Thread[]): Promise<Thread[]> {
  const parentIds = [...new Set(threads.filter(isSubagentThread).flatMap((thread) => thread.parentThreadId ?? []))];
  if (parentIds.length === 0) return threads;
  const parents = await (await db()).thread.findMany({ where: { id: { in: parentIds } }, select: { id: true, title: true } });
  const titles = new Map(parents.map((parent) => [parent.id, parent.title]));
  return threads.map((thread) =>
    isSubagentThread(thread) ? { ...thread, parentTitle: titles.get(thread.parentThreadId ?? "") ?? null } : thread,
  );
}

/**
 * The conversation chain ending at `id`, oldest first, each thread with its turns (PAL's
 * get_thread_chain: at most 20 threads, cycle-safe). Unless `includeExpired`, the walk stops at an
 * expired ancestor as it stops at a missing one, and an expired start thread is not found.
 */
/** The threads of `id`'s chain, oldest first (at most MAX_CHAIN_DEPTH; expired ancestors end it). */
export async function getChainThreads(id: string, visibility: Visibility = {}): Promise<Thread[]> {
  return collectChainRows(
    id,
    await chainRows(await db(), id, MAX_CHAIN_DEPTH, { withExtents: false, closed: serverSettings().auth.enabled }),
    visibility,
  );
}

/** What a thread's stored turns are now (see TurnExtent): `key` changes whenever they do. */
export type ThreadTurnsState = { key: string; turnCount: number; firstTurnSeq: number | null; lastTurnSeq: number | null };

/** getChainThreads, each thread with the state of its turns, in one query. */
export async function getChainThreadStates(
  id: string,
  visibility: Visibility = {},
): Promise<{ thread: Thread; state: ThreadTurnsState }[]> {
  const rows = await chainRows(await db(), id, MAX_CHAIN_DEPTH, { withExtents: true, closed: serverSettings().auth.enabled });
  const extents = new Map(rows.map((row) => [row.id, row]));
  return (await collectChainRows(id, rows, visibility)).map((thread) => {
    const { firstTurnSeq, lastTurnSeq } = extents.get(thread.id)!;
    const key = `${thread.id}|${thread.lastUpdatedAt}|${thread.turnCount}:${firstTurnSeq}-${lastTurnSeq}`;
    return { thread, state: { key, turnCount: thread.turnCount, firstTurnSeq, lastTurnSeq } };
  });
}

/** The chain from rows read up the parent links (chainRows): the start must be visible; an expired ancestor ends it. */
async function collectChainRows(id: string, rows: ChainRow[], visibility: Visibility): Promise<Thread[]> {
  visibleRow(id, rows.find((row) => row.chainDepth === 1) ?? null, visibility);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const { chain } = await collectChain(id, async (currentId) => {
    const row = byId.get(currentId);
    if (!row) return null;
    const thread = toThread(row);
    return thread.expired && !visibility.includeExpired ? null : thread;
  });
  return chain;
}

export async function getChain(id: string, visibility: Visibility = {}): Promise<ThreadWithTurns[]> {
  const chain = await getChainThreads(id, visibility);
  const client = await db();
  const turns = await client.turn.findMany({
    where: { threadId: { in: chain.map((t) => t.id) } },
    orderBy: [{ threadId: "asc" }, { index: "asc" }],
    include: WITH_SNAPSHOTS,
  });
  const byThread = new Map<string, Turn[]>();
  for (const turn of turns) {
    const list = byThread.get(turn.threadId) ?? [];
    list.push(toTurn(turn));
    byThread.set(turn.threadId, list);
  }
  return withCountedTokens(chain.map((thread) => ({ thread, turns: byThread.get(thread.id) ?? [] })));
}

/** Deletes a thread and its turns. Children keep their parent link (the chain view shows it as purged). */
export async function purgeThread(id: string): Promise<void> {
  const client = await db();
  await client.$transaction(async (tx) => {
    const deleted = await tx.thread.deleteMany({ where: { id } });
    if (deleted.count === 0) throw threadNotFound(id);
    // Summaries written for it go with it (they quote its turns), and so do the answers its
    // Idempotency-Keys would replay (they name its turns).
    await tx.compactionJob.deleteMany({ where: { threadId: id } });
    await tx.compactionRun.deleteMany({ where: { threadId: id } });
    await tx.idempotencyKey.deleteMany({ where: { threadId: id } });
  }, WRITE_TRANSACTION);
  threadsWritten([id]);
}

/** Distinct model names, sources (agents) and projects, for the filters (GROUP BY runs in the database). Tools: lib/db/threads/thread-tools.ts listToolOptions. */
export type ListFacets = { models: string[]; sources: string[]; projects: string[] };

/** The values the list's filters offer. */
/** The list's filter choices, from the threads `reader` may read (another person's private project names stay theirs). */
export async function listFacets(reader: Reader): Promise<ListFacets> {
  const client = await db();
  const readable = readableWhere(reader);
  const [models, sources, projects] = await Promise.all([
    client.turn.groupBy({ by: ["modelName"], where: { modelName: { not: null }, ...(reader ? { thread: readable } : {}) } }),
    client.thread.groupBy({ by: ["source"], where: readable }),
    client.thread.groupBy({ by: ["project"], where: { project: { not: null }, ...readable } }),
  ]);
  return {
    models: models.flatMap((m) => m.modelName ?? []).sort(),
    sources: sortedSources(sources.map((s) => s.source)),
    projects: projects.flatMap((p) => p.project ?? []).sort(),
  };
}

export async function findThread(rawId: string): Promise<Thread | null> {
  const id = normalizeId(rawId);
  if (!id) return null;
  const row = await (await db()).thread.findUnique({ where: { id } });
  return row ? toThread(row) : null;
}

/**
 * The parent (null when it is not in the database) and the first children of a thread (at most
 * `childLimit`, oldest first), each child with its relation, so a page can tie a sub-agent to the
 * tool call that started it.
 */
/** A thread's parent and children, as far as `reader` may read them (a parent they may not read is as one not stored). */
export async function getThreadLinks(
  thread: Thread,
  reader: Reader,
  { childLimit = 50 }: { childLimit?: number } = {},
): Promise<{ parent: ThreadLink | null; children: ChildThreadLink[] }> {
  const client = await db();
  const select = { id: true, title: true } as const;
  const readable = readableWhere(reader);
  const [parent, children] = await Promise.all([
    thread.parentThreadId ? client.thread.findFirst({ where: { id: thread.parentThreadId, ...readable }, select }) : null,
    // A thread that names itself as parent (only in old data: imports refuse loops) is no child of its own.
    client.thread.findMany({
      where: { parentThreadId: thread.id, id: { not: thread.id }, ...readable },
      select: { ...select, metadata: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: childLimit,
    }),
  ]);
  return { parent, children: children.map(({ metadata, ...link }) => ({ ...link, relation: relationOf(metadata) })) };
}

/**
 * Attaches each thread's real token total (default tokenizer) where every turn has been counted
 * (appends and imports count as they write); threads with a turn not counted keep tokens: null.
 */
export async function withTokenTotals(threads: Thread[]): Promise<Thread[]> {
  if (threads.length === 0) return threads;
  const client = await db();
  const where = { threadId: { in: threads.map((t) => t.id) }, tokenizer: DEFAULT_TOKENIZER_ID };
  const [totals, estimated] = await Promise.all([
    client.turnTokenCount.groupBy({ by: ["threadId"], where, _sum: { tokens: true }, _count: { _all: true } }),
    client.turnTokenCount.groupBy({ by: ["threadId"], where: { ...where, estimated: true } }),
  ]);
  const byThread = new Map(totals.map((row) => [row.threadId, row]));
  const withEstimates = new Set(estimated.map((row) => row.threadId));
  return threads.map((thread) => {
    const row = byThread.get(thread.id);
    const counted = row?._count._all ?? 0;
    if (counted !== thread.turnCount) return thread;
    return {
      ...thread,
      tokens: { tokenizer: DEFAULT_TOKENIZER_ID, count: row?._sum.tokens ?? 0, estimated: withEstimates.has(thread.id) },
    };
  });
}
