import path from "node:path";
import { IMPORTS_URL } from "../playwright.config";
import { chooseFiles, expect, test } from "./fixtures";

const FIXTURES = path.join(process.cwd(), "fixtures", "real");

test("importing a folder of real transcripts reports each file, and the list filters them by source and project", async ({
  page,
  threads,
}) => {
  await threads.sweepAfterwards(IMPORTS_URL);
  await page.goto(`${IMPORTS_URL}/import`);
  await chooseFiles(page.getByLabel("Folder of transcripts to import"), FIXTURES);
  const summary = page.getByTestId("import-summary");
  // 40 transcripts and databases of eighteen agents. Left out: SOURCES.md, the side files read beside a transcript
  // on disk (a task's ui_messages.json, Droid's settings, Continue's index, a Qwen sub-agent's meta file), a
  // toolpath dump, and the -wal/-shm files a read-only open of the Crush database leaves (once a test has opened it).
  // None is on the server yet: specs that import some of them delete their threads again, and the servers start
  // afresh on every run.
  await expect(summary).toContainText(/^40 files: 40 imported, 0 unchanged, 0 failed/, { timeout: 120_000 });
  const leftOut = Number((await summary.textContent())?.match(/(\d+) other files in the folder left out/)?.[1]);
  expect(leftOut === 17 || leftOut === 19, `left out: ${leftOut}`).toBe(true);
  const results = page.getByRole("list", { name: "Import results" });

  const chatgpt = results.getByRole("listitem").filter({ hasText: "chatgpt/conversations.json" });
  await expect(chatgpt).toHaveAttribute("data-status", "imported");
  const summariser = results.getByRole("listitem").filter({ hasText: "agent-acompact-946d2b.jsonl" });
  await expect(summariser).toContainText("compaction summariser's transcript");

  await test.step("the Claude Code session opens with tool cards, its sub-agent and the compaction marker", async () => {
    const session = results.getByRole("listitem").filter({ hasText: "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl" });
    await expect(session).toContainText("Claude Code session (JSONL): 1 new thread, 29 turns added");
    await session.getByRole("link", { name: "Open thread" }).click();
    const turns = page.getByRole("list", { name: "Turns" });
    // The header's row (the first list of terms): a sub-agent's tool card has an "Agent" field too, once it is drawn.
    await expect(
      page
        .locator("dl")
        .first()
        .locator(":scope > div")
        .filter({ hasText: /^Agent/ }),
    ).toContainText("Claude Code");
    await expect(turns.getByTestId("tool-call")).toHaveCount(14);
    await expect(turns.getByTestId("compaction")).toHaveText("Compacted (manual) · 142,431 tokens before");
    // The sub-agent file was imported from the same folder, and the Task call that spawned it links to it.
    await turns.getByTestId("subagent-link").click();
    await expect(page.getByRole("heading", { level: 1 }).first()).toContainText("Search hex.pm for the latest versions");
  });

  await test.step("the same folder again changes nothing", async () => {
    await page.goto(`${IMPORTS_URL}/import`);
    await chooseFiles(page.getByLabel("Folder of transcripts to import"), FIXTURES);
    await expect(summary).toContainText("40 files: 0 imported, 40 unchanged, 0 failed; 0 turns added", { timeout: 120_000 });
    // An unchanged file still links to what it made.
    const session = results.getByRole("listitem").filter({ hasText: "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl" });
    await expect(session).toContainText("Unchanged since it was last imported");
    await expect(session.getByRole("link", { name: "Open thread" })).toHaveAttribute("href", /^\/threads\/[0-9a-f-]{36}$/);
  });

  await test.step("the list filters by source and project", async () => {
    await page.goto(`${IMPORTS_URL}/threads`);
    const list = page.getByRole("list", { name: "Threads" });
    await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: "Codex" });
    await expect(page).toHaveURL(/source=import%3Acodex/);
    await expect(list.getByRole("listitem")).toHaveCount(3);
    await expect(list).not.toContainText("Claude Code");
    await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: "Claude Code" });
    await page.getByRole("combobox", { name: "Project", exact: true }).selectOption("/home/USER/projects/spotter-worktrees/spotter-4te");
    await expect(list.getByRole("listitem").first()).toContainText("project /home/USER/projects/spotter-worktrees/spotter-4te");
    const rows = await list.getByRole("listitem").allTextContents();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toContain("/home/USER/projects/spotter-worktrees/spotter-4te");
  });
});
