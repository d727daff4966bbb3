import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test, type Threads } from "./fixtures";
import { chainDocument, longThreadDocument, type NativeDocument } from "./scale-data";

/**
 * Real sessions are long: a chain of 20 threads of 500 turns, a session of 10,000 turns. The pages
 * that list their turns show a window of them, so each stays a light page (HTML and DOM nodes
 * bounded, whatever the length), and the last turn is still one step away.
 */
const MAX_HTML_BYTES = 400_000;
const MAX_DOM_NODES = 5_000;

async function importDocument(request: APIRequestContext, threads: Threads, doc: NativeDocument): Promise<void> {
  const response = await request.post("/api/import", { data: doc, timeout: 60_000 });
  expect(response.status(), await response.text()).toBe(201);
  for (const id of ((await response.json()) as { threadIds: string[] }).threadIds) threads.track(id);
}

async function htmlBytes(request: APIRequestContext, path: string): Promise<number> {
  const response = await request.get(path, { timeout: 60_000 });
  expect(response.status()).toBe(200);
  return (await response.body()).length;
}

const domNodes = (page: Page) => page.evaluate(() => document.querySelectorAll("*").length);

const scrollToEnd = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((box) => {
    box.scrollTop = box.scrollHeight;
  });

test("a 20 x 500 chain and a 10,000-turn session: chain, budget and compaction pages render a window and reach the end", async ({
  page,
  request,
  threads,
}) => {
  test.setTimeout(180_000);
  const stamp = Math.random().toString(36).slice(2, 8);
  const chain = chainDocument(20, 500, stamp);
  const session = longThreadDocument(10_000, stamp);
  await importDocument(request, threads, chain);
  await importDocument(request, threads, session);
  const leaf = chain.threads.at(-1)!.id;
  const long = session.threads[0]!.id;

  await test.step("the chain page shows 50 of its 10,000 turns, and pages, jumps and ends in order", async () => {
    const path = `/threads/${leaf}/chain`;
    expect(await htmlBytes(request, path)).toBeLessThan(MAX_HTML_BYTES);
    await page.goto(path);
    await expect(page.getByRole("list", { name: "Threads in the chain, oldest first" }).getByRole("listitem")).toHaveCount(20);
    await expect(page.getByTestId("chain-window")).toHaveText("Turns 1–50 of 10,000");
    await expect(page.getByRole("article", { name: "Turn 1", exact: true })).toContainText("thread 1, turn 1:");
    await expect(page.getByRole("article")).toHaveCount(50);
    expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES);

    // Turn 50's tool call has its result in turn 51, past the window: shown with the call, and its link opens the next window there.
    const call = page.getByRole("article", { name: "Turn 50", exact: true }).getByTestId("tool-call");
    await call.locator("summary").click();
    await expect(call.getByTestId("tool-result")).toContainText("thread 1, turn 51:");
    await call.getByRole("link", { name: "turn #51" }).click();
    await expect(page.getByTestId("chain-window")).toHaveText("Turns 51–100 of 10,000");
    await expect(page.getByRole("article", { name: "Turn 51", exact: true })).toBeInViewport();

    // Read on: the next window follows on from the last turn shown.
    await page.getByRole("navigation", { name: "Pages of turns (end)" }).getByRole("link", { name: "Next ›" }).click();
    await expect(page.getByRole("article", { name: "Turn 101", exact: true })).toContainText("thread 1, turn 101:");
    await expect(page.getByTestId("chain-window")).toHaveText("Turns 101–150 of 10,000");

    // A thread's first turn, then the last turn of the chain.
    await page.getByRole("combobox", { name: "Thread" }).selectOption("5001");
    await page.getByRole("button", { name: "Open" }).click();
    await expect(page.getByRole("article", { name: "Turn 5001", exact: true })).toContainText("thread 11, turn 1:");
    await page.getByRole("link", { name: "Last »" }).first().click();
    await expect(page.getByRole("article", { name: "Turn 10000", exact: true })).toContainText("thread 20, turn 500:");
    await expect(page.getByRole("link", { name: "Next ›" })).toHaveCount(0);

    await page.getByLabel("Go to turn").fill("7777");
    await page.getByLabel("Go to turn").press("Enter");
    await expect(page.getByRole("article", { name: "Turn 7777", exact: true })).toContainText("thread 16, turn 277:");
    expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES);
  });

  await test.step("the budget page draws 10,000 turns as a reduced line with exact thresholds, and scrolls its table to the last turn", async () => {
    const path = `/threads/${leaf}/budget?model=gpt-5`;
    expect(await htmlBytes(request, path)).toBeLessThan(MAX_HTML_BYTES);
    await page.goto(path);
    // Counts as the page writes them, with thousands separators ("9,802 cut").
    const heading = page.getByRole("heading", { name: /^Turns: [\d,]+ sent, [\d,]+ cut$/ });
    await expect(heading).toBeVisible({ timeout: 60_000 });
    const [sent, cut] = (await heading.textContent())!
      .match(/([\d,]+) sent, ([\d,]+) cut/)!
      .slice(1)
      .map((n) => Number(n.replaceAll(",", "")));
    expect(sent! + cut!).toBe(10_000);
    expect(cut).toBeGreaterThan(999);

    const chart = page.getByTestId("cumulative-chart");
    await expect(chart).toBeVisible();
    await expect(chart.getByTestId("threshold-label")).not.toHaveCount(0);
    await expect(chart.getByTestId("cut-mark")).toHaveCount(1);
    const points = (await chart.getByTestId("cumulative-line").getAttribute("points"))!.split(" ");
    expect(points.length).toBeGreaterThan(100);
    expect(points.length).toBeLessThan(4_500);
    // From the first turn to the last: the plot's left and right edges.
    expect(points[0]!.split(",")[0]).toBe("64.0");
    expect(points.at(-1)!.split(",")[0]).toBe("612.0");

    await page.getByRole("checkbox", { name: "Largest first" }).uncheck();
    await expect(page.getByTestId("turn-table").getByRole("link", { name: "#1", exact: true })).toBeVisible();
    expect(await page.getByTestId("turn-table").locator("tbody tr").count()).toBeLessThan(100);
    await scrollToEnd(page, "turn-table");
    await expect(page.getByTestId("turn-table").getByRole("link", { name: "#10000", exact: true })).toBeVisible();
    expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES);
  });

  await test.step("the compaction workbench lists the 9,978 replaced turns a window at a time, to the last", async () => {
    const path = `/threads/${long}/compact`;
    expect(await htmlBytes(request, path)).toBeLessThan(MAX_HTML_BYTES);
    await page.goto(path);
    await expect(page.getByRole("radio", { name: /Sliding window/ })).toBeChecked();
    await expect(page.getByTestId("kept-verbatim")).toContainText("#1-#2 before the summary, #9981-#10000 after it", { timeout: 60_000 });
    await expect(page.getByRole("heading", { name: "Replaced: 9978 turns" })).toBeVisible();
    const list = page.getByTestId("replaced-turns");
    await expect(list.getByRole("listitem").first()).toContainText("turn 3:");
    expect(await list.getByRole("listitem").count()).toBeLessThan(50);
    await scrollToEnd(page, "replaced-turns");
    await expect(list.getByRole("listitem").filter({ hasText: "#9980" })).toContainText("turn 9980:");
    expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES);

    // A range at the far end: chosen by number, not from a list of 10,000.
    await page.goto(`${path}?strategy=range&direction=up-to&at=9998`);
    await expect(page.getByRole("spinbutton", { name: /^Turn/ })).toHaveValue("9999");
    await expect(page.getByTestId("range-turn")).toContainText("turn 9999:");
    await expect(page.getByRole("heading", { name: "Replaced: 9999 turns" })).toBeVisible({ timeout: 60_000 });
    expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES);
  });
});
