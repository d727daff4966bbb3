import { describe, expect, it } from "vitest";
import { EventStreamParser, formatEvent, readServerSentEvents } from "./sse";

describe("server-sent events", () => {
  it("round-trips data holding newlines, U+2028/U+2029 and any Unicode, split at every position", () => {
    const data = { text: "line one\nline two\u2028three\u2029four \"quoted\" é 😀 \r end" };
    const wire = formatEvent("delta", data) + formatEvent("done", { ok: true });
    expect(wire.split("\n").filter((l) => l.startsWith("data: "))).toHaveLength(2);
    for (let cut = 0; cut <= wire.length; cut++) {
      const parser = new EventStreamParser();
      const events = [...parser.push(wire.slice(0, cut)), ...parser.push(wire.slice(cut))];
      expect(events).toEqual([
        { event: "delta", data },
        { event: "done", data: { ok: true } },
      ]);
    }
  });

  it("follows the format: CRLF and CR line ends, several data lines, comments, events without data", () => {
    const parser = new EventStreamParser();
    const events = parser.push(': keep-alive\r\n\r\nevent: a\r\ndata: {"x":\r\ndata: 1}\r\n\r\nevent: b\rdata: 2\r\revent: empty\n\ndata: "plain"\n\n');
    expect(events).toEqual([
      { event: "a", data: { x: 1 } },
      { event: "b", data: 2 },
      { event: "message", data: "plain" },
    ]);
  });

  it("names the event whose data is not JSON", () => {
    expect(() => new EventStreamParser().push("event: delta\ndata: {oops\n\n")).toThrow('The "delta" event\'s data is not JSON.');
  });
});

describe("readServerSentEvents", () => {
  it("reads a body whose chunks split lines and characters anywhere", async () => {
    const wire = new TextEncoder().encode(formatEvent("start", { model: "m" }) + formatEvent("delta", { text: "é😀漢" }) + ": comment\n\n" + formatEvent("done", {}));
    for (const cut of [1, 7, 23, wire.length - 2]) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(wire.slice(0, cut));
          controller.enqueue(wire.slice(cut));
          controller.close();
        },
      });
      const events = [];
      for await (const event of readServerSentEvents(body)) events.push(event);
      expect(events).toEqual([
        { event: "start", data: { model: "m" } },
        { event: "delta", data: { text: "é😀漢" } },
        { event: "done", data: {} },
      ]);
    }
  });

  it("stops at an event whose data is not JSON, naming it, and releases the body", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('event: delta\ndata: {oops\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    await expect(async () => {
      for await (const _event of readServerSentEvents(body)) void _event;
    }).rejects.toThrow('The "delta" event\'s data is not JSON.');
    expect(cancelled).toBe(true);
  });
});
