/**
 * "What did each session, model and day cost?" answered on /usage for someone who has just
 * imported their sessions: the real Claude Code sessions (with a sub-agent file and a compaction
 * run) and a Codex rollout of a model with no known price, posted to /api/import on the imports
 * server. Every expected figure is worked out here from the raw files: each response once (message
 * id + request id, each field's largest count over its streamed lines), priced alone with
 * @pydantic/genai-prices at its own time, never through Threadline's importers or pricing. The
 * page is also held to GET /api/usage and to GET /api/threads/:id.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { calcPrice, type Usage } from "@pydantic/genai-prices";
import type { APIRequestContext, Page } from "@playwright/test";
import { formatUsd } from "../lib/domain/usage/cost";
import { formatInteger } from "../lib/format";
import { importedThreadId } from "../lib/importers/stable-id";
import { IMPORTS_URL } from "../playwright.config";
import { expect, test, type Threads } from "./fixtures";

test.use({ baseURL: IMPORTS_URL });

const REAL = path.join(process.cwd(), "fixtures/real");
const SPOTTER = "-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04";
/** Below claude-code/projects/, as Claude Code lays them out; a session's agent files before it, as a folder lists them. */
const CLAUDE_FILES = [
  `${SPOTTER}/subagents/agent-aac57f5.jsonl`,
  `${SPOTTER}/subagents/agent-acompact-946d2b.jsonl`,
  `${SPOTTER}.jsonl`,
  "-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
  "-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl",
  "-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl",
  "-Users-jnarowski-Dev-sourceborn-src-agent-workflows-monorepo-v2/10cd5911-8704-4996-9e33-32010589c357.jsonl",
];
/** Codex 0.39 with a custom provider's "aide-gpt-5": no price is known for it. Below codex/. */
const CODEX_FILE = "sessions/2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl";

type ClaudeUsage = {
  input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  output_tokens?: number;
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number };
};
type Response = { file: string; model: string; at: string; project: string; costUsd: number };

/** Each Claude Code response of a file once, priced alone at list prices when it ran. */
function claudeResponses(file: string): Response[] {
  const byKey = new Map<
    string,
    {
      model: string;
      at: string;
      project: string;
      input: number;
      read: number;
      write: number;
      write5m: number;
      write1h: number;
      split: boolean;
      output: number;
    }
  >();
  for (const line of readFileSync(path.join(REAL, "claude-code/projects", file), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as {
      type: string;
      timestamp: string;
      cwd: string;
      requestId?: string;
      message?: { id?: string; model?: string; usage?: ClaudeUsage };
    };
    const usage = entry.type === "assistant" && entry.message?.model !== "<synthetic>" ? entry.message?.usage : undefined;
    if (!usage) continue;
    const key = `${entry.message!.id}|${entry.requestId}`;
    const known = byKey.get(key) ?? {
      model: entry.message!.model!,
      at: entry.timestamp,
      project: entry.cwd,
      input: 0,
      read: 0,
      write: 0,
      write5m: 0,
      write1h: 0,
      split: false,
      output: 0,
    };
    known.input = Math.max(known.input, usage.input_tokens ?? 0);
    known.read = Math.max(known.read, usage.cache_read_input_tokens ?? 0);
    known.write = Math.max(known.write, usage.cache_creation_input_tokens ?? 0);
    known.output = Math.max(known.output, usage.output_tokens ?? 0);
    known.write5m = Math.max(known.write5m, usage.cache_creation?.ephemeral_5m_input_tokens ?? 0);
    known.write1h = Math.max(known.write1h, usage.cache_creation?.ephemeral_1h_input_tokens ?? 0);
    known.split ||= usage.cache_creation !== undefined;
    byKey.set(key, known);
  }
  return [...byKey.values()].map((r) => {
    // The library's input is all input, cached included; reads and writes are parts of it.
    const usage: Usage = {
      input_tokens: r.input + r.read + r.write,
      cache_read_tokens: r.read,
      cache_write_tokens: r.write,
      output_tokens: r.output,
    };
    if (r.split) Object.assign(usage, { cache_write_5m_tokens: r.write5m, cache_write_1h_tokens: r.write1h });
    const price = calcPrice(usage, r.model, { providerId: "anthropic", timestamp: new Date(r.at) });
    if (!price) throw new Error(`no price for ${r.model}: the fixture's expected figures need one`);
    return { file, model: r.model, at: r.at, project: r.project, costUsd: price.total_price };
  });
}

/** The Codex rollout's responses: one per distinct cumulative token count; its final total is the tokens. */
function codexFigures() {
  const lines = readFileSync(path.join(REAL, "codex", CODEX_FILE), "utf8")
    .split("\n")
    .filter((line) => line.trim());
  type Count = {
    timestamp: string;
    type: string;
    payload: {
      type: string;
      cwd?: string;
      info?: { total_token_usage: { input_tokens: number; cached_input_tokens: number; output_tokens: number } } | null;
    };
  };
  const events = lines.map((line) => JSON.parse(line) as Count);
  const counts = events.filter((e) => e.type === "event_msg" && e.payload.type === "token_count" && e.payload.info);
  const total = counts.at(-1)!.payload.info!.total_token_usage;
  return {
    responses: new Set(counts.map((e) => JSON.stringify(e.payload.info!.total_token_usage))).size,
    inputTokens: total.input_tokens - total.cached_input_tokens,
    cacheReadTokens: total.cached_input_tokens,
    outputTokens: total.output_tokens,
    days: counts.map((e) => e.timestamp.slice(0, 10)),
  };
}

const RESPONSES = CLAUDE_FILES.flatMap(claudeResponses);
const CODEX = codexFigures();
const sum = (responses: Response[]) => responses.reduce((total, r) => total + r.costUsd, 0);
/** Sums by a key, in the key's order. */
function sums(responses: Response[], keyOf: (r: Response) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of [...responses].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1))) out.set(keyOf(r), (out.get(keyOf(r)) ?? 0) + r.costUsd);
  return out;
}
/** The UTC day of an instant shifted by a fixed offset (a zone without daylight saving). */
const dayAt = (iso: string, offsetHours = 0) => new Date(Date.parse(iso) + offsetHours * 3_600_000).toISOString().slice(0, 10);
const DAYS = [...RESPONSES.map((r) => dayAt(r.at)), ...CODEX.days].sort();
/** The range that holds every response of the fixtures, in UTC. */
const RANGE = { since: DAYS[0]!, until: DAYS.at(-1)! };
const RANGE_QUERY = `since=${RANGE.since}&until=${RANGE.until}&tz=UTC`;

