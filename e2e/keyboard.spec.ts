/**
 * The keyboard and the demo notice, in Chromium: the thread list's keys (j/k, Enter, /, ?), the
 * thread page's tool-output keys (o, Shift+O and its button), a visible focus ring on every stop
 * Tab reaches, the thread tabs keeping the current one in view on a phone, and the notice over
 * the demo threads with its removal (on the empty server, which gets a copy of the demo set for
 * the test and none after it).
 */
import { buildDemoDocument, DEMO_IDS } from "../lib/demo/demo-data";
import { E2E_SERVERS, EMPTY_URL, IMPORTS_URL, SEEDED_URL } from "../playwright.config";
import { expect, expectHydrated, test, threadIds } from "./fixtures";
import { importedSession, readyPage } from "./page-helpers";

test.describe("the thread list by keyboard", () => {
  test.skip(!E2E_SERVERS.has("seeded"), "the seeded server is not started");

  test("j and k move a visible selection, Enter opens it, / goes to the search, ? lists the keys", async ({ page }) => {
    await readyPage(page, `${SEEDED_URL}/threads`);
    const rows = page.getByRole("list", { name: "Threads" }).getByRole("listitem");
    await expectHydrated(rows.first());
    await expect(rows).toHaveCount(5);
    await expect(page.locator("li[data-selected]")).toHaveCount(0);

    await page.keyboard.press("j");
    await expect(rows.nth(0)).toHaveAttribute("data-selected", "true");
    await expect(rows.nth(0).getByRole("link").first()).toBeFocused();
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    const second = rows.nth(1);
    await expect(second).toHaveAttribute("data-selected", "true");
    await expect(page.locator("li[data-selected]")).toHaveCount(1);
    // Visible: the selected row is tinted and its link shows the focus ring.
    expect(await second.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
      await rows.nth(0).evaluate((el) => getComputedStyle(el).backgroundColor),
    );
    const link = second.getByRole("link").first();
    expect(await link.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
    const href = await link.getAttribute("href");

    await page.keyboard.press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog).toBeVisible();
    for (const key of ["j", "k", "Enter", "/", "?"])
      await expect(dialog.locator("kbd", { hasText: new RegExp(`^${key.replace("?", "\\?")}$`) })).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await page.keyboard.press("/");
    await expect(page.getByLabel("Search titles and turns")).toBeFocused();
    // Typing in the search box types: j is a letter there.
    await page.keyboard.type("jk");
    await expect(page.getByLabel("Search titles and turns")).toHaveValue("jk");
    await page.getByLabel("Search titles and turns").fill("");

    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`${SEEDED_URL}${href}`);
  });

  test("Enter with nothing focused opens the selected thread", async ({ page }) => {
    await readyPage(page, `${SEEDED_URL}/threads`);
    const rows = page.getByRole("list", { name: "Threads" }).getByRole("listitem");
    await expectHydrated(rows.first());
    await page.keyboard.press("j");
    const href = await rows.nth(0).getByRole("link").first().getAttribute("href");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`${SEEDED_URL}${href}`);
  });
});

test.describe("tool outputs by keyboard on a Claude Code session", () => {
  test.skip(!E2E_SERVERS.has("imports"), "the imports server is not started");

  test("o opens and closes the turn's tool outputs, Shift+O and the button all of them", async ({ page, request, threads }) => {
    const id = await importedSession(request, threads);
    await readyPage(page, `${IMPORTS_URL}/threads/${id}`);
    const toolbar = page.getByTestId("reader-toolbar");
    await expectHydrated(toolbar.getByRole("button", { name: "Next tool call" }));
    const outputs = page.locator('[data-testid="tool-call"] > details');
    const open = page.locator('[data-testid="tool-call"] > details[open]');
    await expect(open).toHaveCount(0);

    // To the first tool call: it is the turn at the top, whose outputs o opens and closes.
    await toolbar.getByRole("button", { name: "Next tool call" }).click();
    const status = toolbar.getByRole("status");
    await expect(status).toHaveText(/^Turn [\d,]+ of /);
    const number = Number(/^Turn ([\d,]+) of /.exec((await status.textContent())!)![1]!.replaceAll(",", ""));
    const turn = page.locator(`li[data-index="${number - 1}"]`);
    const inTurn = turn.locator('[data-testid="tool-call"] > details');
    const count = await inTurn.count();
    expect(count).toBeGreaterThan(0);
    await page.keyboard.press("o");
    await expect(turn.locator('[data-testid="tool-call"] > details[open]')).toHaveCount(count);
    await expect(open).toHaveCount(count);
    await expect(status).toHaveText(
      count === 1 ? `Opened the tool output of turn ${number}.` : `Opened ${count} tool outputs of turn ${number}.`,
    );
    await page.keyboard.press("o");
    await expect(open).toHaveCount(0);

    // Shift+O: every one rendered, and the button says what it would do next.
    await page.keyboard.press("Shift+O");
    await expect.poll(async () => (await outputs.count()) - (await open.count())).toBe(0);
    expect(await outputs.count()).toBeGreaterThan(count);
    const button = toolbar.getByRole("button", { name: "Close all tool outputs" });
    await expect(button).toBeVisible();
    await button.click();
    await expect(open).toHaveCount(0);
    await expect(toolbar.getByRole("button", { name: "Open all tool outputs" })).toBeVisible();

    await page.keyboard.press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog.getByText("Open or close the tool outputs of the turn at the top")).toBeVisible();
    await expect(dialog.getByText(/Open or close every tool output/)).toBeVisible();
  });
});

