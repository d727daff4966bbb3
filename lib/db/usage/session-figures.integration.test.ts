// A page that shows some threads' figures sums those threads' stale buckets, and waits for no
// other: a first start over a million turns left the thread list unanswered for ten minutes while
// it waited for every thread's.
import { expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { newThread, newTurn } from "@/lib/testing/integration";
import { sessionFiguresOf } from "./session-figures";

const USAGE = { usage: { input_tokens: 1_200, output_tokens: 300 } };

async function threadWithResponse(): Promise<string> {
  const thread = await newThread({ toolName: "claude-code" });
  await newTurn(thread.id, { role: "user", content: "a question" });
  await newTurn(thread.id, {
    role: "assistant",
    content: "an answer",
    modelProvider: "anthropic",
    modelName: "claude-sonnet-4-5",
    modelMetadata: USAGE,
  });
  return thread.id;
}

it("sums the stale buckets of the threads asked for, and leaves the others to the background refresh", async () => {
  const shown = await threadWithResponse();
  const other = await threadWithResponse();
  const client = await db();
  // Both stale, as a first start finds every thread of an upgraded database.
  await client.usageThread.deleteMany({ where: { threadId: { in: [shown, other] } } });
  await client.usageBucket.deleteMany({ where: { threadId: { in: [shown, other] } } });

  const figures = (await sessionFiguresOf([shown])).get(shown);
  expect(figures?.total.inputTokens).toBe(1_200);
  expect(figures?.total.outputTokens).toBe(300);
  const summed = await client.usageThread.findMany({ where: { threadId: { in: [shown, other] } }, select: { threadId: true } });
  expect(summed.map((row) => row.threadId)).toEqual([shown]);
  expect(await client.usageBucket.count({ where: { threadId: other } })).toBe(0);
});
