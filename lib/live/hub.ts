import "server-only";
import { threadLiveStates } from "@/lib/db/threads/live-states";
import { onThreadsWritten } from "@/lib/db/threads/thread-writes";
import type { LiveEvent } from "@/lib/domain/threads/live";
import type { SourcesStatus } from "@/lib/domain/sources/sources";
import { createBus, createThrottle, type Timers, type Unsubscribe } from "../domain/event-bus";

/**
 * Progress of a sync reaches open pages at most this often; its start and end at once.
 * @internal exported for its tests
 */
export const SOURCES_PROGRESS_MS = 200;

export type LiveHub = {
  /** Listens to every live event of this process until the returned function is called. */
  subscribe(listener: (event: LiveEvent) => void): Unsubscribe;
  /**
   * The followed sources' status changed (`read` answers it as it is now): `settled` when a sync
   * started or ended, sent at once; otherwise progress, sent at most every SOURCES_PROGRESS_MS.
   */
  sourcesChanged(read: () => SourcesStatus, settled: boolean): void;
};

const serverTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The live events of this process. Written threads (lib/db/threads/thread-writes) are read back in one
 * statement for their turnCount and lastUpdatedAt, and only while someone listens: ids written
 * while a read runs wait for the next one, so a busy import costs one read at a time.
 * @internal exported for its tests
 */
export function createLiveHub({
  timers = serverTimers,
  readStates = threadLiveStates,
}: { timers?: Timers; readStates?: typeof threadLiveStates } = {}): LiveHub & { close(): void } {
  const bus = createBus<LiveEvent>({ onListenerError: (error) => console.error("[threadline] a live event listener failed", error) });
  const pending = new Set<string>();
  let reading = false;

  async function readWritten(): Promise<void> {
    if (reading) return;
    reading = true;
    try {
      while (pending.size > 0 && bus.size() > 0) {
        const ids = [...pending];
        pending.clear();
        try {
          for (const { state, access } of await readStates(ids))
            bus.publish({ type: "thread", thread: state, ...(access ? { access } : {}) });
        } catch (error) {
          // The pages' slow polls still find the writes.
          console.error("[threadline] live events: reading the written threads failed", error);
        }
      }
      pending.clear();
    } finally {
      reading = false;
    }
  }

  const stopListening = onThreadsWritten((ids) => {
    if (bus.size() === 0) return;
    for (const id of ids) pending.add(id);
    void readWritten();
  });

  let readSources: (() => SourcesStatus) | null = null;
  const sources = createThrottle(
    () => {
      if (readSources && bus.size() > 0) bus.publish({ type: "sources", status: readSources() });
    },
    SOURCES_PROGRESS_MS,
    timers,
  );

  return {
    subscribe: (listener) => bus.subscribe(listener),
    sourcesChanged(read, settled) {
      readSources = read;
      if (bus.size() > 0) sources.request(settled);
    },
    close() {
      stopListening();
      sources.cancel();
    },
  };
}

const globalForLive = globalThis as unknown as { threadlineLive?: LiveHub };

/**
 * The process's one hub. On globalThis: the server start-up hook (which runs the followed
 * folders' syncs) and the route handlers are bundled apart, and must share it.
 */
export function liveHub(): LiveHub {
  globalForLive.threadlineLive ??= createLiveHub();
  return globalForLive.threadlineLive;
}
