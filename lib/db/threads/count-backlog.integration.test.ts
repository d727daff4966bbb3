/**
 * The count backlog (count-backlog.ts) on the test file's real database, SQLite or PostgreSQL: a
 * bulk run's imports store their turns uncounted, the backlog waits while the run goes on, then
 * stores the registry's count of every turn; an import outside a run counts its own.
 */
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { ImportedThread, ThreadTurn } from "@/lib/importers/types";
import { importedThreadId } from "@/lib/importers/stable-id";
import { newTurn } from "@/lib/testing/integration";
import { DEFAULT_TOKENIZER_ID, getTokenizer } from "@/lib/tokenizers/registry";
import { db } from "../engine/client";
import { startBulkImports } from "../imports/import-batch";
import { storeTurnStream } from "../imports/turn-stream-import";
import { countBacklog, countCursorKey, forgetCountBacklog } from "./count-backlog";

function session(key: string, texts: string[]): ImportedThread {
  return {
    key,
    toolName: "claude-code",
    title: `Session ${key}`,
    turns: texts.map((content, i) => ({
      key: `${key}-${i}`,
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content,
      timestamp: new Date(Date.UTC(2026, 0, 5, 9, 0, i)).toISOString(),
    })),
  };
}

async function* turnsOf(thread: ImportedThread): AsyncGenerator<ThreadTurn> {
  for (const turn of thread.turns) yield { threadIndex: 0, turn };
}

function store(thread: ImportedThread) {
  const outline = { format: "claude-code" as const, threads: [{ ...thread, turns: [] }], skipped: [], warnings: [] };
  const name = `${thread.key}.jsonl`;
  return storeTurnStream(outline, turnsOf(thread), { name, sha256: randomUUID().replaceAll("-", "").padEnd(64, "0"), size: 100 });
}

const TEXTS = [
  "Count the tokens of this prompt, please.",
  "Here is a longer answer, with code:\n```ts\nconst total = values.reduce((sum, v) => sum + v, 0);\n```\nand a word or two after it.",
  "",
  "Ünïcödé, 日本語のテキスト, and emoji 🎉🎉 count too.",
  "x".repeat(5_000),
];

/** Each turn's stored default count, in turn order (null where there is none). */
async function storedCounts(threadId: string) {
  const turns = await (
    await db()
  ).turn.findMany({
    where: { threadId },
    orderBy: { index: "asc" },
    select: { tokenCounts: { where: { tokenizer: DEFAULT_TOKENIZER_ID }, select: { tokens: true, estimated: true } } },
  });
  return turns.map((turn) => turn.tokenCounts[0] ?? null);
}

const expected = TEXTS.map((text) => getTokenizer(DEFAULT_TOKENIZER_ID).measure(text));

it("counts a bulk run's turns once the run has ended, each as the registry counts it", async () => {
  const run = startBulkImports();
  const first = session(`backlog-${randomUUID()}`, TEXTS);
  await run.run(() => store(first));
  const threadId = importedThreadId("claude-code", first.key);

  let done = false;
  const backlog = countBacklog().then(() => (done = true));
  // A second file of the same run, imported after the backlog was asked for.
  const second = session(`backlog-${randomUUID()}`, TEXTS.slice(0, 2));
  await run.run(() => store(second));
  // Long enough for a backlog that did not wait to read, count on its worker and store.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(done).toBe(false);
  expect(await storedCounts(threadId)).toEqual(TEXTS.map(() => null));

  await run.finish();
  await backlog;
  expect(await storedCounts(threadId)).toEqual(expected);
  expect(await storedCounts(importedThreadId("claude-code", second.key))).toEqual(expected.slice(0, 2));
});

it("leaves nothing for the backlog after an import outside a run: it counted its own", async () => {
  const thread = session(`counted-${randomUUID()}`, TEXTS);
  await store(thread);
  expect(await storedCounts(importedThreadId("claude-code", thread.key))).toEqual(expected);
});

it("after a whole pass, a round looks only above where that pass ended: an appended turn is counted, nothing below is walked again", async () => {
  const client = await db();
  const thread = session(`appended-${randomUUID()}`, TEXTS.slice(0, 2));
  await store(thread);
  await countBacklog(); // a whole pass over what is stored
  const threadId = importedThreadId("claude-code", thread.key);
  const [older] = await client.turn.findMany({ where: { threadId }, orderBy: { index: "asc" }, take: 1, select: { seq: true } });
  // A count gone below the pass's end (no write does this): the next round must not look there.
  await client.turnTokenCount.deleteMany({ where: { turnSeq: older!.seq } });
  await newTurn(threadId, { role: "user", content: TEXTS[3]! });

  await countBacklog();
  expect(await storedCounts(threadId)).toEqual([null, expected[1], expected[3]]);
});

it("a restarted server reads where the last whole pass ended from the database: nothing below it is walked again, unless none is stored", async () => {
  const client = await db();
  const thread = session(`restart-${randomUUID()}`, TEXTS.slice(0, 2));
  await store(thread);
  await countBacklog();
  const threadId = importedThreadId("claude-code", thread.key);
  const top = (await client.turn.aggregate({ _max: { seq: true } }))._max.seq!;
  const key = countCursorKey(DEFAULT_TOKENIZER_ID);
  expect((await client.appSetting.findUnique({ where: { key } }))?.value).toBe(String(top));
  const [older] = await client.turn.findMany({ where: { threadId }, orderBy: { index: "asc" }, take: 1, select: { seq: true } });

  await client.turnTokenCount.deleteMany({ where: { turnSeq: older!.seq } });
  forgetCountBacklog();
  await newTurn(threadId, { role: "user", content: TEXTS[3]! });
  await countBacklog();
  expect(await storedCounts(threadId)).toEqual([null, expected[1], expected[3]]);

  // A database no pass has marked (one written before the cursor was kept) is walked whole.
  await client.appSetting.delete({ where: { key } });
  forgetCountBacklog();
  await countBacklog();
  expect(await storedCounts(threadId)).toEqual([expected[0], expected[1], expected[3]]);
});
