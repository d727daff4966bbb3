/**
 * A 5,000-turn thread read as a person would: the page arrives small (a window of turns, the
 * first ones rendered on the server) and every turn is reachable: a deep link, the first and the
 * last, j/k and g/G, a word found in one late turn, and Back to where the reader was.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const TURNS = 5_000;
/** The one turn (1-based, as the page numbers them) that holds the word found below. */
const NEEDLE_TURN = 4_321;
const NEEDLE = "zanzibarquux";

const domNodes = (page: Page) => page.evaluate(() => document.querySelectorAll("*").length);

test("a 5,000-turn thread: small page, deep link, jumps, keys, find and Back", async ({ page, request, threads }) => {
  const list = Array.from({ length: TURNS }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content:
      i === NEEDLE_TURN - 1
        ? `Turn ${i + 1} holds the word ${NEEDLE}.`
        : `Turn ${i + 1}: ${i % 2 === 0 ? "a question about the parser" : "the parser reads the input **line by line**"}.`,
  }));
  const imported = await request.post(`/api/import?name=long-thread-${Date.now()}.json`, { data: list });
  expect(imported.status(), await imported.text()).toBe(201);
  const [id] = ((await imported.json()) as { threadIds: string[] }).threadIds;
  threads.track(id!);
  const turn = (number: number) => page.getByRole("article", { name: `Turn ${number}`, exact: true });

  await test.step("the page is small whatever the thread's length", async () => {
    const html = await (await request.get(`/threads/${id}`)).text();
    expect(html.length, "HTML bytes").toBeLessThan(400_000);
    expect(html).toContain("Turn 1: a question about the parser");
    expect(html).not.toContain(`Turn ${TURNS}:`);
    await page.goto(`/threads/${id}`);
    await expect(turn(1)).toBeVisible();
    await expect(page.getByRole("button", { name: "Last", exact: true })).toBeEnabled();
    expect(await domNodes(page), "DOM nodes").toBeLessThan(5_000);
  });

  await test.step("a deep link opens at its turn", async () => {
    await page.goto(`/threads/${id}#turn-4000`);
    await expect(turn(4_000)).toBeInViewport();
    await expect(turn(4_000)).toContainText("Turn 4000: the parser reads the input");
  });

  await test.step("j and k step one turn, each a history entry", async () => {
    await page.keyboard.press("j");
    await expect(page).toHaveURL(/#turn-4001$/);
    await expect(turn(4_001)).toBeInViewport();
    await page.keyboard.press("k");
    await expect(page).toHaveURL(/#turn-4000$/);
  });

  await test.step("G goes to the last turn, g to the first, Back returns to where the reader was", async () => {
    await page.keyboard.press("G");
    await expect(page).toHaveURL(/#turn-5000$/);
    await expect(turn(TURNS)).toBeInViewport();
    await page.keyboard.press("g");
    await expect(page).toHaveURL(/#turn-1$/);
    await expect(turn(1)).toBeInViewport();
    await page.goBack();
    await expect(page).toHaveURL(/#turn-5000$/);
    await expect(turn(TURNS)).toBeInViewport();
    await page.goBack();
    await expect(page).toHaveURL(/#turn-4000$/);
    await expect(turn(4_000)).toBeInViewport();
  });

  await test.step("find sees every turn, not only those rendered, and lands on the match", async () => {
    await page.keyboard.press("g");
    await expect(turn(1)).toBeInViewport();
    await page.keyboard.press("/");
    const find = page.getByRole("searchbox", { name: "Find in thread" });
    await expect(find).toBeFocused();
    // Typing in a field is typing: j does not move the page.
    await page.keyboard.type(`j ${NEEDLE}`);
    await expect(page).toHaveURL(/#turn-1$/);
    await find.fill(NEEDLE);
    await find.press("Enter");
    await expect(page.getByTestId("find-status")).toHaveText("1 of 1");
    await expect(page).toHaveURL(new RegExp(`#turn-${NEEDLE_TURN}$`));
    await expect(turn(NEEDLE_TURN)).toBeInViewport();
    await expect(turn(NEEDLE_TURN)).toContainText(NEEDLE);
    // The word is marked where it was found (CSS Custom Highlight API: the turn's markup is untouched).
    await expect.poll(() => page.evaluate(() => CSS.highlights.get("threadline-find")?.size ?? 0)).toBe(1);
    // Emptying the box (Escape clears a search box) takes the count and the marks away.
    await find.press("Escape");
    await expect(find).toHaveValue("");
    await expect(page.getByTestId("find-status")).toHaveText("");
    await expect.poll(() => page.evaluate(() => CSS.highlights.get("threadline-find")?.size ?? 0)).toBe(0);
  });

  await test.step("the toolbar jumps to a numbered turn and to the next turn of a kind", async () => {
    const number = page.getByRole("textbox", { name: "Turn", exact: true });
    await number.fill("2500");
    await number.press("Enter");
    await expect(turn(2_500)).toBeInViewport();
    await page.getByLabel("Jump to the next or previous").selectOption({ label: "User message" });
    await page.getByRole("button", { name: "Next user message" }).click();
    await expect(page).toHaveURL(/#turn-2501$/);
    await expect(turn(2_501)).toBeInViewport();
    expect(await domNodes(page), "DOM nodes after jumping about").toBeLessThan(5_000);
  });

  await test.step("? lists the keys; Escape closes it", async () => {
    await page.keyboard.press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Next turn");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });
});

test("a long thread of heavy turns: the server renders as many as fit, the browser the rest", async ({ page, request, threads }) => {
  const heavy = (i: number) =>
    `Turn ${i + 1} begins.\n\n${`Line ${i + 1} of a long answer that keeps going. `.repeat(400)}\n\nTurn ${i + 1} ends.`;
  const list = Array.from({ length: 200 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: heavy(i) }));
  expect(list[0]!.content.length).toBeGreaterThan(16_000);
  const imported = await request.post(`/api/import?name=heavy-thread-${Date.now()}.json`, { data: list });
  expect(imported.status(), await imported.text()).toBe(201);
  const [id] = ((await imported.json()) as { threadIds: string[] }).threadIds;
  threads.track(id!);

  const html = await (await request.get(`/threads/${id}`)).text();
  expect(html.length, "HTML bytes").toBeLessThan(400_000);
  expect(html).toContain("Turn 1 begins.");
  expect(html).not.toContain("Turn 40 begins.");
  await page.goto(`/threads/${id}#turn-40`);
  const turn = page.getByRole("article", { name: "Turn 40", exact: true });
  await expect(turn).toBeInViewport();
  await expect(turn).toContainText("Turn 40 begins.");
});
