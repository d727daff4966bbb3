import "server-only";
import type { TokenCount } from "@/lib/domain/tokenizer";
import type { Thread } from "@/lib/domain/types";
import { db } from "./client";
import { inChunks } from "./chunks";
import type { Database } from "./create-client";
import { turnOutlines } from "./dialect";
import { getChainThreads } from "./threads";
import { storeTokenCounts } from "./token-counts";

/** A turn as a budget preview plans with it: no content, but its measure under one tokenizer. */
export type OutlinedTurn = {
  seq: number;
  id: string;
  threadId: string;
  index: number;
  role: string;
  files: string[];
  toolName: string | null;
  modelProvider: string | null;
  modelName: string | null;
  /** The content's size under the asked measure (tokens, or code points for PAL's estimates). */
  measure: number;
  /** True when that measure is an estimate (a run counted in pieces; see TokenCount). */
  estimated: boolean;
};

/** Measures turn contents, in order (countTexts for a tokenizer). */
export type MeasureContents = (contents: string[]) => Promise<TokenCount[]>;

/** The newest stored content of a file across the chain; `key` is stable for that content. */
export type ChainSnapshot = { content: string; key: string };

export type HistorySource = {
  /** Oldest first; the last is the thread asked for. */
  chain: Thread[];
  /** Every turn of the chain, oldest first. */
  turns: OutlinedTurn[];
  /**
   * Per thread of the chain, in its order: changes whenever the thread gains, loses or changes
   * turns, so what is derived from a thread's turns alone may be kept under it.
   */
  threadSignatures: string[];
};

const NO_FILES: string[] = [];

function parseFiles(json: string | null): string[] {
  if (!json) return NO_FILES;
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === "string") : [];
}

/**
 * Outlines of recently previewed threads, by measure and thread state (last activity, and its
 * turns' count and seq range). Turns are only appended (new seqs, new activity) or deleted with
 * their thread, seqs are never reused, and a stored measure never changes, so an entry is valid
 * while its signature matches; after an append only that thread is read again. Anything that
 * rewrites turns in place must change lastUpdatedAt too. Bounded by turns held (about 200 bytes
 * each).
 */
const outlineCache = new Map<string, OutlinedTurn[]>();
const OUTLINE_CACHE_TURNS = 200_000;
let outlineCacheTurns = 0;

function remember(signature: string, turns: OutlinedTurn[]): void {
  outlineCache.set(signature, turns);
  outlineCacheTurns += turns.length;
  while (outlineCacheTurns > OUTLINE_CACHE_TURNS && outlineCache.size > 1) {
    const [oldest, dropped] = outlineCache.entries().next().value!;
    outlineCache.delete(oldest);
    outlineCacheTurns -= dropped.length;
  }
}

/**
 * The chain of `threadId` with its turns outlined and measured by `measureId`: stored measures
 * are read back; turns never measured are read, measured with `measure` and stored, so later
 * previews read no content but that of the turns they include.
 */
export async function loadHistorySource(threadId: string, measureId: string, measure: MeasureContents): Promise<HistorySource> {
  const chain = await getChainThreads(threadId);
  const client = await db();
  const extents = await client.turn.groupBy({
    by: ["threadId"],
    where: { threadId: { in: chain.map((t) => t.id) } },
    _count: { _all: true },
    _min: { seq: true },
    _max: { seq: true },
  });
  const extentOf = new Map(extents.map((e) => [e.threadId, `${e._count._all}:${e._min.seq}-${e._max.seq}`]));
  const turns: OutlinedTurn[] = [];
  const threadSignatures: string[] = [];
  for (const thread of chain) {
    const threadSignature = `${thread.id}|${thread.lastUpdatedAt}|${extentOf.get(thread.id) ?? "0"}`;
    threadSignatures.push(threadSignature);
    const signature = `${measureId}|${threadSignature}`;
    let outlined = outlineCache.get(signature);
    if (outlined) {
      outlineCache.delete(signature); // most recently used goes last
      outlineCache.set(signature, outlined);
    } else {
      outlined = await outlineThread(client, thread.id, measureId, measure);
      remember(signature, outlined);
    }
    for (const turn of outlined) turns.push(turn);
  }
  return { chain, turns, threadSignatures };
}

async function outlineThread(client: Database, threadId: string, measureId: string, measure: MeasureContents): Promise<OutlinedTurn[]> {
  const rows = await turnOutlines(client, threadId, measureId);
  const unmeasured = rows.filter((row) => row.tokens === null);
  const measured = new Map<number, TokenCount>();
  if (unmeasured.length > 0) {
    const contents = await loadTurnContents(unmeasured.map((row) => row.seq));
    const counts = await measure(unmeasured.map((row) => contents.get(row.seq) ?? ""));
    const fresh = unmeasured.map((row, i) => ({ turnSeq: row.seq, threadId, ...counts[i]! }));
    for (const entry of fresh) measured.set(entry.turnSeq, entry);
    await storeTokenCounts(measureId, fresh);
  }
  return rows.map((row) => ({
    seq: row.seq,
    id: row.id,
    threadId,
    index: row.index,
    role: row.role,
    files: parseFiles(row.files),
    toolName: row.toolName,
    modelProvider: row.modelProvider,
    modelName: row.modelName,
    measure: row.tokens ?? measured.get(row.seq)?.tokens ?? 0,
    estimated: row.tokens !== null ? row.estimated : (measured.get(row.seq)?.estimated ?? false),
  }));
}

/** Turn contents by seq. */
export async function loadTurnContents(seqs: number[]): Promise<Map<number, string>> {
  const client = await db();
  const rows = await inChunks(seqs, (chunk) => client.turn.findMany({ where: { seq: { in: chunk } }, select: { seq: true, content: true } }));
  return new Map(rows.map((row) => [row.seq, row.content]));
}

/**
 * For each path a turn of `turns` stored a snapshot of, the newest such snapshot (the latest turn
 * in chain order, the last of its snapshots of that path). Only the chosen contents are read.
 */
export async function newestSnapshots(turns: readonly Pick<OutlinedTurn, "seq" | "threadId">[]): Promise<Map<string, ChainSnapshot>> {
  const client = await db();
  const order = new Map(turns.map((turn, i) => [turn.seq, i]));
  const threadIds = [...new Set(turns.map((t) => t.threadId))];
  const stubs = await inChunks(threadIds, (chunk) =>
    client.fileSnapshot.findMany({ where: { turn: { threadId: { in: chunk } } }, select: { turnSeq: true, position: true, path: true } }),
  );
  const newest = new Map<string, { turnSeq: number; position: number }>();
  for (const stub of stubs) {
    const rank = order.get(stub.turnSeq);
    if (rank === undefined) continue;
    const current = newest.get(stub.path);
    const currentRank = current ? order.get(current.turnSeq)! : -1;
    if (!current || rank > currentRank || (rank === currentRank && stub.position > current.position)) newest.set(stub.path, stub);
  }
  const wanted = new Set([...newest.values()].map((s) => `${s.turnSeq}:${s.position}`));
  const rows = await inChunks([...new Set([...newest.values()].map((s) => s.turnSeq))], (chunk) =>
    client.fileSnapshot.findMany({ where: { turnSeq: { in: chunk } }, select: { turnSeq: true, position: true, path: true, content: true } }),
  );
  const out = new Map<string, ChainSnapshot>();
  for (const row of rows) {
    const key = `${row.turnSeq}:${row.position}`;
    if (wanted.has(key)) out.set(row.path, { content: row.content, key });
  }
  return out;
}
