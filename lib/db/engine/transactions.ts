/** SQLite runs one write transaction at a time; queued writers wait rather than fail. */
export const WRITE_TRANSACTION = { maxWait: 30_000, timeout: 30_000 } as const;

/**
 * Options for a transaction of several reads that must see one snapshot. SQLite's transactions
 * always do; PostgreSQL's default (read committed) gives each statement its own, so ask for
 * repeatable read there.
 */
export function snapshotReads(kind: "sqlite" | "postgres"): { isolationLevel?: never } {
  // Typed for the app's client type (SQLite's, which knows only Serializable); the PostgreSQL client takes it.
  return (kind === "postgres" ? { isolationLevel: "RepeatableRead" } : {}) as { isolationLevel?: never };
}
