/**
 * Integration tests (real database) of the paged turn API, GET /api/threads/:id/turns, and of the
 * cap on GET /api/threads/:id: pages put back together are the whole thread, usage included.
 */
import { describe, expect, it } from "vitest";
import { GET as threadRoute } from "@/app/api/threads/[id]/route";
import { withSessionUsage } from "@/lib/db/usage/session-usage";
import { getThreadHead } from "@/lib/db/threads/turn-pages";
import type { Thread, Turn } from "@/lib/domain/types";
import { importFile } from "@/lib/imports/import-file";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { expectError, expireThread, fetchThread, newThread, newTurn } from "@/lib/testing/integration";
import { GET as turnsRoute } from "./route";

type Page = { items: Turn[]; nextCursor: string | null };
const page = (id: string, query: string) => turnsRoute(jsonRequest("GET", `/api/threads/${id}/turns?${query}`), params({ id }));

/** 12 turns: exchanges without reported usage (estimated from the turns before), a compaction marker at 6. */
async function threadWithCompaction(): Promise<Thread> {
  const thread = await newThread({ toolName: "pages" });
  for (let i = 0; i < 12; i++) {
    if (i === 6)
      await newTurn(thread.id, {
        role: "system",
        content: "Summary of what came before.",
        parts: [{ type: "compaction", trigger: "auto", tokensBefore: 900, tokensAfter: 40 }],
      });
    else await newTurn(thread.id, { role: i % 2 === 0 ? "user" : "assistant", content: `turn ${i}: ${"words ".repeat(i * 3)}` });
  }
  return thread;
}

describe("GET /api/threads/:id/turns", () => {
  it("pages through a thread in index order; the pages together are the whole thread, estimated usage included", async () => {
    const thread = await threadWithCompaction();
    const whole = await fetchThread(thread.id);
    const seen: Turn[] = [];
    let query = "limit=5";
    for (let guard = 0; guard < 10; guard++) {
      const response = await page(thread.id, query);
      expect(response.status).toBe(200);
      const body = await json<Page>(response);
      seen.push(...body.items);
      if (!body.nextCursor) break;
      expect(body.items).toHaveLength(5);
      query = `limit=5&cursor=${body.nextCursor}`;
    }
    expect(seen.map((t) => t.index)).toEqual([...Array(12).keys()]);
    expect(seen).toEqual(whole.turns);
    expect(seen.filter((t) => t.usage?.source === "estimated").length).toBeGreaterThan(3);
  });

  it("starts at a turn with ?from=, and answers an empty last page past the end", async () => {
    const thread = await threadWithCompaction();
    const whole = await fetchThread(thread.id);
    const from7 = await json<Page>(await page(thread.id, "from=7&limit=3"));
    expect(from7.items).toEqual(whole.turns.slice(7, 10));
    expect(await json<Page>(await page(thread.id, "from=12"))).toEqual({ items: [], nextCursor: null });
    expect((await json<Page>(await page(thread.id, ""))).items).toHaveLength(12); // the default page holds 100
  });

  it("names the bad parameter, and answers an unknown thread like every thread route", async () => {
    const thread = await newThread({ toolName: "pages" });
    expect((await expectError(await page(thread.id, "limit=501"), 400, "validation_failed")).message).toMatch(/limit/);
    expect((await expectError(await page(thread.id, "from=-1"), 400, "validation_failed")).message).toMatch(/from/);
    expect((await expectError(await page(thread.id, "cursor=bm9wZQ"), 400, "validation_failed")).message).toMatch(/cursor/);
    const first = await json<Page>(await page(thread.id, "limit=1"));
    expect(
      (await expectError(await page(thread.id, `from=1&cursor=${first.nextCursor ?? "x"}`), 400, "validation_failed")).message,
    ).toMatch(/cursor or from/);
    await expectError(await page("0b9a2c3e-1d2a-4b5c-8d9e-0a1b2c3d4e5f", ""), 404, "not_found");
    expect((await expectError(await page(thread.id, "includeExpired=yes"), 400, "validation_failed")).message).toMatch(/^includeExpired:/);
  });

  it("reads an expired thread only when asked (the thread page shows expired threads)", async () => {
    const thread = await threadWithCompaction();
    await expireThread(thread.id);
    await expectError(await page(thread.id, "limit=2"), 404, "expired");
    expect((await json<Page>(await page(thread.id, "limit=2&includeExpired=1"))).items.map((t) => t.index)).toEqual([0, 1]);
  });
});

describe("GET /api/threads/:id past its cap", () => {
  it("answers the first 1,000 turns of a longer thread, says so and names the next page; totals stay the whole thread's", async () => {
    const list = Array.from({ length: 1_003 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `line ${i}` }));
    const report = await importFile("long-thread.json", JSON.stringify(list));
    const id = report.threadIds[0]!;
    const response = await threadRoute(jsonRequest("GET", `/api/threads/${id}`), params({ id }));
    const head = await json<{ thread: Thread; turns: Turn[]; turnsTruncated?: boolean; moreTurns?: string }>(response);
    expect(head.turns).toHaveLength(1_000);
    expect(head).toMatchObject({
      turnsTruncated: true,
      moreTurns: expect.stringMatching(new RegExp(`^/api/threads/${id}/turns\\?cursor=`)),
    });
    const rest = await json<Page>(await page(id, new URL(head.moreTurns!, "http://x").searchParams.toString()));
    expect(rest.items.map((t) => t.index)).toEqual([1_000, 1_001, 1_002]);

    // The same thread read whole (as chat and compaction do) has the same totals.
    const whole = await withSessionUsage(await getThreadHead(id, 5_000));
    expect(whole.turnsTruncated).toBeUndefined();
    expect(head.thread.usage).toEqual(whole.thread.usage);
    // The head's cost is read from the store over every response, as the whole thread's is summed from its turns.
    expect(head.thread.cost).toEqual(whole.thread.cost);
    expect(head.thread.cost!.unpricedResponses).toBe(501);
    expect(head.thread.tokens).toEqual(whole.thread.tokens);
    expect([...head.turns, ...rest.items]).toEqual(whole.turns);
  });
});
