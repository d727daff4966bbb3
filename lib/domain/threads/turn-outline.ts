/**
 * A thread's outline: which turns are of which kind (role, tool call, failed tool result,
 * compaction marker, sub-agent spawn), without any content, so a page that shows a window of a
 * long thread can still jump to the next error 20,000 turns away. Each kind is a sorted set of
 * 0-based turn indexes, sent as arithmetic runs: an agent session's tool calls are mostly every
 * other turn, so 17,000 of them are a few hundred numbers rather than 17,000.
 */

/**
 * A sorted set of indexes as runs `[start, step, count, start, step, count, ...]`: the run
 * `[4, 2, 3]` is 4, 6, 8. A run of one has step 1.
 * @internal exported for its tests
 */
export type IndexRuns = number[];

const OUTLINE_KINDS = ["user", "assistant", "system", "tool", "toolCall", "error", "compaction", "subagent"] as const;
export type OutlineKind = (typeof OUTLINE_KINDS)[number];

/** What GET /api/threads/:id/outline answers. */
export type ThreadOutline = { turnCount: number; kinds: Record<OutlineKind, IndexRuns> };

/** An outline read back: each kind's indexes in order. */
export type DecodedOutline = { turnCount: number; kinds: Record<OutlineKind, number[]> };

/** One turn as the outline query reads it (no content). */
export type OutlineRow = { index: number; role: string; toolCall: boolean; error: boolean; compaction: boolean };

/**
 * Runs of equal steps, greedily from the start; `sorted` must be strictly increasing.
 * @internal exported for its tests
 */
export function encodeIndexes(sorted: readonly number[]): IndexRuns {
  const runs: IndexRuns = [];
  let i = 0;
  while (i < sorted.length) {
    const start = sorted[i]!;
    if (i + 1 === sorted.length) {
      runs.push(start, 1, 1);
      break;
    }
    const step = sorted[i + 1]! - start;
    let count = 2;
    while (i + count < sorted.length && sorted[i + count]! - sorted[i + count - 1]! === step) count++;
    runs.push(start, step, count);
    i += count;
  }
  return runs;
}

/**
 * The indexes of runs written by encodeIndexes; a malformed tail (fewer than 3 numbers) is ignored.
 * @internal exported for its tests
 */
export function decodeIndexes(runs: IndexRuns): number[] {
  const indexes: number[] = [];
  for (let r = 0; r + 2 < runs.length; r += 3) {
    const [start, step, count] = [runs[r]!, runs[r + 1]!, runs[r + 2]!];
    for (let k = 0; k < count; k++) indexes.push(start + k * step);
  }
  return indexes;
}

const ROLE_KINDS: Record<string, OutlineKind> = { user: "user", assistant: "assistant", system: "system", tool: "tool" };

/** The outline of a thread's turns (rows in index order) and the indexes of the turns that started a sub-agent. */
export function buildOutline(rows: readonly OutlineRow[], subagentTurns: Iterable<number> = []): ThreadOutline {
  const sets = Object.fromEntries(OUTLINE_KINDS.map((kind) => [kind, [] as number[]])) as Record<OutlineKind, number[]>;
  for (const row of rows) {
    const role = ROLE_KINDS[row.role];
    if (role) sets[role].push(row.index);
    if (row.toolCall) sets.toolCall.push(row.index);
    if (row.error) sets.error.push(row.index);
    if (row.compaction) sets.compaction.push(row.index);
  }
  sets.subagent = [...new Set(subagentTurns)].sort((a, b) => a - b);
  const kinds = Object.fromEntries(OUTLINE_KINDS.map((kind) => [kind, encodeIndexes(sets[kind])])) as Record<OutlineKind, IndexRuns>;
  return { turnCount: rows.length, kinds };
}

export function decodeOutline(outline: ThreadOutline): DecodedOutline {
  const kinds = Object.fromEntries(OUTLINE_KINDS.map((kind) => [kind, decodeIndexes(outline.kinds[kind] ?? [])])) as Record<
    OutlineKind,
    number[]
  >;
  return { turnCount: outline.turnCount, kinds };
}

/** The first index in `sorted` after `index`, or null. */
export function nextIndex(sorted: readonly number[], index: number): number | null {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= index) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo]! : null;
}

/** The last index in `sorted` before `index`, or null. */
export function previousIndex(sorted: readonly number[], index: number): number | null {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < index) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? sorted[lo - 1]! : null;
}
