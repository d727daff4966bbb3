/**
 * One figure per thread (issue 34): a real Claude Code session with a sub-agent and a compaction
 * run, imported as a folder lists them, shows the same tokens and the same cost in its thread list
 * row, its header and its /usage row, saying what they cover, with the split a keyboard opens. The
 * tokens are counted here from the raw files (each response once), not through Threadline.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { formatUsd } from "../lib/domain/usage/cost";
import { importedThreadId } from "../lib/importers/stable-id";
import { IMPORTS_URL } from "../playwright.config";
import { expect, test } from "./fixtures";

test.use({ baseURL: IMPORTS_URL });

const DIR = path.join(process.cwd(), "fixtures/real/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te");
const SESSION_KEY = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
const FILES = [
  `${SESSION_KEY}/subagents/agent-aac57f5.jsonl`,
  `${SESSION_KEY}/subagents/agent-acompact-946d2b.jsonl`,
  `${SESSION_KEY}.jsonl`,
];
const PROJECT = "/home/USER/projects/spotter-worktrees/spotter-4te";

type Usage = { input_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number; output_tokens?: number };

/** The files' tokens (input, cache reads and writes, output), each response once (message id + request id, each field's largest count). */
function tokensIn(files: string[]): number {
  const responses = new Map<string, number[]>();
  for (const file of files) {
    for (const line of readFileSync(path.join(DIR, file), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line) as { type: string; requestId?: string; message?: { id?: string; model?: string; usage?: Usage } };
      const usage = entry.type === "assistant" && entry.message?.model !== "<synthetic>" ? entry.message?.usage : undefined;
      if (!usage) continue;
      const key = `${entry.message!.id}|${entry.requestId}`;
      const counts = [usage.input_tokens, usage.cache_read_input_tokens, usage.cache_creation_input_tokens, usage.output_tokens].map(
        (n) => n ?? 0,
      );
      responses.set(
        key,
        (responses.get(key) ?? [0, 0, 0, 0]).map((known, i) => Math.max(known, counts[i]!)),
      );
    }
  }
  return [...responses.values()].reduce((total, counts) => total + counts.reduce((a, b) => a + b, 0), 0);
}

/** "458k tokens", as lib/format.ts writes a count. */
const tokenText = (n: number) =>
  `${n < 1000 ? n : n < 1_000_000 ? `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k` : `${(n / 1_000_000).toFixed(1)}M`} tokens`;

async function figureOf(where: Locator): Promise<{ tokens: string; cost: string; covers: string }> {
  return {
    tokens: (await where.getByTestId("figure-tokens").textContent())!,
    cost: (await where.getByTestId("figure-cost").textContent())!,
    covers: (await where.getByTestId("figure-covers").textContent())!,
  };
}

async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("the list row, the header and /usage show the session's one figure, with what it covers and its split", async ({
  page,
  request,
  threads,
}) => {
  // Three pages, each checked with axe-core: more than the default minute on a busy machine.
  test.slow();
  const sessionId = importedThreadId("claude-code", SESSION_KEY);
  threads.track(sessionId);
  threads.track(importedThreadId("claude-code", `${SESSION_KEY}:agent:aac57f5`));
  for (const file of FILES) {
    const response = await request.post(`/api/import?name=${encodeURIComponent(file)}`, {
      data: readFileSync(path.join(DIR, file)),
      headers: { "content-type": "application/json" },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  const api = (await (await request.get(`/api/threads/${sessionId}`)).json()) as { thread: { figures: { total: { costUsd: number } } } };
  const expected = {
    tokens: tokenText(tokensIn(FILES)),
    cost: formatUsd(api.thread.figures.total.costUsd),
    covers: "incl. 1 sub-agent and 1 compaction run",
  };
  // The session's own file alone would be far less: the figure is the session's, not the thread's.
  expect(tokensIn(FILES)).toBeGreaterThan(tokensIn([FILES[2]!]));

  await page.goto(`/threads?project=${encodeURIComponent(PROJECT)}`);
  const item = page.getByRole("listitem").filter({ has: page.locator(`a[href="/threads/${sessionId}"]`) });
  const listed = await figureOf(item);
  expect(listed).toEqual(expected);
  await expectAccessible(page);

  await page.goto(`/threads/${sessionId}`);
  const header = page.getByTestId("header-figure");
  expect(await figureOf(header)).toEqual(listed);
  // The split opens from the keyboard, and names each share.
  await header.getByTestId("figure-covers").focus();
  await page.keyboard.press("Enter");
  await expect(header.getByTestId("figure-split")).toBeVisible();
  await expect(header.getByTestId("figure-split-line")).toHaveText([/^This thread/, /^Its sub-agent/, /^Its compaction run/]);
  await expectAccessible(page);

  await page.goto(`/usage?since=2020-01-01&until=${new Date().toISOString().slice(0, 10)}&tz=UTC`);
  const row = page.locator(`[data-testid="by-thread-row"][data-key="${sessionId}"]`);
  expect(await figureOf(row)).toEqual(listed);
  await expectAccessible(page);
});
