/** SQLite runs one write transaction at a time; queued writers wait rather than fail. */
export const WRITE_TRANSACTION = { maxWait: 30_000, timeout: 30_000 } as const;
