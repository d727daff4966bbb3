/**
 * The Sources page on the server started with HOME=e2e/.data/sources-home (scripts/e2e-server.mjs
 * --sources-home): its ~/.claude/projects holds one real Claude Code session, imported by the
 * sync the server started in the background. A session added afterwards is picked up by the
 * server's watch of the folder, and open pages hear of it from the live event stream (GET
 * /api/events): the Sources page, the import page's line and an open thread page.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SEEDED_URL, SOURCES_HOME, SOURCES_URL } from "../playwright.config";
import { expect, test } from "./fixtures";
import { eventStreamOpened } from "./network";

const PROJECTS = path.join(SOURCES_HOME, ".claude", "projects");
const ADDED = path.join(PROJECTS, "-home-marco-projects-spotter", "55604662-cf2a-4331-851a-ec234028f8ca.jsonl");

/** The transcript files under the followed folder now. */
const filesOnDisk = () => readdirSync(PROJECTS, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".jsonl")).length;

/** GET /api/sources requests the page makes (its fallback poll), from now on. */
function statusPolls(page: import("@playwright/test").Page): string[] {
  const polls: string[] = [];
  page.on(
    "request",
    (request) => void (request.method() === "GET" && new URL(request.url()).pathname === "/api/sources" && polls.push(request.url())),
  );
  return polls;
}

test("the Sources page follows the folder live: a session the watch imports shows at once, and Sync now syncs it all", async ({
  page,
  threads,
}) => {
  await threads.sweepAfterwards(SOURCES_URL);
  test.info().attach("home", { body: SOURCES_HOME });
  try {
    const opened = eventStreamOpened(page);
    await page.goto(`${SOURCES_URL}/sources`);
    const folders = page.getByRole("list", { name: "Followed folders" });
    const folder = folders.getByRole("listitem").filter({ hasText: PROJECTS }).first();
    await expect(folder).toBeVisible();
    // The start-up sync may still run when the page loads: the stream brings its end.
    await expect(folder.getByTestId("source-counts")).toHaveText("1 file: 1 imported, 0 unchanged, 0 failed");
    await expect(folder).toHaveAttribute("data-state", "watching");
    await opened;

    // The server's watch imports the new session; the page hears it from the stream, without asking.
    const polls = statusPolls(page);
    cpSync(
      path.join(
        process.cwd(),
        "fixtures/real/claude-code/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl",
      ),
      ADDED,
    );
    await expect(folder.getByTestId("source-counts")).toHaveText(/^2 files: (1 imported, 1|0 imported, 2) unchanged, 0 failed$/);
    expect(polls).toEqual([]);

    const button = page.getByRole("button", { name: "Sync now" });
    await button.focus();
    await page.keyboard.press("Enter"); // keyboard, as anyone without a mouse would
    await expect(folder.getByTestId("source-counts")).toHaveText("2 files: 0 imported, 2 unchanged, 0 failed");
    await expect(page.getByRole("status")).toHaveText("Idle.");

    // The new session is a thread in the list.
    await page.goto(`${SOURCES_URL}/threads?project=${encodeURIComponent("/home/marco/projects/spotter")}`);
    await expect(page.getByRole("list", { name: "Threads" }).getByRole("listitem")).not.toHaveCount(0);
  } finally {
    rmSync(ADDED, { force: true });
  }
});

test("links out of the followed folder are listed as skipped with the reason, and nothing of them is imported", async ({
  page,
  request,
  threads,
}) => {
  await threads.sweepAfterwards(SOURCES_URL);
  const outside = mkdtempSync(path.join(os.tmpdir(), "threadline-e2e-outside-"));
  const marker = `outsidemarker${randomUUID().replaceAll("-", "")}`;
  writeFileSync(path.join(outside, "secret.json"), JSON.stringify([{ role: "user", content: `the secret is ${marker}` }]));
  cpSync(path.join(process.cwd(), "fixtures/real/claude-code/projects/-home-marco-projects-spotter"), path.join(outside, "project"), {
    recursive: true,
  });
  const leak = path.join(PROJECTS, "leak.json");
  const elsewhere = path.join(PROJECTS, "-elsewhere");
  await page.goto(`${SOURCES_URL}/sources`);
  const folder = page.getByRole("list", { name: "Followed folders" }).getByRole("listitem").filter({ hasText: PROJECTS }).first();
  await expect(folder).toHaveAttribute("data-state", "watching");
  try {
    // Made while the folder is watched: the watch hears of them, the page of its sync.
    symlinkSync(path.join(outside, "secret.json"), leak);
    symlinkSync(path.join(outside, "project"), elsewhere);
    const skipped = folder.getByRole("list", { name: `Skipped in ${PROJECTS}` });
    await expect(skipped.getByRole("listitem")).toHaveCount(2);
    for (const link of [elsewhere, leak])
      await expect(skipped.getByRole("listitem").filter({ hasText: link })).toContainText(
        "a symbolic link to a place outside the followed folder",
      );
    await expect(folder.getByRole("heading", { name: /^Skipped/ })).toBeVisible();
    await expect(folder.getByTestId("source-counts")).toHaveText("1 file: 0 imported, 1 unchanged, 0 failed, 2 skipped");
    await expect(folder.getByRole("list", { name: `Failures in ${PROJECTS}` })).toHaveCount(0);
    // Nothing out there reached the database: no thread holds the marker, and the other project's sessions are not threads.
    const found = (await (await request.get(`${SOURCES_URL}/api/threads?q=${marker}`)).json()) as { items: unknown[] };
    expect(found.items).toEqual([]);
    const spotter = (await (
      await request.get(`${SOURCES_URL}/api/threads?project=${encodeURIComponent("/home/marco/projects/spotter")}`)
    ).json()) as { items: unknown[] };
    expect(spotter.items).toEqual([]);
  } finally {
    rmSync(leak, { force: true });
    rmSync(elsewhere, { force: true });
    rmSync(outside, { recursive: true, force: true });
  }
  // The links gone, so are their lines (the other tests count this folder).
  await expect(folder.getByTestId("source-counts")).toHaveText("1 file: 0 imported, 1 unchanged, 0 failed");
  await expect(folder.getByRole("list", { name: `Skipped in ${PROJECTS}` })).toHaveCount(0);
});