async function importAll(request: APIRequestContext, threads: Threads): Promise<void> {
  const files = [
    ...CLAUDE_FILES.map((file) => ({ name: file, full: path.join(REAL, "claude-code/projects", file) })),
    { name: CODEX_FILE, full: path.join(REAL, "codex", CODEX_FILE) },
  ];
  for (const file of files) {
    // As bytes: Playwright would re-encode a JSONL string as one JSON string literal.
    const response = await request.post(`/api/import?name=${encodeURIComponent(file.name)}`, {
      data: readFileSync(file.full),
      headers: { "content-type": "application/json" },
    });
    expect(response.status(), `${file.name}: ${await response.text()}`).toBe(201);
    for (const id of ((await response.json()) as { threadIds: string[] }).threadIds) threads.track(id);
  }
}

/** The period table's days that have a cost (a day of the unpriced model's responses only says "unpriced"), with it. */
async function pricedDays(page: Page): Promise<[string, string][]> {
  await expect(page.getByTestId("by-period-row").first()).toBeVisible();
  const days = await page
    .getByTestId("by-period-row")
    .evaluateAll((rows) => rows.map((r) => [r.getAttribute("data-key")!, r.querySelector('[data-testid="by-period-cost"]')!.textContent!]));
  return (days as [string, string][]).filter(([, cost]) => cost !== "unpriced");
}

const row = (page: Page, table: string, key: string) =>
  page.locator(`[data-testid="${table}-row"][data-key="${key.replace(/["\\]/g, "\\$&")}"]`);

