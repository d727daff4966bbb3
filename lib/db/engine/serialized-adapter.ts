import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { resolveLargeValues } from "./large-values";

type Adapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];

/** The statement with the large values (lib/db/engine/large-values.ts) a write named by placeholder. */
const withValues = (query: Query): Query => {
  const args = resolveLargeValues(query.args);
  return args === query.args ? query : { ...query, args };
};

/**
 * Statements that write nothing: reads (a search must not start the checkpoint worker), and the
 * COMMIT Prisma sends inside every transaction. A write inside a WITH would go unnoticed until
 * the next write: none does.
 */
const WRITES_NOTHING = /^\s*(?:SELECT|WITH|PRAGMA|EXPLAIN|BEGIN|COMMIT|ROLLBACK)\b/i;

/**
 * Makes every statement on the one SQLite connection wait while an interactive transaction is open.
 *
 * The better-sqlite3 adapter runs all queries of a client on a single connection. It queues
 * transactions behind each other, but a query outside a transaction (a thread insert, any read)
 * runs on that same connection in the middle of whichever transaction is open: it reads that
 * transaction's uncommitted rows, and its own writes are committed or rolled back with it, so a
 * thread answered 201 could vanish when a concurrent turn append was refused and rolled back.
 * Here a query outside a transaction first waits for the open transaction to finish.
 * `afterWrite` is called after every statement or transaction that may have written.
 */
export function serializeConnection(
  factory: SqlDriverAdapterFactory,
  lock: FifoLock,
  afterWrite: () => void = () => {},
): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => serializedAdapter(await factory.connect(), lock, afterWrite),
  };
}

/**
 * On globalThis, as the client is: the server's start-up hook (the followed folders' sync) and the
 * route handlers are bundled apart, each with its own copy of this module, and must still share
 * one lock per file (a module-level map gave each copy its own; lib/db/engine/large-values had the same fault).
 */
const globalForLocks = globalThis as unknown as { threadlineWriteLocks?: Map<string, FifoLock> };
const writeLocks = (globalForLocks.threadlineWriteLocks ??= new Map<string, FifoLock>());

/**
 * The one lock of a database file in this process. The Prisma client's connection and the bulk
 * import writer (a second connection, lib/db/imports/import-writer.ts) take turns under it: SQLite's own
 * lock would make one of them busy-wait synchronously, which blocks the event loop that the other
 * needs to finish its transaction.
 */
export function databaseLock(file: string): FifoLock {
  let lock = writeLocks.get(file);
  if (!lock) {
    lock = new FifoLock();
    writeLocks.set(file, lock);
  }
  return lock;
}

function serializedAdapter(adapter: Adapter, lock: FifoLock, afterWrite: () => void): Adapter {
  const written = <T>(result: Promise<T>) => result.finally(afterWrite);
  const serialized: Adapter = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => {
      const result = lock.run(() => adapter.queryRaw(withValues(query)));
      return WRITES_NOTHING.test(query.sql) ? result : written(result);
    },
    executeRaw: (query) => written(lock.run(() => adapter.executeRaw(withValues(query)))),
    executeScript: (script) => written(lock.run(() => adapter.executeScript(script))),
    dispose: () => adapter.dispose(),
    startTransaction: async (isolationLevel) => {
      const release = await lock.acquire();
      let transaction: Transaction;
      try {
        transaction = await adapter.startTransaction(isolationLevel);
      } catch (error) {
        release();
        throw error;
      }
      // Statements inside the transaction use it directly; the lock is held until it ends.
      let wrote = false;
      return {
        provider: transaction.provider,
        adapterName: transaction.adapterName,
        options: transaction.options,
        queryRaw: (query) => {
          wrote ||= !WRITES_NOTHING.test(query.sql);
          return transaction.queryRaw(withValues(query));
        },
        executeRaw: (query) => {
          wrote ||= !WRITES_NOTHING.test(query.sql);
          return transaction.executeRaw(withValues(query));
        },
        commit: () => {
          const committed = transaction.commit().finally(release);
          return wrote ? written(committed) : committed;
        },
        rollback: () => transaction.rollback().finally(release),
      };
    },
  };
  if (adapter.getConnectionInfo) serialized.getConnectionInfo = () => adapter.getConnectionInfo!();
  return serialized;
}

/** A first-come, first-served async mutex. */
export class FifoLock {
  #tail: Promise<void> = Promise.resolve();
  #whenAsked: (() => void) | null = null;

  /**
   * Calls `listener` whenever someone asks for the lock, until it is set to null: a holder that
   * would keep it a while (a bulk run's batch, lib/db/imports/import-batch.ts) lets them in sooner.
   */
  whenAsked(listener: (() => void) | null): void {
    this.#whenAsked = listener;
  }

  /** Resolves with the function that releases the lock (calling it twice is harmless). */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => released);
    this.#whenAsked?.();
    return previous.then(() => {
      let done = false;
      return () => {
        if (!done) {
          done = true;
          release();
        }
      };
    });
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}
