/**
 * Accessibility, checked by axe-core in Chromium (WCAG 2.0 and 2.1, A and AA): no page may have a
 * serious or critical violation. The pages are the seeded demo threads and their views, a real
 * Claude Code session imported on the imports server with its tool outputs open (and /usage over
 * its range in each view: day, week, month, 5-hour block), the usage, insights and sources pages,
 * Settings with sign-in on, as an admin (people, tokens and share links listed), /insights and
 * /usage with the team's figures (By person), and a thread's Share dialog open. On a phone
 * (390x844) none of them scrolls sideways. A failure prints each violation: the rule, what it
 * means, and the elements it found.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { DEMO_IDS } from "../lib/demo/demo-data";
import { pricedDocument } from "../lib/testing/priced-document";
import { AUTH_URL, E2E_SERVERS, IMPORTS_URL, SEEDED_URL } from "../playwright.config";
import { expect, test } from "./fixtures";
import { importedSession, openEveryFold, readyPage, signedInAdmin } from "./page-helpers";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const BLOCKING = new Set(["serious", "critical"]);

type Finding = { id: string; impact: string; help: string; helpUrl: string; nodes: { target: string; summary: string }[] };

/** The page's serious and critical violations, as axe reports them. */
async function blockingViolations(page: Page): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ""))
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? "",
      help: violation.help,
      helpUrl: violation.helpUrl,
      nodes: violation.nodes.map((node) => ({
        target: node.target.join(" "),
        summary: (node.failureSummary ?? "").replace(/\s+/g, " ").trim(),
      })),
    }));
}

/** Violations as a person reads them: each rule with its elements (the first ten). */
function readable(where: string, findings: Finding[]): string {
  const count = findings.reduce((sum, finding) => sum + finding.nodes.length, 0);
  const lines = [`${where}: ${count} serious or critical violation${count === 1 ? "" : "s"}`];
  for (const finding of findings) {
    lines.push(`- ${finding.id} (${finding.impact}, ${finding.nodes.length}): ${finding.help} <${finding.helpUrl}>`);
    for (const node of finding.nodes.slice(0, 10)) lines.push(`    ${node.target}\n      ${node.summary}`);
    if (finding.nodes.length > 10) lines.push(`    … and ${finding.nodes.length - 10} more`);
  }
  return lines.join("\n");
}

async function expectNoBlockingViolations(page: Page, where: string): Promise<void> {
  const findings = await blockingViolations(page);
  const count = findings.reduce((sum, finding) => sum + finding.nodes.length, 0);
  if (process.env.THREADLINE_AXE_REPORT) console.log(readable(where, findings));
  expect(count, readable(where, findings)).toBe(0);
}

/** How wide each page is on a phone: none may be wider than the screen. */
async function expectNoSidewaysScroll(page: Page, widths: { where: string; width: number }[]): Promise<void> {
  if (process.env.THREADLINE_AXE_REPORT) console.log(widths.map(({ where, width }) => `${where}: ${width}px`).join("\n"));
  expect(
    widths.filter(({ width }) => width > 390),
    "pages wider than a 390px screen",
  ).toEqual([]);
}

async function pageWidth(page: Page, where: string): Promise<{ where: string; width: number }> {
  return { where, width: await page.evaluate(() => document.documentElement.scrollWidth) };
}

