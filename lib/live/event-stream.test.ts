import { describe, expect, it } from "vitest";
import { readServerSentEvents } from "@/lib/domain/server-sent-events";
import type { LiveEvent } from "@/lib/domain/threads/live";
import { createBus } from "../domain/event-bus";
import { liveEventStream, MAX_QUEUED } from "./event-stream";

const thread = (id: string, turnCount: number): LiveEvent => ({
  type: "thread",
  thread: { id, turnCount, lastUpdatedAt: "2026-11-25T10:00:00.000Z" },
});
const sources: LiveEvent = { type: "sources", status: { origin: "off", syncing: false, heldElsewhere: false, folders: [] } };

async function readText(reader: ReadableStreamDefaultReader<Uint8Array>, until: (text: string) => boolean): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (!until(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe("liveEventStream", () => {
  it("sends the reconnection delay and the first events, then each event as it is published", async () => {
    const bus = createBus<LiveEvent>();
    const stream = liveEventStream({ subscribe: bus.subscribe, first: [sources] });
    const events = readServerSentEvents(stream as ReadableStream<Uint8Array<ArrayBuffer>>);
    expect((await events.next()).value).toEqual({ event: "sources", data: sources.type === "sources" && sources.status });
    bus.publish(thread("a", 2));
    expect((await events.next()).value).toEqual({
      event: "thread",
      data: { id: "a", turnCount: 2, lastUpdatedAt: "2026-11-25T10:00:00.000Z" },
    });
    await events.return(undefined);
    expect(bus.size()).toBe(0); // cancelled by the reader: unsubscribed
  });

  it("starts with a retry field and sends a comment line every heartbeat", async () => {
    const bus = createBus<LiveEvent>();
    const reader = liveEventStream({ subscribe: bus.subscribe, heartbeatMs: 20 }).getReader();
    const text = await readText(reader, (t) => t.split(": keep-alive\n\n").length > 2);
    expect(text.startsWith("retry: 2000\n\n")).toBe(true);
    await reader.cancel();
    expect(bus.size()).toBe(0);
  });

  it("stops listening and ends the body when the request is aborted", async () => {
    const bus = createBus<LiveEvent>();
    const abort = new AbortController();
    const reader = liveEventStream({ subscribe: bus.subscribe, signal: abort.signal }).getReader();
    await reader.read(); // retry
    expect(bus.size()).toBe(1);
    abort.abort();
    expect(bus.size()).toBe(0);
    expect((await reader.read()).done).toBe(true);
    bus.publish(thread("a", 1)); // nothing to send it to, and no error
  });

  it("never listens when the request was aborted before it started", () => {
    const bus = createBus<LiveEvent>();
    const abort = new AbortController();
    abort.abort();
    liveEventStream({ subscribe: bus.subscribe, signal: abort.signal });
    expect(bus.size()).toBe(0);
  });

  it("drops a client that reads nothing while events pile up", () => {
    const bus = createBus<LiveEvent>();
    liveEventStream({ subscribe: bus.subscribe });
    for (let i = 0; i < MAX_QUEUED + 10; i++) bus.publish(thread("a", i));
    expect(bus.size()).toBe(0);
  });
});
