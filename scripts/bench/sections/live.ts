// An open thread page following its session file: a second production server on the bench's
// database follows a temporary folder, and a real Chromium page shows the session's thread.
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { chromium, type Page } from "@playwright/test";
import { createDatabase } from "../../../lib/db/engine/create-client";
import { importedFileRecord } from "../../../lib/db/imports/dialect-files";
import { readServerSentEvents } from "../../../lib/domain/server-sent-events";
import { REAL_TRANSCRIPTS } from "../../../lib/testing/real-transcripts";
import { BENCH_DIR, KEEP_DB } from "../config";
import { summarize } from "../measure";
import { Bench, fmtBytes } from "../section";
import { getJson, startServer } from "../server";

/** The real Claude Code session the page shows (125 KB, 53 lines, sub-agents included), under fresh UUIDs. */
const SESSION = path.join(REAL_TRANSCRIPTS, "claude-code/projects/-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Timed appends, after WARMUP untimed ones. */
const APPENDS = 20;
const WARMUP = 2;
/** The target: an appended line visible in an open page within 1 s (p95). */
const TARGET_P95_MS = 1000;
const SHOWN_TIMEOUT_MS = 15_000;

type Entry = Record<string, unknown> & { uuid?: string; type?: string; isSidechain?: boolean };

/**
 * "Appended line visible in an open page": the server follows a folder holding one Claude Code
 * session (THREADLINE_SOURCES), Chromium shows the session's thread scrolled to its end, and the
 * bench appends a user line to the file as Claude Code writes one, timing from just before the
 * write until the line's text is in the page (a MutationObserver in the page notes when). Between
 * appends it waits a random 0.5-2 s, so the page's polls and the folder's watch are met at any
 * phase.
 */
export async function sectionLive(bench: Bench): Promise<void> {
  const dir = path.join(BENCH_DIR, "live");
  rmSync(dir, { recursive: true, force: true });
  const project = path.join(dir, "-path-to-Demo");
  mkdirSync(project, { recursive: true });
  const ids = new Map<string, string>();
  const text = readFileSync(SESSION, "utf8").replace(UUID, (id) => ids.get(id) ?? (ids.set(id, randomUUID()), ids.get(id)!));
  const sessionId = /"sessionId":"([^"]+)"/.exec(text)![1]!;
  const file = path.join(project, `${sessionId}.jsonl`);
  writeFileSync(file, text);

  const server = await startServer(bench.databaseUrl, {
    env: { THREADLINE_SOURCES: dir },
    logFile: path.join(BENCH_DIR, "live-server.log"),
  });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const threadId = await importedThread(bench.databaseUrl, server.baseUrl, text);
    // The stream as a page gets it, read here too: when each append's event left the server.
    const events = await announcements(server.baseUrl, threadId);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.baseUrl}/threads/${threadId}`);
    await page.getByRole("list", { name: "Turns" }).waitFor();
    await page.waitForTimeout(1000); // hydrated, its first checks made
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight }));
    const turnsBefore = (await getJson<{ turnCount: number }>(server.baseUrl, `/api/threads/${threadId}/live`)).turnCount;

    const entries = text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Entry);
    const main = entries.filter((e) => e.isSidechain === false && typeof e.uuid === "string");
    const { toolUseResult: _result, ...template } = main.filter((e) => e.type === "user").at(-1)!;
    let parent = main.at(-1)!.uuid!;
    const samples: number[] = [];
    const toEvent: number[] = [];
    const toPage: number[] = [];
    for (let i = 0; i < WARMUP + APPENDS; i++) {
      await page.waitForTimeout(500 + Math.random() * 1500);
      const said = `Appended line ${i} at ${Date.now()}: is it on the page yet?`;
      const uuid = randomUUID();
      const line = { ...template, uuid, parentUuid: parent, timestamp: new Date().toISOString(), message: { role: "user", content: said } };
      parent = uuid;
      const seen = whenShown(page, said);
      await page.evaluate(() => undefined); // the observer is in place before the write
      const written = Date.now();
      appendFileSync(file, `${JSON.stringify(line)}\n`);
      const shownAt = await seen;
      const announcedAt = await events.when(turnsBefore + i + 1);
      if (i < WARMUP) continue;
      samples.push(shownAt - written);
      toEvent.push(announcedAt - written);
      toPage.push(shownAt - announcedAt);
    }
    events.stop();
    const stats = summarize(samples);
    const [event, render] = [summarize(toEvent), summarize(toPage)];
    bench.record({
      section: "live",
      name: "appended line visible in an open page (ms)",
      stats,
      target: { metric: "p95", maxMs: TARGET_P95_MS },
      note: `a user line appended to a followed ${fmtBytes(Buffer.byteLength(text))} Claude Code session until its text is in an open thread page (Chromium, at the end); max ${Math.round(stats.max)} ms. Of which: file to event (watch, sync, import) p50 ${Math.round(event.p50)} / p95 ${Math.round(event.p95)} ms; event to page (refresh, render) p50 ${Math.round(render.p50)} / p95 ${Math.round(render.p95)} ms`,
    });
    bench.facts.live = { samples: samples.map(Math.round), toEvent: toEvent.map(Math.round), toPage: toPage.map(Math.round) };
  } finally {
    await browser.close();
    await server.stop();
    if (!KEEP_DB) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Sets a MutationObserver in the page that answers the time (Date.now) at which `text` is first in
 * the page's text. (A string: tsx would wrap a function's inner names in a helper the page lacks.)
 */
function whenShown(page: Page, text: string): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const text = ${JSON.stringify(text)};
    if (document.body.innerText.includes(text)) return resolve(Date.now());
    const observer = new MutationObserver(() => {
      if (!document.body.innerText.includes(text)) return;
      observer.disconnect();
      resolve(Date.now());
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    setTimeout(() => {
      observer.disconnect();
      reject(new Error("not shown within ${SHOWN_TIMEOUT_MS} ms"));
    }, ${SHOWN_TIMEOUT_MS});
  })`) as Promise<number>;
}

