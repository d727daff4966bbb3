import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_IDS } from "../lib/demo/demo-data";
import { EMPTY_URL } from "../playwright.config";
import { chooseFiles, expect, test } from "./fixtures";
import { trackRequests } from "./network";

test("list -> thread -> attribution -> chain -> export -> import into a fresh database", async ({ page, threads }, testInfo) => {
  await test.step("the list shows the demo threads with their tool, models and size", async () => {
    await page.goto("/threads");
    const list = page.getByRole("list", { name: "Threads" });
    await expect(list.getByRole("link", { name: "Intermittent 401 right after refresh" })).toBeVisible();
    const longRow = list.getByRole("listitem").filter({ hasText: "Pairing: migrating the billing service" });
    await expect(longRow).toContainText("200 turns");
    await expect(longRow).toContainText("claude-sonnet-4-5, gemini-2.5-flash, gpt-5");
    await expect(list.getByRole("listitem").filter({ hasText: "regex lookbehind" })).toContainText("expired");
  });

  await test.step("a thread shows per-turn attribution, files and highlighted code", async () => {
    await page.getByRole("link", { name: "Intermittent 401 right after refresh" }).click();
    await expect(page).toHaveURL(new RegExp(`/threads/${DEMO_IDS.debug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Intermittent 401 right after refresh");
    await expect(page.getByTestId("attribution").filter({ hasText: "claude-sonnet-4-5 using debug via anthropic" })).toBeVisible();
    await expect(page.getByTestId("attribution").filter({ hasText: "gpt-5 using debug via openai" })).toBeVisible();
    await expect(page.getByText("tests/auth/refresh.test.ts").first()).toBeVisible();
    await expect(page.getByText("screenshots/ci-401.png")).toBeVisible();
    await expect(page.locator(".hljs-keyword").first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Review the token refresh path" })).toBeVisible();
  });

  await test.step("the chain view draws the path and merges the turns across it", async () => {
    await page.getByRole("link", { name: "Chain", exact: true }).click();
    const path = page.getByRole("list", { name: "Threads in the chain, oldest first" });
    await expect(path.getByRole("listitem")).toHaveCount(3);
    await expect(path.getByRole("listitem").nth(0)).toContainText("Why do sessions drop after a token refresh?");
    await expect(path.getByRole("listitem").nth(2)).toContainText("Intermittent 401 right after refresh");
    await expect(page.getByRole("article")).toHaveCount(8);
    await expect(page.getByRole("article", { name: "Turn 8" })).toContainText("serialises refreshes across tabs");
    await expect(page.getByRole("article", { name: "Turn 2" }).getByTestId("attribution")).toHaveText(
      "gemini-2.5-pro using analyze via google",
    );
  });

  const exported = testInfo.outputPath("export.json");
  await test.step("Export JSON downloads the native document", async () => {
    await page.getByRole("link", { name: "Conversation" }).click();
    await page.getByTestId("export-menu").locator("summary").click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /^Export JSON/ }).click()]);
    expect(download.suggestedFilename()).toBe(`threadline-${DEMO_IDS.debug}.json`);
    await download.saveAs(exported);
    const doc = JSON.parse(readFileSync(exported, "utf8"));
    expect(doc.format).toBe("threadline/v1");
    expect(doc.threads[0].turns).toHaveLength(4);
  });

  await test.step("a fresh database starts empty and imports the file", async () => {
    threads.track(DEMO_IDS.debug, EMPTY_URL);
    await page.goto(`${EMPTY_URL}/threads`);
    await expect(page.getByRole("heading", { name: "No conversations yet" })).toBeVisible();
    await page.goto(`${EMPTY_URL}/import`);
    await chooseFiles(page.getByLabel("Transcript files to import"), exported);
    const results = page.getByRole("list", { name: "Import results" });
    await expect(results).toContainText("Threadline export (threadline/v1): 1 new thread, 4 turns added");
    await results.getByRole("link", { name: "Open thread" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Intermittent 401 right after refresh");
    await expect(page.getByTestId("attribution").filter({ hasText: "claude-sonnet-4-5 using debug via anthropic" })).toBeVisible();
    await expect(page.getByTestId("thread-id")).toHaveText(DEMO_IDS.debug);
    await expect(page.getByText("(not in this database: purged or never imported)")).toBeVisible();
  });

  await test.step("importing the same file again is refused and suggests copies", async () => {
    await page.goto(`${EMPTY_URL}/import`);
    await chooseFiles(page.getByLabel("Transcript files to import"), exported);
    await expect(page.getByRole("list", { name: "Import results" }).getByRole("alert")).toContainText("already exist");
  });
});

test("a bad import names the field and writes nothing", async ({ page }, testInfo) => {
  const bad = testInfo.outputPath("bad.json");
  const good = { id: "6d1f1a52-0f27-4c55-9b7e-2f0a3c9d1e11", role: "user", content: "ok", timestamp: "2026-01-01T00:00:00Z" };
  const doc = {
    format: "threadline/v1",
    threads: [
      {
        id: "6d1f1a52-0f27-4c55-9b7e-2f0a3c9d1e10",
        toolName: "chat",
        createdAt: "2026-01-01T00:00:00Z",
        lastUpdatedAt: "2026-01-01T00:00:00Z",
        turns: [good, { ...good, id: "6d1f1a52-0f27-4c55-9b7e-2f0a3c9d1e12", role: "robot" }],
      },
    ],
  };
  (await import("node:fs")).writeFileSync(bad, JSON.stringify(doc));
  await page.goto(`${EMPTY_URL}/import`);
  await chooseFiles(page.getByLabel("Transcript files to import"), bad);
  await expect(page.getByRole("list", { name: "Import results" }).getByRole("alert")).toContainText("threads[0].turns[1].role");
  const response = await page.request.get(`${EMPTY_URL}/api/threads/6d1f1a52-0f27-4c55-9b7e-2f0a3c9d1e10`);
  expect(response.status()).toBe(404);
});

test("search, filters and loading more as you scroll", async ({ page, threads }) => {
  const stamp = `scrolltest${Date.now()}`;
  for (let i = 0; i < 30; i++) await threads.create({ toolName: "e2e-bulk", title: `${stamp} thread ${i}` });
  await page.goto("/threads");
  await page.getByLabel("Tool").selectOption("e2e-bulk");
  const rows = page.getByRole("list", { name: "Threads" }).getByRole("listitem");
  await expect(rows).toHaveCount(25);
  await page.getByText("Load more").or(page.getByText("Loading more")).first().scrollIntoViewIfNeeded();
  await expect(rows).toHaveCount(30);
  await expect(page.getByText("30 threads")).toBeVisible();
  await expect(page).toHaveURL(/tool=e2e-bulk/);

  await page.getByLabel("Tool").selectOption("");
  await page.getByLabel("Search titles and turns").fill("serialises refreshes");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Intermittent 401 right after refresh");
  await page.getByLabel("Search titles and turns").fill("zzqqnothing");
  await expect(page.getByText("No thread matches these filters.")).toBeVisible();
});

test("expired threads are shown, marked, and can be purged", async ({ page, request, threads }) => {
  const id = "7a2b3c4d-0000-4000-8000-00000000e001";
  threads.track(id); // purged by the test itself unless it fails first
  // Last active just now (first in the list), yet expired: as if the timeout had been shortened.
  const now = Date.now();
  const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
  const doc = {
    format: "threadline/v1",
    threads: [
      {
        id,
        title: "Old expired chat",
        toolName: "chat",
        createdAt: at(-7_200_000),
        lastUpdatedAt: at(0),
        expiresAt: at(-60_000),
        turns: [],
      },
    ],
  };
  expect((await request.post("/api/import", { data: doc })).status()).toBe(201);
  expect((await request.get(`/api/threads/${id}`)).status()).toBe(404);
  // Opened from the list, so the list's first page is in the client cache when the purge happens.
  await page.goto("/threads");
  await page.getByRole("list", { name: "Threads" }).getByRole("link", { name: "Old expired chat" }).click();
  await expect(page.getByTestId("expiry")).toContainText("expired");
  await expect(page.getByRole("status")).toContainText("Agents using the API get 404");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Purge thread" }).click();
  await expect(page).toHaveURL(/\/threads$/);
  await expect(page.getByRole("list", { name: "Threads" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Old expired chat" })).toHaveCount(0);
  const after = await request.get(`/api/threads/${id}`);
  expect(after.status()).toBe(404);
  expect((await after.json()).error.code).toBe("not_found");
});

test("unknown and malformed thread addresses show the not-found page", async ({ page }) => {
  for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
    const response = await page.goto(`/threads/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  }
});

test("turn anchors are unique across a chain, and each #N link points at its turn", async ({ page }) => {
  await page.goto(`/threads/${DEMO_IDS.debug}/chain`);
  await expect(page.getByRole("article")).toHaveCount(8);
  const ids = await page.getByRole("article").evaluateAll((articles) => articles.map((a) => a.id));
  expect(new Set(ids).size).toBe(8);
  const turn = page.getByRole("article", { name: "Turn 6" });
  await turn.getByRole("link", { name: "#6" }).click();
  expect(await page.evaluate(() => location.hash)).toBe(`#${await turn.getAttribute("id")}`);
  await expect(page.locator(":target")).toHaveAttribute("aria-label", "Turn 6");
});

test("wording: one turn, and the role is not repeated as attribution", async ({ page, threads }) => {
  const thread = await threads.create({ toolName: "wording", title: "Wording probe thread" });
  await threads.appendTurn(thread.id, { role: "assistant", content: "Alone." });
  await page.goto(`/threads/${thread.id}`);
  await expect(page.locator("dd", { hasText: /^1 turn$/ })).toBeVisible();
  const article = page.getByRole("article", { name: "Turn 1" });
  await expect(article).toContainText("Assistant");
  await expect(article).not.toContainText("Assistant Assistant");
  await expect(article.getByTestId("attribution")).toHaveCount(0);
  await page.goto("/threads");
  const row = page.getByRole("list", { name: "Threads" }).getByRole("listitem").filter({ hasText: "Wording probe thread" });
  await expect(row.getByText("1 turn", { exact: true })).toBeVisible();
  await expect(row).not.toContainText("1 turns");
});

test("the list fetches data only: no server re-render per keystroke, no prefetch of every row", async ({ page }) => {
  const pageRequests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    const rsc = request.headers()["rsc"] === "1" || url.searchParams.has("_rsc");
    if (rsc && url.pathname.startsWith("/threads")) pageRequests.push(`${url.pathname}${url.search}`);
  });
  await page.goto("/threads");
  const rows = page.getByRole("list", { name: "Threads" }).getByRole("listitem");
  await expect(rows.first()).toBeVisible();
  await page.getByLabel("Search titles and turns").pressSequentially("serialises refreshes", { delay: 120 });
  await expect(rows).toHaveCount(1);
  await expect(page).toHaveURL(/\?q=serialises\+refreshes$/);
  await page.getByLabel("Search titles and turns").fill("");
  await expect(rows.nth(1)).toBeVisible();
  await page.waitForTimeout(1500); // time for any prefetch of the visible rows to start
  expect(pageRequests).toEqual([]);
  // The URL still drives the page: a reload with it shows the same search.
  await page.goto("/threads?q=serialises+refreshes");
  await expect(page.getByLabel("Search titles and turns")).toHaveValue("serialises refreshes");
  await expect(rows).toHaveCount(1);
});

test("an unknown API path answers JSON, and the site has an icon", async ({ request, page }) => {
  for (const method of ["GET", "POST", "DELETE"]) {
    const response = await request.fetch("/api/no/such/endpoint", { method });
    expect(response.status()).toBe(404);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect((await response.json()).error.code).toBe("not_found");
  }
  const icon = await request.get("/icon.svg");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  const missing: string[] = [];
  page.on("response", (response) => void (response.status() === 404 && missing.push(response.url())));
  const requests = trackRequests(page);
  await page.goto("/threads");
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /icon/);
  await requests.settled(); // every request the page made has its answer (the live event stream stays open)
  expect(missing).toEqual([]);
});

test("the chain page copes with parent links that loop (data from before imports refused them)", async ({ page, threads }) => {
  const a = await threads.create({ toolName: "loop", title: "Loop thread A" });
  const b = await threads.create({ toolName: "loop", title: "Loop thread B", parentThreadId: a.id });
  for (const thread of [a, b]) await threads.appendTurn(thread.id, { role: "user", content: `in ${thread.title}` });
  // The API refuses the loop, so it is written straight into the server's database file.
  const Database = (await import("better-sqlite3")).default;
  const file = new Database(join(process.cwd(), "e2e", ".data", "seeded.db"));
  file.prepare('UPDATE "Thread" SET "parentThreadId" = ? WHERE "id" = ?').run(b.id, a.id);
  file.close();

  const errors: string[] = [];
  page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
  await page.goto(`/threads/${a.id}/chain`);
  const chain = page.getByRole("list", { name: "Threads in the chain, oldest first" });
  await expect(chain.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(page.getByTestId("chain-start")).toContainText("The parent links loop");
  await expect(page.getByText("which is not in this database")).toHaveCount(0);
  expect(errors).toEqual([]);
});
