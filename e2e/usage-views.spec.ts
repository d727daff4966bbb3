/**
 * /usage's views of one range (per day, ISO week, month and 5-hour block), its period table and
 * the CSV downloads, held to GET /api/usage for the same parameters: real Claude Code sessions and
 * a Codex rollout of a model with no known price, imported on the imports server.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { formatUsd } from "../lib/domain/usage/cost";
import type { UsageReport, UsageRow } from "../lib/domain/usage/usage-report";
import { formatInteger } from "../lib/format";
import { IMPORTS_URL } from "../playwright.config";
import { expect, test, type Threads } from "./fixtures";

test.use({ baseURL: IMPORTS_URL });

const REAL = path.join(process.cwd(), "fixtures/real");
const FILES = [
  "claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
  "claude-code/projects/-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
  "claude-code/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl",
  "claude-code/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl",
  "claude-code/projects/-Users-jnarowski-Dev-sourceborn-src-agent-workflows-monorepo-v2/10cd5911-8704-4996-9e33-32010589c357.jsonl",
  "codex/sessions/2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl",
];
/** Wider than the files' days (September 2025 to early 2026), in UTC. */
const RANGE = "since=2025-09-01&until=2026-03-31&tz=UTC";

async function importAll(request: APIRequestContext, threads: Threads): Promise<void> {
  for (const file of FILES) {
    // As bytes: Playwright would re-encode a JSONL string as one JSON string literal.
    const response = await request.post(`/api/import?name=${encodeURIComponent(file)}`, {
      data: readFileSync(path.join(REAL, file)),
      headers: { "content-type": "application/json" },
    });
    expect(response.status(), `${file}: ${await response.text()}`).toBe(201);
    for (const id of ((await response.json()) as { threadIds: string[] }).threadIds) threads.track(id);
  }
}

