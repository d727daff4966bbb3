/**
 * Integration tests of one thread through the REST API: reading it (GET /api/threads/:id), its
 * chain, deleting it, and unexpected failures. The real route handlers, called with real Request
 * objects, against this test file's own database (lib/testing/setup-database.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/engine/client";
import type { Thread, Turn } from "@/lib/domain/types";
import { json, jsonRequest, params } from "@/lib/testing/api";
import {
  api,
  expectError,
  expireThread,
  fetchThread,
  newThread,
  newTurn,
  restoreServerEnv,
  rowCounts,
  setServerEnv,
  sleep,
  ZERO_USAGE,
  ZERO_COST,
} from "@/lib/testing/integration";
import { GET as getRoute } from "./[id]/route";

const HOUR_MS = 3_600_000;

afterEach(() => {
  vi.restoreAllMocks();
  restoreServerEnv();
});

describe("GET /api/threads/:id", () => {
  it.each([
    ["a word", "not-a-uuid"],
    ["a path traversal", "../../etc/passwd"],
    ["SQL", "' OR 1=1 --"],
    ["a UUID with junk after it", "00000000-0000-4000-8000-000000000000x"],
    ["a very long string", "a".repeat(5000)],
    ["an empty string", ""],
  ])("answers 404 JSON (never 500) for %s", async (_name, id) => {
    const error = await expectError(await getRoute(jsonRequest("GET", "/api/threads/x"), params({ id })), 404, "not_found");
    expect(error.message.length).toBeLessThan(300); // the raw id is cut, not echoed whole
  });

  it("answers 404 not_found for an unknown UUID", async () => {
    const id = "6f1c1d1e-0000-4000-8000-000000000000";
    const error = await expectError(await api.getThread(id), 404, "not_found");
    expect(error.message).toContain(id);
  });

  it("returns the thread with its turns, also for an upper-case id", async () => {
    const thread = await newThread();
    const turn = await newTurn(thread.id, { role: "user", content: "hello" });
    const body = await fetchThread(thread.id.toUpperCase());
    expect(Object.keys(body).sort()).toEqual(["thread", "turns"]);
    expect(body.thread.id).toBe(thread.id);
    expect(body.turns).toEqual([{ ...turn, cost: null }]);
  });

  it("answers 404 expired, saying so, once the expiry has passed (kept in the database)", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "hello" });
    await expireThread(thread.id);
    const error = await expectError(await api.getThread(thread.id), 404, "expired");
    expect(error.message).toContain("expired");
    expect(error.message).toContain(thread.id);
    expect(await (await db()).thread.count({ where: { id: thread.id } })).toBe(1);
  });

  it("expires a thread by the clock when CONVERSATION_TIMEOUT_HOURS is tiny", async () => {
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: String(150 / HOUR_MS) }); // 150 ms
    const thread = await newThread();
    expect((await fetchThread(thread.id)).thread.expired).toBe(false);
    await sleep(200);
    const error = await expectError(await api.getThread(thread.id), 404, "expired");
    expect(error.message).toContain("expired");
  });

  it("never expires a thread with CONVERSATION_TIMEOUT_HOURS=0", async () => {
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "0" });
    const thread = await newThread();
    expect(thread.expiresAt).toBeNull();
    await newTurn(thread.id, { role: "user", content: "hello" });
    // Last touched long ago, still there.
    await (await db()).thread.update({ where: { id: thread.id }, data: { lastUpdatedAt: new Date("2001-01-01T00:00:00Z") } });
    const { thread: stored } = await fetchThread(thread.id);
    expect(stored.expiresAt).toBeNull();
    expect(stored.expired).toBe(false);
    await newTurn(thread.id, { role: "assistant", content: "still here" });
    expect((await fetchThread(thread.id)).thread.expiresAt).toBeNull();
  });
});

describe("GET /api/threads/:id stays consistent with the list", () => {
  it("reports the same thread in the list and on its own", async () => {
    const thread = await newThread({ toolName: "consistency-check" });
    await newTurn(thread.id, { role: "user", content: "hello", modelName: "m1" });
    const listed = (await json<{ items: Thread[] }>(await api.listThreads({ tool: "consistency-check" }))).items;
    // Usage needs the turns: the single thread has it, the list not.
    const { usageWithSubagents, cost, costWithSubagents, ...single } = (await fetchThread(thread.id)).thread;
    expect(single.usage).toEqual(ZERO_USAGE); // a user turn alone: no response yet
    expect(usageWithSubagents).toMatchObject({ ...ZERO_USAGE, subagentThreads: 0, compactionRuns: 0 });
    expect([cost, costWithSubagents]).toEqual([ZERO_COST, ZERO_COST]);
    // The list prices each thread's own responses as the single thread does.
    expect(listed).toEqual([{ ...single, usage: null, cost }]);
  });
});

describe("GET /api/threads/:id/chain", () => {
  type ChainBody = { threads: (Thread & { turns: Turn[] })[] };

  async function chainOf(id: string): Promise<ChainBody["threads"]> {
    const response = await api.chain(id);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await json<ChainBody>(response)).threads;
  }

  async function buildChain(length: number): Promise<Thread[]> {
    const threads: Thread[] = [];
    for (let i = 0; i < length; i++) {
      const thread = await newThread({ toolName: "chat", parentThreadId: threads.at(-1)?.id });
      await newTurn(thread.id, { role: "user", content: `question ${i}` });
      await newTurn(thread.id, { role: "assistant", content: `answer ${i}`, modelName: "gpt-5" });
      threads.push(thread);
    }
    return threads;
  }

  it("returns the chain oldest first, each thread with its turns", async () => {
    const [root, middle, leaf] = await buildChain(3);
    const chain = await chainOf(leaf!.id);
    expect(chain.map((t) => t.id)).toEqual([root!.id, middle!.id, leaf!.id]);
    expect(chain.map((t) => t.parentThreadId)).toEqual([null, root!.id, middle!.id]);
    for (const [i, link] of chain.entries()) {
      const stored = await fetchThread(link.id);
      const { turns, ...thread } = link;
      // A chain's threads carry their own usage; with sub-agents is the single thread's answer.
      // Prices and its one figure (figures) are the single thread's too.
      const { usageWithSubagents: _, cost: _cost, costWithSubagents: _withSubagents, figures: _figures, ...storedThread } = stored.thread;
      expect(thread).toEqual(storedThread);
      expect(turns).toEqual(stored.turns.map(({ cost: _turnCost, ...turn }) => turn));
      expect(turns.map((t) => t.content)).toEqual([`question ${i}`, `answer ${i}`]);
    }
    // From the middle: only the part that ends there.
    expect((await chainOf(middle!.id)).map((t) => t.id)).toEqual([root!.id, middle!.id]);
    expect((await chainOf(root!.id)).map((t) => t.id)).toEqual([root!.id]);
  });

  it("caps a chain of 25 threads to the newest 20", async () => {
    const threads = await buildChain(25);
    const chain = await chainOf(threads[24]!.id);
    expect(chain).toHaveLength(20);
    expect(chain.map((t) => t.id)).toEqual(threads.slice(5).map((t) => t.id));
    expect(chain[0]!.parentThreadId).toBe(threads[4]!.id);
    expect(chain.every((t) => t.turns.length === 2)).toBe(true);
  });

  it("stops at an expired ancestor, and is not found from an expired thread", async () => {
    const [root, middle, leaf] = await buildChain(3);
    await expireThread(middle!.id);
    expect((await chainOf(leaf!.id)).map((t) => t.id)).toEqual([leaf!.id]);
    await expireThread(leaf!.id);
    await expectError(await api.chain(leaf!.id), 404, "expired");
    expect((await chainOf(root!.id)).map((t) => t.id)).toEqual([root!.id]);
  });

  it("answers 404 for malformed and unknown ids", async () => {
    await expectError(await api.chain("nope"), 404, "not_found");
    await expectError(await api.chain("7a000000-0000-4000-8000-000000000000"), 404, "not_found");
  });
});

describe("DELETE /api/threads/:id", () => {
  it("purges a thread and its turns (204), after which it is not found", async () => {
    const parent = await newThread();
    await newTurn(parent.id, { role: "user", content: "parent turn" });
    await newTurn(parent.id, { role: "assistant", content: "parent answer" });
    const child = await newThread({ toolName: "chat", parentThreadId: parent.id });
    await newTurn(child.id, { role: "user", content: "child turn" });
    const before = await rowCounts();

    const response = await api.deleteThread(parent.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    await expectError(await api.getThread(parent.id), 404, "not_found");
    await expectError(await api.deleteThread(parent.id), 404, "not_found");
    expect(await rowCounts()).toEqual({ threads: before.threads - 1, turns: before.turns - 2 });
    expect(await (await db()).turn.count({ where: { threadId: parent.id } })).toBe(0);

    // The child keeps its link; its chain stops at the purged parent.
    const { thread: orphan, turns } = await fetchThread(child.id);
    expect(orphan.parentThreadId).toBe(parent.id);
    expect(turns).toHaveLength(1);
    const chain = await json<{ threads: Thread[] }>(await api.chain(child.id));
    expect(chain.threads.map((t) => t.id)).toEqual([child.id]);
  });

  it("purges expired threads too, and answers 404 for malformed ids", async () => {
    const thread = await newThread();
    await expireThread(thread.id);
    expect((await api.deleteThread(thread.id.toUpperCase())).status).toBe(204);
    expect(await (await db()).thread.count({ where: { id: thread.id } })).toBe(0);
    await expectError(await api.deleteThread("not-an-id"), 404, "not_found");
  });
});

describe("unexpected failures", () => {
  it("answer 500 internal with a generic message; the details go to the server log only", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    setServerEnv({ DATABASE_URL: `file:${process.cwd()}/.tmp/no-such-directory/${crypto.randomUUID()}/x.db` });
    for (const response of [
      await api.createThread({ toolName: "chat" }),
      await api.listThreads(),
      await api.getThread(crypto.randomUUID()),
    ]) {
      const error = await expectError(response, 500, "internal");
      expect(error).toEqual({ code: "internal", message: "Internal error; see the server log." });
    }
    expect(logged).toHaveBeenCalled();
    expect(String(logged.mock.calls[0]![0])).toContain("unexpected error");
  });
});
