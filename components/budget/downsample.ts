/**
 * Which points of a long line to draw (M4 aggregation, Jugel et al. 2014): the x range is cut into
 * `columns` equal columns, and of each column's points only the first, the last, the lowest and
 * the highest are kept. Joined in order they draw the same pixels as every point would, at any
 * width up to `columns`, with at most 4 points a column: 10,000 turns become a polyline the
 * browser draws at once. Indexes in `keep` are kept as well (where a threshold is crossed, where
 * the history is cut), so those points are exact, not only their column.
 *
 * `values[i]` is the y of the point at x = i. Answers indexes into `values`, ascending, each once.
 */
export function m4Indexes(values: readonly number[], columns: number, keep: Iterable<number> = []): number[] {
  const n = values.length;
  const extra = [...keep].filter((i) => Number.isInteger(i) && i >= 0 && i < n);
  if (n <= 4 * columns || columns < 1) return Array.from({ length: n }, (_, i) => i);
  const kept = new Set<number>(extra);
  let column = -1;
  let first = 0;
  let low = 0;
  let high = 0;
  const close = (last: number) => {
    kept.add(first).add(low).add(high).add(last);
  };
  for (let i = 0; i < n; i++) {
    const c = Math.floor((i * columns) / n);
    if (c !== column) {
      if (column >= 0) close(i - 1);
      column = c;
      first = low = high = i;
      continue;
    }
    if (values[i]! < values[low]!) low = i;
    if (values[i]! > values[high]!) high = i;
  }
  close(n - 1);
  return [...kept].sort((a, b) => a - b);
}
