// The first-sync regression guard's comparison (scripts/bench/first-sync.integration.test.ts):
// figures where lower is better, against a committed baseline.

/** Named figures where lower is better: bytes, calls, megabytes. */
export type Figures = Record<string, number>;

/**
 * The figures more than `tolerance` (0.25: 25%) over their baseline, or missing, each said in a
 * sentence; empty when none regressed. A figure without a baseline is new, not a regression.
 */
export function regressions(baseline: Figures, measured: Figures, tolerance: number): string[] {
  const found: string[] = [];
  for (const [name, allowed] of Object.entries(baseline)) {
    const value = measured[name];
    if (value === undefined || !Number.isFinite(value)) found.push(`${name}: not measured (baseline ${allowed})`);
    else if (value > allowed * (1 + tolerance))
      found.push(`${name}: ${round(value)}, ${Math.round((value / allowed - 1) * 100)}% over the baseline ${round(allowed)}`);
  }
  return found;
}

const round = (value: number) => Number(value.toPrecision(4));
