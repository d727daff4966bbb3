/**
 * The Sources page on the server started with HOME=e2e/.data/sources-home (scripts/e2e-server.mjs
 * --sources-home): its ~/.claude/projects holds one real Claude Code session, imported by the
 * sync the server started in the background. A session added afterwards is picked up (by "Sync now",
 * or by the server's watch of the folder, whichever comes first).
 */
import { cpSync, rmSync } from "node:fs";
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