async function report(request: APIRequestContext, query: string): Promise<UsageReport> {
  const response = await request.get(`/api/usage?${query}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as UsageReport;
}

/** A cost cell as the page writes it. */
function costText(row: UsageRow): string {
  if (row.unpricedResponses > 0 && row.unpricedResponses === row.responses) return "unpriced";
  return `${formatUsd(row.costUsd)}${row.unpricedResponses > 0 ? `+${formatInteger(row.unpricedResponses)} unpriced` : ""}`;
}

const periodRows = (page: Page) => page.getByTestId("by-period-row");
const keysOf = (rows: Locator) => rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-key")));

/** The period table shows the API's rows, in the order given, with their figures. */
async function expectPeriodRows(page: Page, rows: UsageRow[]): Promise<void> {
  await expect(periodRows(page)).toHaveCount(rows.length);
  expect(await keysOf(periodRows(page))).toEqual(rows.map((row) => row.key));
  await expect(periodRows(page).getByTestId("by-period-cost")).toHaveText(rows.map(costText));
  await expect(periodRows(page).getByTestId("by-period-responses")).toHaveText(rows.map((row) => formatInteger(row.responses)));
  await expect(periodRows(page).getByTestId("by-period-total-tokens")).toHaveText(
    rows.map((row) => formatInteger(row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens)),
  );
}

/** RFC 4180 text as rows of fields: a quoted field may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  const field = /"((?:[^"]|"")*)"|([^",\r\n]*)/y;
  let at = 0;
  while (at < text.length) {
    field.lastIndex = at;
    const match = field.exec(text)!;
    row.push(match[1] !== undefined ? match[1].replace(/""/g, '"') : match[2]!);
    at = field.lastIndex;
    if (text[at] === ",") at += 1;
    else if (text.startsWith("\r\n", at)) {
      rows.push(row);
      row = [];
      at += 2;
    } else throw new Error(`not CSV at ${at}: ${JSON.stringify(text.slice(at, at + 20))}`);
  }
  return rows;
}

/** Downloads a table's CSV with its button: the file's name and its rows as objects by header. */
async function downloadCsv(page: Page, button: Locator): Promise<{ filename: string; rows: Record<string, string>[] }> {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const text = readFileSync((await download.path())!, "utf8");
  const [header, ...rows] = parseCsv(text);
  return {
    filename: download.suggestedFilename(),
    rows: rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!]))),
  };
}

/** A CSV row's figures, compared as numbers with the API's. */
function csvFigures(row: Record<string, string>) {
  return {
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    cacheReadTokens: Number(row.cache_read_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
    costUsd: Number(row.cost_usd),
    responses: Number(row.responses),
    unpricedResponses: Number(row.unpriced_responses),
  };
}
const apiFigures = ({ inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd, responses, unpricedResponses }: UsageRow) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
  costUsd,
  responses,
  unpricedResponses,
});

test("the views of a range switch by mouse and by keyboard, each the API's rows for its groupBy", async ({ page, request, threads }) => {
  await importAll(request, threads);
  await page.goto(`/usage?${RANGE}`);
  const views = page.getByRole("navigation", { name: "View of the range" });
  await expect(views.getByRole("link", { name: "Day" })).toHaveAttribute("aria-current", "page");
  const byDay = await report(request, `${RANGE}&groupBy=day`);
  expect(byDay.rows.length).toBeGreaterThan(3);
  await expectPeriodRows(page, byDay.rows);
  await expect(page.getByTestId("by-period-total").getByTestId("by-period-cost")).toHaveText(costText({ key: "", ...byDay.totals }));

  await test.step("week, by mouse", async () => {
    await views.getByRole("link", { name: "Week" }).click();
    await expect(page).toHaveURL(`/usage?${RANGE}&view=week`);
    await expect(views.getByRole("link", { name: "Week" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: "Cost per week" })).toBeVisible();
    await expectPeriodRows(page, (await report(request, `${RANGE}&groupBy=week`)).rows);
  });

  await test.step("month, by keyboard", async () => {
    await views.getByRole("link", { name: "Month" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`/usage?${RANGE}&view=month`);
    const byMonth = await report(request, `${RANGE}&groupBy=month`);
    await expectPeriodRows(page, byMonth.rows);
    await expect(periodRows(page).first().getByTestId("by-period-label")).toHaveText("Sep 2025");
    // A new range from the form keeps the view.
    await page.getByRole("form", { name: "Usage range and filters" }).getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/[?&]view=month(&|$)/);
  });

  await test.step("back to days: the address without view", async () => {
    await views.getByRole("link", { name: "Day" }).click();
    await expect(page).toHaveURL(`/usage?${RANGE}`);
    await expectPeriodRows(page, byDay.rows);
  });

  await test.step("a view the page does not have is named", async () => {
    await page.goto(`/usage?${RANGE}&view=year`);
    await expect(page.locator("main").getByRole("alert").getByRole("listitem")).toHaveText(["view must be one of day, week, month, block"]);
  });
});

test("the period table sorts by any column from its header, by mouse and keyboard", async ({ page, request, threads }) => {
  await importAll(request, threads);
  await page.goto(`/usage?${RANGE}`);
  const rows = (await report(request, `${RANGE}&groupBy=day`)).rows;
  const table = page.getByTestId("by-period");
  const byTime = (a: UsageRow, b: UsageRow) => (a.key < b.key ? -1 : 1);
  await expect(table.getByRole("columnheader", { name: "Day" })).toHaveAttribute("aria-sort", "ascending");

  await table.getByRole("button", { name: "Cost", exact: true }).click();
  await expect(table.getByRole("columnheader", { name: "Cost", exact: true })).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("columnheader", { name: "Day" })).toHaveAttribute("aria-sort", "none");
  expect(await keysOf(periodRows(page))).toEqual([...rows].sort((a, b) => b.costUsd - a.costUsd || byTime(a, b)).map((r) => r.key));

  await table.getByRole("button", { name: "Cost", exact: true }).press("Enter");
  await expect(table.getByRole("columnheader", { name: "Cost", exact: true })).toHaveAttribute("aria-sort", "ascending");
  expect(await keysOf(periodRows(page))).toEqual([...rows].sort((a, b) => a.costUsd - b.costUsd || byTime(a, b)).map((r) => r.key));

  await table.getByRole("button", { name: "Cache read" }).press("Space");
  await expect(table.getByRole("columnheader", { name: "Cache read" })).toHaveAttribute("aria-sort", "descending");
  expect(await keysOf(periodRows(page))).toEqual(
    [...rows].sort((a, b) => b.cacheReadTokens - a.cacheReadTokens || byTime(a, b)).map((r) => r.key),
  );

  await table.getByRole("button", { name: "Day" }).click();
  expect(await keysOf(periodRows(page))).toEqual(rows.map((r) => r.key));
  // The totals stay last.
  await expect(table.locator("tr").last()).toHaveAttribute("data-testid", "by-period-total");
});

test("each table downloads as CSV: the API's rows, numbers unformatted", async ({ page, request, threads }) => {
  await importAll(request, threads);
  await page.goto(`/usage?${RANGE}&view=week`);

  await test.step("the period table", async () => {
    const week = await report(request, `${RANGE}&groupBy=week`);
    const csv = await downloadCsv(page, page.getByRole("button", { name: "Download CSV of the table per week" }));
    expect(csv.filename).toBe("threadline-usage-week-2025-09-01-2026-03-31.csv");
    expect(csv.rows.map((row) => row.week_start)).toEqual(week.rows.map((row) => row.key));
    expect(csv.rows.map(csvFigures)).toEqual(week.rows.map(apiFigures));
  });

  await test.step("by model, by session, by project, by source", async () => {
    const tables = [
      { button: "By model", groupBy: "model", table: "model", key: "model" },
      { button: "Most expensive sessions", groupBy: "thread&limit=10", table: "session", key: "thread_id" },
      { button: "By project", groupBy: "project", table: "project", key: "project" },
      { button: "By source", groupBy: "source", table: "source", key: "source" },
    ];
    for (const { button, groupBy, table, key } of tables) {
      const api = await report(request, `${RANGE}&groupBy=${groupBy}`);
      const csv = await downloadCsv(page, page.getByRole("button", { name: `Download CSV of ${button}` }));
      expect(csv.filename).toBe(`threadline-usage-${table}-2025-09-01-2026-03-31.csv`);
      expect(
        csv.rows.map((row) => row[key]),
        table,
      ).toEqual(api.rows.map((row) => row.key));
      expect(csv.rows.map(csvFigures), table).toEqual(api.rows.map(apiFigures));
    }
  });
});

test("5-hour blocks: the API's blocks, with their state, and as CSV", async ({ page, request, threads }) => {
  await importAll(request, threads);
  await page.goto(`/usage?${RANGE}`);
  await page.getByRole("navigation", { name: "View of the range" }).getByRole("link", { name: "5-hour blocks" }).click();
  await expect(page).toHaveURL(`/usage?${RANGE}&view=block`);
  const blocks = await report(request, `${RANGE}&groupBy=block`);
  expect(blocks.rows.length).toBeGreaterThan(3);
  await expectPeriodRows(page, blocks.rows);
  // Long past: none is active, each says how long it ran.
  await expect(periodRows(page).getByTestId("by-period-state")).toHaveText(blocks.rows.map(() => /^(\d+ h )?\d+ min used$/));
  await expect(periodRows(page).first().getByTestId("by-period-models")).toHaveText(blocks.rows[0]!.models!.join("; "));

  const csv = await downloadCsv(page, page.getByRole("button", { name: "Download CSV of the table per 5-hour block" }));
  expect(csv.filename).toBe("threadline-usage-block-2025-09-01-2026-03-31.csv");
  expect(csv.rows.map((row) => [row.block_start, row.block_end, row.last_response_at, row.active])).toEqual(
    blocks.rows.map((row) => [row.start, row.end, row.lastResponseAt, String(row.isActive)]),
  );
  expect(csv.rows.map(csvFigures)).toEqual(blocks.rows.map(apiFigures));

  await page.goto("/usage?since=2001-01-01&until=2001-01-31&tz=UTC&view=block");
  await expect(page.getByTestId("usage-empty")).toContainText("No 5-hour blocks: No model responses with usage in this range");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("no view widens the page: the period table scrolls in its own box", async ({ page, request, threads }) => {
    await importAll(request, threads);
    for (const view of ["day", "week", "month", "block"]) {
      await page.goto(`/usage?${RANGE}&view=${view}`);
      await expect(periodRows(page).first()).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(390);
      const box = page.getByRole("region", { name: /^Tokens, cost and responses per / });
      expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth), view).toBe(true);
      await box.focus();
      await page.keyboard.press("ArrowRight");
      await expect.poll(() => box.evaluate((element) => element.scrollLeft), view).toBeGreaterThan(0);
    }
  });
});
