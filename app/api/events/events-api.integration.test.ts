/**
 * GET /api/events through its route handler, on the test file's real database: a client that
 * listens gets the sources' status first, then a `thread` event for each write made through the
 * API (a turn, a new thread, an import, a purge), the state GET /api/threads/:id/live answers, and
 * the sync of a followed folder (its start, its end, the threads it imported). Aborting the
 * request ends the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as startSync } from "@/app/api/sources/sync/route";
import { GET as liveRoute } from "@/app/api/threads/[id]/live/route";
import { readServerSentEvents, type ServerSentEvent } from "@/lib/domain/server-sent-events";
import type { SourcesStatus } from "@/lib/domain/sources/sources";
import { sourceSync } from "@/lib/sources/sync";
import { jsonRequest, params } from "@/lib/testing/api";
import { api, expectError, expireThread, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { importOk, nativeDocument } from "@/lib/testing/native-documents";
import { makeSourcesHome } from "@/lib/testing/sources-home";
import { GET } from "./route";

let home: ReturnType<typeof makeSourcesHome>;
beforeAll(() => {
  home = makeSourcesHome();
  setServerEnv({ HOME: home.home, THREADLINE_SOURCES: "~/.claude/projects" });
});
afterAll(async () => {
  await sourceSync().close();
  home.remove();
  restoreServerEnv();
});

/** A client of the stream: its events as they come, and the abort that ends its request. */
async function listen() {
  const abort = new AbortController();
  // Kept for the test's length: a Request's signal follows the controller's only while the Request lives.
  const request = new Request("http://threadline.test/api/events", { signal: abort.signal });
  const response = await GET(request);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  expect(response.headers.get("cache-control")).toContain("no-transform");
  const events = readServerSentEvents(response.body as ReadableStream<Uint8Array<ArrayBuffer>>);
  /** The next event that `matches`, skipping others. */
  const next = async (matches: (event: ServerSentEvent) => boolean = () => true): Promise<ServerSentEvent> => {
    for (;;) {
      const { value, done } = await events.next();
      if (done) throw new Error("the stream ended");
      if (matches(value)) return value;
    }
  };
  return { next, events, abort, request };
}

const threadEvent = (id: string) => (event: ServerSentEvent) => event.event === "thread" && (event.data as { id: string }).id === id;

describe("GET /api/events", () => {
  it("sends the sources' status first, then the state of each thread written through the API", async () => {
    const client = await listen();
    const first = await client.next();
    expect(first.event).toBe("sources");
    expect(first.data).toMatchObject({ origin: "setting", syncing: false, folders: [{ path: home.claudeProjects }] });

    const thread = await newThread({ toolName: "chat", title: "Followed" });
    expect((await client.next(threadEvent(thread.id))).data).toEqual({ id: thread.id, turnCount: 0, lastUpdatedAt: thread.lastUpdatedAt });

    await newTurn(thread.id, { role: "user", content: "First" });
    await newTurn(thread.id, { role: "assistant", content: "Second" });
    expect((await client.next(threadEvent(thread.id))).data).toMatchObject({ turnCount: 1 });
    const second = await client.next(threadEvent(thread.id));
    // What the thread page polls without the stream: the same state, in one read.
    const polled = await (await liveRoute(jsonRequest("GET", `/api/threads/${thread.id}/live`), params({ id: thread.id }))).json();
    expect(second.data).toEqual(polled);
    expect(polled).toMatchObject({ id: thread.id, turnCount: 2 });
    expect(Date.parse(polled.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(thread.lastUpdatedAt));

    const document = nativeDocument([
      { turns: [{ id: crypto.randomUUID(), role: "user", content: "Imported", timestamp: new Date().toISOString() }] },
    ]);
    const [importedId] = (await importOk(document)).threadIds;
    expect((await client.next(threadEvent(importedId!))).data).toMatchObject({ id: importedId, turnCount: 1 });

    expect((await api.deleteThread(thread.id)).status).toBe(204);
    expect((await client.next(threadEvent(thread.id))).data).toEqual({ id: thread.id, turnCount: 0, lastUpdatedAt: null });
    client.abort.abort();
    expect((await client.events.next()).done).toBe(true);
  });

  it("sends a followed folder's sync as it starts and ends, and the threads it imported", async () => {
    const client = await listen();
    await client.next(); // the status at connection
    expect((await startSync(new Request("http://threadline.test/api/sources/sync", { method: "POST" }))).status).toBe(202);
    const started = await client.next((event) => event.event === "sources");
    expect((started.data as SourcesStatus).syncing).toBe(true);
    const imported = await client.next((event) => event.event === "thread");
    expect(imported.data).toMatchObject({ turnCount: expect.any(Number), lastUpdatedAt: expect.any(String) });
    const ended = await client.next((event) => event.event === "sources" && !(event.data as SourcesStatus).syncing);
    expect((ended.data as SourcesStatus).folders[0]).toMatchObject({ state: "watching", filesSeen: 7, imported: 7, failed: 0 });
    client.abort.abort();
  });

  it("lets the live state of an expired thread be read (the page shows it), and answers 404 for an unknown one", async () => {
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, { role: "user", content: "Old" });
    await expireThread(thread.id);
    const answer = await liveRoute(jsonRequest("GET", `/api/threads/${thread.id}/live`), params({ id: thread.id }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: thread.id, turnCount: 1 });
    const unknown = crypto.randomUUID();
    await expectError(await liveRoute(jsonRequest("GET", `/api/threads/${unknown}/live`), params({ id: unknown })), 404, "not_found");
  });
});
