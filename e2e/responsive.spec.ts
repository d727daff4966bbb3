import { expect, test } from "@playwright/test";
import { DEMO_IDS } from "../lib/demo/demo-data";

for (const width of [1280, 390]) {
  test(`pages fit a ${width}px wide screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/threads", `/threads/${DEMO_IDS.debug}`, `/threads/${DEMO_IDS.debug}/chain`, `/threads/${DEMO_IDS.longSession}`, "/import"]) {
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} scrolls sideways at ${width}px`).toBeLessThanOrEqual(0);
    }
  });
}

test("the list and a thread work by keyboard", async ({ page }) => {
  await page.goto("/threads");
  // From the top of the page, Tab passes the skip link and the navigation, then reaches the search box.
  const search = page.getByLabel("Search titles and turns");
  for (let i = 0; i < 10 && !(await search.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(search).toBeFocused();
  await page.keyboard.type("lookbehind");
  const link = page.getByRole("link", { name: "Does JavaScript support regex lookbehind in all current browsers?" });
  await expect(page.getByRole("list", { name: "Threads" }).getByRole("listitem")).toHaveCount(1);
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("regex lookbehind");

  await page.goto(`/threads/${DEMO_IDS.longSession}`);
  const expander = page.getByRole("button", { name: /^Show all/ }).first();
  await expander.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Collapse" }).first()).toHaveAttribute("aria-expanded", "true");
});
