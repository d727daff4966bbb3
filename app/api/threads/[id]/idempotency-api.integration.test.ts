/**
 * Idempotency-Key on the five thread writes (turns, messages, continue, forks, compactions with
 * apply), on the test file's real database; the chat and the LLM summariser against the small
 * OpenAI-compatible server on 127.0.0.1. A retry answers the first result without writing again.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { deleteExpiredIdempotencyKeys } from "@/lib/db/threads/idempotency";
import { IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_PENDING_ABANDONED_MS } from "@/lib/domain/requests/idempotency";
import { BASE, json, params } from "@/lib/testing/api";
import { answer, type FakeOpenAi } from "@/lib/testing/fake-openai";
import { withFakeOpenAi } from "@/lib/testing/fake-openai-env";
import { api, expectError, newThread, newTurn, restoreServerEnv, rowCounts, setServerEnv } from "@/lib/testing/integration";
import { POST as compactionsPost } from "./compactions/route";
import { POST as continuePost } from "./continue/route";
import { POST as forksPost } from "./forks/route";
import { POST as messagesPost } from "./messages/route";
import { POST as turnsPost } from "./turns/route";

type Route = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

function request(path: string, body: unknown, key: string | null): Request {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== null) headers["Idempotency-Key"] = key;
  return new Request(`${BASE}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

/** One endpoint: a request body, another one, and the ids of what an answer says was written. */
type Endpoint = {
  name: string;
  route: Route;
  path: string;
  /** The chat streams unless ?stream=0; the stream is tested on its own below. */
  query?: string;
  body: Record<string, unknown>;
  otherBody: Record<string, unknown>;
  ids: (answer: any) => string[];
};

const ENDPOINTS: Endpoint[] = [
  {
    name: "turns",
    route: turnsPost,
    path: "turns",
    body: { role: "user", content: "Retry me once." },
    otherBody: { role: "user", content: "Something else." },
    ids: (a) => [a.turn.id],
  },
  {
    name: "messages",
    route: messagesPost,
    path: "messages",
    query: "?stream=0",
    body: { content: "How do I fix it?" },
    otherBody: { content: "How do I fix it, really?" },
    ids: (a) => [a.userTurn.id, a.turn.id],
  },
  {
    name: "continue",
    route: continuePost,
    path: "continue",
    body: { toolName: "codereview", prompt: "Review the fix", model: "gpt-4o" },
    otherBody: { toolName: "codereview", prompt: "Review another fix", model: "gpt-4o" },
    ids: (a) => [a.turn.id],
  },
  {
    name: "forks",
    route: forksPost,
    path: "forks",
    body: { atTurn: 1 },
    otherBody: { atTurn: 0 },
    ids: (a) => [a.thread.id, a.fork.id],
  },
  {
    name: "compactions",
    route: compactionsPost,
    path: "compactions",
    body: { strategy: "full", summarizer: "llm", model: "openai-compatible:local-model", apply: true },
    otherBody: { strategy: "full", summarizer: "llm", model: "openai-compatible:local-model", apply: true, instructions: "the refresh" },
    ids: (a) => [a.thread.id, a.compaction.id],
  },
];

const call = (endpoint: Endpoint, id: string, body: unknown, key: string | null, query = endpoint.query ?? "") =>
  endpoint.route(request(`/api/threads/${id}/${endpoint.path}${query}`, body, key), params({ id }));

/** A thread each endpoint can write to: two turns, one of them long enough to compact. */
async function seed(): Promise<string> {
  const thread = await newThread({ toolName: "debug", title: "Refresh 401" });
  await newTurn(thread.id, { role: "user", content: `Login fails with a 401 after the token refresh. Log: ${"x".repeat(3_000)}` });
  await newTurn(thread.id, { role: "assistant", content: "The refresh token is compared before it is decoded.", modelName: "gpt-4o" });
  return thread.id;
}

async function created(response: Response): Promise<any> {
  const text = await response.clone().text();
  expect(response.status, text).toBe(201);
  return JSON.parse(text);
}

async function storedKeys(threadId: string) {
  return (await db()).idempotencyKey.findMany({ where: { threadId } });
}

const llm = withFakeOpenAi((server) => ({
  openaiCompatibleBaseUrl: server.baseUrl,
  openaiCompatibleApiKey: "sk-test-idempotency-0123456789",
  chatModel: "openai-compatible:test-model",
}));
let fake: FakeOpenAi;
beforeEach(() => {
  fake = llm.server;
  fake.answerWith(answer("Decode first, then compare."));
});
afterEach(() => restoreServerEnv());

