/**
 * Tool calls as people read them (issue 34): a real Codex session's apply_patch heredoc is a
 * coloured diff under its file name, its shell calls command blocks with their exit code; a real
 * Claude Code Bash call is its command; no JSON and no literal "\n" until the raw arguments are
 * opened (by keyboard). And the compact page on a real Claude Code session: the summary and the
 * turn excerpts carry no escape codes or tags, and number turns from #1 as the thread page does.
 * The sessions are the real shared fixtures; expected values are read from the raw files here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { IMPORTS_URL } from "../playwright.config";
import { expect, expectHydrated, test, type Threads } from "./fixtures";

test.use({ baseURL: IMPORTS_URL });

const SHARED = path.join(process.cwd(), "fixtures/real");
const CODEX = "codex/sessions/2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl";
const CLAUDE = "claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl";

const raw = (relative: string) => readFileSync(path.join(SHARED, relative), "utf8");
const jsonLines = (relative: string) =>
  raw(relative)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, any>);

/** Posts a file as its agent wrote it and answers the one thread it makes (deleted after the test). */
async function importFixture(request: APIRequestContext, threads: Threads, relative: string): Promise<string> {
  const response = await request.post(`${IMPORTS_URL}/api/import?name=${encodeURIComponent(relative)}`, {
    data: Buffer.from(raw(relative), "utf8"),
    headers: { "content-type": "application/octet-stream" },
  });
  const body = await response.text();
  expect(response.status(), body).toBe(201);
  const { threadIds } = JSON.parse(body) as { threadIds: string[] };
  for (const id of threadIds) threads.track(id);
  return threadIds[0]!;
}

