/**
 * Where lib/db says that threads were written: turns appended, a thread created, imported,
 * forked, compacted or purged (called once the write has committed). Whoever wants to know
 * subscribes (lib/live, which tells open pages); lib/db calls nothing above it.
 *
 * The listeners are kept on globalThis: the server start-up hook (which runs the followed folders'
 * imports) and the route handlers are bundled apart, and must share them. Only writes made in this
 * process are heard; pages of another instance on the same database find them by polling.
 */

type Listener = (threadIds: string[]) => void;

const globalForWrites = globalThis as unknown as { threadlineThreadWrites?: Set<Listener> };

function listeners(): Set<Listener> {
  globalForWrites.threadlineThreadWrites ??= new Set();
  return globalForWrites.threadlineThreadWrites;
}

/** Tells every listener, at once, that these threads were written. Never throws: a listener's failure is the listener's. */
export function threadsWritten(threadIds: Iterable<string>): void {
  const ids = [...new Set(threadIds)];
  if (ids.length === 0) return;
  for (const listener of [...listeners()]) {
    try {
      listener(ids);
    } catch (error) {
      console.error("[threadline] a listener of thread writes failed", error);
    }
  }
}

/** Listens until the returned function is called. */
export function onThreadsWritten(listener: Listener): () => void {
  const own: Listener = (ids) => listener(ids);
  listeners().add(own);
  return () => void listeners().delete(own);
}
