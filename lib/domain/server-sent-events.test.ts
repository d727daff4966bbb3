import { describe, expect, it } from "vitest";
import { formatEvent, readServerSentEvents } from "./server-sent-events";

const encode = (text: string) => new TextEncoder().encode(text);

/** A response body that delivers these chunks, then ends (or stays open when `open`); `cancelled` tells whether it was released. */
function body(chunks: Uint8Array<ArrayBuffer>[], { open = false } = {}) {
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (!open) controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return Object.assign(state, { stream });
}

async function readAll(chunks: Uint8Array<ArrayBuffer>[]) {
  const events = [];
  for await (const event of readServerSentEvents(body(chunks).stream)) events.push(event);
  return events;
}

describe("readServerSentEvents", () => {
  it("round-trips data holding newlines, U+2028/U+2029 and any Unicode, the body split at every byte", async () => {
    const data = { text: 'line one\nline two\u2028three\u2029four "quoted" é 😀 漢 \r end' };
    const wire = formatEvent("delta", data) + formatEvent("done", { ok: true });
    expect(wire.split("\n").filter((l) => l.startsWith("data: "))).toHaveLength(2);
    const bytes = encode(wire);
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(await readAll([bytes.slice(0, cut), bytes.slice(cut)])).toEqual([
        { event: "delta", data },
        { event: "done", data: { ok: true } },
      ]);
    }
  });

  it("follows the format: CRLF and CR line ends, several data lines, comments, events without data", async () => {
    const wire = ': keep-alive\r\n\r\nevent: a\r\ndata: {"x":\r\ndata: 1}\r\n\r\nevent: b\rdata: 2\r\revent: empty\n\ndata: "plain"\n\n';
    const expected = [
      { event: "a", data: { x: 1 } },
      { event: "b", data: 2 },
      { event: "message", data: "plain" },
    ];
    expect(await readAll([encode(wire)])).toEqual(expected);
    // One byte at a time: a CR ending one chunk and an LF starting the next are one line end.
    expect(await readAll([...encode(wire)].map((byte) => Uint8Array.of(byte)))).toEqual(expected);
  });

  it("drops an event the body ends before finishing", async () => {
    expect(await readAll([encode(formatEvent("delta", { text: "kept" }) + 'event: done\ndata: {"cut":')])).toEqual([
      { event: "delta", data: { text: "kept" } },
    ]);
  });

  it("stops at an event whose data is not JSON, naming it, and releases the body", async () => {
    const source = body([encode(formatEvent("start", {}) + "event: delta\ndata: {oops\n\n")], { open: true });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const { event } of readServerSentEvents(source.stream)) seen.push(event);
    })().catch((error: unknown) => error);
    // A SyntaxError: the composer tells an unreadable event from a dropped connection by it.
    expect(failure).toBeInstanceOf(SyntaxError);
    expect((failure as Error).message).toBe('The "delta" event\'s data is not JSON.');
    expect(seen).toEqual(["start"]);
    expect(source.cancelled).toBe(true);
  });

  it("releases the body when the reader stops early", async () => {
    const source = body([encode(formatEvent("start", {}) + formatEvent("delta", { text: "a" }))], { open: true });
    for await (const { event } of readServerSentEvents(source.stream)) {
      expect(event).toBe("start");
      break;
    }
    expect(source.cancelled).toBe(true);
  });
});
