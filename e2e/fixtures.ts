/**
 * The specs' fixtures: what a test writes it deletes again, even when it fails, so no spec depends
 * on another's data or on the order they run in. The servers' starting state (the seeded demo set,
 * the empty server, the imports server) is for reading: a test that needs to change a seeded
 * thread works on a copy of it (threads.copyOf).
 *
 * A `server` argument is a base URL (SEEDED_URL, EMPTY_URL, IMPORTS_URL); left out, it is the
 * spec's own (its baseURL).
 */
import { test as base, expect, type APIRequestContext, type Locator } from "@playwright/test";
import type { Thread } from "../lib/domain/types";

export type Threads = {
  /** Creates a thread through POST /api/threads. */
  create(body?: Record<string, unknown>, server?: string): Promise<Thread>;
  /** Appends a turn through POST /api/threads/:id/turns. */
  appendTurn(threadId: string, turn: Record<string, unknown>, server?: string): Promise<void>;
  /** A copy of a thread under a new id (its export imported with ?mode=copy), to change instead of a seeded one. */
  copyOf(threadId: string, server?: string): Promise<string>;
  /** Deletes a thread the test made some other way (a fork, a revision, an import); one already gone is fine. */
  track(threadId: string, server?: string): void;
  /** Deletes every thread the server gains from now until the test ends: for imports through the page, whose ids the test never sees. */
  sweepAfterwards(server?: string): Promise<void>;
};

export const test = base.extend<{ threads: Threads }>({
  // Playwright's `use` under another name: React's hook rule would take it for a hook.
  threads: async ({ request }, provide) => {
    const tracked: { server: string; id: string }[] = [];
    const swept: { server: string; before: Set<string> }[] = [];
    const track = (id: string, server = "") => void tracked.push({ server, id });

    await provide({
      async create(body = { toolName: "e2e" }, server = "") {
        const response = await request.post(`${server}/api/threads`, { data: body });
        expect(response.status(), await response.text()).toBe(201);
        const { thread } = (await response.json()) as { thread: Thread };
        track(thread.id, server);
        return thread;
      },
      async appendTurn(threadId, turn, server = "") {
        const response = await request.post(`${server}/api/threads/${threadId}/turns`, { data: turn });
        expect(response.status(), await response.text()).toBe(201);
      },
      async copyOf(threadId, server = "") {
        const exported = await request.get(`${server}/api/threads/${threadId}/export`);
        expect(exported.status()).toBe(200);
        const imported = await request.post(`${server}/api/import?mode=copy`, { data: await exported.json() });
        expect(imported.status(), await imported.text()).toBe(201);
        const [id] = ((await imported.json()) as { threadIds: string[] }).threadIds;
        track(id!, server);
        return id!;
      },
      track,
      async sweepAfterwards(server = "") {
        swept.push({ server, before: new Set(await threadIds(request, server)) });
      },
    });

    for (const { server, before } of swept) {
      for (const id of await threadIds(request, server)) if (!before.has(id)) track(id, server);
    }
    for (const { server, id } of tracked) {
      const response = await request.delete(`${server}/api/threads/${id}`, CLEANUP);
      expect([204, 404], `DELETE ${server}/api/threads/${id}`).toContain(response.status());
    }
  },
});

/**
 * Cleanup's requests go again once on a reset connection (Playwright retries only ECONNRESET):
 * the server keeps idle connections 65 s, but a test may wait longer than that on a page. Both
 * may repeat: a second DELETE answers 404, which cleanup accepts.
 */
const CLEANUP = { maxRetries: 1 };

/** Every thread id on a server, expired ones included, page by page. */
export async function threadIds(request: APIRequestContext, server: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const response = await request.get(`${server}/api/threads?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, CLEANUP);
    expect(response.status()).toBe(200);
    const page = (await response.json()) as { items: { id: string }[]; nextCursor: string | null };
    ids.push(...page.items.map((thread) => thread.id));
    cursor = page.nextCursor;
  }
  return ids;
}

/**
 * Waits until React has hydrated an element (it then carries React's own keys): a click on a
 * button that works only through its handler does nothing before that, and on a loaded machine
 * the server-rendered page can be clicked well before.
 */
export async function expectHydrated(element: Locator): Promise<void> {
  await expect.poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps$")))).toBe(true);
}

/**
 * Sets a file input's files once the page has hydrated: the import form's inputs stay disabled
 * until then, and files set on the server-rendered input would reach no handler.
 */
export async function chooseFiles(input: Locator, files: string | string[]): Promise<void> {
  await expect(input).toBeEnabled();
  await input.setInputFiles(files);
}

export { expect };
