/**
 * The Sources page on the server started with HOME=e2e/.data/sources-home (scripts/e2e-server.mjs
 * --sources-home): its ~/.claude/projects holds one real Claude Code session, imported by the
 * sync the server started in the background. A session added afterwards is picked up (by "Sync now",
 * or by the server's watch of the folder, whichever comes first).
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SEEDED_URL, SOURCES_HOME, SOURCES_URL } from "../playwright.config";
import { expect, test } from "./fixtures";

const PROJECTS = path.join(SOURCES_HOME, ".claude", "projects");
const ADDED = path.join(PROJECTS, "-home-marco-projects-spotter", "55604662-cf2a-4331-851a-ec234028f8ca.jsonl");

test("the Sources page lists the followed folder with its counts, and Sync now imports a new session", async ({ page, threads }) => {
  await threads.sweepAfterwards(SOURCES_URL);
  test.info().attach("home", { body: SOURCES_HOME });
  try {
    await page.goto(`${SOURCES_URL}/sources`);
    const folders = page.getByRole("list", { name: "Followed folders" });
    const folder = folders.getByRole("listitem").filter({ hasText: PROJECTS }).first();
    await expect(folder).toBeVisible();
    // The start-up sync may still run when the page loads: the page polls until it is done.
    await expect(folder.getByTestId("source-counts")).toHaveText("1 file: 1 imported, 0 unchanged, 0 failed");
    await expect(folder).toHaveAttribute("data-state", "watching");

    cpSync(path.join(process.cwd(), "fixtures/real/claude-code/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl"), ADDED);
    const button = page.getByRole("button", { name: "Sync now" });
    await button.focus();
    await page.keyboard.press("Enter"); // keyboard, as anyone without a mouse would
    // The server also watches the folder, so its own sync may have imported the file first: then
    // Sync now finds both unchanged.
    await expect(folder.getByTestId("source-counts")).toHaveText(/^2 files: (1 imported, 1|0 imported, 2) unchanged, 0 failed$/);
    await expect(page.getByRole("status")).toHaveText("Idle.");

    // The new session is a thread in the list.
    await page.goto(`${SOURCES_URL}/threads?project=${encodeURIComponent("/home/marco/projects/spotter")}`);
    await expect(page.getByRole("list", { name: "Threads" }).getByRole("listitem")).not.toHaveCount(0);
  } finally {
    rmSync(ADDED, { force: true });
  }
});

test("a server that follows nothing says how to set THREADLINE_SOURCES", async ({ page }) => {
  await page.goto(`${SEEDED_URL}/sources`);
  const empty = page.getByTestId("sources-empty");
  await expect(empty).toContainText("No folder is followed.");
  await expect(empty).toContainText("THREADLINE_SOURCES");
  await expect(page.getByRole("button", { name: "Sync now" })).toHaveCount(0);
});

test("a line an agent appends to its session file shows on the open thread page", async ({ page, request }) => {
  const session = path.join(PROJECTS, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
  const original = readFileSync(session, "utf8");
  const list = await request.get(`${SOURCES_URL}/api/threads?source=import:claude-code&project=${encodeURIComponent("/path/to/Demo")}`);
  const [thread] = ((await list.json()) as { items: { id: string; turnCount: number }[] }).items.sort((a, b) => b.turnCount - a.turnCount);
  expect(thread, "the session imported by the start-up sync").toBeDefined();
  try {
    await page.goto(`${SOURCES_URL}/threads/${thread!.id}`);
    await expect(page.getByRole("list", { name: "Turns" })).toBeVisible();
    // A new user message on the session's main line, as Claude Code writes one.
    const entries = original.split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    const main = entries.filter((e) => e.isSidechain === false && typeof e.uuid === "string");
    const template = main.filter((e) => e.type === "user").at(-1)!;
    const text = `Appended live at ${Date.now()}: does the page see it?`;
    const { toolUseResult: _result, ...rest } = template;
    const line = { ...rest, uuid: randomUUID(), parentUuid: main.at(-1)!.uuid, timestamp: new Date().toISOString(), message: { role: "user", content: text } };
    const started = Date.now();
    appendFileSync(session, `${JSON.stringify(line)}\n`);
    await expect(page.getByRole("list", { name: "Turns" }).getByText(text)).toBeVisible({ timeout: 15_000 });
    test.info().annotations.push({ type: "delay", description: `appended line shown ${Date.now() - started} ms after it was written` });
  } finally {
    writeFileSync(session, original);
  }
});
