/**
 * Server-sent events as the messages endpoint writes them and the composer reads them. Pure and
 * client-safe. JSON leaves U+2028 and U+2029 unescaped, and some line readers split on them: they
 * are escaped, so an event is always one `event:` line and one `data:` line.
 */

import { EventSourceParserStream } from "eventsource-parser/stream";

export type ServerSentEvent = { event: string; data: unknown };

export function formatEvent(event: string, data: unknown): string {
  const json = JSON.stringify(data)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `event: ${event}\ndata: ${json}\n\n`;
}

/**
 * The events of a streamed response body, as they arrive; the body is released when the loop ends.
 * Chunks may end anywhere, even inside a character; eventsource-parser does the format (CRLF, CR or
 * LF line ends; several data lines joined with "\n"; comments and unknown fields ignored). Data
 * must be JSON: anything else throws a SyntaxError naming the event.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array<ArrayBuffer>>): AsyncGenerator<ServerSentEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const event = next.value.event || "message";
      let data: unknown;
      try {
        data = JSON.parse(next.value.data);
      } catch {
        throw new SyntaxError(`The "${event}" event's data is not JSON.`);
      }
      yield { event, data };
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