/**
 * Reads GET /api/events beside the page: `when(n)` answers the time (Date.now) at which the stream
 * said the thread holds `n` turns (or more).
 */
async function announcements(baseUrl: string, threadId: string): Promise<{ when(turnCount: number): Promise<number>; stop(): void }> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, { signal: abort.signal });
  if (!response.ok || !response.body) throw new Error(`live: GET /api/events answered ${response.status}`);
  const seen: { turnCount: number; at: number }[] = [];
  const waiting: { turnCount: number; resolve: (at: number) => void }[] = [];
  void (async () => {
    try {
      for await (const event of readServerSentEvents(response.body as ReadableStream<Uint8Array<ArrayBuffer>>)) {
        const data = event.data as { id?: string; turnCount?: number };
        if (event.event !== "thread" || data.id !== threadId) continue;
        const at = Date.now();
        seen.push({ turnCount: data.turnCount!, at });
        for (const wait of waiting.splice(0)) {
          if (data.turnCount! >= wait.turnCount) wait.resolve(at);
          else waiting.push(wait);
        }
      }
    } catch {
      // stopped
    }
  })();
  return {
    when: (turnCount) => {
      const found = seen.find((s) => s.turnCount >= turnCount);
      if (found) return Promise.resolve(found.at);
      return new Promise((resolve, reject) => {
        waiting.push({ turnCount, resolve });
        setTimeout(() => reject(new Error(`live: no event for turn ${turnCount} within ${SHOWN_TIMEOUT_MS} ms`)), SHOWN_TIMEOUT_MS).unref();
      });
    },
    stop: () => abort.abort(),
  };
}

/** The session's main thread, once the server's first sync has imported the file and watches the folder. */
async function importedThread(databaseUrl: string, baseUrl: string, text: string): Promise<string> {
  const sha256 = createHash("sha256").update(text).digest("hex");
  const db = createDatabase(databaseUrl);
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const record = await importedFileRecord(db, sha256);
      const sources = await getJson<{ folders: { state: string }[] }>(baseUrl, "/api/sources");
      if (record && record.threadIds.length > 0 && sources.folders[0]?.state === "watching") {
        for (const id of record.threadIds) {
          const { thread } = await getJson<{ thread: { id: string; parentThreadId: string | null } }>(baseUrl, `/api/threads/${id}`);
          if (thread.parentThreadId === null) return thread.id;
        }
      }
      if (Date.now() > deadline) throw new Error("live: the followed session was not imported within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await db.$disconnect();
  }
}
