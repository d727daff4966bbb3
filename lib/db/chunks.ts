/** Bound parameters per statement stay well under SQLite's limit (and PostgreSQL's). */
export const IN_LIST_CHUNK = 500;

/** Runs an `IN (...)` lookup over any number of keys, a chunk at a time, in order. */
export async function inChunks<K, T>(keys: K[], lookup: (chunk: K[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < keys.length; start += IN_LIST_CHUNK) out.push(...(await lookup(keys.slice(start, start + IN_LIST_CHUNK))));
  return out;
}
