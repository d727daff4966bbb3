/**
 * A separate writer process for the multi-process concurrency test (app/api/threads/concurrency.integration.test.ts).
 * Run as: tsx --conditions=react-server lib/testing/append-turns-worker.ts <threadId> <name> <writers> <turns>
 * with DATABASE_URL (and MAX_CONVERSATION_TURNS) in the environment.
 *
 * It loads the real route handler, prints "ready", waits for a line on stdin (so that every
 * process starts writing at the same moment), then runs <writers> concurrent writers, each
 * appending <turns> turns one after another with content "<name>-w<writer>:<i>", and prints one
 * JSON line: {results: [{content, status, index?, error?}]}.
 */
import { POST } from "@/app/api/threads/[id]/turns/route";
import { jsonRequest, params } from "./api";

type Result = { content: string; status: number; index?: number; error?: unknown };

const [threadId, name, writersArg, turnsArg] = process.argv.slice(2);
if (!threadId || !name || !writersArg || !turnsArg) {
  console.error("usage: append-turns-worker <threadId> <name> <writers> <turns>");
  process.exit(2);
}
const writers = Number(writersArg);
const turns = Number(turnsArg);

async function runWriter(writer: number): Promise<Result[]> {
  const results: Result[] = [];
  for (let i = 0; i < turns; i++) {
    const content = `${name}-w${writer}:${i}`;
    const response = await POST(
      jsonRequest("POST", `/api/threads/${threadId}/turns`, { role: i % 2 ? "assistant" : "user", content }),
      params({ id: threadId! }),
    );
    const body = (await response.json()) as { turn?: { index: number }; error?: unknown };
    results.push({ content, status: response.status, index: body.turn?.index, error: body.error });
  }
  return results;
}

process.stdout.write("ready\n");
process.stdin.once("data", () => {
  void Promise.all(Array.from({ length: writers }, (_, w) => runWriter(w))).then(
    (perWriter) => {
      process.stdout.write(`${JSON.stringify({ results: perWriter.flat() })}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
