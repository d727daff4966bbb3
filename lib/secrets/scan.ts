import "server-only";
import { claimJobLease, newLeaseOwner, releaseJobLease, renewJobLease } from "@/lib/db/engine/job-leases";
import { recordScan, scanCursor, scanProgress, turnsToScan } from "@/lib/db/secrets/secret-findings";
import { maskForSearch, revealHiddenSearchTexts } from "@/lib/db/secrets/search-texts";
import { afterBulkRuns } from "@/lib/db/imports/import-batch";
import { onThreadsWritten } from "@/lib/db/threads/thread-writes";
import { runOrRepeat, wakeAfterQuiet, type RerunState, type WakeState } from "@/lib/domain/background-runs";
import { turnSecrets } from "@/lib/domain/secrets/detect";
import { timeSlices } from "@/lib/runtime/time-slices";

/**
 * The scan for secrets: reads the turns in seq order from where it stopped (a cursor kept in the
 * database, so it resumes after a restart), records what lib/domain/secrets finds, and moves the
 * cursor. The same loop backfills the turns stored before detection existed and picks up every
 * new turn: whatever write added them (append, the API's or the CLI's import, a followed session)
 * announces it through threadsWritten, which wakes the scan. One instance at a time runs it
 * (JobLease "secrets-scan"); the others' writes are picked up by whichever holds it, or by the
 * next wake.
 */

const LEASE = "secrets-scan";
const LEASE_MS = 60_000;
/** The lease is renewed between batches once this much of it has gone. */
const RENEW_AFTER_MS = LEASE_MS / 4;
/** What one read of turns may hold: reads have a fixed cost, so they are large, and bounded by bytes, not only turns. */
const BATCH = { maxTurns: 2_000, maxBytes: 8 * 1024 * 1024 };
/**
 * Findings and the cursor are written together at most this often (and at the end), not after
 * every batch: a write per 200 turns was a third of a big import's scan. A restart scans again
 * what was not written, and writing a turn's findings again replaces them.
 */
const RECORD_EVERY_MS = 500;
const RECORD_AT_FINDINGS = 1_000;
/** Detection time after which the scan gives the event loop back before going on. */
const SLICE_MS = 20;
/**
 * A write wakes the scan this long after the last write of a run of them, and at most
 * WAKE_MAX_DELAY_MS after the first: an import of many files commits one after another, and a
 * scan for each (a lease claimed, the cursor written, the lease let go: four writes that wait
 * for the import's) made such an import 40% slower. Findings show up that much later; masks do
 * not wait for them.
 */
const WAKE_DELAY_MS = 250;
const WAKE_MAX_DELAY_MS = 2_000;

type State = RerunState &
  WakeState & {
    owner: string;
    listening: boolean;
    lastError: string | null;
    heldForBulkRuns: boolean;
  };
const globalForScan = globalThis as unknown as { threadlineSecretScan?: State };

function state(): State {
  globalForScan.threadlineSecretScan ??= {
    owner: newLeaseOwner(),
    running: null,
    again: false,
    listening: false,
    lastError: null,
    wake: null,
    heldForBulkRuns: false,
  };
  return globalForScan.threadlineSecretScan;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function runScan(): Promise<void> {
  const s = state();
  if (!(await claimJobLease(LEASE, s.owner, LEASE_MS))) return;
  try {
    await revealHiddenSearchTexts(yieldToLoop);
    // The cursor is read once: while the lease is held, nobody else moves it.
    let after = await scanCursor();
    let recordedThrough = after;
    let recorded = Date.now();
    let renewed = Date.now();
    let found: Parameters<typeof recordScan>[1] = [];
    let unmasked: { seq: number; content: string; parts: string | null }[] = [];
    for (;;) {
      const { turns, full } = await turnsToScan(after, BATCH);
      if (turns.length === 0) break;
      const slices = timeSlices(SLICE_MS);
      for (const turn of turns) {
        const where = { seq: turn.seq, id: turn.id, threadId: turn.threadId, index: turn.index };
        let exposed = false;
        for (const { field, match } of turnSecrets(turn)) {
          found.push({ turn: where, field, match });
          // Search reads the content and what the parts add (tool arguments and outputs).
          if (field === "content" || field === "parts") exposed = true;
        }
        if (exposed && !turn.searchMasked) unmasked.push({ seq: turn.seq, content: turn.content, parts: turn.parts });
        if (slices.due()) await slices.next();
      }
      after = turns.at(-1)!.seq;
      if (Date.now() - recorded > RECORD_EVERY_MS || found.length >= RECORD_AT_FINDINGS) {
        await maskForSearch(unmasked);
        await recordScan(after, found);
        [found, unmasked, recordedThrough, recorded] = [[], [], after, Date.now()];
      }
      // Every turn stored when the batch was read is scanned. Turns written since woke the scan
      // (WAKE_DELAY_MS): chasing them here read a few turns at a time, 1,146 reads for the 50,000
      // turns of a first sync, and 2.2 s of its importing thread.
      if (!full) break;
      if (Date.now() - renewed > RENEW_AFTER_MS) {
        if (!(await renewJobLease(LEASE, s.owner, LEASE_MS))) return;
        renewed = Date.now();
      }
      await yieldToLoop();
    }
    if (after > recordedThrough) {
      await maskForSearch(unmasked);
      await recordScan(after, found);
    }
  } finally {
    await releaseJobLease(LEASE, s.owner).catch(() => undefined);
  }
}

/**
 * Scans what has not been scanned; resolves when the scan has caught up (or another instance
 * holds it). A call while a scan runs makes it go round once more.
 */
export function scanForSecrets(): Promise<void> {
  const s = state();
  return runOrRepeat(s, async () => {
    try {
      await runScan();
      s.lastError = null;
    } catch (error) {
      s.lastError = error instanceof Error ? error.message : String(error);
      console.error("[threadline] the scan for secrets failed", error);
    }
  });
}

/** Starts the scan of what is stored and follows every later write of turns (once per process). */
export function startSecretScan(): void {
  const s = state();
  if (s.listening) return;
  s.listening = true;
  onThreadsWritten(wakeAfterWrites);
  scanAfterBulkRuns();
}

/**
 * Runs the scan once writes pause (WAKE_DELAY_MS), or WAKE_MAX_DELAY_MS after the first of a
 * steady run of them; while a bulk run (a full sync) is in progress, once it has ended.
 */
function wakeAfterWrites(): void {
  wakeAfterQuiet(state(), { delayMs: WAKE_DELAY_MS, maxDelayMs: WAKE_MAX_DELAY_MS }, scanAfterBulkRuns);
}

const scanAfterBulkRuns = () => afterBulkRuns(state(), () => void scanForSecrets());

/** `waitingForSync`: the scan is held until the full sync in progress has ended (afterBulkRuns). */
export async function secretScanStatus(): Promise<{
  scannedSeq: number;
  lastSeq: number;
  findings: number;
  running: boolean;
  waitingForSync: boolean;
  error: string | null;
}> {
  const progress = await scanProgress();
  const s = state();
  return { ...progress, running: s.running !== null, waitingForSync: s.heldForBulkRuns, error: s.lastError };
}
