/**
 * Long sessions for the scale specs, as threadline/v1 documents: one POST /api/import writes a
 * whole chain (the importer inserts turns in bulk), where appending 10,000 turns one by one would
 * take minutes. The contents are plain but not uniform: sizes vary, assistants answer in Markdown
 * with their model named, and every turn says where it is ("thread 3, turn 250"). In each thread,
 * turn 50 calls a tool whose result is turn 51: a pair either side of the chain page's first window.
 */
import { randomUUID } from "node:crypto";

type NativeTurn = Record<string, unknown>;
type NativeThread = Record<string, unknown> & { id: string; turns: NativeTurn[] };
export type NativeDocument = { format: "threadline/v1"; threads: NativeThread[] };

const FILLER =
  "The migration plan keeps the ledger export until the cut-over; each step is reversible and checked against the staging copy before it runs in production. ";

function turns(label: string, count: number, start: number): NativeTurn[] {
  const callId = `call-${randomUUID()}`;
  return Array.from({ length: count }, (_, i) => {
    const user = i % 2 === 0;
    const body = `${label}, turn ${i + 1}: ${FILLER.repeat(1 + (i % 3))}`;
    const timestamp = new Date(start + i * 1_000).toISOString();
    if (i === 50) {
      return {
        id: randomUUID(),
        role: "tool",
        content: body,
        timestamp,
        parts: [{ type: "tool_result", toolCallId: callId, content: body, isError: false }],
      };
    }
    const content = user ? body : `**Step ${i + 1}.** ${body}\n\n- checked\n- recorded`;
    return {
      id: randomUUID(),
      role: user ? "user" : "assistant",
      content,
      timestamp,
      ...(user ? {} : { modelProvider: "openai", modelName: "gpt-5" }),
      ...(i === 49
        ? {
            parts: [
              { type: "text", text: content },
              { type: "tool_call", id: callId, name: "run_checks", arguments: { step: 50 } },
            ],
          }
        : {}),
    };
  });
}

function thread(title: string, parentThreadId: string | null, turnCount: number, start: number): NativeThread {
  const now = new Date(start).toISOString();
  return {
    id: randomUUID(),
    parentThreadId,
    title,
    toolName: "scale",
    createdAt: now,
    lastUpdatedAt: new Date().toISOString(),
    turns: turns(title, turnCount, start),
  };
}

/** `threadCount` threads of `turnsEach` turns, each continuing the one before (oldest first). */
export function chainDocument(threadCount: number, turnsEach: number, stamp: string): NativeDocument {
  const start = Date.now() - 86_400_000;
  const threads: NativeThread[] = [];
  for (let t = 0; t < threadCount; t++) {
    threads.push(thread(`Scale chain ${stamp} thread ${t + 1}`, threads.at(-1)?.id ?? null, turnsEach, start + t * turnsEach * 1_000));
  }
  return { format: "threadline/v1", threads };
}

/** One thread of `turnCount` turns. */
export function longThreadDocument(turnCount: number, stamp: string): NativeDocument {
  return { format: "threadline/v1", threads: [thread(`Scale session ${stamp}`, null, turnCount, Date.now() - 86_400_000)] };
}
