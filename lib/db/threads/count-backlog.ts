import "server-only";
import { runOrRepeat, wakeAfterQuiet, type RerunState, type WakeState } from "@/lib/domain/background-runs";
import { startBackgroundCounter } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { db } from "../engine/client";
import { bulkRunsActive, bulkRunsEnded } from "../imports/import-batch";
import { uncountedTurns } from "./dialect-turns";
import { storeTokenCounts } from "./token-counts";
import { onThreadsWritten } from "./thread-writes";

/**
 * The token counts a bulk run left out, counted in the background once it has ended: newest
 * turns first, on the import's counting worker, stored as readers store theirs.
 *
 * A folder's first sync used to count every turn while it imported. On 2 cores that put the o200k
 * counting (about 21 s of CPU for 2,000 sessions) beside the import: `npm start` had all 2,000
 * synced in 58 s, and in 30-40 s with the counts after it (docs/benchmarks.md, fifth round).
 * Usage, cost, search and the secret scan do not need the counts; budget previews do, and count
 * what they need themselves until the backlog has caught up (token-counts.ts).
 *
 * The backlog stops while a bulk run is in progress and goes on when it ends; any write of
 * turns wakes it (uploads count their own, so it finds nothing then).
 */

const BATCH = { maxTurns: 1_000, maxBytes: 2 * 1024 * 1024 };
/** Above every turn's seq: Turn.seq is a 32-bit integer on PostgreSQL, which refuses a larger bound. */
const ABOVE_EVERY_SEQ = 2 ** 31 - 1;
/** A run of writes wakes the backlog this long after its last one (not during it: a sync's writes are a bulk run's, which it waits out). */
const WAKE = { delayMs: 500, maxDelayMs: Number.POSITIVE_INFINITY };

type State = RerunState &
  WakeState & {
    listening: boolean;
    /** What goes first once writes have stopped (startCountingBacklog's `after`). */
    after: () => Promise<unknown>;
  };
const globalForBacklog = globalThis as unknown as { threadlineCountBacklog?: State };

function state(): State {
  globalForBacklog.threadlineCountBacklog ??= { running: null, again: false, listening: false, wake: null, after: async () => {} };
  return globalForBacklog.threadlineCountBacklog;
}

/** A bulk run's end, then what must go before the counts (startCountingBacklog's `after`). */
async function settle(): Promise<void> {
  await bulkRunsEnded();
  await state().after();
}

async function countAll(): Promise<void> {
  const client = await db();
  await settle();
  // Started once there is no sync to share the core with.
  const counter = startBackgroundCounter(DEFAULT_TOKENIZER_ID);
  // Newest first, down through the seqs; turns written meanwhile are above where it started:
  // the writes' wake takes them up. After a bulk run it starts again from the top.
  const read = async (before: number) => {
    if (!bulkRunsActive()) return uncountedTurns(client, DEFAULT_TOKENIZER_ID, before, BATCH);
    await settle();
    return uncountedTurns(client, DEFAULT_TOKENIZER_ID, ABOVE_EVERY_SEQ, BATCH);
  };
  try {
    let turns = await uncountedTurns(client, DEFAULT_TOKENIZER_ID, ABOVE_EVERY_SEQ, BATCH);
    while (turns.length > 0) {
      const counting = counter.count(turns.map((turn) => turn.content));
      counter.send();
      // The next batch is read while the worker counts this one.
      const next = read(turns.at(-1)!.seq);
      next.catch(() => undefined); // awaited below, unless counting fails first
      const counts = await counting;
      await storeTokenCounts(
        DEFAULT_TOKENIZER_ID,
        turns.map((turn, i) => ({ turnSeq: turn.seq, threadId: turn.threadId, ...counts[i]! })),
      );
      turns = await next;
    }
  } finally {
    await counter.close();
  }
}

/**
 * Counts every turn that has no count under the default tokenizer; resolves when none is left
 * (a bulk run in progress is waited for). A call while it runs makes it go round once more.
 */
export function countBacklog(): Promise<void> {
  return runOrRepeat(state(), async () => {
    try {
      await countAll();
    } catch (error) {
      // A count or a write failed: readers count what they need; the next write wakes this again.
      console.error("[threadline] counting tokens of stored turns failed", error);
    }
  });
}

/**
 * Counts what is stored uncounted, then again after every run of writes (once per process).
 * `after` is waited for before each round, and again when a bulk run ends: the catch-ups a sync
 * makes (the secret scan, the usage sums) go first, since the counts' reads and writes would
 * delay them.
 */
export function startCountingBacklog(after: () => Promise<unknown>): void {
  const s = state();
  if (s.listening) return;
  s.listening = true;
  s.after = after;
  onThreadsWritten(() => wakeAfterQuiet(s, WAKE, () => void countBacklog()));
  void countBacklog();
}
