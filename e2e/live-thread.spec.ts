/**
 * An open thread page follows the thread as something else writes to it (an agent through the
 * API, an import following its files): new turns appear without a reload; a reader at the end is
 * taken to them, a reader further up stays put and is told. The news comes by the live event
 * stream (GET /api/events); the page's own check (GET /api/threads/:id/live) is the fallback, and
 * each path is tested with the other one cut.
 */
import { expect, test } from "./fixtures";
import { eventStreamOpened, trackRequests } from "./network";

/** How often the thread list reads its head while the event stream is open (LIST_POLL_MS.streamed in lib/queries/hooks.ts). */
const LIST_STREAMED_POLL_MS = 15_000;

test("an open thread page shows turns added elsewhere, keeping the reader's place", async ({ page, request, threads }) => {
  // Only the event stream can tell the page: its fallback check is cut off.
  const checks: string[] = [];
  await page.route("**/api/threads/*/live", (route) => {
    checks.push(route.request().url());
    return route.abort();
  });
  const created = await request.post("/api/threads", { data: { toolName: "chat", title: "Live thread" } });
  expect(created.status()).toBe(201);
  const { thread } = (await created.json()) as { thread: { id: string } };
  threads.track(thread.id);
  const append = async (content: string, role = "assistant") => {
    const response = await request.post(`/api/threads/${thread.id}/turns`, { data: { role, content } });
    expect(response.status(), await response.text()).toBe(201);
  };
  const turn = (number: number) => page.getByRole("article", { name: `Turn ${number}`, exact: true });

  await test.step("an empty thread gets its first turn", async () => {
    const opened = eventStreamOpened(page);
    await page.goto(`/threads/${thread.id}`);
    await expect(page.getByText("No turns yet.")).toBeVisible();
    await opened;
    const started = Date.now();
    await append("The first question, asked by an agent.", "user");
    await expect(turn(1)).toContainText("The first question, asked by an agent.");
    test.info().annotations.push({ type: "delay", description: `first turn shown ${Date.now() - started} ms after it was stored` });
  });

  await test.step("a reader at the end is taken to new turns", async () => {
    // As on a busy machine: refreshes overlap and frames lag behind (without it, the page keeps up
    // and the races below hide).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
    for (let i = 2; i <= 40; i++) await append(`Turn number ${i}: ${"a long line of output ".repeat(12)}`);
    // A burst of turns, each page refresh landing while the next is asked for: followed to the end.
    await expect(turn(40)).toBeInViewport();
    await expect(page.getByTestId("new-turns")).toHaveCount(0);
    // The reader goes to the very end. A page answers a scroll on its next frame: wait until two
    // frames pass at rest there, so the reader's place is read before anything grows (a busy
    // machine lags frames behind).
    await page.keyboard.press("End");
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              window.scrollTo({ top: document.documentElement.scrollHeight });
              const before = window.scrollY;
              requestAnimationFrame(() =>
                requestAnimationFrame(() =>
                  resolve(window.scrollY === before && window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 1),
                ),
              );
            }),
        ),
      )
      .toBe(true);
    // Something below the reader grows without a scroll (as a block read again does, late on a
    // busy machine): they still read the end, and are taken to what arrives.
    await page.evaluate(() => {
      const grown = document.createElement("div");
      grown.id = "grown-below";
      grown.style.height = "300px";
      document.body.append(grown);
    });
    await append("The newest answer, at the end.");
    await expect(turn(41)).toBeInViewport();
    await expect(page.getByTestId("new-turns")).toHaveCount(0);
    await page.evaluate(() => document.getElementById("grown-below")?.remove());
  });

  await test.step("a reader further up stays where they are and is told what arrived", async () => {
    await page.evaluate(() => window.scrollTo({ top: 0 }));
    await expect(turn(1)).toBeInViewport();
    await append("One more, while the reader is at the top.");
    await append("And another.");
    const notice = page.getByTestId("new-turns");
    await expect(notice).toHaveText(/^[12] new turns? below$/);
    await expect(notice).toHaveText("2 new turns below");
    await expect(turn(1)).toBeInViewport();
    await notice.click();
    await expect(turn(43)).toBeInViewport();
    await expect(notice).toHaveCount(0);
  });
  // The checks were tried (and failed): what the page showed came by the stream.
  expect(checks.length).toBeGreaterThan(0);
});

test("without the event stream, an open thread page still follows the thread by polling", async ({ page, threads }) => {
  const streams: string[] = [];
  await page.route("**/api/events", (route) => {
    streams.push(route.request().url());
    return route.fulfill({
      status: 503,
      contentType: "application/json",
      body: '{"error":{"code":"internal","message":"no stream here"}}',
    });
  });
  const thread = await threads.create({ toolName: "chat", title: "Polled thread" });
  await page.goto(`/threads/${thread.id}`);
  await expect(page.getByText("No turns yet.")).toBeVisible();
  await expect.poll(() => streams.length).toBeGreaterThan(0);
  await threads.appendTurn(thread.id, { role: "user", content: "Found by the page's own check." });
  await expect(page.getByRole("article", { name: "Turn 1", exact: true })).toContainText("Found by the page's own check.");
});

test("the thread list puts new and updated threads first, marked", async ({ page, request, threads }) => {
  const stamp = `live-list-${Date.now()}`;
  const create = async (title: string) => {
    const created = await request.post("/api/threads", { data: { toolName: "chat", title } });
    expect(created.status()).toBe(201);
    const { id } = ((await created.json()) as { thread: { id: string } }).thread;
    threads.track(id);
    return id;
  };
  const older = await create(`${stamp} older`);
  await create(`${stamp} newer`);
  const opened = eventStreamOpened(page);
  const requests = trackRequests(page);
  await page.goto("/threads");
  const rows = page.getByRole("list", { name: "Threads" }).getByRole("listitem");
  await expect(rows.nth(1)).toContainText(`${stamp} older`);
  await expect(page.locator("li[data-fresh]")).toHaveCount(0);
  await opened;
  await requests.settled(); // the list's reads at load and when the stream opened are done

  // With the stream open the list polls only every 15 s: a thread shown well within that came by the stream.
  await create(`${stamp} brand new`);
  await expect(rows.first()).toContainText(`${stamp} brand new`, { timeout: LIST_STREAMED_POLL_MS / 3 });
  await expect(rows.first()).toHaveAttribute("data-fresh", "new");

  // A thread written to moves up, marked, and is not listed twice.
  const appended = await request.post(`/api/threads/${older}/turns`, { data: { role: "user", content: "A new question on this thread." } });
  expect(appended.status(), await appended.text()).toBe(201);
  await expect(rows.first()).toContainText(`${stamp} older`);
  await expect(rows.first()).toHaveAttribute("data-fresh", "updated");
  await expect(rows.first()).toContainText("1 turn");
  await expect(rows.filter({ hasText: `${stamp} older` })).toHaveCount(1);
  await expect(rows.nth(1)).toHaveAttribute("data-fresh", "new");
});