test("imported sessions: the page's totals, models, days, projects, sources and threads are the raw files' responses priced one by one", async ({
  page,
  request,
  threads,
}) => {
  await importAll(request, threads);
  expect(RESPONSES.length).toBeGreaterThan(30);
  await page.goto(`/usage?${RANGE_QUERY}`);
  await expect(page.getByTestId("usage-range")).toHaveText(/days in UTC$/);

  await test.step("totals", async () => {
    await expect(page.getByTestId("total-cost")).toHaveText(formatUsd(sum(RESPONSES)));
    await expect(page.getByTestId("total-responses")).toHaveText(formatInteger(RESPONSES.length + CODEX.responses));
    // The API says the same.
    const api = await request.get(`/api/usage?${RANGE_QUERY}`);
    expect(api.status(), await api.text()).toBe(200);
    const report = (await api.json()) as { totals: { costUsd: number; responses: number; unpricedModels: string[] } };
    expect(report.totals.costUsd).toBeCloseTo(sum(RESPONSES), 9);
    expect(report.totals.responses).toBe(RESPONSES.length + CODEX.responses);
    expect(report.totals.unpricedModels).toEqual(["aide-gpt-5"]);
  });

  await test.step("each model, and the one without a price said so", async () => {
    const byModel = sums(RESPONSES, (r) => r.model);
    expect(byModel.size).toBeGreaterThanOrEqual(4);
    for (const [model, cost] of byModel) {
      await expect(row(page, "by-model", model).getByTestId("by-model-cost")).toHaveText(formatUsd(cost));
      await expect(row(page, "by-model", model).getByTestId("by-model-responses")).toHaveText(
        formatInteger(RESPONSES.filter((r) => r.model === model).length),
      );
    }
    const aide = row(page, "by-model", "aide-gpt-5");
    await expect(aide.getByTestId("by-model-cost")).toHaveText("unpriced");
    await expect(aide.getByTestId("by-model-input")).toHaveText(formatInteger(CODEX.inputTokens));
    await expect(aide.getByTestId("by-model-cache-read")).toHaveText(formatInteger(CODEX.cacheReadTokens));
    await expect(aide.getByTestId("by-model-output")).toHaveText(formatInteger(CODEX.outputTokens));
    await expect(page.getByTestId("unpriced-note")).toHaveText(new RegExp(`^${CODEX.responses} responses of model aide-gpt-5 unpriced`));
    // Costliest first.
    const keys = await page.getByTestId("by-model-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-key")));
    expect(keys).toEqual([...[...byModel].sort((a, b) => b[1] - a[1]).map(([model]) => model), "aide-gpt-5"]);
  });

  await test.step("each day: the period table's figures, and the chart's tooltip", async () => {
    const byDay = sums(RESPONSES, (r) => dayAt(r.at));
    expect(await pricedDays(page)).toEqual([...byDay].map(([day, cost]) => [day, formatUsd(cost)]));
    // Bars are drawn, and the last day's column tells its cost per model.
    const chart = page.getByRole("figure", { name: /^Cost per day by model/ });
    await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
    const plot = (await chart.locator(".recharts-cartesian-grid").boundingBox())!;
    await page.mouse.move(plot.x + plot.width - 1, plot.y + plot.height / 2);
    const tooltip = page.getByTestId("chart-tooltip");
    const last = [...byDay.keys()].at(-1)!;
    expect(last).toBe(RANGE.until);
    await expect(tooltip).toContainText(`: ${formatUsd(byDay.get(last)!)}`);
    for (const [model, cost] of sums(
      RESPONSES.filter((r) => dayAt(r.at) === last),
      (r) => r.model,
    ))
      await expect(tooltip).toContainText(`${model}${formatUsd(cost)}`);
  });

  await test.step("each project and source", async () => {
    for (const [project, cost] of sums(RESPONSES, (r) => r.project))
      await expect(row(page, "by-project", project).getByTestId("by-project-cost")).toHaveText(formatUsd(cost));
    await expect(row(page, "by-source", "import:claude-code").getByTestId("by-source-cost")).toHaveText(formatUsd(sum(RESPONSES)));
    await expect(row(page, "by-source", "import:codex").getByTestId("by-source-cost")).toHaveText("unpriced");
  });

  await test.step("the costliest sessions, linked, each its session's cost", async () => {
    const rows = page.getByTestId("by-thread-row");
    expect(await rows.count()).toBeGreaterThanOrEqual(5);
    // A session's row counts its sub-agent and its compaction run (a run has no thread of its own); the sub-agent has no row of its own.
    const session = importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04");
    const agent = importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04:agent:aac57f5");
    const inFiles = (...files: string[]) => sum(RESPONSES.filter((r) => files.includes(r.file)));
    await expect(rows.first()).toHaveAttribute("data-key", session);
    const sessionRow = row(page, "by-thread", session);
    await expect(sessionRow.getByTestId("figure-cost")).toHaveText(formatUsd(inFiles(...CLAUDE_FILES.slice(0, 3))));
    await expect(sessionRow.getByTestId("figure-covers")).toHaveText("incl. 1 sub-agent and 1 compaction run");
    await expect(row(page, "by-thread", agent)).toHaveCount(0);
    for (const file of CLAUDE_FILES.slice(4)) {
      const id = importedThreadId("claude-code", path.basename(file, ".jsonl"));
      await expect(row(page, "by-thread", id).getByTestId("figure-cost")).toHaveText(formatUsd(inFiles(file)));
    }
    // Every row: its link, its title, and the figures GET /api/threads/:id gives the thread (its sub-agents and compaction runs in them).
    for (const key of await rows.evaluateAll((all) => all.map((r) => r.getAttribute("data-key")!))) {
      const response = await request.get(`/api/threads/${key}`);
      expect(response.status()).toBe(200);
      const { thread } = (await response.json()) as {
        thread: { title: string | null; figures: { total: { costUsd: number; responses: number; unpricedResponses: number } } };
      };
      const link = row(page, "by-thread", key).getByRole("link");
      await expect(link).toHaveAttribute("href", `/threads/${key}`);
      await expect(link).toHaveText(thread.title ?? key);
      const { costUsd, responses, unpricedResponses } = thread.figures.total;
      const cost =
        unpricedResponses === responses
          ? "unpriced"
          : unpricedResponses > 0
            ? `${formatUsd(costUsd)} + ${unpricedResponses} unpriced`
            : formatUsd(costUsd);
      await expect(row(page, "by-thread", key).getByTestId("figure-cost")).toHaveText(cost);
    }
    await row(page, "by-thread", session).getByRole("link").click();
    await expect(page).toHaveURL(`/threads/${session}`);
  });
});

