/**
 * A text/event-stream body of live events for one client: what it is sent first, then every
 * event until the client goes, with a comment line every HEARTBEAT_MS so that proxies do not
 * close a quiet connection. Framework-free: the route hands in the hub's subscribe and the request's
 * abort signal.
 */
import { formatEvent } from "@/lib/domain/server-sent-events";
import type { LiveEvent } from "@/lib/domain/threads/live";
import type { Unsubscribe } from "../domain/event-bus";

const HEARTBEAT_MS = 15_000;
/** How long a browser waits before it reconnects a dropped stream (the SSE `retry` field). */
const RECONNECT_MS = 2_000;
/**
 * Events queued for a client that does not read them; past this it is dropped (it reconnects, and catches up).
 * @internal exported for its tests
 */
export const MAX_QUEUED = 1_000;

export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

function encodeLiveEvent(event: LiveEvent): string {
  return event.type === "thread" ? formatEvent("thread", event.thread) : formatEvent("sources", event.status);
}

export function liveEventStream({
  subscribe,
  first = [],
  signal,
  heartbeatMs = HEARTBEAT_MS,
}: {
  subscribe: (listener: (event: LiveEvent) => void) => Unsubscribe;
  first?: LiveEvent[];
  signal?: AbortSignal;
  heartbeatMs?: number;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stop = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        const send = (text: string) => {
          if (!open) return;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED) return stop();
          controller.enqueue(encoder.encode(text));
        };
        const unsubscribe = subscribe((event) => send(encodeLiveEvent(event)));
        const heartbeat = setInterval(() => send(": keep-alive\n\n"), heartbeatMs);
        stop = () => {
          if (!open) return;
          open = false;
          unsubscribe();
          clearInterval(heartbeat);
          signal?.removeEventListener("abort", stop);
          try {
            controller.close();
          } catch {
            // already closed or cancelled
          }
        };
        if (signal?.aborted) return stop();
        signal?.addEventListener("abort", stop);
        send(`retry: ${RECONNECT_MS}\n\n`);
        for (const event of first) send(encodeLiveEvent(event));
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 1 },
  );
}
