/**
 * /insights for someone who has just imported their sessions: real Claude Code sessions (one with
 * a sub-agent, a compaction and failed tool calls) and a Codex rollout, posted to /api/import on
 * the imports server. The page is held to GET /api/insights for the same address (each heatmap
 * cell, the tools, the models and agents), its filters to the URL, its links to where they lead,
 * and it fits a phone and passes axe-core. The empty server shows the empty state.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import type { ActivityCell, InsightsReport } from "../lib/domain/insights/insights-report";
import { formatUsd } from "../lib/domain/usage/cost";
import { formatInteger } from "../lib/format";
import { importedThreadId } from "../lib/importers/stable-id";
import { EMPTY_URL, IMPORTS_URL } from "../playwright.config";
import { expect, test, type Threads } from "./fixtures";

test.use({ baseURL: IMPORTS_URL });

const REAL = path.join(process.cwd(), "fixtures/real");
const SPOTTER_ID = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
/** Below fixtures/real/: a session's agent files before it, as a folder lists them. */
const FILES = [
  `claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te/${SPOTTER_ID}/subagents/agent-aac57f5.jsonl`,
  `claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te/${SPOTTER_ID}/subagents/agent-acompact-946d2b.jsonl`,
  `claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te/${SPOTTER_ID}.jsonl`,
  "claude-code/projects/-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
  "codex/sessions/2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl",
];
/** Every day of the files, in UTC. */
const ALL_TIME = "since=2025-01-01&until=2026-06-30&tz=UTC";

