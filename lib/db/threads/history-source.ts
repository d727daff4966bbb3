import "server-only";
import type { TokenCount } from "@/lib/domain/tokens/tokenizer";
import type { Thread } from "@/lib/domain/types";
import { db } from "../engine/client";
import type { Database } from "../engine/create-client";
import { snapshotContents, snapshotStubs, turnContents, turnOutlines } from "./dialect-turns";
import { getChainThreadStates, type ThreadTurnsState } from "./threads";
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
 * Outlines of recently previewed threads, by measure and thread, with the state of the thread's
 * turns they were read at (ThreadTurnsState). Turns are appended (new seqs, new activity),
 * rewritten from an index on by an import (new seqs) or deleted with their thread; seqs are never
 * reused and a stored measure never changes. So an entry is valid while its state is; a thread
 * that only grew (same first turn, and its last known turn still where it was) is read from that
 * turn on; anything else is read again whole. Anything that changed a turn in place would have to
 * give it a new seq. Bounded by turns held (about 200 bytes each).
 */
type CachedOutline = { state: ThreadTurnsState; turns: OutlinedTurn[] };
const outlineCache = new Map<string, CachedOutline>();
const OUTLINE_CACHE_TURNS = 200_000;
let outlineCacheTurns = 0;

function remember(key: string, entry: CachedOutline): void {
  const previous = outlineCache.get(key);
  if (previous) {
    outlineCache.delete(key);
    outlineCacheTurns -= previous.turns.length;
  }
  outlineCache.set(key, entry);
  outlineCacheTurns += entry.turns.length;
  while (outlineCacheTurns > OUTLINE_CACHE_TURNS && outlineCache.size > 1) {
    const [oldest, dropped] = outlineCache.entries().next().value!;
    outlineCache.delete(oldest);
    outlineCacheTurns -= dropped.turns.length;
  }
}

/** How many of a cached outline's turns still stand when the thread is now at `state`: all when it only grew. */
function standingTurns(cached: CachedOutline, state: ThreadTurnsState): number {
  const known = cached.turns.length;
  const grew = known > 0 && known === cached.state.turnCount && state.turnCount > known && state.firstTurnSeq === cached.state.firstTurnSeq;
  return grew ? known : 0;
}

/**
 * The chain of `threadId` with its turns outlined and measured by `measureId`: stored measures
 * are read back; turns never measured are read, measured with `measure` and stored, so later
 * previews read no content but that of the turns they include.
 */
export async function loadHistorySource(threadId: string, measureId: string, measure: MeasureContents): Promise<HistorySource> {
  const states = await getChainThreadStates(threadId);
  const client = await db();
  const turns: OutlinedTurn[] = [];
  for (const { thread, state } of states) {
    const key = `${measureId}|${thread.id}`;
    const cached = outlineCache.get(key);
    let outlined: OutlinedTurn[];
    if (cached && cached.state.key === state.key) {
      outlined = cached.turns;
    } else {
      const standing = cached ? standingTurns(cached, state) : 0;
      // From the last known turn on: it must still be there, with its seq, for the rest to stand.
      const read = await outlineThread(client, thread.id, measureId, measure, Math.max(0, standing - 1));
      outlined =
        standing > 0 && read[0]?.seq === cached!.turns[standing - 1]!.seq && read.length === state.turnCount - standing + 1
          ? cached!.turns.concat(read.slice(1))
          : standing > 0
            ? await outlineThread(client, thread.id, measureId, measure, 0)
            : read;
    }
    remember(key, { state, turns: outlined });
    for (const turn of outlined) turns.push(turn);
  }
  return { chain: states.map((s) => s.thread), turns, threadSignatures: states.map((s) => s.state.key) };
}

async function outlineThread(
  client: Database,
  threadId: string,
  measureId: string,
  measure: MeasureContents,
  fromIndex: number,
): Promise<OutlinedTurn[]> {
  const rows = await turnOutlines(client, threadId, measureId, fromIndex);
  const unmeasured = rows.filter((row) => row.tokens === null);
  const measured = new Map<number, TokenCount>();
  if (unmeasured.length > 0) {
    const contents = await loadTurnContents(unmeasured.map((row) => row.seq));
    const counts = await measure(unmeasured.map((row) => contents.get(row.seq) ?? ""));
    const fresh = unmeasured.map((row, i) => ({ turnSeq: row.seq, turnId: row.id, threadId, ...counts[i]! }));
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
  const rows = await turnContents(await db(), seqs);
  return new Map(rows.map((row) => [row.seq, row.content]));
}

/**
 * For each path a turn of one thread's `turns` stored a snapshot of, the newest such snapshot (the
 * latest turn, the last of its snapshots of that path), as its key ("turnSeq:position": stored
 * snapshots never change) and its content, read only for keys `isKnown` does not know (null).
 */
export async function newestSnapshots(
  threadId: string,
  turns: readonly Pick<OutlinedTurn, "seq">[],
  isKnown: (key: string) => boolean = () => false,
): Promise<Map<string, { key: string; content: string | null }>> {
  const client = await db();
  const order = new Map(turns.map((turn, i) => [turn.seq, i]));
  const newest = new Map<string, { turnSeq: number; position: number }>();
  for (const stub of await snapshotStubs(client, threadId)) {
    const rank = order.get(stub.turnSeq);
    if (rank === undefined) continue;
    const current = newest.get(stub.path);
    const currentRank = current ? order.get(current.turnSeq)! : -1;
    if (!current || rank > currentRank || (rank === currentRank && stub.position > current.position)) newest.set(stub.path, stub);
  }
  const out = new Map<string, { key: string; content: string | null }>();
  const unread: { turnSeq: number; position: number }[] = [];
  const pathAt = new Map<string, string>();
  for (const [path, stub] of newest) {
    const key = snapshotKey(stub);
    out.set(path, { key, content: null });
    if (!isKnown(key)) {
      unread.push(stub);
      pathAt.set(key, path);
    }
  }
  for (const row of await snapshotContents(client, unread)) {
    const key = snapshotKey(row);
    out.set(pathAt.get(key)!, { key, content: row.content });
  }
  return out;
}

const snapshotKey = (at: { turnSeq: number; position: number }) => `${at.turnSeq}:${at.position}`;