test("the range and filters are the URL's, under the API's names: the form writes them, a reload keeps them, a filter changes the figures", async ({
  page,
  request,
  threads,
}) => {
  await importAll(request, threads);
  await page.goto(`/usage?${RANGE_QUERY}`);
  const form = page.getByRole("form", { name: "Usage range and filters" });
  await expect(form.getByLabel("From", { exact: true })).toHaveValue(RANGE.since);
  await expect(form.getByLabel("To", { exact: true })).toHaveValue(RANGE.until);

  await test.step("a model", async () => {
    const model = "claude-opus-4-6";
    await form.getByLabel("Model", { exact: true }).selectOption(model);
    await form.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(`/usage?since=${RANGE.since}&until=${RANGE.until}&tz=UTC&model=${model}&project=&source=`);
    const expected = formatUsd(sum(RESPONSES.filter((r) => r.model === model)));
    await expect(page.getByTestId("total-cost")).toHaveText(expected);
    await expect(page.getByTestId("by-model-row")).toHaveCount(1);
    await expect(page.getByTestId("usage-range")).toContainText(`model ${model}`);
    await page.reload();
    await expect(page.getByTestId("total-cost")).toHaveText(expected);
    await expect(form.getByLabel("Model", { exact: true })).toHaveValue(model);
  });

  await test.step("a model without a price: its tokens, no cost, nothing to draw", async () => {
    await page.goto(`/usage?${RANGE_QUERY}&model=aide-gpt-5`);
    await expect(page.getByTestId("total-cost")).toHaveText("$0");
    await expect(page.getByTestId("total-input")).toHaveText(formatInteger(CODEX.inputTokens));
    await expect(page.getByTestId("unpriced-note")).toContainText(`${CODEX.responses} responses of model aide-gpt-5 unpriced`);
    await expect(page.getByTestId("chart-nothing-priced")).toBeVisible();
    await page.goto(`/usage?${RANGE_QUERY}&model=claude-opus-4-6`);
  });

  await test.step("a shorter range", async () => {
    await form.getByLabel("Model", { exact: true }).selectOption("");
    await form.getByLabel("From", { exact: true }).fill("2026-01-01");
    await form.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/[?&]since=2026-01-01&/);
    await expect(page.getByTestId("total-cost")).toHaveText(formatUsd(sum(RESPONSES.filter((r) => dayAt(r.at) >= "2026-01-01"))));
    await expect(page.getByTestId("unpriced-note")).toHaveCount(0); // the Codex session was in 2025
  });

  await test.step("a project, from its row's link", async () => {
    await page.goto(`/usage?${RANGE_QUERY}`);
    const project = "/path/to/Demo";
    await row(page, "by-project", project).getByRole("link").click();
    await expect(page).toHaveURL(`/usage?${RANGE_QUERY}&project=${encodeURIComponent(project)}`);
    await expect(page.getByTestId("total-cost")).toHaveText(formatUsd(sum(RESPONSES.filter((r) => r.project === project))));
    await expect(page.getByRole("link", { name: "Clear filters" })).toBeVisible();
  });

  await test.step("another time zone moves responses to the days they ran on there", async () => {
    // Kiritimati is UTC+14 all year.
    await page.goto(`/usage?since=${RANGE.since}&until=2026-03-01&tz=Pacific%2FKiritimati`);
    const byDay = sums(RESPONSES, (r) => dayAt(r.at, 14));
    expect([...byDay.keys()]).not.toEqual([...sums(RESPONSES, (r) => dayAt(r.at)).keys()]);
    expect(await pricedDays(page)).toEqual([...byDay].map(([day, cost]) => [day, formatUsd(cost)]));
    await expect(page.getByTestId("usage-range")).toContainText("days in Pacific/Kiritimati");
  });

  await test.step("quick ranges spell out their days and keep the filters", async () => {
    await page.goto(`/usage?tz=UTC&model=claude-opus-4-6`);
    const today = new Date().toISOString().slice(0, 10);
    const since = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    const quick = page.getByRole("navigation", { name: "Quick ranges" }).getByRole("link", { name: "Last 30 days" });
    await expect(quick).toHaveAttribute("href", `/usage?since=${since}&until=${today}&tz=UTC&model=claude-opus-4-6`);
    await expect(quick).toHaveAttribute("aria-current", "page"); // the default range is the last 30 days
  });
});

