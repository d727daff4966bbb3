/**
 * A real Claude Code session (the Demo fixture) with one more entry in the middle: a pasted image
 * of any size, written in 1 MB pieces so that making a 200 MB line never holds it in memory. The
 * image entry is a sibling of the line after it, so the session without it is the fixture itself.
 */
import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import { CLAUDE_CODE_FIXTURES } from "./sources-home";

const DEMO_SESSION = path.join(CLAUDE_CODE_FIXTURES, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");

export type LongLineSession = {
  file: string;
  /** The long line's number and size in bytes (without its line end). */
  line: number;
  bytes: number;
  /** The fixture's lines, as imported without the long one. */
  fixture: string[];
  /** What ends the long line and the lines after it (written already unless `ended: false`). */
  rest: string;
};

/**
 * Writes `<dir>/<project>/<uuid>.jsonl`: the Demo session's lines with an image entry of about
 * `bytes` after line `after`. `ended: false` leaves the long line unfinished at the end of the file.
 */
export function writeLongLineSession(dir: string, bytes: number, { after = 24, ended = true } = {}): LongLineSession {
  const fixture = readFileSync(DEMO_SESSION, "utf8").split("\n").filter(Boolean);
  const parent = JSON.parse(fixture[after - 1]!) as { uuid: string; sessionId: string; timestamp: string };
  const head = JSON.stringify({
    parentUuid: parent.uuid,
    isSidechain: false,
    userType: "external",
    cwd: "/path/to/Demo",
    sessionId: parent.sessionId,
    type: "user",
    message: { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "@" } }] },
    uuid: randomUUID(),
    timestamp: parent.timestamp,
  }).split("@");
  const file = path.join(dir, "-path-to-Demo", `${randomUUID()}.jsonl`);
  mkdirSync(path.dirname(file), { recursive: true });
  const data = Math.max(0, bytes - head[0]!.length - head[1]!.length);
  const rest = `${head[1]}\n${fixture.slice(after).join("\n")}\n`;
  const out = openSync(file, "w");
  try {
    writeSync(out, `${fixture.slice(0, after).join("\n")}\n${head[0]}`);
    const piece = imageBytes(1024 * 1024);
    for (let written = 0; written < data; written += piece.length) writeSync(out, piece, 0, Math.min(piece.length, data - written));
    if (ended) writeSync(out, rest);
  } finally {
    closeSync(out);
  }
  return { file, line: after + 1, bytes: ended ? head[0]!.length + data + head[1]!.length : head[0]!.length + data, fixture, rest };
}

/** `bytes` more of an image's base64, as a line being written grows. */
export function imageBytes(bytes: number): Buffer {
  return Buffer.alloc(bytes, "iVBORw0KGgo");
}
