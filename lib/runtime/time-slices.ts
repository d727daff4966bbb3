import { setImmediate } from "node:timers/promises";

/**
 * How long synchronous work (a walk's stat calls) may hold the event loop before it lets requests
 * in: a walk of 2,800 files with blocking calls takes 35-55 ms in all, the same walk with a
 * promise per call 0.5 s of the importing thread (docs/benchmarks.md, "Twelfth round").
 */
const SLICE_MS = 8;

/**
 * Slices of synchronous work: `due()` says the slice is spent, `next()` gives the event loop a turn
 * and starts another. Checked after each call, so one slow call (a disk spinning up) is the most
 * a slice can overrun by.
 */
export function timeSlices(sliceMs = SLICE_MS) {
  let since = performance.now();
  return {
    due: () => performance.now() - since >= sliceMs,
    async next(): Promise<void> {
      await setImmediate();
      since = performance.now();
    },
  };
}