test("a parameter the report refuses is named on the page, with a way back", async ({ page }) => {
  await page.goto("/usage?since=2026-02-30&tz=UTC");
  const alert = page.locator("main").getByRole("alert");
  await expect(alert).toContainText("This address does not describe a usage report");
  await expect(alert.getByRole("listitem")).toHaveText(["since is not a calendar date"]);

  await page.goto("/usage?since=2026-02-01&until=2026-01-01&modle=x&model=a&model=b");
  await expect(page.locator("main").getByRole("alert").getByRole("listitem")).toHaveText([
    /^modle is not a parameter of this page/,
    "model is given 2 times: give it once",
  ]);

  await page.goto("/usage?since=2026-02-01&until=2026-01-01");
  await expect(page.locator("main").getByRole("alert").getByRole("listitem")).toHaveText(["until must not be before since (2026-02-01)"]);
  await page.getByRole("link", { name: "Show the last 30 days instead" }).click();
  await expect(page).toHaveURL("/usage");
  await expect(page.locator("main").getByRole("alert")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Usage");
});

test("a range without usage says so and points to the import page; the header links to the page", async ({ page }) => {
  await page.goto("/threads");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL("/usage");

  await page.goto("/usage?since=2001-01-01&until=2001-01-31&tz=UTC");
  const empty = page.getByTestId("usage-empty");
  await expect(empty).toContainText("No model responses with usage in this range, 1 Jan 2001 to 31 Jan 2001.");
  await expect(empty.getByRole("link", { name: "Import" })).toHaveAttribute("href", "/import");
  await expect(page.getByTestId("total-cost")).toHaveCount(0);

  await page.goto("/usage?since=2001-01-01&until=2001-01-31&tz=UTC&model=no-such-model");
  await expect(page.getByTestId("usage-empty")).toContainText("match these filters");
  await expect(page.getByTestId("usage-empty").getByRole("link", { name: "all models, projects and sources" })).toHaveAttribute(
    "href",
    "/usage?since=2001-01-01&until=2001-01-31&tz=UTC",
  );
});

test.describe("in a browser in another time zone", () => {
  test.use({ timezoneId: "Europe/Berlin" });

  test("the page offers the browser's own time zone, keeping the range and filters", async ({ page }) => {
    await page.goto("/usage?since=2001-01-01&until=2001-01-31&tz=UTC&model=m");
    const offer = page.getByTestId("browser-zone");
    await expect(offer).toHaveText("Use this browser's time zone (Europe/Berlin)");
    await expect(offer).toHaveAttribute("href", "/usage?since=2001-01-01&until=2001-01-31&tz=Europe%2FBerlin&model=m");
    await offer.click();
    await expect(page.getByTestId("usage-range")).toContainText("days in Europe/Berlin");
    await expect(page.getByTestId("browser-zone")).toHaveCount(0);
  });
});