describe.each(ENDPOINTS)("Idempotency-Key on POST /api/threads/:id/$name", (endpoint) => {
  it("answers a retry with the first result (same status, same ids) and writes nothing the second time", async () => {
    const id = await seed();
    const before = await rowCounts();
    const first = await created(await call(endpoint, id, endpoint.body, "retry-1"));
    const written = await rowCounts();
    expect(written).not.toEqual(before);
    const llmCalls = fake.requests.length;

    // Key order and spacing do not matter: the validated body is what counts.
    const reordered = Object.fromEntries(Object.entries(endpoint.body).reverse());
    const retry = await call(endpoint, id, reordered, "retry-1");
    expect(retry.headers.get("idempotency-replayed")).toBe("true");
    const again = await created(retry);
    expect(endpoint.ids(again)).toEqual(endpoint.ids(first));
    expect(again).toEqual(first);
    expect(await rowCounts()).toEqual(written);
    expect(fake.requests.length).toBe(llmCalls); // no second model call

    // Without a key, the same body writes again: the key is what makes a retry a retry.
    const plain = await created(await call(endpoint, id, endpoint.body, null));
    expect(endpoint.ids(plain)).not.toEqual(endpoint.ids(first));
  });

  it("answers 409 for another body under the same key, and keeps keys per thread", async () => {
    const id = await seed();
    await created(await call(endpoint, id, endpoint.body, "shared-key"));
    const written = await rowCounts();
    const conflict = await expectError(await call(endpoint, id, endpoint.otherBody, "shared-key"), 409, "conflict");
    expect(conflict.message).toMatch(/Idempotency-Key "shared-key" was already used in this thread for a different request/);
    expect(conflict.details).toMatchObject({ field: "Idempotency-Key", reason: "different_request" });
    expect(await rowCounts()).toEqual(written);

    const other = await seed();
    const elsewhere = await created(await call(endpoint, other, endpoint.body, "shared-key"));
    expect(
      elsewhere.turn?.threadId ?? elsewhere.userTurn?.threadId ?? elsewhere.fork?.sourceThreadId ?? elsewhere.compaction?.originalThreadId,
    ).toBe(other);
  });

  it("lets a key be used again after 24 hours", async () => {
    const id = await seed();
    const first = await created(await call(endpoint, id, endpoint.body, "daily"));
    await expectError(await call(endpoint, id, endpoint.otherBody, "daily"), 409, "conflict");
    await (
      await db()
    ).idempotencyKey.updateMany({ where: { threadId: id }, data: { createdAt: new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS - 1_000) } });
    const written = await rowCounts();
    const later = await call(endpoint, id, endpoint.otherBody, "daily");
    expect(later.headers.get("idempotency-replayed")).toBeNull();
    expect(endpoint.ids(await created(later))).not.toEqual(endpoint.ids(first));
    expect(await rowCounts()).not.toEqual(written);
    // And it now answers the new request.
    expect(endpoint.ids(await created(await call(endpoint, id, endpoint.otherBody, "daily")))).not.toEqual(endpoint.ids(first));
  });

  it("writes once for two concurrent requests with one key", async () => {
    const id = await seed();
    const before = await rowCounts();
    const responses = await Promise.all([call(endpoint, id, endpoint.body, "together"), call(endpoint, id, endpoint.body, "together")]);
    const statuses = responses.map((response) => response.status).sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const answers = await Promise.all(responses.filter((response) => response.status === 201).map(json));
    for (const answer of answers) expect(endpoint.ids(answer)).toEqual(endpoint.ids(answers[0]));
    // And the one write is what a retry answers.
    const retry = await created(await call(endpoint, id, endpoint.body, "together"));
    expect(endpoint.ids(retry)).toEqual(endpoint.ids(answers[0]));
    const after = await rowCounts();
    const single = await seed();
    const singleBefore = await rowCounts();
    await created(await call(endpoint, single, endpoint.body, null));
    const growth = await rowCounts();
    // The concurrent pair grew the tables exactly as much as one request does.
    expect({ threads: after.threads - before.threads, turns: after.turns - before.turns }).toEqual({
      threads: growth.threads - singleBefore.threads,
      turns: growth.turns - singleBefore.turns,
    });
  });

  it("is not used up by a request that failed: an unknown thread, a bad body", async () => {
    const unknown = randomUUID();
    await expectError(await call(endpoint, unknown, endpoint.body, "fails"), 404, "not_found");
    await expectError(await call(endpoint, unknown, endpoint.body, "fails"), 404, "not_found"); // not 409: the key was given back
    expect(await storedKeys(unknown)).toEqual([]);

    const id = await seed();
    await expectError(await call(endpoint, id, { ...endpoint.body, unexpected: 1 }, "fails"), 400, "validation_failed");
    const first = await created(await call(endpoint, id, endpoint.body, "fails"));
    const retry = await call(endpoint, id, endpoint.body, "fails");
    expect(retry.headers.get("idempotency-replayed")).toBe("true");
    expect(endpoint.ids(await created(retry))).toEqual(endpoint.ids(first));
  });

  it("answers 400 naming the header for a malformed key, and writes nothing", async () => {
    const id = await seed();
    const before = await rowCounts();
    for (const [key, why] of [
      ["", "must not be empty"],
      ["k".repeat(256), "must be at most 255 characters"],
      ["caf\u00e9", "must be printable ASCII"],
      ["tab\there", "must be printable ASCII"],
    ] as const) {
      const error = await expectError(await call(endpoint, id, endpoint.body, key), 400, "validation_failed");
      expect(error.message).toBe(`Idempotency-Key: ${why}${why.startsWith("must be printable") ? " (characters 0x20-0x7E)" : ""}`);
      expect(error.details).toEqual([{ field: "Idempotency-Key", message: expect.stringContaining(why) }]);
    }
    expect(await rowCounts()).toEqual(before);
    await created(await call(endpoint, id, endpoint.body, "k".repeat(255)));
  });
});

