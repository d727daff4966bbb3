"use client";

/**
 * The tab's one live event stream (GET /api/events), shared by every page through React context:
 * LiveEventsProvider holds the connection, useLiveEvents listens to it. Pages keep polling, slowly
 * while the stream is open (it only carries this server's writes; another instance on the same
 * database is found by polling) and at their old rate when it is not.
 */
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import type { LiveEvent } from "@/lib/domain/threads/live";
import type { Timers } from "@/lib/domain/event-bus";
import { createLiveConnection, type LiveConnection } from "./live-connection";

const LiveContext = createContext<LiveConnection | null>(null);

export const browserTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => window.setTimeout(run, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
};

export function LiveEventsProvider({ children }: Readonly<{ children: ReactNode }>) {
  // In the browser only (the server has no EventSource), and the stream opens only when a page
  // listens. Where there is no EventSource at all, pages poll as they did before it.
  const [connection] = useState(() =>
    typeof EventSource === "undefined" ? null : createLiveConnection({ open: (url) => new EventSource(url), timers: browserTimers }),
  );
  useEffect(() => () => connection?.close(), [connection]);
  return <LiveContext.Provider value={connection}>{children}</LiveContext.Provider>;
}

const never = () => () => {};

/**
 * Calls `handler` with each live event while the component is mounted (the latest handler: it may
 * close over props), and answers whether the stream is open. On the server and before the stream
 * opens, false.
 */
export function useLiveEvents(handler: (event: LiveEvent) => void): boolean {
  const connection = useContext(LiveContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => connection?.subscribe((event) => latest.current(event)), [connection]);
  return useSyncExternalStore(
    connection ? connection.onConnectedChange : never,
    () => connection?.connected() ?? false,
    () => false,
  );
}

/** Runs `onOpen` each time the stream opens after the component mounted: what was written while it was closed was not announced. */
export function useOnLiveOpen(connected: boolean, onOpen: () => void): void {
  const latest = useRef(onOpen);
  useEffect(() => {
    latest.current = onOpen;
  });
  const previous = useRef(connected);
  useEffect(() => {
    if (connected && !previous.current) latest.current();
    previous.current = connected;
  }, [connected]);
}
