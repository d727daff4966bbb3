/**
 * Integration tests of the thread list (GET /api/threads): filters, keyset pagination and search.
 * The real route handlers, called with real Request objects, against this test file's own
 * database (lib/testing/setup-database.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import type { Thread } from "@/lib/domain/types";
import { json } from "@/lib/testing/api";
import {
  api,
  expectError,
  expireThread,
  newThread,
  newTurn,
  restoreServerEnv,
  sleep,
  switchToFreshDatabase,
} from "@/lib/testing/integration";

// Tests below switch to an empty database of their own; the next one starts on the file's again.
afterEach(restoreServerEnv);

describe("GET /api/threads (list)", () => {
  type Page = { items: Thread[]; nextCursor: string | null };

  async function listPage(query: Record<string, string>): Promise<Page> {
    const response = await api.listThreads(query);
    expect(response.status, await response.clone().text()).toBe(200);
    return json<Page>(response);
  }

  /** Every page from the start, following nextCursor. */
  async function listAll(query: Record<string, string>): Promise<{ pages: Page[]; ids: string[] }> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await listPage(cursor ? { ...query, cursor } : query);
      pages.push(page);
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(100);
    } while (cursor);
    return { pages, ids: pages.flatMap((p) => p.items.map((t) => t.id)) };
  }

  /** The expected order, computed from the rows rather than from the API. */
  async function expectedOrder(ids?: string[]): Promise<string[]> {
    const rows = await (await db()).thread.findMany({ where: ids ? { id: { in: ids } } : {}, select: { id: true, lastUpdatedAt: true } });
    return rows
      .sort((a, b) => b.lastUpdatedAt.getTime() - a.lastUpdatedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((r) => r.id);
  }

  describe("keyset pagination (own database)", () => {
    let created: string[];

    beforeEach(async () => {
      await switchToFreshDatabase();
      created = [];
      for (let i = 0; i < 30; i++) created.push((await newThread({ toolName: i % 2 ? "chat" : "codereview" })).id);
      // Some activity reorders the list; ten threads share one timestamp, so ids break the ties.
      for (const id of [created[3]!, created[17]!, created[8]!]) {
        await sleep(2);
        await newTurn(id, { role: "user", content: "bump" });
      }
      const tie = new Date(Date.now() - 60_000);
      await (await db()).thread.updateMany({ where: { id: { in: created.slice(20, 30) } }, data: { lastUpdatedAt: tie } });
    });

    it("pages through 30 threads 7 at a time: each exactly once, lastUpdatedAt desc then id desc", async () => {
      const { pages, ids } = await listAll({ limit: "7" });
      expect(pages.map((p) => p.items.length)).toEqual([7, 7, 7, 7, 2]);
      expect(pages.at(-1)!.nextCursor).toBeNull();
      expect(new Set(ids).size).toBe(30);
      expect([...ids].sort()).toEqual([...created].sort());
      expect(ids).toEqual(await expectedOrder());
      expect(ids.slice(0, 3)).toEqual([created[8], created[17], created[3]]);
    });

    it("defaults to 25 per page and ends with nextCursor null", async () => {
      const first = await listPage({});
      expect(first.items).toHaveLength(25);
      expect(first.nextCursor).not.toBeNull();
      const second = await listPage({ cursor: first.nextCursor! });
      expect(second.items).toHaveLength(5);
      expect(second.nextCursor).toBeNull();
      const exact = await listPage({ limit: "30" });
      expect(exact.items).toHaveLength(30);
      expect(exact.nextCursor).toBeNull();
    });

    it("stays stable when threads are created between page fetches: no duplicates, no skips", async () => {
      const firstPage = await listPage({ limit: "7" });
      const seen = firstPage.items.map((t) => t.id);
      let cursor = firstPage.nextCursor;
      const added: string[] = [];
      while (cursor) {
        for (let i = 0; i < 2; i++) added.push((await newThread({ toolName: "late" })).id);
        const page = await listPage({ limit: "7", cursor });
        seen.push(...page.items.map((t) => t.id));
        cursor = page.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual([...created].sort()); // the new threads are newer than every cursor
      expect(added.length).toBeGreaterThan(0);
      // A fresh listing starts with the new ones.
      const fresh = await listAll({ limit: "7" });
      expect(fresh.ids).toHaveLength(30 + added.length);
      expect(fresh.ids.slice(0, added.length).sort()).toEqual([...added].sort());
    });

    it("pages search results with the same keyset (q, cursor and filters together)", async () => {
      // Every created thread gets a turn that matches; the list order is by activity.
      for (const id of created) await newTurn(id, { role: "assistant", content: `pagination marker ${id.slice(0, 4)}` });
      const searched = await listAll({ q: "pagination", limit: "4" });
      expect(searched.pages.map((p) => p.items.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 2]);
      expect(searched.ids).toEqual(await expectedOrder());
      const filtered = await listAll({ q: "marker", tool: "codereview", limit: "4" });
      const codereview = (await (await db()).thread.findMany({ where: { toolName: "codereview" }, select: { id: true } })).map((r) => r.id);
      expect(filtered.ids).toEqual(await expectedOrder(codereview));
      expect(filtered.ids).toHaveLength(15);
    });
  });

  describe("search and filters (own database)", () => {
    let authByTurn: Thread;
    let authByTitle: Thread;
    let cafe: Thread;
    let unrelated: Thread;
    let percent: Thread;

    beforeEach(async () => {
      await switchToFreshDatabase();
      authByTurn = await newThread({ toolName: "chat", title: "Alpha" });
      await newTurn(authByTurn.id, { role: "user", content: "Let us discuss things" });
      await newTurn(authByTurn.id, {
        role: "assistant",
        content: "The authentication token refresh is broken",
        toolName: "codereview",
        modelName: "gpt-5",
        modelProvider: "openai",
      });
      authByTitle = await newThread({ toolName: "debug", title: "OAuth login loop" });
      await newTurn(authByTitle.id, { role: "user", content: "nothing relevant here", modelName: "gemini-2.5-pro" });
      cafe = await newThread({ toolName: "chat" });
      await newTurn(cafe.id, { role: "user", content: "Meet at the Café Zoë tomorrow 50% off" });
      unrelated = await newThread({ toolName: "planner", title: "Gardening" });
      await newTurn(unrelated.id, { role: "user", content: "tomatoes and basil", modelName: "gpt-5" });
      percent = await newThread({ toolName: "chat", title: "100% done_now" });
    });

    const ids = async (query: Record<string, string>) => (await listPage(query)).items.map((t) => t.id).sort();

    it("matches titles and turn content by word prefix", async () => {
      expect(await ids({ q: "auth" })).toEqual([authByTurn.id, authByTitle.id].sort());
      expect(await ids({ q: "authentication" })).toEqual([authByTurn.id]);
      expect(await ids({ q: "thentication" })).toEqual([]); // not a word prefix, not in a title
      expect(await ids({ q: "token auth" })).toEqual([authByTurn.id]); // every term, any order
      expect(await ids({ q: "token tomatoes" })).toEqual([]);
      expect(await ids({ q: "GARDEN" })).toEqual([unrelated.id]);
      expect(await ids({ q: "cafe zoe" })).toEqual([cafe.id]); // diacritics folded
      expect(await ids({ q: "   " })).toHaveLength(5); // blank q lists everything
    });

    it.each([
      ['"'],
      ["*"],
      ["NEAR("],
      ["OR"],
      ["auth OR"],
      ['"auth'],
      ["a AND"],
      ["NOT x"],
      ["^col:x"],
      ["-auth"],
      ["(auth"],
      ["'"],
      ["\\"],
      [";--"],
    ])("does not error on FTS syntax in q: %s", async (q) => {
      const response = await api.listThreads({ q });
      expect(response.status, await response.clone().text()).toBe(200);
      const body = await json<Page>(response);
      expect(Array.isArray(body.items)).toBe(true);
    });

    it("reads FTS operators as words and quoted terms as terms", async () => {
      // Quotes are not syntax: the term is auth (word prefix); the title match takes q literally.
      expect(await ids({ q: '"auth"' })).toEqual([authByTurn.id]);
      expect(await ids({ q: "auth* OR" })).toEqual([]); // "or" is a term that no thread has
      expect(await ids({ q: "NEAR(authentication" })).toEqual([]);
    });

    it("treats LIKE wildcards in q literally", async () => {
      // cafe's title is its first user turn, "... 50% off"; unescaped, "%" would match all five.
      expect(await ids({ q: "%" })).toEqual([percent.id, cafe.id].sort());
      expect(await ids({ q: "_" })).toEqual([percent.id]);
      expect(await ids({ q: "0% d" })).toEqual([percent.id]);
    });

    it("filters by tool: the thread's tool or any turn's tool", async () => {
      expect(await ids({ tool: "codereview" })).toEqual([authByTurn.id]);
      expect(await ids({ tool: "chat" })).toEqual([authByTurn.id, cafe.id, percent.id].sort());
      expect(await ids({ tool: "debug" })).toEqual([authByTitle.id]);
      expect(await ids({ tool: "nothing" })).toEqual([]);
      expect(await ids({ tool: "codereview", q: "auth" })).toEqual([authByTurn.id]);
      expect(await ids({ tool: "debug", q: "authentication" })).toEqual([]);
    });

    it("filters by model: any turn's model", async () => {
      expect(await ids({ model: "gpt-5" })).toEqual([authByTurn.id, unrelated.id].sort());
      expect(await ids({ model: "gemini-2.5-pro" })).toEqual([authByTitle.id]);
      expect(await ids({ model: "gpt" })).toEqual([]); // exact, not prefix
      expect(await ids({ model: "gpt-5", tool: "planner" })).toEqual([unrelated.id]);
      expect(await ids({ model: "gpt-5", q: "tomatoes" })).toEqual([unrelated.id]);
      expect(await ids({ model: "gpt-5", q: "tomatoes", tool: "chat" })).toEqual([]);
    });

    it("lists expired threads, flagged expired", async () => {
      await expireThread(unrelated.id);
      const items = (await listPage({ q: "garden" })).items;
      expect(items.map((t) => [t.id, t.expired])).toEqual([[unrelated.id, true]]);
    });
  });

  it.each([["0"], ["1000"], ["101"], ["x"], ["-1"], ["2.5"]])("answers 400 naming limit for limit=%j", async (limit) => {
    const error = await expectError(await api.listThreads(`limit=${encodeURIComponent(limit)}`), 400, "validation_failed");
    expect(error.message.startsWith("limit:"), error.message).toBe(true);
    expect(error.details).toEqual([{ field: "limit", message: expect.any(String) }]);
  });

  it.each([
    ["garbage", "garbage!!"],
    ["base64 of nonsense", Buffer.from("hello").toString("base64url")],
    ["a cursor without an id", Buffer.from(`${new Date().toISOString()}|`).toString("base64url")],
    ["a cursor with a bad date", Buffer.from("2024-13-45T00:00:00.000Z|abc").toString("base64url")],
    ["a cursor with extra fields", Buffer.from(`${new Date().toISOString()}|a|b`).toString("base64url")],
  ])("answers 400 naming cursor for %s", async (_name, cursor) => {
    for (const query of [{ cursor }, { cursor, q: "auth" }] as Record<string, string>[]) {
      const error = await expectError(await api.listThreads(query), 400, "validation_failed");
      expect(error.message.startsWith("cursor:"), error.message).toBe(true);
      expect(error.details).toEqual([{ field: "cursor", message: expect.any(String) }]);
    }
  });

  it("answers 400 naming q for an over-long q", async () => {
    const error = await expectError(await api.listThreads({ q: "a".repeat(501) }), 400, "validation_failed");
    expect(error.message.startsWith("q:")).toBe(true);
  });
});