/** Creates an API token in Settings, so the tokens table has a row; answers its Revoke button. */
async function withToken(page: Page, name: string) {
  const form = page.getByRole("form", { name: "Create an API token" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toBeVisible();
  return page.getByRole("button", { name: `Revoke ${name}` });
}

const SEEDED_PAGES = [
  "/threads",
  `/threads/${DEMO_IDS.debug}`,
  `/threads/${DEMO_IDS.debug}/chain`,
  `/threads/${DEMO_IDS.debug}/lineage`,
  `/threads/${DEMO_IDS.debug}/budget`,
  `/threads/${DEMO_IDS.longSession}/compact`,
  `/threads/${DEMO_IDS.longSession}/budget`,
  "/usage",
  "/insights",
  "/sources",
];

test.describe("no serious or critical axe-core violations", () => {
  test.skip(!E2E_SERVERS.has("seeded"), "the seeded server is not started");

  for (const path of SEEDED_PAGES) {
    test(`seeded ${path}`, async ({ page }) => {
      await readyPage(page, `${SEEDED_URL}${path}`);
      await openEveryFold(page);
      await expectNoBlockingViolations(page, path);
    });
  }
});

test.describe("a real Claude Code session, tool outputs open", () => {
  test.skip(!E2E_SERVERS.has("imports"), "the imports server is not started");
  // axe reads every node of a long session with its outputs open: a minute or more on a busy machine.
  test.setTimeout(240_000);

  for (const view of ["", "/chain", "/budget"]) {
    test(`imported thread${view || " page"}`, async ({ page, request, threads }) => {
      const id = await importedSession(request, threads);
      await readyPage(page, `${IMPORTS_URL}/threads/${id}${view}`);
      const opened = await openEveryFold(page);
      if (view === "") expect(opened, "the session's tool cards").toBeGreaterThan(5);
      await expectNoBlockingViolations(page, `Claude Code thread${view}`);
    });
  }
});

test.describe("/usage in each view of an imported session's range", () => {
  test.skip(!E2E_SERVERS.has("imports"), "the imports server is not started");

  for (const view of ["day", "week", "month", "block"]) {
    test(`usage view=${view}`, async ({ page, request, threads }) => {
      await importedSession(request, threads);
      await readyPage(page, `${IMPORTS_URL}/usage?since=2025-01-01&until=2026-03-31&tz=UTC&view=${view}`);
      await expect(page.getByTestId("by-period-row").first()).toBeVisible();
      await expectNoBlockingViolations(page, `/usage?view=${view}`);
    });
  }
});

test.describe("Settings with sign-in on, as an admin", () => {
  test.skip(!E2E_SERVERS.has("auth"), "the auth server is not started");

  test("settings", async ({ browser }) => {
    const page = await signedInAdmin(browser, "10.30.0.1");
    await readyPage(page, `${AUTH_URL}/settings`);
    await expect(page.getByRole("heading", { name: "People" })).toBeVisible();
    const revoke = await withToken(page, "axe check token");
    try {
      await expectNoBlockingViolations(page, "/settings (signed in as admin)");
    } finally {
      await revoke.click();
      await expect(page.getByTestId("api-token-row").filter({ hasText: "axe check token" })).toHaveCount(0);
      await page.context().close();
    }
  });
});

test.describe("team figures with sign-in on, as an admin", () => {
  test.skip(!E2E_SERVERS.has("auth"), "the auth server is not started");

  test("/insights and /usage with By person", async ({ browser }) => {
    const page = await signedInAdmin(browser, "10.30.0.3");
    const imported = await page.request.post("/api/import", { data: pricedDocument({ title: "axe check team figures" }).document });
    expect(imported.status(), await imported.text()).toBe(201);
    const [threadId] = ((await imported.json()) as { threadIds: string[] }).threadIds;
    try {
      const widths: { where: string; width: number }[] = [];
      for (const path of ["/insights", "/usage"]) {
        await page.setViewportSize({ width: 1280, height: 900 });
        await readyPage(page, `${AUTH_URL}${path}`);
        await expect(page.getByTestId("by-person")).toBeVisible();
        await expectNoBlockingViolations(page, `${path} (signed in as admin, By person)`);
        await page.setViewportSize({ width: 390, height: 844 });
        widths.push(await pageWidth(page, `${path} (signed in as admin, By person)`));
      }
      await expectNoSidewaysScroll(page, widths);
    } finally {
      await page.request.delete(`/api/threads/${threadId}`);
      await page.context().close();
    }
  });
});

test.describe("sharing with sign-in on, as an admin", () => {
  test.skip(!E2E_SERVERS.has("auth"), "the auth server is not started");

  test("the Share dialog with a link made, and Settings' share links", async ({ browser }) => {
    const page = await signedInAdmin(browser, "10.50.0.1");
    const created = await page.request.post("/api/threads", { data: { toolName: "e2e", title: "axe check shared thread" } });
    expect(created.status()).toBe(201);
    const threadId = ((await created.json()) as { thread: { id: string } }).thread.id;
    try {
      await readyPage(page, `${AUTH_URL}/threads/${threadId}`);
      await page.getByRole("button", { name: "Share…" }).click();
      const dialog = page.getByRole("dialog", { name: "Share this thread" });
      await dialog.getByRole("button", { name: "Create link" }).click();
      await expect(dialog.getByTestId("share-url")).toBeVisible();
      await expect(dialog.getByTestId("share-link-row")).toHaveCount(1);
      await expectNoBlockingViolations(page, "the Share dialog, a link made");
      await readyPage(page, `${AUTH_URL}/settings`);
      await expect(page.getByTestId("share-link-row").filter({ hasText: "axe check shared thread" })).toHaveCount(1);
      await expectNoBlockingViolations(page, "/settings (share links listed)");
    } finally {
      await page.request.delete(`/api/threads/${threadId}`);
      await page.context().close();
    }
  });
});

test.describe("on a phone (390x844) nothing scrolls sideways", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("seeded pages", async ({ page }) => {
    test.skip(!E2E_SERVERS.has("seeded"), "the seeded server is not started");
    const widths: { where: string; width: number }[] = [];
    for (const path of SEEDED_PAGES) {
      await readyPage(page, `${SEEDED_URL}${path}`);
      widths.push(await pageWidth(page, path));
    }
    await expectNoSidewaysScroll(page, widths);
  });

  test("the Claude Code session, its chain and budget, tool outputs open", async ({ page, request, threads }) => {
    test.skip(!E2E_SERVERS.has("imports"), "the imports server is not started");
    const id = await importedSession(request, threads);
    const widths: { where: string; width: number }[] = [];
    for (const view of ["", "/chain", "/budget", "/compact"]) {
      await readyPage(page, `${IMPORTS_URL}/threads/${id}${view}`);
      await openEveryFold(page);
      widths.push(await pageWidth(page, `Claude Code thread${view}`));
    }
    await expectNoSidewaysScroll(page, widths);
  });

  test("Settings as an admin", async ({ browser }) => {
    test.skip(!E2E_SERVERS.has("auth"), "the auth server is not started");
    const page = await signedInAdmin(browser, "10.30.0.2", { width: 390, height: 844 });
    await readyPage(page, `${AUTH_URL}/settings`);
    const revoke = await withToken(page, "phone check token");
    const widths = [await pageWidth(page, "/settings (signed in as admin, a token listed)")];
    const box = (await revoke.boundingBox())!;
    await revoke.click();
    await expect(page.getByTestId("api-token-row").filter({ hasText: "phone check token" })).toHaveCount(0);
    await page.context().close();
    await expectNoSidewaysScroll(page, widths);
    expect(box.x + box.width, "Revoke sits past the right edge of the screen").toBeLessThanOrEqual(390);
  });
});
