/**
 * Client-safe: the tab's one connection to GET /api/events. It opens when the first listener
 * subscribes and closes a little after the last one leaves (a page change keeps it); the browser
 * reconnects a dropped stream by itself, and when it gives up (an answer that is not a stream: a
 * 403, a proxy's error page) the connection opens a new one after a growing pause. No React here:
 * app/providers.tsx holds one for the tab and lib/queries/live-events.tsx reads it.
 */
import { LIVE_EVENT_TYPES, parseLiveEvent, type LiveEvent } from "@/lib/domain/threads/live";
import { createBus, type Timers, type Unsubscribe } from "@/lib/domain/event-bus";

const EVENTS_URL = "/api/events";

/**
 * What the connection needs of the browser's EventSource (a test passes a fake).
 * @internal exported for its tests
 */
export type EventSourceLike = {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  close(): void;
};

/** EventSource.CLOSED: the browser will not reconnect by itself. */
const CLOSED = 2;

export type LiveConnection = {
  /** Listens to the stream's events; the first listener opens the stream. */
  subscribe(listener: (event: LiveEvent) => void): Unsubscribe;
  /** Whether the stream is open now (events arrive); false while it connects or waits to. */
  connected(): boolean;
  /** Called whenever connected() changes. */
  onConnectedChange(listener: () => void): Unsubscribe;
  /** Closes the stream now (the provider unmounts); a listener that subscribes afterwards opens it again. */
  close(): void;
};

export type LiveConnectionOptions = {
  open: (url: string) => EventSourceLike;
  timers: Timers;
  url?: string;
  /** How long the stream stays open without listeners: a page change unsubscribes, then subscribes again. */
  lingerMs?: number;
  /** The first pause before a stream the browser gave up on is opened again; doubled each time, up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
};

export function createLiveConnection({
  open,
  timers,
  url = EVENTS_URL,
  lingerMs = 5_000,
  retryMs = 2_000,
  maxRetryMs = 30_000,
}: LiveConnectionOptions): LiveConnection {
  const events = createBus<LiveEvent>({ onListenerError: (error) => console.error("A live event listener failed", error) });
  const changes = createBus<void>();
  let source: EventSourceLike | null = null;
  let isConnected = false;
  let retryTimer: unknown = null;
  let lingerTimer: unknown = null;
  let pause = retryMs;

  const setConnected = (value: boolean) => {
    if (isConnected === value) return;
    isConnected = value;
    changes.publish();
  };

  const clear = (timer: unknown) => {
    if (timer !== null) timers.clearTimeout(timer);
    return null;
  };

  function connect(): void {
    retryTimer = clear(retryTimer);
    if (source || events.size() === 0) return;
    const current = open(url);
    source = current;
    current.onopen = () => {
      pause = retryMs;
      setConnected(true);
    };
    current.onerror = () => {
      setConnected(false);
      if (current.readyState !== CLOSED) return; // the browser reconnects by itself
      current.close();
      if (source === current) source = null;
      if (events.size() > 0) retryTimer = timers.setTimeout(connect, pause);
      pause = Math.min(pause * 2, maxRetryMs);
    };
    for (const type of LIVE_EVENT_TYPES) {
      current.addEventListener(type, (message) => {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        const event = parseLiveEvent(type, data);
        if (event) events.publish(event);
      });
    }
  }

  function disconnect(): void {
    retryTimer = clear(retryTimer);
    lingerTimer = clear(lingerTimer);
    source?.close();
    source = null;
    setConnected(false);
  }

  return {
    subscribe(listener) {
      const unsubscribe = events.subscribe(listener);
      lingerTimer = clear(lingerTimer);
      connect();
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        unsubscribe();
        if (events.size() === 0 && lingerTimer === null)
          lingerTimer = timers.setTimeout(() => {
            lingerTimer = null;
            if (events.size() === 0) disconnect();
          }, lingerMs);
      };
    },
    connected: () => isConnected,
    onConnectedChange: (listener) => changes.subscribe(listener),
    close: disconnect,
  };
}
