/** Bound parameters per statement stay well under SQLite's limit (and PostgreSQL's). */
export const IN_LIST_CHUNK = 500;

/** Items in consecutive slices of at most `size`. */
export function chunked<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Runs an `IN (...)` lookup over any number of keys, a chunk at a time, in order. */
export async function inChunks<K, T>(keys: K[], lookup: (chunk: K[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const chunk of chunked(keys, IN_LIST_CHUNK)) out.push(...(await lookup(chunk)));
  return out;
}
