import "server-only";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

/**
 * Gives the heap a burst of work grew back once the server rests. After a first sync and the
 * usage sums over it, V8 kept the heap it had grown to (200 MB, 166 MB of it marked used, for 500
 * sessions): nothing allocates at rest, so no collection ran and the garbage stayed resident.
 * One full collection then took the heap to 103 MB and the process's RSS from 420 MB to 324 MB.
 */
export type HeapProbe = {
  /** The heap's size now (bytes). */
  heapBytes(): number;
  /** The event loop's busy share since the last call (0 to 1). */
  busyShare(): number;
  /** A full collection. */
  collect(): void;
};

/** How often the heap and the loop are looked at: two numbers read, no system call. */
const CHECK_MS = 5_000;
/** A loop busy less than this share of CHECK_MS is resting. */
const RESTING_SHARE = 0.05;
/** Growth since the last full collection worth one: less is not worth a pause of the loop. */
const GROWTH_BYTES = 64 * 1024 * 1024;

let gc: (() => void) | null = null;

/** One full collection of this process's heap, now. */
export function collectGarbage(): void {
  if (!gc) {
    // The server is not started with --expose-gc (npm start runs Next.js in its own process): the collector is asked for once.
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc") as () => void;
  }
  gc();
}

/** The process's own heap, loop and collector. */
function processProbe(): HeapProbe {
  let previous = performance.eventLoopUtilization();
  return {
    heapBytes: () => v8.getHeapStatistics().total_heap_size,
    busyShare: () => {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, previous).utilization;
      previous = now;
      return share;
    },
    collect: collectGarbage,
  };
}

/**
 * Every CHECK_MS: when the loop rested and the heap grew by GROWTH_BYTES since the last full
 * collection, collects once. Answers the function that stops it; its timer keeps no process alive.
 */
export function releaseHeapAtRest(probe: HeapProbe = processProbe(), everyMs = CHECK_MS): () => void {
  let baseline = probe.heapBytes();
  probe.busyShare();
  const timer = setInterval(() => {
    const resting = probe.busyShare() < RESTING_SHARE;
    const heap = probe.heapBytes();
    // A heap that shrank (V8 gave some back itself) is the new measure of growth.
    if (heap < baseline) baseline = heap;
    if (!resting || heap - baseline < GROWTH_BYTES) return;
    probe.collect();
    baseline = probe.heapBytes();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
