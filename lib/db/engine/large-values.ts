import { randomUUID } from "node:crypto";

/**
 * Large text handed to the database beside Prisma rather than through it. Prisma's query compiler
 * (WebAssembly, on the event loop) copies and parses every value of a query: a 10 MB turn took
 * about a second to compile, during which the server answered nothing. A write names such a value
 * by a short placeholder instead; the driver adapter (lib/db/engine/serialized-adapter.ts for SQLite,
 * lib/db/engine/postgres-text.ts for PostgreSQL) puts the text back into the statement's arguments just
 * before the driver runs it. The placeholders are random: content cannot name another write's value.
 */

/**
 * Below this, compiling costs well under a millisecond: the text goes through Prisma as it is.
 * @internal exported for its tests
 */
export const LARGE_VALUE_CHARS = 64 * 1024;
const PLACEHOLDER_PREFIX = "\u0000threadline-large-value:";

/**
 * Kept on globalThis, as the client is: the server start-up hook and the route handlers are bundled
 * apart, each with its own copy of this module, and the client (made by whichever asks first)
 * resolves placeholders through the copy it was made with. A module-level map left a route's
 * placeholders unresolved, stored as the turn's text, once the start-up hook had made the client.
 */
const globalForLargeValues = globalThis as unknown as { threadlineLargeValues?: Map<string, string> };
const pending = (globalForLargeValues.threadlineLargeValues ??= new Map<string, string>());

/** A function that swaps a large text for its placeholder (null stays null), valid while `write` runs. */
export type LargeValue = <T extends string | null>(text: T) => T;

/** Text one bulk insert hands Prisma's query compiler at most (about 100 ms of compiling). */
export const COMPILED_CHARS_PER_STATEMENT = 1_000_000;

/** Text a statement sends through the compiler, for sizing batches: a placeholder is short. */
export function compiledLength(text: string | null): number {
  return text === null || text.length >= LARGE_VALUE_CHARS ? 0 : text.length;
}

export async function withLargeValues<T>(write: (large: LargeValue) => Promise<T>): Promise<T> {
  const mine: string[] = [];
  const large = <T extends string | null>(text: T): T => {
    if (text === null || text.length < LARGE_VALUE_CHARS) return text;
    const placeholder = `${PLACEHOLDER_PREFIX}${randomUUID()}`;
    pending.set(placeholder, text);
    mine.push(placeholder);
    return placeholder as T;
  };
  try {
    return await write(large);
  } finally {
    for (const placeholder of mine) pending.delete(placeholder);
  }
}

/** A statement's arguments with every placeholder replaced by its text (the same array when there is none). */
export function resolveLargeValues<A>(args: A[]): A[] {
  if (pending.size === 0) return args;
  let resolved: A[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (typeof arg !== "string" || !arg.startsWith(PLACEHOLDER_PREFIX)) continue;
    const text = pending.get(arg);
    if (text === undefined) continue;
    resolved ??= [...args];
    resolved[i] = text as A;
  }
  return resolved ?? args;
}
