import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, expectHydrated, test } from "./fixtures";

/** A word no other thread holds: letters only, one word to the search index. */
function uniqueWord(): string {
  return `zq${Math.random()
    .toString(36)
    .replace(/[^a-z]/g, "")
    .slice(0, 8)}`;
}

/** Serious and critical accessibility violations on the page as it is. */
async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const { violations } = await (within ? builder.include(within) : builder).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The text of each range of find's highlight, and whether the first is on screen below the toolbar. */
async function findHighlight(page: Page): Promise<{ texts: string[]; firstOnScreen: boolean; inOpenCard: boolean }> {
  return page.evaluate(() => {
    const ranges = [...(CSS.highlights.get("threadline-find") ?? new Set<AbstractRange>())] as Range[];
    const first = ranges[0];
    const rect = first?.getBoundingClientRect();
    const details = first?.startContainer.parentElement?.closest("details");
    return {
      texts: ranges.map((r) => r.toString()),
      firstOnScreen: rect !== undefined && rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight,
      inOpenCard: details?.open === true,
    };
  });
}

test("search from the list, grouped hits with the match marked, a hit opens its turn with the tool output open and marked", async ({
  page,
  threads,
}, testInfo) => {
  const word = uniqueWord();
  const thread = await threads.create({ toolName: "e2e", title: `Search e2e ${word}` });
  await threads.appendTurn(thread.id, { role: "user", content: "Where is the retry limit configured?" });
  await threads.appendTurn(thread.id, {
    role: "assistant",
    content: "Let me look for it.",
    parts: [
      { type: "text", text: "Let me look for it." },
      { type: "tool_call", id: "call-grep", name: "bash", arguments: { command: "grep -rn retry config/" } },
    ],
  });
  const output = Array.from(
    { length: 20 },
    (_, i) => `config/app${i}.yml:${i + 1}: ${i === 12 ? `retry_limit: 5 # ${word} <b>bold</b>` : "unrelated: true"}`,
  ).join("\n");
  await threads.appendTurn(thread.id, {
    role: "tool",
    content: "(grep output)",
    parts: [{ type: "tool_result", toolCallId: "call-grep", content: output }],
  });
  await threads.appendTurn(thread.id, { role: "assistant", content: `It is in config/app12.yml, next to the ${word} note.` });

  await test.step("Enter in the list's search box opens the search page", async () => {
    await page.goto("/threads");
    const box = page.getByRole("searchbox", { name: "Search titles and turns" });
    await expectHydrated(box);
    await box.fill(word);
    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}$`));
    await expect(page.getByRole("heading", { name: "Search", level: 1 })).toBeVisible();
  });

  await test.step("hits are grouped by thread, each with its role, turn number and the match in <mark>", async () => {
    const groups = page.getByTestId("search-group");
    await expect(groups).toHaveCount(1);
    await expect(groups.getByRole("heading", { level: 2 })).toHaveText(`Search e2e ${word}`);
    await expect(groups.getByRole("link", { name: `Search e2e ${word}` })).toHaveAttribute("href", `/threads/${thread.id}`);
    const hits = page.getByTestId("search-hit");
    await expect(hits).toHaveCount(2);
    const toolHit = hits.filter({ hasText: "#3" });
    await expect(toolHit).toContainText("tool");
    await expect(toolHit.locator("mark")).toHaveText([word]);
    // Markup in a transcript is text: no <b> element, the tags shown as written.
    await expect(toolHit).toContainText("<b>bold</b>");
    await expect(toolHit.locator("b")).toHaveCount(0);
    await expect(hits.filter({ hasText: "#4" }).locator("mark")).toHaveText([word]);
    expect(await seriousViolations(page)).toEqual([]);
    for (const [name, size] of [
      ["desktop", { width: 1440, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: testInfo.outputPath(`search-${name}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  await test.step("a hit on a tool output lands on its turn, opens the call's card and marks the match", async () => {
    await page.getByTestId("search-hit").filter({ hasText: "#3" }).click();
    await expect(page).toHaveURL(new RegExp(`/threads/${thread.id}\\?q=${word}#turn-3$`));
    // The output is shown inside its call's card (turn 2): opened, with the word marked on screen.
    const card = page.getByRole("article", { name: "Turn 2" }).getByTestId("tool-call").locator("details");
    await expect(card).toHaveAttribute("open", "");
    await expect(card.getByTestId("tool-result")).toContainText(`retry_limit: 5 # ${word}`);
    await expect.poll(() => findHighlight(page)).toEqual({ texts: [word], firstOnScreen: true, inOpenCard: true });
    // Find in thread starts with the words, counting from the turn it landed on.
    await expect(page.getByRole("searchbox", { name: "Find in thread" })).toHaveValue(word);
    await expect(page.getByTestId("find-status")).toHaveText("1 of 2");
    await page.screenshot({ path: testInfo.outputPath("thread-desktop.png") });
    // The conversation, which this changes (the header above it has a finding of its own: definition-list).
    expect(await seriousViolations(page, 'section[aria-label="Conversation"]')).toEqual([]);
  });

  await test.step("find in thread searches tool output and opens what it lands on", async () => {
    await page.goto(`/threads/${thread.id}`);
    const find = page.getByRole("searchbox", { name: "Find in thread" });
    await expectHydrated(find);
    const card = page.getByRole("article", { name: "Turn 2" }).getByTestId("tool-call").locator("details");
    await expect(card).not.toHaveAttribute("open", "");
    // Only the tool output holds this word (19 of its lines).
    await find.fill("unrelated");
    await find.press("Enter");
    await expect(page.getByTestId("find-status")).toHaveText("1 of 1");
    await expect(card).toHaveAttribute("open", "");
    await expect.poll(async () => (await findHighlight(page)).texts).toEqual(Array(19).fill("unrelated"));
  });
});

test("/ focuses the search box, or opens the search page where there is none", async ({ page }, testInfo) => {
  await page.goto("/threads");
  const listBox = page.getByRole("searchbox", { name: "Search titles and turns" });
  await expectHydrated(listBox);
  await page.keyboard.press("/");
  await expect(listBox).toBeFocused();
  // Typed into a field, / is a character.
  await page.keyboard.type("a/b");
  await expect(listBox).toHaveValue("a/b");

  await page.goto("/usage");
  await expectHydrated(page.getByRole("link", { name: "Search", exact: true }));
  await page.keyboard.press("/");
  await expect(page).toHaveURL(/\/search$/);
  const box = page.getByRole("searchbox", { name: "Search every thread" });
  await expect(page.getByTestId("search-hint")).toBeVisible();
  await expectHydrated(box);
  await page.keyboard.press("/");
  await expect(box).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  for (const [name, size] of [
    ["desktop", { width: 1440, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: testInfo.outputPath(`search-empty-${name}.png`), fullPage: true });
  }

  await box.fill("zzqqxxnothingmatchesthis");
  await box.press("Enter");
  await expect(page.getByTestId("search-empty")).toContainText("No turn holds every word");
});
