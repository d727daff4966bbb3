import { expect, test } from "./fixtures";

test("a huge turn is sent as a preview and loaded in full on demand, safely", async ({ page, threads }) => {
  const bigLines = Array.from({ length: 12_000 }, (_, i) => `line ${i} of the big turn, padded to make it long`);
  const big = ["[a link in the preview](https://example.com/preview-link)", ...bigLines, "THE END OF THE BIG TURN"].join("\n");
  const medium = [
    ...Array.from({ length: 1_500 }, (_, i) => `Paragraph line ${i} with *emphasis*.`),
    "<script>window.__xss = 1</script>",
    "[bad link](javascript:window.__xss=2)",
    "**bold ending**",
  ].join("\n");
  expect(big.length).toBeGreaterThan(200_000);
  expect(medium.length).toBeGreaterThan(8_192);
  expect(medium.length).toBeLessThan(200_000);
  const thread = await threads.create({ toolName: "long-turns", title: "Huge turn probe" });
  for (const content of [big, medium]) await threads.appendTurn(thread.id, { role: "assistant", content });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));

  const response = await page.goto(`/threads/${thread.id}`);
  const html = await response!.text();
  expect(html.length, "the page carries previews, not whole turns").toBeLessThan(150_000);
  expect(html).not.toContain("THE END OF THE BIG TURN");

  const first = page.getByRole("article", { name: "Turn 1" });
  // The clipped preview is inert: Tab goes from the turn's header (its #1 link, its actions menu)
  // straight to "Show all", past the link inside the preview.
  await expect(first.getByText("a link in the preview")).toBeAttached();
  await first.getByRole("link", { name: "#1" }).focus();
  await page.keyboard.press("Tab");
  await expect(first.getByLabel("Turn 1 actions")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(first.getByRole("button", { name: /^Show all/ })).toBeFocused();
  await page.keyboard.press("Enter");
  // Over 200 KB: shown as plain text, not Markdown.
  const plain = first.getByTestId("plain-content");
  await expect(plain).toContainText("THE END OF THE BIG TURN");
  await expect(plain).toContainText("[a link in the preview](https://example.com/preview-link)");
  await expect(first.getByRole("button", { name: "Collapse" })).toHaveAttribute("aria-expanded", "true");
  await first.getByRole("button", { name: "Collapse" }).click();
  await expect(first.getByTestId("plain-content")).toHaveCount(0);

  const second = page.getByRole("article", { name: "Turn 2" });
  await expect(second.locator("strong", { hasText: "bold ending" })).toHaveCount(0);
  await second.getByRole("button", { name: /^Show all/ }).click();
  await expect(second.locator("strong", { hasText: "bold ending" })).toBeVisible();
  await expect(second.getByText("<script>window.__xss = 1</script>")).toBeVisible();
  await expect(second.locator('span[title="link removed"]', { hasText: "bad link" })).toBeVisible();
  await expect(page.locator("main").locator('script, a[href^="javascript:"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
