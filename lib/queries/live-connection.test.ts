import { describe, expect, it } from "vitest";
import type { LiveEvent } from "@/lib/domain/threads/live";
import { fakeTimers } from "@/lib/testing/fake-timers";
import { createLiveConnection, type EventSourceLike } from "./live-connection";

/** An EventSource the test drives: open, send, fail (with the browser retrying or giving up). */
class FakeSource implements EventSourceLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, ((event: { data: string }) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  send(type: string, data: string) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
  fail(readyState: 0 | 2) {
    this.readyState = readyState;
    this.onerror?.(new Event("error"));
  }
}

function connection() {
  const sources: FakeSource[] = [];
  const clock = fakeTimers();
  const live = createLiveConnection({
    open: (url) => (sources.push(new FakeSource(url)), sources.at(-1)!),
    timers: clock.timers,
    lingerMs: 1000,
    retryMs: 100,
    maxRetryMs: 400,
  });
  let changes = 0;
  live.onConnectedChange(() => changes++);
  return { live, sources, clock, changes: () => changes };
}

const threadData = JSON.stringify({ id: "a", turnCount: 2, lastUpdatedAt: "2026-11-25T10:00:00.000Z" });

describe("the tab's live connection", () => {
  it("opens one stream for all its listeners, only once someone listens, and hands them the events that fit", () => {
    const { live, sources, changes } = connection();
    expect(sources).toHaveLength(0);
    const a: LiveEvent[] = [];
    const b: LiveEvent[] = [];
    live.subscribe((event) => a.push(event));
    live.subscribe((event) => b.push(event));
    expect(sources.map((s) => s.url)).toEqual(["/api/events"]);
    expect(live.connected()).toBe(false);
    sources[0]!.open();
    expect(live.connected()).toBe(true);
    expect(changes()).toBe(1);
    sources[0]!.send("thread", threadData);
    sources[0]!.send("thread", "not json");
    sources[0]!.send("thread", JSON.stringify({ id: "a", turnCount: -1 }));
    sources[0]!.send("sources", JSON.stringify({ origin: "off", syncing: false, heldElsewhere: false, folders: [] }));
    expect(a).toEqual([
      { type: "thread", thread: { id: "a", turnCount: 2, lastUpdatedAt: "2026-11-25T10:00:00.000Z" } },
      { type: "sources", status: { origin: "off", syncing: false, heldElsewhere: false, folders: [] } },
    ]);
    expect(b).toEqual(a);
  });

  it("lets the browser reconnect a dropped stream, and opens a new one after a growing pause when it gives up", () => {
    const { live, sources, clock } = connection();
    live.subscribe(() => {});
    sources[0]!.open();
    sources[0]!.fail(0); // dropped: the browser reconnects by itself
    expect(live.connected()).toBe(false);
    expect(sources).toHaveLength(1);
    sources[0]!.open();
    expect(live.connected()).toBe(true);

    sources[0]!.fail(2); // a 403, say: the browser gave up
    expect(sources[0]!.closed).toBe(true);
    clock.advance(99);
    expect(sources).toHaveLength(1);
    clock.advance(1);
    expect(sources).toHaveLength(2);
    sources[1]!.fail(2);
    clock.advance(199);
    expect(sources).toHaveLength(2);
    clock.advance(1);
    expect(sources).toHaveLength(3);
    sources[2]!.fail(2);
    sources[3 - 1]!.onerror?.(new Event("error")); // a late error of a closed source changes nothing
    clock.advance(400);
    expect(sources).toHaveLength(4);
    sources[3]!.open(); // the pause starts again from the first after a success
    sources[3]!.fail(2);
    clock.advance(100);
    expect(sources).toHaveLength(5);
  });

  it("keeps the stream a while after the last listener leaves (a page change), then closes it", () => {
    const { live, sources, clock } = connection();
    const stop = live.subscribe(() => {});
    sources[0]!.open();
    stop();
    clock.advance(500);
    const again = live.subscribe(() => {});
    clock.advance(2000);
    expect(sources).toHaveLength(1);
    expect(sources[0]!.closed).toBe(false);
    again();
    clock.advance(1000);
    expect(sources[0]!.closed).toBe(true);
    expect(live.connected()).toBe(false);
    live.subscribe(() => {});
    expect(sources).toHaveLength(2);
  });

  it("does not reopen a stream nobody listens to any more", () => {
    const { live, sources, clock } = connection();
    const stop = live.subscribe(() => {});
    sources[0]!.fail(2);
    stop();
    clock.advance(10_000);
    expect(sources).toHaveLength(1);
    live.close();
    expect(live.connected()).toBe(false);
  });
});
