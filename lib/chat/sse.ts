/**
 * Server-sent events as the messages endpoint writes them and the composer reads them. Pure and
 * client-safe. JSON leaves U+2028 and U+2029 unescaped, and some line readers split on them: they
 * are escaped, so an event is always one `event:` line and one `data:` line.
 */

import { createParser, type EventSourceParser } from "eventsource-parser";

export type ServerSentEvent = { event: string; data: unknown };

export function formatEvent(event: string, data: unknown): string {
  const json = JSON.stringify(data).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  return `event: ${event}\ndata: ${json}\n\n`;
}

/**
 * Reads events from text arriving in arbitrary pieces (a chunk may end mid-line), with
 * eventsource-parser doing the format (CRLF, CR or LF line ends; several data lines joined with
 * "\n"; comments and unknown fields ignored; an event without data skipped). Data must be JSON:
 * anything else throws a SyntaxError naming the event.
 */
export class EventStreamParser {
  private ready: ServerSentEvent[] = [];
  private failure: SyntaxError | null = null;
  private readonly parser: EventSourceParser = createParser({
    onEvent: ({ event, data }) => {
      const name = event || "message";
      try {
        this.ready.push({ event: name, data: JSON.parse(data) as unknown });
      } catch {
        this.failure ??= new SyntaxError(`The "${name}" event's data is not JSON.`);
      }
    },
  });

  push(text: string): ServerSentEvent[] {
    this.parser.feed(text);
    if (this.failure) throw this.failure;
    const out = this.ready;
    this.ready = [];
    return out;
  }
}

/** The events of a streamed response body, as they arrive; the body is released when the loop ends. */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder(); // with stream: true, a character split between chunks waits for its end
  const parser = new EventStreamParser();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield* parser.push(decoder.decode(next.value, { stream: true }));
  } finally {
    await reader.cancel().catch(() => {});
  }
}
