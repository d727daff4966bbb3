import { expect, test } from "./fixtures";

const PAYLOADS = [
  "Inline <script>window.__xss = 1; alert('script')</script> tag",
  "<img src=x onerror=\"window.__xss = 2; alert('img')\">",
  '[click me](javascript:window.__xss=3) and <a href="javascript:window.__xss=4">raw link</a>',
  '<iframe src="javascript:alert(\'frame\')"></iframe> <svg onload="window.__xss=5"></svg>',
];

test("hostile turn content renders as text and nothing executes", async ({ page, threads }) => {
  const thread = await threads.create({ toolName: "xss-probe" });
  for (const content of PAYLOADS) await threads.appendTurn(thread.id, { role: "user", content, files: ["<script>alert(1)</script>.ts"] });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await page.goto(`/threads/${thread.id}`);
  // The first user turn also became the title: shown as text there too.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inline <script>window.__xss = 1; alert('script')</script> tag");
  const turns = page.getByRole("list", { name: "Turns" });
  await expect(turns.getByText("<script>window.__xss = 1; alert('script')</script>", { exact: false })).toBeVisible();
  await expect(turns.getByText("<img src=x onerror=\"window.__xss = 2; alert('img')\">")).toBeVisible();
  await expect(turns.getByText('<svg onload="window.__xss=5"></svg>', { exact: false })).toBeVisible();
  await expect(page.getByText("<script>alert(1)</script>.ts").first()).toBeVisible();

  const main = page.locator("main");
  await expect(main.locator("script, iframe, svg[onload], img[onerror]")).toHaveCount(0);
  await expect(main.locator('a[href^="javascript:"]')).toHaveCount(0);

  // The unsafe href was dropped: the text is plain text (no link role, no bare anchor), and clicking it goes nowhere.
  await expect(page.getByRole("link", { name: "click me" })).toHaveCount(0);
  await expect(turns.locator('span[title="link removed"]', { hasText: "click me" })).toBeVisible();
  await expect(main.locator("a:not([href])")).toHaveCount(0);
  await turns.getByText("click me").click();
  await expect(page).toHaveURL(new RegExp(`/threads/${thread.id}`));
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