test("a server that follows nothing says how to set THREADLINE_SOURCES", async ({ page }) => {
  await page.goto(`${SEEDED_URL}/sources`);
  const empty = page.getByTestId("sources-empty");
  await expect(empty).toContainText("No folder is followed.");
  await expect(empty).toContainText("THREADLINE_SOURCES");
  await expect(page.getByRole("button", { name: "Sync now" })).toHaveCount(0);
});

test("the import page shows the followed folders' sync live, and says when nothing is followed", async ({ page, threads }) => {
  await threads.sweepAfterwards(SOURCES_URL);
  const added = path.join(PROJECTS, "-home-marco-projects-spotter", "d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl");
  try {
    const opened = eventStreamOpened(page);
    await page.goto(`${SOURCES_URL}/import`);
    const line = page.getByTestId("import-sources");
    await expect(line).toContainText("Following 1 folder:");
    const files = filesOnDisk();
    await expect(line.getByTestId("import-sources-counts")).toHaveText(new RegExp(`^${files} files? seen, \\d+ imported, 0 failed$`));
    await expect(line.getByTestId("import-sources-activity")).toHaveText("watching");
    await opened;

    const polls = statusPolls(page);
    cpSync(
      path.join(
        process.cwd(),
        "fixtures/real/claude-code/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl",
      ),
      added,
    );
    await expect(line.getByTestId("import-sources-counts")).toHaveText(new RegExp(`^${files + 1} files seen, \\d+ imported, 0 failed$`));
    expect(polls).toEqual([]);
    await line.getByRole("link", { name: "Sources" }).click();
    await expect(page).toHaveURL(`${SOURCES_URL}/sources`);
  } finally {
    rmSync(added, { force: true });
  }

  await page.goto(`${SEEDED_URL}/import`);
  await expect(page.getByTestId("import-sources")).toContainText("No folder is followed");
  await expect(page.getByTestId("import-sources").getByRole("link", { name: "Sources" })).toBeVisible();
});

test("a line an agent appends to its session file shows on the open thread page, told by the event stream", async ({ page, request }) => {
  const session = path.join(PROJECTS, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
  const original = readFileSync(session, "utf8");
  const list = await request.get(`${SOURCES_URL}/api/threads?source=import:claude-code&project=${encodeURIComponent("/path/to/Demo")}`);
  const [thread] = ((await list.json()) as { items: { id: string; turnCount: number }[] }).items.sort((a, b) => b.turnCount - a.turnCount);
  expect(thread, "the session imported by the start-up sync").toBeDefined();
  // The page's own check is cut off: only the stream can tell it.
  await page.route("**/api/threads/*/live", (route) => route.abort());
  try {
    const opened = eventStreamOpened(page);
    await page.goto(`${SOURCES_URL}/threads/${thread!.id}`);
    await expect(page.getByRole("list", { name: "Turns" })).toBeVisible();
    await opened;
    // A new user message on the session's main line, as Claude Code writes one.
    const entries = original
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const main = entries.filter((e) => e.isSidechain === false && typeof e.uuid === "string");
    const template = main.filter((e) => e.type === "user").at(-1)!;
    const text = `Appended live at ${Date.now()}: does the page see it?`;
    const { toolUseResult: _result, ...rest } = template;
    const line = {
      ...rest,
      uuid: randomUUID(),
      parentUuid: main.at(-1)!.uuid,
      timestamp: new Date().toISOString(),
      message: { role: "user", content: text },
    };
    const started = Date.now();
    appendFileSync(session, `${JSON.stringify(line)}\n`);
    await expect(page.getByRole("list", { name: "Turns" }).getByText(text)).toBeVisible({ timeout: 15_000 });
    test.info().annotations.push({ type: "delay", description: `appended line shown ${Date.now() - started} ms after it was written` });
  } finally {
    writeFileSync(session, original);
  }
});

test("on a server whose start-up sync made the database client, a turn of 64 KB or more is stored whole", async ({ request, threads }) => {
  await threads.sweepAfterwards(SOURCES_URL);
  const headers = { origin: SOURCES_URL };
  const created = await request.post(`${SOURCES_URL}/api/threads`, { headers, data: { toolName: "chat" } });
  expect(created.status()).toBe(201);
  const { thread } = (await created.json()) as { thread: { id: string } };
  // Over the size at which the text goes to the database beside the statement (lib/db/engine/large-values).
  const content = `${"large turn ".repeat(7_000)}END`;
  const appended = await request.post(`${SOURCES_URL}/api/threads/${thread.id}/turns`, { headers, data: { role: "user", content } });
  expect(appended.status()).toBe(201);
  const stored = (await (await request.get(`${SOURCES_URL}/api/threads/${thread.id}/turns/0`)).json()) as { turn: { content: string } };
  expect(stored.turn.content.length).toBe(content.length);
  expect(stored.turn.content === content).toBe(true);
});
