// Counts measured off the request's thread are stored after a wait: the turn may be gone by then.
import { expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { api, newThread, newTurn } from "@/lib/testing/integration";
import { storeTokenCounts } from "./token-counts";

it("stores the counts of turns that exist and skips those of turns deleted since they were read", async () => {
  const kept = await newThread({ toolName: "chat" });
  const gone = await newThread({ toolName: "chat" });
  await newTurn(kept.id, { role: "user", content: "still here" });
  await newTurn(gone.id, { role: "user", content: "deleted before its count is stored" });
  const client = await db();
  const turns = await client.turn.findMany({
    where: { threadId: { in: [kept.id, gone.id] } },
    select: { seq: true, id: true, threadId: true },
  });
  expect(turns).toHaveLength(2);
  expect((await api.deleteThread(gone.id)).status).toBe(204);

  const tokenizer = "counted-later-test";
  await storeTokenCounts(
    tokenizer,
    turns.map((turn) => ({ turnSeq: turn.seq, turnId: turn.id, threadId: turn.threadId, tokens: 3, estimated: false })),
  );
  const stored = await client.turnTokenCount.findMany({ where: { tokenizer }, select: { threadId: true, tokens: true } });
  expect(stored).toEqual([{ threadId: kept.id, tokens: 3 }]);
});

it("keeps a count another request stored meanwhile, and stores whether each count is an estimate", async () => {
  const thread = await newThread({ toolName: "chat" });
  for (const content of ["counted elsewhere first", "a long run, counted in pieces", "plain"])
    await newTurn(thread.id, { role: "user", content });
  const client = await db();
  const [first, second, third] = await client.turn.findMany({
    where: { threadId: thread.id },
    orderBy: { index: "asc" },
    select: { seq: true, id: true },
  });
  const tokenizer = "counted-twice-test";
  await storeTokenCounts(tokenizer, [{ turnSeq: first!.seq, turnId: first!.id, threadId: thread.id, tokens: 7, estimated: false }]);

  await storeTokenCounts(tokenizer, [
    { turnSeq: first!.seq, turnId: first!.id, threadId: thread.id, tokens: 99, estimated: true },
    { turnSeq: second!.seq, turnId: second!.id, threadId: thread.id, tokens: 12, estimated: true },
    { turnSeq: third!.seq, turnId: third!.id, threadId: thread.id, tokens: 1, estimated: false },
  ]);
  const stored = await client.turnTokenCount.findMany({
    where: { tokenizer },
    orderBy: { turnSeq: "asc" },
    select: { turnSeq: true, tokens: true, estimated: true },
  });
  expect(stored).toEqual([
    { turnSeq: first!.seq, tokens: 7, estimated: false },
    { turnSeq: second!.seq, tokens: 12, estimated: true },
    { turnSeq: third!.seq, tokens: 1, estimated: false },
  ]);
});
