/**
 * Helpers of the accessibility spec: a page once it has settled, every fold on it opened, a real
 * Claude Code session imported on the imports server, and people (an admin among them) signed in on
 * the auth server.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { AUTH_ADMIN, AUTH_URL, IMPORTS_URL } from "../playwright.config";
import { expect, type Threads } from "./fixtures";

/** A Claude Code session (spotter) with many tool calls, failed ones among them, a compaction and a sub-agent. */
const CLAUDE_SESSION = "-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl";

/** Goes to a page and waits for it to be hydrated and its client-side content loaded. */
export async function readyPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator("main")).toBeVisible();
  await page.waitForLoadState("load");
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
  // Next.js may swap the title while a page replaces its URL (the budget page's selection): settled, it has one.
  await expect.poll(() => page.title()).not.toBe("");
}

/** Opens every <details> in the main part of the page (tool cards, thinking, folded blocks); answers how many there were. */
export async function openEveryFold(page: Page): Promise<number> {
  return page.locator("main details").evaluateAll((folds) => {
    for (const fold of folds) (fold as HTMLDetailsElement).open = true;
    return folds.length;
  });
}

/** Imports the session on the imports server (deleted again after the test); answers its thread's id. */
export async function importedSession(request: APIRequestContext, threads: Threads): Promise<string> {
  await threads.sweepAfterwards(IMPORTS_URL);
  const file = path.join(process.cwd(), "fixtures/real/claude-code/projects", CLAUDE_SESSION);
  const response = await request.post(`${IMPORTS_URL}/api/import?name=${encodeURIComponent(CLAUDE_SESSION)}`, {
    data: readFileSync(file),
    headers: { "content-type": "application/json" },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { threadIds } = (await response.json()) as { threadIds: string[] };
  expect(threadIds.length).toBeGreaterThan(0);
  return threadIds[0]!;
}

/** A browser of its own on the auth server for one person (cookies, and a client address as a person's own). */
export async function person(browser: Browser, address: string, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({
    baseURL: AUTH_URL,
    extraHTTPHeaders: { "x-forwarded-for": address },
    ...(viewport ? { viewport } : {}),
  });
  return context.newPage();
}

/** Signs in on the sign-in page, to go on to `next` (whether it was let in is the caller's to check). */
export async function signIn(page: Page, who: { email: string; password: string }, next = "/settings"): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** A browser of its own (its own address, as a person's) signed in as the auth server's admin. */
export async function signedInAdmin(browser: Browser, address: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await person(browser, address, viewport);
  await signIn(page, AUTH_ADMIN);
  await expect(page).toHaveURL(/\/settings$/);
  return page;
}
