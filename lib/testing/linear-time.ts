import { expect } from "vitest";

/**
 * Linear-time checks without a clock limit (speed is measured in benchmarks, never in timed
 * tests): the same work on an input 16 times as large must cost less than 64 times as much.
 * Linear work grows about 16x, quadratic 256x: the check fails on a quadratic regression whatever
 * the machine's speed, and the 4x between leaves room for what is not the work (a garbage
 * collection the larger input sets off). Cost is this process's CPU time, so other processes'
 * load does not count; the least of two runs of each size, interleaved, the first small one also
 * compiling the code. Only for work that allocates little (a scan): where the work keeps what it
 * builds, the larger input's garbage collections cost more per item, and at a load of 24 on this
 * 2-core machine parsers that build segments grew 100-150x on linear input.
 */
export function expectLinearTime<Input>(inputAt: (scale: 1 | 16) => Input, work: (input: Input) => unknown, label = "work"): void {
  const small = inputAt(1);
  const large = inputAt(16);
  const costs = { small: Infinity, large: Infinity };
  for (let run = 0; run < 2; run++) {
    costs.small = Math.min(
      costs.small,
      cpuMicroseconds(() => work(small)),
    );
    costs.large = Math.min(
      costs.large,
      cpuMicroseconds(() => work(large)),
    );
  }
  // A floor of 0.1 ms: below it the clock's grain, not the work, sets the ratio.
  const growth = costs.large / Math.max(costs.small, 100);
  expect(growth, `${label} grew ${growth.toFixed(1)}x on 16x the input (${costs.small} µs -> ${costs.large} µs)`).toBeLessThan(64);
}

function cpuMicroseconds(work: () => unknown): number {
  const before = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(before);
  return user + system;
}
