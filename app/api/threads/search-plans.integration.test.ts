import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { json } from "@/lib/testing/api";
import { api } from "@/lib/testing/integration";

/**
 * The list search picks a plan by how many turns match (lib/db/engine/dialect.ts): both must return the
 * same threads in the same order, page after page. "widespread" matches 6,000 turns (the
 * walk-threads plan); "scarce" matches a handful (the look-up-each-match plan).
 */
const THREADS = 120;
const TURNS_PER_THREAD = 60;

function corpus() {
  const base = Date.parse("2026-05-01T00:00:00.000Z");
  return {
    format: "threadline/v1",
    threads: Array.from({ length: THREADS }, (_, t) => ({
      id: randomUUID(),
      title: `Thread ${t}`,
      toolName: "chat",
      createdAt: new Date(base + t * 60_000).toISOString(),
      lastUpdatedAt: new Date(base + t * 60_000).toISOString(),
      turns: Array.from({ length: TURNS_PER_THREAD }, (_, i) => ({
        id: randomUUID(),
        role: i % 2 ? "assistant" : "user",
        // Threads divisible by 3 never mention the common word; every 40th thread has the rare one.
        content: `${t % 3 === 0 ? "quiet" : "widespread"} turn ${i}${t % 40 === 7 && i === 5 ? " scarce" : ""}`,
        timestamp: new Date(base + t * 60_000).toISOString(),
      })),
    })),
  };
}

async function allPages(q: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const response: Response = await api.listThreads({ q, limit: "25", ...(cursor ? { cursor } : {}) });
    expect(response.status).toBe(200);
    const page = await json<{ items: { id: string }[]; nextCursor: string | null }>(response);
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe("search plans", () => {
  it("return the same threads, newest first, for common and rare terms", async () => {
    const doc = corpus();
    expect((await api.importDocuments(doc)).status).toBe(201);
    const newestFirst = [...doc.threads].reverse();

    const common = await allPages("widespread");
    expect(common).toEqual(newestFirst.filter((_, i) => (THREADS - 1 - i) % 3 !== 0).map((t) => t.id));
    expect(common).toHaveLength(80);

    const rare = await allPages("scarce");
    expect(rare).toEqual(newestFirst.filter((_, i) => (THREADS - 1 - i) % 40 === 7).map((t) => t.id));
    expect(rare).toHaveLength(3);
  });
});
