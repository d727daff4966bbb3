/**
 * The chain page shows a window of the chain's turns, numbered across the chain (turn 1 is the
 * oldest thread's first turn). Windows are aligned (turns 1-50, 51-100, ...), so a turn is always
 * on the same page and pages can be linked to. Pure: the page and its tests share it.
 */

/** Turns per page of the chain view. */
export const CHAIN_WINDOW = 50;

/** The aligned window holding `turn` (1-based, across the chain): its first turn's offset (0-based) and its end (exclusive). */
export function windowAt(turn: number, total: number, size = CHAIN_WINDOW): { start: number; end: number } {
  if (total <= 0) return { start: 0, end: 0 };
  const clamped = Math.min(Math.max(1, Math.floor(turn)), total);
  const start = Math.floor((clamped - 1) / size) * size;
  return { start, end: Math.min(start + size, total) };
}

/** The turn a page's `?turn=` asks for, 1 when absent or not a number. */
export function parseTurnParam(value: string | string[] | undefined): number {
  const text = Array.isArray(value) ? value[0] : value;
  const n = Number(text?.replace(/[,\s]/g, ""));
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

/** The first turn (1-based) of the previous, next and last windows; null where there is none. */
export function windowLinks(
  start: number,
  total: number,
  size = CHAIN_WINDOW,
): { previous: number | null; next: number | null; last: number | null } {
  const lastStart = total > 0 ? Math.floor((total - 1) / size) * size : 0;
  return {
    previous: start > 0 ? Math.max(0, start - size) + 1 : null,
    next: start + size < total ? start + size + 1 : null,
    last: start < lastStart ? lastStart + 1 : null,
  };
}

/** A thread's share of a range of chain offsets: its turns from index `from` to `to` (exclusive). */
export type ChainSlice = { thread: number; from: number; to: number; firstOffset: number };

/**
 * Which turns of which threads hold chain offsets [start, end): `counts` are the threads' turn
 * counts, oldest first. Threads the range does not touch are left out.
 */
export function slicesOf(counts: readonly number[], start: number, end: number): ChainSlice[] {
  const slices: ChainSlice[] = [];
  let offset = 0;
  counts.forEach((count, thread) => {
    const from = Math.max(start - offset, 0);
    const to = Math.min(end - offset, count);
    if (from < to) slices.push({ thread, from, to, firstOffset: offset + from });
    offset += count;
  });
  return slices;
}

/** The chain offset (0-based) of a thread's turn, or null when the thread is not on the path or the index is past its turns. */
export function offsetOf(counts: readonly number[], thread: number, index: number): number | null {
  if (thread < 0 || thread >= counts.length || index < 0 || index >= counts[thread]!) return null;
  let offset = 0;
  for (let i = 0; i < thread; i++) offset += counts[i]!;
  return offset + index;
}

/** Each thread's first turn across the chain (1-based), from the threads' turn counts oldest first. */
export function threadStarts(counts: readonly number[]): number[] {
  const starts: number[] = [];
  let next = 1;
  for (const count of counts) {
    starts.push(next);
    next += count;
  }
  return starts;
}

/** "Thread N of M": a thread's place in the chain's path, counted from 1 (0 when it is not on the path). */
export function chainPosition(path: readonly { id: string }[], id: string): number {
  return path.findIndex((node) => node.id === id) + 1;
}
