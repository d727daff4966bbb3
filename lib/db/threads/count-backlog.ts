import "server-only";
import { runOrRepeat, wakeAfterQuiet, type RerunState, type WakeState } from "@/lib/domain/background-runs";
import { startBackgroundCounter } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { serverSettings } from "@/lib/env";
import { db } from "../engine/client";
import { bulkRunsActive, bulkRunsEnded } from "../imports/import-batch";
import { databaseKind, type Database } from "../engine/create-client";
import { withImportReader } from "../imports/import-writer";
import { uncountedTurns, type UncountedTurn } from "./dialect-turns";
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

/**
 * A batch is read, sent to the worker and stored while requests wait (SQLite's reads and writes
 * are synchronous): 250 turns keep each of those steps to a few ms.
 */
const BATCH = { maxTurns: 250, maxBytes: 512 * 1024 };
/**
 * Seqs one read looks through at most: a read that finds nothing uncounted still walks its range
 * (each turn looked up in the counts' key), and on SQLite that walk holds the event loop.
 */
const SEQ_WINDOW = 20_000;
/** A run of writes wakes the backlog this long after its last one (not during it: a sync's writes are a bulk run's, which it waits out). */
const WAKE = { delayMs: 500, maxDelayMs: Number.POSITIVE_INFINITY };

type State = RerunState &
  WakeState & {
    listening: boolean;
    /**
     * Per database: every turn up to this seq had its count when the last whole pass ended; seqs
     * only grow, so a pass looks above it only. Read from the database (countCursorKey) the first
     * time, so a restart does not walk every stored turn again.
     */
    countedThrough: Map<string, number>;
    /** What goes first once writes have stopped (startCountingBacklog's `after`). */
    after: () => Promise<unknown>;
  };
const globalForBacklog = globalThis as unknown as { threadlineCountBacklog?: State };

function state(): State {
  globalForBacklog.threadlineCountBacklog ??= {
    running: null,
    again: false,
    listening: false,
    wake: null,
    countedThrough: new Map(),
    after: async () => {},
  };
  return globalForBacklog.threadlineCountBacklog;
}

/**
 * The AppSetting key of the backlog's cursor under `tokenizer`: every turn up to this seq had its
 * count when a whole pass last ended. Kept in the database because a pass that finds nothing still
 * walks its range: on a restart over 50,000 counted turns that walk held the event loop for about
 * a second, beside the sync confirming its files (docs/benchmarks.md, "Fifteenth round"). A count
 * deleted below it (a redaction's) is made again by the first reader that needs it (token-counts.ts).
 * @internal exported for its tests
 */
export const countCursorKey = (tokenizer: string) => `tokens.countedSeq:${tokenizer}`;

async function storedCursor(client: Database): Promise<number> {
  const row = await client.appSetting.findUnique({ where: { key: countCursorKey(DEFAULT_TOKENIZER_ID) } });
  const seq = Number(row?.value);
  return Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
}

async function storeCursor(client: Database, seq: number): Promise<void> {
  const key = countCursorKey(DEFAULT_TOKENIZER_ID);
  await client.appSetting.upsert({ where: { key }, create: { key, value: String(seq) }, update: { value: String(seq) } });
}

/**
 * Forgets what this process knew of the backlog, as a restarted server would.
 * @internal exported for its tests
 */
export function forgetCountBacklog(): void {
  const s = state();
  s.countedThrough.clear();
}

async function countAll(): Promise<void> {
  const client = await db();
  const s = state();
  const databaseUrl = serverSettings().databaseUrl;
  for (;;) {
    const afterBulkRun = bulkRunsActive();
    await bulkRunsEnded();
    const top = (await client.turn.aggregate({ _max: { seq: true } }))._max.seq ?? 0;
    const firstInProcess = !s.countedThrough.has(databaseUrl);
    const countedThrough = s.countedThrough.get(databaseUrl) ?? (await storedCursor(client));
    s.countedThrough.set(databaseUrl, countedThrough);
    if (top <= countedThrough) return;
    // After a bulk run, and before this process's first pass, the catch-ups go first
    // (startCountingBacklog's `after`); a few turns an append wrote do not wait for them.
    if (afterBulkRun || firstInProcess) await s.after();
    if (await countPass(client, { from: countedThrough + 1, before: top + 1 })) {
      s.countedThrough.set(databaseUrl, top);
      await storeCursor(client, top);
    }
  }
}

/**
 * Counts the uncounted turns with seqs in [from, before), newest first, reading the next batch
 * while the worker counts one. False when a bulk run began meanwhile: the pass stops for it.
 */
async function countPass(client: Database, seqs: { from: number; before: number }): Promise<boolean> {
  // Started once there is no sync to share the core with.
  const counter = startBackgroundCounter(DEFAULT_TOKENIZER_ID);
  const kind = databaseKind(client);
  // On SQLite through the import connection's prepared statements: through Prisma each read was
  // compiled by its query compiler first, and took half as long again.
  const uncounted = (window: { from: number; before: number }) =>
    kind === "sqlite"
      ? withImportReader(serverSettings().databaseUrl, (reader) => uncountedTurns(reader, kind, DEFAULT_TOKENIZER_ID, window, BATCH))
      : uncountedTurns(client, kind, DEFAULT_TOKENIZER_ID, window, BATCH);
  const read = async (before: number): Promise<UncountedTurn[]> => {
    for (let end = before; end > seqs.from; end -= SEQ_WINDOW) {
      const window = { from: Math.max(seqs.from, end - SEQ_WINDOW), before: end };
      const turns = await uncounted(window);
      if (turns.length > 0) return turns;
    }
    return [];
  };
  try {
    let turns = await read(seqs.before);
    while (turns.length > 0) {
      if (bulkRunsActive()) return false;
      const counting = counter.count(turns.map((turn) => turn.content));
      counter.send();
      const next = read(turns.at(-1)!.seq);
      next.catch(() => undefined); // awaited below, unless counting fails first
      const counts = await counting;
      await storeTokenCounts(
        DEFAULT_TOKENIZER_ID,
        turns.map((turn, i) => ({ turnSeq: turn.seq, turnId: turn.id, threadId: turn.threadId, ...counts[i]! })),
      );
      turns = await next;
    }
    return true;
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
 * `after` is waited for after a bulk run and before the process's first pass: the catch-ups a
 * sync makes (the secret scan, the usage sums) go first, since the counts' reads and writes would
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