async function importAll(request: APIRequestContext, threads: Threads): Promise<void> {
  for (const file of FILES) {
    // As bytes: Playwright would re-encode a JSONL string as one JSON string literal.
    const name = file.replace(/^(claude-code\/projects|codex)\//, "");
    const response = await request.post(`/api/import?name=${encodeURIComponent(name)}`, {
      data: readFileSync(path.join(REAL, file)),
      headers: { "content-type": "application/json" },
    });
    expect(response.status(), `${file}: ${await response.text()}`).toBe(201);
    for (const id of ((await response.json()) as { threadIds: string[] }).threadIds) threads.track(id);
  }
}

async function apiReport(request: APIRequestContext, query: string): Promise<InsightsReport> {
  const response = await request.get(`/api/insights?${query}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as InsightsReport;
}

/** The heatmap's cells that hold anything, as "row|hour" -> [turns, responses]. */
async function shownCells(page: Page): Promise<Map<string, [number, number]>> {
  const cells = await page
    .getByTestId("activity-cell")
    .evaluateAll((all) =>
      all.map((cell) => [
        cell.getAttribute("data-row")!,
        cell.getAttribute("data-hour")!,
        cell.getAttribute("data-turns")!,
        cell.getAttribute("data-responses")!,
      ]),
    );
  return new Map(
    cells
      .filter(([, , turns, responses]) => turns !== "0" || responses !== "0")
      .map(([row, hour, turns, responses]) => [`${row}|${hour}`, [Number(turns), Number(responses)]]),
  );
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The API's activity as the heatmap should show it: by day, or summed by weekday. */
function expectedCells(activity: ActivityCell[], byWeekday: boolean): Map<string, [number, number]> {
  const cells = new Map<string, [number, number]>();
  for (const cell of activity) {
    const row = byWeekday ? WEEKDAYS[new Date(`${cell.day}T00:00:00Z`).getUTCDay()]! : cell.day;
    const [turns, responses] = cells.get(`${row}|${cell.hour}`) ?? [0, 0];
    cells.set(`${row}|${cell.hour}`, [turns + cell.turns, responses + cell.responses]);
  }
  return cells;
}

const row = (page: Page, table: string, key: string) =>
  page.locator(`[data-testid="${table}-row"][data-key="${key.replace(/["\\]/g, "\\$&")}"]`);

test("the page's heatmap, tools, models and agents are GET /api/insights's for the same address", async ({ page, request, threads }) => {
  await importAll(request, threads);

  await test.step("a long range folds the days onto the weekdays", async () => {
    await page.goto(`/insights?${ALL_TIME}`);
    const report = await apiReport(request, ALL_TIME);
    expect(new Set(report.activity.map((cell) => cell.day)).size).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId("activity-heatmap")).toHaveAttribute("data-rows", "weekday");
    expect(await shownCells(page)).toEqual(expectedCells(report.activity, true));
  });

  await test.step("a week is a row per day, each cell named", async () => {
    const last = [...new Set((await apiReport(request, ALL_TIME)).activity.map((cell) => cell.day))].sort().at(-1)!;
    const since = new Date(Date.parse(`${last}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
    const query = `since=${since}&until=${last}&tz=UTC`;
    await page.goto(`/insights?${query}`);
    const report = await apiReport(request, query);
    await expect(page.getByTestId("activity-heatmap")).toHaveAttribute("data-rows", "day");
    await expect(page.getByTestId("activity-heatmap").locator("tbody tr")).toHaveCount(7);
    expect(await shownCells(page)).toEqual(expectedCells(report.activity, false));
    const busiest = report.activity.reduce((best, cell) => (cell.turns > best.turns ? cell : best));
    const [, month, date] = busiest.day.split("-").map(Number) as [number, number, number];
    const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    const weekday = WEEKDAYS[new Date(`${busiest.day}T00:00:00Z`).getUTCDay()];
    const hour = (h: number) => `${String(h).padStart(2, "0")}:00`;
    const name = `${weekday} ${date} ${months[month - 1]}, ${hour(busiest.hour)}–${hour(busiest.hour + 1)}: ${busiest.turns} turns, ${busiest.responses} response${busiest.responses === 1 ? "" : "s"}`;
    await expect(page.getByRole("cell", { name, exact: true })).toHaveCount(1);
    // One focusable region, not a focusable cell each.
    await expect(page.getByRole("region", { name: /^Turns by day and hour in UTC/ })).toHaveAttribute("tabindex", "0");
    await expect(page.getByTestId("activity-heatmap").locator("[tabindex]")).toHaveCount(0);
    await expect(page.getByTestId("busiest-hours")).toContainText(`Busiest hours: ${hour(busiest.hour)}`);
  });

  await test.step("tools, models and agents", async () => {
    await page.goto(`/insights?${ALL_TIME}`);
    const report = await apiReport(request, ALL_TIME);
    expect(report.tools.some((tool) => tool.errors > 0)).toBe(true);
    await expect(page.getByTestId("tools-tool")).toHaveCount(report.tools.length);
    for (const tool of report.tools) {
      const shown = page.locator(`[data-testid="tools-tool"][data-key="${tool.name}"]`);
      await expect(shown.getByTestId("tools-row-calls")).toHaveText(formatInteger(tool.calls));
      await expect(shown.getByTestId("tools-row-errors")).toHaveText(formatInteger(tool.errors));
      // One agent is named in the tool's row, several each have a row.
      await expect(shown.getByTestId("tools-agent-row")).toHaveCount(tool.agents.length > 1 ? tool.agents.length : 0);
    }
    // Sorted by calls, then by error rate.
    const order = () => page.getByTestId("tools-tool").evaluateAll((all) => all.map((tool) => tool.getAttribute("data-key")));
    expect(await order()).toEqual(report.tools.map((tool) => tool.name));
    await page.getByTestId("sort-errorRate").click();
    const rate = (tool: { calls: number; errors: number }) => tool.errors / tool.calls;
    await expect
      .poll(order)
      .toEqual(
        [...report.tools].sort((a, b) => rate(b) - rate(a) || b.errors - a.errors || a.name.localeCompare(b.name)).map((tool) => tool.name),
      );
    await expect(page.getByRole("columnheader", { name: "Error rate" })).toHaveAttribute("aria-sort", "descending");

    for (const model of report.models) {
      const cost = model.unpricedResponses === model.responses ? "unpriced" : formatUsd(model.costUsd);
      await expect(row(page, "models", model.model).getByTestId("models-cost")).toContainText(cost);
      await expect(row(page, "models", model.model).getByTestId("models-responses")).toHaveText(formatInteger(model.responses));
    }
    await expect(row(page, "models", "aide-gpt-5").getByTestId("models-cost")).toHaveText("unpriced");
    for (const agent of report.agents) {
      await expect(row(page, "agents", agent.source).getByTestId("agents-sessions")).toHaveText(formatInteger(agent.sessions));
      await expect(row(page, "agents", agent.source).getByTestId("agents-tool-errors")).toHaveText(formatInteger(agent.toolErrors));
    }
    await expect(page.getByTestId("sessions-count")).toHaveText(formatInteger(report.sessions.count));
    await expect(page.getByTestId("sessions-compaction")).toHaveText(formatInteger(report.sessions.withCompaction));
  });

  await test.step("one figure for one thing: each model's cost is /usage's for the range", async () => {
    const report = await apiReport(request, ALL_TIME);
    const usage = await request.get(`/api/usage?${ALL_TIME}&groupBy=model`);
    const { rows } = (await usage.json()) as { rows: { key: string; costUsd: number; responses: number }[] };
    for (const model of report.models) {
      const same = rows.find((r) => r.key === model.model);
      expect(same, model.model).toBeDefined();
      expect(model.costUsd).toBeCloseTo(same!.costUsd, 9);
      expect(model.responses).toBe(same!.responses);
    }
  });
});

test("filters are the URL's, under the API's names, and change the figures; links lead to the list and the thread", async ({
  page,
  request,
  threads,
}) => {
  await importAll(request, threads);
  await page.goto(`/insights?${ALL_TIME}`);
  const form = page.getByRole("form", { name: "Insights range and filters" });

  await test.step("an agent", async () => {
    await form.getByLabel("Agent", { exact: true }).selectOption("import:codex");
    await form.getByRole("button", { name: "Show" }).click();
    // The form holds the range the report covered: the asked one cut to the data's days.
    const { since, until } = await apiReport(request, ALL_TIME);
    await expect(page).toHaveURL(`/insights?since=${since}&until=${until}&tz=UTC&model=&project=&source=import%3Acodex`);
    await expect(page.getByTestId("insights-range")).toContainText("agent Codex");
    const report = await apiReport(request, `${ALL_TIME}&source=import:codex`);
    await expect(page.getByTestId("agents-row")).toHaveCount(1);
    await expect(page.getByTestId("sessions-count")).toHaveText(formatInteger(report.sessions.count));
    expect(await shownCells(page)).toEqual(expectedCells(report.activity, true));
    await page.reload();
    await expect(form.getByLabel("Agent", { exact: true })).toHaveValue("import:codex");
  });

  await test.step("a bad parameter is named", async () => {
    await page.goto("/insights?since=2026-02-30&tz=UTC");
    const alert = page.locator("main").getByRole("alert");
    await expect(alert).toContainText("This address does not describe an insights report");
    await expect(alert.getByRole("listitem")).toHaveText(["since is not a calendar date"]);
  });

  await test.step("a tool's link lists the threads of its agent that called it", async () => {
    await page.goto(`/insights?${ALL_TIME}`);
    const link = page.getByTestId("tools-row").filter({ hasText: "Bash" }).getByRole("link", { name: "Bash", exact: true });
    await expect(link).toHaveAttribute("href", "/threads?tool=Bash&source=import%3Aclaude-code");
    await link.click();
    await expect(page).toHaveURL("/threads?tool=Bash&source=import%3Aclaude-code");
    await expect(page.locator(`a[href="/threads/${importedThreadId("claude-code", SPOTTER_ID)}"]`).first()).toBeVisible();
  });

  await test.step("a session opens its thread", async () => {
    await page.goto(`/insights?${ALL_TIME}`);
    const first = page.getByTestId("longest-row").first();
    const id = await first.getAttribute("data-key");
    await first.getByRole("link").click();
    await expect(page).toHaveURL(`/threads/${id}`);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("nothing scrolls sideways but the heatmap's own box, and axe-core finds nothing serious", async ({ page, request, threads }) => {
    await importAll(request, threads);
    await page.goto(`/insights?${ALL_TIME}`);
    await expect(page.getByTestId("activity-heatmap")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const region = page.getByRole("region", { name: /^Turns by weekday/ });
    expect(await region.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual(
      [],
    );
  });
});

test("with no sessions the page says where they come from; the header links to it", async ({ page }) => {
  await page.goto(`${EMPTY_URL}/threads`);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Insights" }).click();
  await expect(page).toHaveURL(`${EMPTY_URL}/insights`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Insights");
  const empty = page.getByTestId("insights-empty");
  await expect(empty.getByRole("link", { name: "Import" })).toHaveAttribute("href", "/import");
  await expect(empty.getByRole("link", { name: "Sources" })).toHaveAttribute("href", "/sources");
  await expect(page.getByTestId("activity-heatmap")).toHaveCount(0);
});
