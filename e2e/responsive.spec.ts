import { expect, test } from "./fixtures";
import { DEMO_IDS } from "../lib/demo/demo-data";

for (const width of [1280, 390]) {
  test(`pages fit a ${width}px wide screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of [
      "/threads",
      `/threads/${DEMO_IDS.debug}`,
      `/threads/${DEMO_IDS.debug}/chain`,
      `/threads/${DEMO_IDS.longSession}`,
      `/threads/${DEMO_IDS.longSession}/compact`,
      "/import",
      "/sources",
      "/usage",
      "/insights",
      "/settings",
    ]) {
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} scrolls sideways at ${width}px`).toBeLessThanOrEqual(0);
    }
  });
}

test("long unbroken names wrap at 390px: file path, tool name, model name", async ({ page, threads }) => {
  const toolName = "mcp__threadline_probe__".padEnd(150, "abcdefghij");
  const modelName = "vendor_model_checkpoint_".padEnd(150, "0123456789");
  const path = "/src/".padEnd(66, "abcdefghijklmnopqrstuvwxyz") + "x.ts";
  expect([toolName.length, modelName.length, path.length]).toEqual([150, 150, 70]);
  const thread = await threads.create({ toolName, title: "A thread whose title is long enough to need a second line on a phone screen" });
  const turns = [
    { role: "user", content: "Look at this file", files: [path], images: [`${path}.png`], toolName },
    { role: "assistant", content: "Looked.", toolName, modelProvider: "someprovider", modelName },
  ];
  for (const turn of turns) await threads.appendTurn(thread.id, turn);

  await page.setViewportSize({ width: 390, height: 900 });
  // The usage page names the model in its table of models and in its note on unpriced responses.
  for (const [address, shown] of [
    ["/threads", toolName],
    [`/threads/${thread.id}`, toolName],
    [`/threads/${thread.id}/chain`, toolName],
    ["/usage", modelName],
  ] as const) {
    await page.goto(address);
    await expect(page.locator("main")).toContainText(shown.slice(0, 20));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${address} scrolls sideways at 390px`).toBeLessThanOrEqual(0);
    // Nothing sticks out of the screen either where a container clips it (the list clips its rows).
    const outside = await page.evaluate(() =>
      [...document.querySelectorAll("main *")]
        .filter((el) => {
          if (el.getBoundingClientRect().right <= document.documentElement.clientWidth + 0.5) return false;
          for (let up = el.parentElement; up; up = up.parentElement)
            if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) return false;
          return true;
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(outside, `${address} has content past the right edge`).toEqual([]);
  }

  // On a phone the title has its own row, above the date.
  await page.goto("/threads");
  const row = page.getByRole("list", { name: "Threads" }).getByRole("listitem").filter({ hasText: "A thread whose title is long" });
  const title = await row.getByRole("link").boundingBox();
  const time = await row.locator("time").first().boundingBox();
  expect(title!.width).toBeGreaterThan(300);
  expect(time!.y).toBeGreaterThanOrEqual(title!.y + title!.height - 1);
});

test("on a phone the thread id stays on one line, cut with an ellipsis, beside its copy button", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/threads/${DEMO_IDS.debug}`);
  const id = page.getByTestId("thread-id");
  await expect(id).toHaveText(DEMO_IDS.debug);
  await expect(id).toHaveAttribute("title", DEMO_IDS.debug);
  const { height, lineHeight, overflow } = await id.evaluate((el) => {
    const style = getComputedStyle(el);
    return { height: el.getBoundingClientRect().height, lineHeight: parseFloat(style.lineHeight), overflow: style.textOverflow };
  });
  expect(height, "the id wraps onto more than one line").toBeLessThan(lineHeight * 1.5);
  expect(overflow).toBe("ellipsis");
  const copy = page.getByRole("button", { name: "Copy continuation id" });
  await expect(copy).toBeVisible();
  const box = (await copy.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});

test("the list and a thread work by keyboard", async ({ page }) => {
  await page.goto("/threads");
  // From the top of the page, Tab passes the skip link and the navigation, then reaches the search box.
  const search = page.getByLabel("Search titles and turns");
  for (let i = 0; i < 15 && !(await search.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
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
