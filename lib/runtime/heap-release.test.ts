import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { releaseHeapAtRest, type HeapProbe } from "./heap-release";

const MB = 1024 * 1024;

/** A heap of `heap` MB, a loop as busy as `busy` (0 to 1), and a collector that brings the heap down to `live` MB. */
function fakeProcess() {
  const state = { heap: 100, live: 100, busy: 0, collections: 0 };
  const probe: HeapProbe = {
    heapBytes: () => state.heap * MB,
    busyShare: () => state.busy,
    collect: () => {
      state.collections++;
      state.heap = state.live;
    },
  };
  return { state, probe };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it("collects once the loop rests after the heap grew, and not again while it stays as it is", () => {
  const { state, probe } = fakeProcess();
  const stop = releaseHeapAtRest(probe, 1_000);
  // A sync: the heap grows while the loop is busy.
  state.busy = 0.9;
  state.heap = 300;
  vi.advanceTimersByTime(5_000);
  expect(state.collections).toBe(0);
  // It ends: one collection, and the heap is back to what is live.
  state.busy = 0.01;
  vi.advanceTimersByTime(1_000);
  expect(state).toMatchObject({ collections: 1, heap: 100 });
  vi.advanceTimersByTime(10_000);
  expect(state.collections).toBe(1);
  stop();
});

it("leaves a heap alone that grew by less than is worth a pause, or that is all live", () => {
  const { state, probe } = fakeProcess();
  const stop = releaseHeapAtRest(probe, 1_000);
  state.heap = 150;
  vi.advanceTimersByTime(5_000);
  expect(state.collections).toBe(0);
  // Grown for good (a cache filled): collected once, found live, not collected again.
  state.heap = state.live = 400;
  vi.advanceTimersByTime(5_000);
  expect(state.collections).toBe(1);
  stop();
  state.heap = 900;
  vi.advanceTimersByTime(5_000);
  expect(state.collections).toBe(1);
});
