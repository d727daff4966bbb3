/**
 * An in-process event bus and the throttle the live events use. Pure: no framework, no database,
 * no globals; timers come from the caller (the server passes setTimeout, tests a fake clock).
 */

export type Unsubscribe = () => void;

export type Bus<E> = {
  /** Hands `event` to every listener now, in the order they subscribed; a listener that throws is logged and the others still get it. */
  publish(event: E): void;
  /** Adds a listener until the returned function is called (calling it twice is harmless). */
  subscribe(listener: (event: E) => void): Unsubscribe;
  /** How many listeners there are: a publisher with an expensive event can skip it when none. */
  size(): number;
};

export function createBus<E>({ onListenerError = (_error: unknown) => {} }: { onListenerError?: (error: unknown) => void } = {}): Bus<E> {
  const listeners = new Set<(event: E) => void>();
  return {
    publish(event) {
      // A copy: a listener may unsubscribe (itself or another) while the event goes round.
      for (const listener of [...listeners]) {
        if (!listeners.has(listener)) continue;
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      // Each subscription is its own entry, so one function subscribed twice is told twice.
      const own = (event: E) => listener(event);
      listeners.add(own);
      return () => void listeners.delete(own);
    },
    size: () => listeners.size,
  };
}

export type Timers = {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type Throttle = {
  /** Asks for a run: at once when the last one was `ms` or more ago (or `urgent`), else once when `ms` have passed since it. */
  request(urgent?: boolean): void;
  /** Drops a run that is waiting. */
  cancel(): void;
};

/**
 * Runs `run` at most once every `ms`, never dropping the last request: requests that come sooner
 * are merged into one run at the end of the interval (which then reads the state as it is). An
 * urgent request runs at once, and takes the place of a waiting one.
 */
export function createThrottle(run: () => void, ms: number, timers: Timers): Throttle {
  let last = Number.NEGATIVE_INFINITY;
  let waiting: unknown = null;
  const fire = () => {
    waiting = null;
    last = timers.now();
    run();
  };
  const cancel = () => {
    if (waiting === null) return;
    timers.clearTimeout(waiting);
    waiting = null;
  };
  return {
    request(urgent = false) {
      const since = timers.now() - last;
      if (urgent || since >= ms) {
        cancel();
        fire();
      } else if (waiting === null) {
        waiting = timers.setTimeout(fire, ms - since);
      }
    },
    cancel,
  };
}
