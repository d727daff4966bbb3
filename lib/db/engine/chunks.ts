/** Bound parameters per statement stay well under SQLite's limit (and PostgreSQL's). */
export const IN_LIST_CHUNK = 500;

/** Items in consecutive slices of at most `size`. */
export function chunked<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * Items in consecutive slices of at most `size` items and at most `maxWeight` in total weight (a
 * heavier single item makes a slice of its own).
 */
export function chunkedByWeight<T>(items: T[], size: number, maxWeight: number, weightOf: (item: T) => number): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let weight = 0;
  for (const item of items) {
    const itemWeight = weightOf(item);
    if (chunk.length > 0 && (chunk.length >= size || weight + itemWeight > maxWeight)) {
      chunks.push(chunk);
      chunk = [];
      weight = 0;
    }
    chunk.push(item);
    weight += itemWeight;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Runs an `IN (...)` lookup over any number of keys, a chunk at a time, in order. */
export async function inChunks<K, T>(keys: K[], lookup: (chunk: K[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const chunk of chunked(keys, IN_LIST_CHUNK)) out.push(...(await lookup(chunk)));
  return out;
}