describe("Idempotency-Key: the rest of the contract", () => {
  const turns = ENDPOINTS[0]!;
  const messages = ENDPOINTS[1]!;
  const forks = ENDPOINTS[3]!;

  it("binds a key to its endpoint: the same key on another write of the thread is a 409", async () => {
    const id = await seed();
    await created(await call(turns, id, turns.body, "one-use"));
    await expectError(await call(forks, id, forks.body, "one-use"), 409, "conflict");
  });

  it("answers 409 while the first request is in progress, and runs again once it was abandoned (a crashed process)", async () => {
    const id = await seed();
    const client = await db();
    // What a process that died between claiming the key and writing leaves behind.
    await client.idempotencyKey.create({
      data: { threadId: id, key: "crashed", requestHash: "0".repeat(64), state: "pending", createdAt: new Date() },
    });
    // The hash differs (another request): a 409 naming that. The same request: "in progress".
    await expectError(await call(turns, id, turns.body, "crashed"), 409, "conflict");
    await call(turns, id, turns.body, "probe"); // learn the hash the turns body gets
    const { requestHash } = (await client.idempotencyKey.findUnique({ where: { threadId_key: { threadId: id, key: "probe" } } }))!;
    await client.idempotencyKey.update({ where: { threadId_key: { threadId: id, key: "crashed" } }, data: { requestHash } });
    const busy = await expectError(await call(turns, id, turns.body, "crashed"), 409, "conflict");
    expect(busy.message).toMatch(/still in progress/);
    expect(busy.details).toMatchObject({ reason: "in_progress" });

    await client.idempotencyKey.update({
      where: { threadId_key: { threadId: id, key: "crashed" } },
      data: { createdAt: new Date(Date.now() - IDEMPOTENCY_PENDING_ABANDONED_MS - 1_000) },
    });
    const turn = (await created(await call(turns, id, turns.body, "crashed"))).turn;
    expect((await created(await call(turns, id, turns.body, "crashed"))).turn).toEqual(turn);
  });

  it("records the turn and the key in one transaction: a turn refused at the limit gives the key back", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "2" });
    const id = await seed();
    await expectError(await call(turns, id, turns.body, "limit"), 409, "turn_limit");
    expect(await storedKeys(id)).toEqual([]);
    setServerEnv({ MAX_CONVERSATION_TURNS: "3" });
    const { turn } = await created(await call(turns, id, turns.body, "limit"));
    const [stored] = await storedKeys(id);
    expect(stored).toMatchObject({ state: "done", status: 201 });
    expect(JSON.parse(stored!.response!)).toEqual({ turn });
  });

  it("replays a streamed reply as the JSON ?stream=0 answers", async () => {
    const id = await seed();
    const streamed = await call(messages, id, messages.body, "streamed", "");
    expect(streamed.headers.get("content-type")).toContain("text/event-stream");
    const events = await streamed.text();
    expect(events).toContain("event: done");
    const replay = await created(await call(messages, id, messages.body, "streamed"));
    expect(replay).toMatchObject({
      userTurn: { content: "How do I fix it?" },
      turn: { content: "Decode first, then compare." },
      model: "openai-compatible:test-model",
    });
    for (const turnId of messages.ids(replay)) expect(events).toContain(turnId);
    expect(fake.requests).toHaveLength(1);
  });

  it("forgets a purged thread's keys: a retry after the purge finds no thread instead of an answer naming its turns", async () => {
    const id = await seed();
    await created(await call(turns, id, turns.body, "before-purge"));
    expect((await api.deleteThread(id)).status).toBe(204);
    expect(await storedKeys(id)).toEqual([]);
    await expectError(await call(turns, id, turns.body, "before-purge"), 404, "not_found");
  });

  it("deletes keys older than 24 hours now and then, and only those", async () => {
    const id = await seed();
    await created(await call(turns, id, turns.body, "old"));
    await created(await call(turns, id, turns.otherBody, "new"));
    await (
      await db()
    ).idempotencyKey.updateMany({
      where: { threadId: id, key: "old" },
      data: { createdAt: new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS - 1_000) },
    });
    expect(await deleteExpiredIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    expect((await storedKeys(id)).map((row) => row.key)).toEqual(["new"]);
  });
});