/** No serious or critical axe violations in what this work changed (the parts `include` selects). */
async function expectNoSeriousViolations(page: Page, ...include: string[]) {
  let builder = new AxeBuilder({ page });
  for (const selector of include) builder = builder.include(selector);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const ESCAPES = /\u001b|\[\d{1,3}(?:;\d{1,3})*m/;
const TAGS = /<\/?(?:command-name|command-message|command-args|local-command-stdout|local-command-caveat)>/;

// Imports, a full page and axe on a shared two-core machine.
test.describe.configure({ timeout: 180_000 });

test("a Codex session: apply_patch in a heredoc is a diff, shell calls are commands with their exit code, JSON only behind the raw toggle", async ({
  page,
  request,
  threads,
}) => {
  const calls = jsonLines(CODEX)
    .map((line) => line.payload)
    .filter((p) => p?.type === "function_call" && p.name === "shell")
    .map((p) => ({ id: p.call_id as string, argv: JSON.parse(p.arguments).command as string[] }));
  const patch = calls.find((c) => c.argv[2]!.startsWith("applypatch") && c.argv[2]!.includes("Update File: go.mod"))!;
  const list = calls.find((c) => c.argv[2] === "ls -la")!;
  const id = await importFixture(request, threads, CODEX);
  await page.goto(`/threads/${id}`);
  const turns = page.getByRole("list", { name: "Turns" });

  await test.step("the patch: file name and coloured lines, no heredoc, no JSON, no literal \\n", async () => {
    const card = turns.getByTestId("tool-call").filter({ hasText: patch.id });
    await expect(card).toHaveAttribute("data-tool-kind", "patch");
    await expect(card.locator("summary").first()).toContainText("go.mod");
    await card.locator("summary").first().click();
    const view = card.getByTestId("tool-view");
    await expect(view.getByTestId("patch-file")).toHaveText("Update go.mod");
    const script = patch.argv[2]!;
    const removed = script.split("\n").find((l) => l.startsWith("-") && l.length > 1)!;
    const added = script.split("\n").find((l) => l.startsWith("+") && l.length > 1)!;
    await expect(view.locator('[data-diff-line="removed"]').filter({ hasText: removed })).toBeVisible();
    await expect(view.locator('[data-diff-line="added"]').filter({ hasText: added })).toBeVisible();
    const shown = (await view.innerText()).trim();
    expect(shown).not.toContain("\\n");
    expect(shown).not.toContain("PATCH");
    expect(shown).not.toMatch(/["{}]|"command"/);
    await expect(card.getByTestId("tool-arguments")).toBeHidden();
  });

  await test.step("raw arguments open from the keyboard, and show the JSON as recorded", async () => {
    const card = turns.getByTestId("tool-call").filter({ hasText: patch.id });
    const toggle = card.getByRole("button", { name: "Raw arguments" });
    await expectHydrated(toggle);
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(card.getByTestId("tool-arguments")).toBeVisible();
    await expect(card.getByTestId("tool-arguments")).toContainText('"command": [');
    await page.keyboard.press("Space");
    await expect(card.getByTestId("tool-arguments")).toBeHidden();
  });

  await test.step("a shell call: the script unwrapped from bash -lc, with its exit code", async () => {
    const card = turns.getByTestId("tool-call").filter({ hasText: list.id });
    await expect(card).toHaveAttribute("data-tool-kind", "shell");
    await card.locator("summary").first().click();
    await expect(card.getByTestId("tool-command").locator("pre")).toHaveText("ls -la");
    await expect(card.getByTestId("tool-run")).toContainText("exit 0");
    await expectNoSeriousViolations(page, '[data-testid="tool-call"]');
  });

  await test.step("a multi-line script keeps its line breaks", async () => {
    const multi = calls.find((c) => c.argv[2]!.startsWith("set -e"))!;
    const card = turns.getByTestId("tool-call").filter({ hasText: multi.id });
    await card.locator("summary").first().click();
    const pre = card.getByTestId("tool-command").locator("pre");
    await expect(pre).toHaveText(multi.argv[2]!);
    expect((await pre.innerText()).split("\n").length).toBe(multi.argv[2]!.split("\n").length);
  });
});

test("a Claude Code Bash call is its command and description; the compact page shows no escape codes or tags and numbers turns from #1", async ({
  page,
  request,
  threads,
}) => {
  const entries = jsonLines(CLAUDE);
  const bash = entries
    .flatMap((e) => (Array.isArray(e.message?.content) ? e.message.content : []))
    .find((b: any) => b.type === "tool_use" && b.name === "Bash");
  const id = await importFixture(request, threads, CLAUDE);
  await page.goto(`/threads/${id}`);

  await test.step("Bash: a command block, its description, no JSON until asked for", async () => {
    const card = page.getByRole("list", { name: "Turns" }).getByTestId("tool-call").filter({ hasText: bash.id });
    await expect(card).toHaveAttribute("data-tool-kind", "shell");
    await card.locator("summary").first().click();
    await expect(card.getByTestId("tool-command").locator("pre")).toHaveText(bash.input.command);
    await expect(card.getByTestId("tool-command")).toContainText(bash.input.description);
    expect(await card.getByTestId("tool-view").innerText()).not.toMatch(/["{}]/);
    await expect(card.getByTestId("tool-arguments")).toBeHidden();
  });

  await test.step("the compact page: a clean summary and clean excerpts, numbered from #1", async () => {
    await page.goto(`/threads/${id}/compact`);
    await page.getByRole("radio", { name: /Full compact/ }).check();
    const summary = page.getByRole("textbox", { name: "Summary" });
    await expect(summary).toHaveValue(/User requests/);
    const text = await summary.inputValue();
    expect(text).not.toMatch(ESCAPES);
    expect(text).not.toMatch(TAGS);
    expect(text).not.toMatch(/\bTurn 0\b|\(turn 0\)/);
    const numbers = [...text.matchAll(/[Tt]urn #(\d+)/g)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(0);
    expect(Math.min(...numbers)).toBeGreaterThanOrEqual(1);

    const rows = page.getByTestId("replaced-turns").getByRole("listitem");
    await expect(rows.first()).toContainText("#1");
    await expect(rows.first()).not.toContainText("…");
    for (const row of await rows.all()) {
      const shown = await row.innerText();
      expect(shown).not.toMatch(ESCAPES);
      expect(shown).not.toMatch(TAGS);
    }
    await expectNoSeriousViolations(
      page,
      'section[aria-label="Turns replaced"]',
      'section[aria-label="Summary"]',
      '[data-testid="kept-verbatim"] + div',
    );
  });
});
