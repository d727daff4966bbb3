// Timing and percentiles, and what a result row is.
import { performance } from "node:perf_hooks";
import { CONFIG } from "./config";

// ---------------------------------------------------------------------------------------------
// Measurement helpers
// ---------------------------------------------------------------------------------------------

type Stats = { count: number; p50: number; p95: number; min: number; max: number; mean: number };

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function summarize(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

type Measured = Stats & { samples: number[] };

/**
 * Runs `fn` `warmup` times untimed, then `iterations` times one after another, timing each call
 * (milliseconds, wall clock).
 */
export async function measure(
  name: string,
  fn: (iteration: number) => Promise<unknown>,
  iterations: number,
  { warmup = CONFIG.warmup }: { warmup?: number } = {},
): Promise<Measured> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    try {
      await fn(i);
    } catch (error) {
      throw new Error(`${name}: iteration ${i} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    samples.push(performance.now() - started);
  }
  return { ...summarize(samples), samples };
}

type Target = { metric: "p50" | "p95"; maxMs: number } | { metric: "rate"; min: number } | { metric: "ceiling"; max: number };

export type ResultRow = {
  section: string;
  name: string;
  /** Latency figures in ms. */
  stats?: Stats;
  /** A single figure (e.g. a rate) with its unit. */
  value?: number;
  unit?: string;
  target?: Target;
  /** Free-form detail shown after the figures (selectivity, bytes, ...). */
  note?: string;
};

export function meets(row: ResultRow): boolean | null {
  const t = row.target;
  if (!t) return null;
  if (t.metric === "rate") return row.value !== undefined && row.value >= t.min;
  if (t.metric === "ceiling") return row.value !== undefined && row.value < t.max;
  return row.stats !== undefined && row.stats[t.metric] < t.maxMs;
}
