/**
 * What the server's background jobs (the secret scan, the usage sums, the count backlog) share:
 * a run that a call during it makes go round once more, and a wake after a run of writes. The
 * state is the caller's (kept on globalThis, which the server's bundles share); the clock is the
 * real one unless the caller passes another (tests do).
 */

/** A job's run in progress, and whether it was asked for again meanwhile. */
export type RerunState = { running: Promise<void> | null; again: boolean };

/**
 * Runs `work` until nobody asked for it during its last round: a call while it runs makes it go
 * round once more and answers the same promise, which resolves after that round. `work` handles
 * its own errors; one it throws ends the run and rejects the promise.
 */
export function runOrRepeat(state: RerunState, work: () => Promise<void>): Promise<void> {
  if (state.running) {
    state.again = true;
    return state.running;
  }
  state.running = (async () => {
    try {
      do {
        state.again = false;
        await work();
      } while (state.again);
    } finally {
      state.running = null;
    }
  })();
  return state.running;
}

/** A wake scheduled: how to cancel it, and when the first call of its run came (ms). */
export type WakeState = { wake: { cancel: () => void; since: number } | null };

/** `schedule` calls `fire` after `ms` and answers how to cancel that; `now` is in ms. */
export type Clock = { schedule: (fire: () => void, ms: number) => () => void; now: () => number };

/** setTimeout's clock; its timers keep no process alive. */
const realClock: Clock = {
  schedule: (fire, ms) => {
    const timer = setTimeout(fire, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
  now: () => Date.now(),
};

/**
 * Calls `fire` once calls stop for `delayMs`, and at most `maxDelayMs` after the first of a steady
 * run of them: an import of many files commits one after another, and a job per file cost more
 * than the files, while a job only at the end of a long run left its results that late.
 */
export function wakeAfterQuiet(
  state: WakeState,
  delays: { delayMs: number; maxDelayMs: number },
  fire: () => void,
  clock: Clock = realClock,
): void {
  const now = clock.now();
  const since = state.wake?.since ?? now;
  state.wake?.cancel();
  const cancel = clock.schedule(
    () => {
      state.wake = null;
      fire();
    },
    Math.max(0, Math.min(delays.delayMs, since + delays.maxDelayMs - now)),
  );
  state.wake = { cancel, since };
}
