/**
 * Server-sent events as the messages endpoint writes them and the composer reads them. Pure and
 * client-safe. JSON leaves U+2028 and U+2029 unescaped, and some line readers split on them: they
 * are escaped, so an event is always one `event:` line and one `data:` line.
 */

export type ServerSentEvent = { event: string; data: unknown };

export function formatEvent(event: string, data: unknown): string {
  const json = JSON.stringify(data).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  return `event: ${event}\ndata: ${json}\n\n`;
}

/**
 * Reads events from text arriving in arbitrary pieces (a chunk may end mid-line or mid-character's
 * escape). Follows the format: CRLF, CR or LF line ends; several data lines joined with "\n";
 * comment lines (":") and unknown fields ignored; an event without data is skipped. Data must be
 * JSON: anything else throws a SyntaxError naming the event.
 */
export class EventStreamParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];

  push(text: string): ServerSentEvent[] {
    this.buffer += text;
    const out: ServerSentEvent[] = [];
    let match: RegExpExecArray | null;
    const lineEnd = /\r\n|\r|\n/g;
    let start = 0;
    while ((match = lineEnd.exec(this.buffer))) {
      // A CR at the very end may be the first half of a CRLF still to come.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, match.index), out);
      start = match.index + match[0].length;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string, out: ServerSentEvent[]) {
    if (line === "") {
      if (this.data.length > 0) {
        const name = this.event || "message";
        const text = this.data.join("\n");
        this.event = "";
        this.data = [];
        try {
          out.push({ event: name, data: JSON.parse(text) as unknown });
        } catch {
          throw new SyntaxError(`The "${name}" event's data is not JSON.`);
        }
      }
      this.event = "";
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
  }
}