/** Tabs through a page and answers the stops that show no focus ring, and the kinds of control reached. */
async function tabStops(page: import("@playwright/test").Page, presses: number) {
  const missing: string[] = [];
  const kinds = new Set<string>();
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
      return {
        tag: el.tagName.toLowerCase(),
        ring,
        name: `${el.tagName.toLowerCase()} ${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}`,
      };
    });
    if (!stop) continue;
    kinds.add(stop.tag);
    if (!stop.ring) missing.push(stop.name);
  }
  return { missing, kinds };
}

test.describe("a visible focus ring", () => {
  test.skip(!E2E_SERVERS.has("seeded"), "the seeded server is not started");

  test("on every stop Tab reaches: links, buttons, summaries, fields and selects", async ({ page }) => {
    const kinds = new Set<string>();
    for (const path of ["/threads", `/threads/${DEMO_IDS.debug}`, `/threads/${DEMO_IDS.longSession}/compact`]) {
      await readyPage(page, `${SEEDED_URL}${path}`);
      await page.locator("main details").evaluateAll((folds) => folds.forEach((fold) => ((fold as HTMLDetailsElement).open = false)));
      const found = await tabStops(page, 60);
      expect(found.missing, `${path}: stops without a focus ring`).toEqual([]);
      for (const kind of found.kinds) kinds.add(kind);
    }
    expect([...kinds].filter((kind) => ["a", "button", "summary", "input", "select", "textarea"].includes(kind)).sort()).toEqual(
      expect.arrayContaining(["a", "button", "input", "select", "summary"]),
    );
  });
});

test.describe("on a phone, the thread tabs", () => {
  test.skip(!E2E_SERVERS.has("seeded"), "the seeded server is not started");
  test.use({ viewport: { width: 390, height: 844 } });

  test("scroll within their row and show the current tab", async ({ page }) => {
    for (const tab of ["Compact", "Budget", "Conversation"]) {
      const path = tab === "Conversation" ? "" : `/${tab.toLowerCase()}`;
      await readyPage(page, `${SEEDED_URL}/threads/${DEMO_IDS.longSession}${path}`);
      const nav = page.getByRole("navigation", { name: "Thread views" });
      const current = nav.getByRole("link", { name: tab });
      await expect(current).toHaveAttribute("aria-current", "page");
      await expect
        .poll(
          async () => {
            const [row, link] = [(await nav.boundingBox())!, (await current.boundingBox())!];
            return link.x >= row.x - 0.5 && link.x + link.width <= row.x + row.width + 0.5;
          },
          { message: `${tab} is out of its row` },
        )
        .toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
  });
});

test.describe("the demo threads' notice", () => {
  test("the seeded server's list says its threads are demo threads and offers to remove them", async ({ page }) => {
    test.skip(!E2E_SERVERS.has("seeded"), "the seeded server is not started");
    await readyPage(page, `${SEEDED_URL}/threads`);
    const notice = page.getByRole("region", { name: "Demo threads" });
    await expect(notice).toContainText("These are demo threads.");
    await expect(notice).toContainText("5 threads");
    await expect(notice.getByRole("button", { name: "Remove them" })).toBeVisible();
    // Dismissed, it stays hidden in this browser; the threads stay.
    await expectHydrated(notice.getByRole("button", { name: "Keep them, hide this" }));
    await notice.getByRole("button", { name: "Keep them, hide this" }).click();
    await expect(notice).toBeHidden();
    await page.reload();
    await expect(page.getByRole("list", { name: "Threads" }).getByRole("listitem")).toHaveCount(5);
    await expect(page.getByRole("region", { name: "Demo threads" })).toBeHidden();
  });

  test("no notice where there are no demo threads", async ({ page, request, threads }) => {
    test.skip(!E2E_SERVERS.has("imports"), "the imports server is not started");
    await importedSession(request, threads);
    await readyPage(page, `${IMPORTS_URL}/threads`);
    await expect(page.getByRole("list", { name: "Threads" }).getByRole("listitem").first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Demo threads" })).toHaveCount(0);
  });

  test("Remove them deletes the demo threads and nothing else", async ({ page, request, threads }) => {
    test.skip(!E2E_SERVERS.has("empty"), "the empty server is not started");
    const imported = await request.post(`${EMPTY_URL}/api/import`, { data: buildDemoDocument() });
    expect(imported.status(), await imported.text()).toBe(201);
    for (const id of Object.values(DEMO_IDS)) threads.track(id, EMPTY_URL);
    const own = await threads.create({ toolName: "e2e", title: "Not a demo thread" }, EMPTY_URL);

    await readyPage(page, `${EMPTY_URL}/threads`);
    await expect(page.getByRole("list", { name: "Threads" }).getByRole("listitem")).toHaveCount(6);
    const remove = page.getByRole("region", { name: "Demo threads" }).getByRole("button", { name: "Remove them" });
    await expectHydrated(remove);
    await remove.click();
    await expect(page.getByRole("list", { name: "Threads" }).getByRole("listitem")).toHaveCount(1);
    await expect(page.getByRole("list", { name: "Threads" })).toContainText("Not a demo thread");
    await expect(page.getByRole("region", { name: "Demo threads" })).toHaveCount(0);
    expect(await threadIds(request, EMPTY_URL)).toEqual([own.id]);
  });
});
