/**
 * Sessions of OpenCode, Pi, GitHub Copilot CLI and Aider, imported as a new user would (posted to
 * /api/import, format detected from the content) and read on the thread page: tool cards holding
 * their results, an edit's diff coloured, thinking folded, compaction markers, the agent's own
 * cost beside Threadline's, Copilot's session totals, Aider's rounded usage. The sessions are the
 * real shared fixtures; every expected value is read from the raw files here, not from the page.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { formatUsd } from "../lib/domain/usage/cost";
import type { ImportFormat } from "../lib/importers";
import { importedThreadId } from "../lib/importers/stable-id";
import { IMPORTS_URL } from "../playwright.config";
import { expect, test, type Threads } from "./fixtures";

test.use({ baseURL: IMPORTS_URL });

const SHARED = path.join(process.cwd(), "fixtures/real");
const OPENCODE = "opencode/export/ses_39b7f9e89ffe7J0WzLzYrUt4eW.json";
const PI = "pi/agent/sessions/--Users-badlogic-workspaces-pi-mono--/2025-12-09T00-53-29-825Z_ffae836b-9420-4060-ac13-7745215f90ff.jsonl";
const COPILOT = "copilot/session-state/96ef38f0-9d09-45c3-8124-6448c36090ed/events.jsonl";
const AIDER = "aider/afi-core/.aider.chat.history.md";

const raw = (relative: string) => readFileSync(path.join(SHARED, relative), "utf8");
const jsonLines = (relative: string) =>
  raw(relative)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, any>);
const n = (value: number) => value.toLocaleString("en-US");

/** Posts a file as its agent wrote it, under `name`, and answers the ids of the threads it makes (derived from their keys). */
async function importFixture(
  request: APIRequestContext,
  threads: Threads,
  relative: string,
  name: string,
  format: ImportFormat,
  keys: string[],
): Promise<string[]> {
  const response = await request.post(`${IMPORTS_URL}/api/import?name=${encodeURIComponent(name)}`, {
    data: Buffer.from(raw(relative), "utf8"),
    headers: { "content-type": "application/octet-stream" },
  });
  const ids = keys.map((key) => importedThreadId(format, key));
  for (const id of ids) threads.track(id);
  expect(response.status(), await response.text()).toBe(201);
  const report = (await response.json()) as { format: string | null; status: string; threadIds: string[] };
  expect(report).toMatchObject({ status: "imported", format });
  expect([...report.threadIds].sort()).toEqual([...ids].sort());
  return ids;
}

test("an OpenCode session: tool cards with results, an edit's diff, a manual compaction and OpenCode's own cost", async ({
  page,
  request,
  threads,
}) => {
  const session = JSON.parse(raw(OPENCODE)) as {
    info: { id: string; title: string };
    messages: { info: Record<string, any>; parts: Record<string, any>[] }[];
  };
  const [id] = await importFixture(request, threads, OPENCODE, path.basename(OPENCODE), "opencode", [session.info.id]);
  await page.goto(`/threads/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(session.info.title);
  const turns = page.getByRole("list", { name: "Turns" });

  await test.step("each tool part is a card holding its result; the patch's diff is coloured below it", async () => {
    const tools = session.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool");
    await expect(turns.getByTestId("tool-call")).toHaveCount(tools.length);
    const patch = tools.find((p) => p.tool === "apply_patch")!;
    const card = turns.getByTestId("tool-call").filter({ hasText: patch.callID });
    await card.locator("summary").first().click();
    await expect(card.getByTestId("tool-result")).toContainText(patch.state.output.split("\n")[0]);
    const diff = card.getByTestId("tool-diff");
    const added = (patch.state.metadata.diff as string)
      .split("\n")
      .find((line) => line.startsWith("+") && !line.startsWith("+++") && line.trim().length > 3)!;
    await expect(
      diff
        .locator('[data-diff-line="added"]')
        .filter({ hasText: added.slice(1, 40) })
        .first(),
    ).toBeVisible();
    await expect(diff.locator('[data-diff-line="hunk"]').first()).toBeVisible();
  });

  await test.step("the compaction request and its summary are one marker, the summary folded below it", async () => {
    const request = session.messages.find((m) => m.parts.some((p) => p.type === "compaction"))!;
    const summary = session.messages.find((m) => m.info.summary === true)!.parts.find((p) => p.type === "text")!.text as string;
    await expect(turns.getByTestId("compaction")).toHaveText(`Compacted (${request.parts[0]!.auto ? "auto" : "manual"})`);
    const folded = page
      .getByRole("article")
      .filter({ has: page.getByTestId("compaction") })
      .getByTestId("compaction-summary");
    await folded.locator("summary").click();
    await expect(
      folded
        .getByText(
          summary
            .split("\n")
            .find((l) => l.length > 20)!
            .replace(/^#+\s*/, "")
            .slice(0, 40),
        )
        .first(),
    ).toBeVisible();
  });

  await test.step("each step's usage line has Threadline's price and, beside it, OpenCode's own figure", async () => {
    const steps = session.messages.filter((m) => m.info.role === "assistant" && m.info.tokens && !m.info.summary);
    const first = steps[0]!.info;
    const line = turns.getByTestId("turn-usage").first();
    await expect(line.getByTestId("usage-figures")).toContainText(`in ${n(first.tokens.input)}`);
    await expect(line.getByTestId("turn-cost").getByTestId("cost-reported")).toHaveText(`(agent says ${formatUsd(first.cost)})`);
    await expect(page.locator("header dl").getByTestId("cost-reported")).toHaveText(
      `(agent says ${formatUsd(session.messages.reduce((s, m) => s + (m.info.cost ?? 0), 0))})`,
    );
  });
});

test("a Pi session: thinking folded, the compaction marker with the tokens before, pi's cost beside ours", async ({
  page,
  request,
  threads,
}) => {
  const lines = jsonLines(PI);
  const header = lines[0]!;
  const [id] = await importFixture(request, threads, PI, path.basename(PI), "pi", [header.id]);
  await page.goto(`/threads/${id}`);
  const turns = page.getByRole("list", { name: "Turns" });

  const compaction = lines.find((l) => l.type === "compaction")!;
  await expect(turns.getByTestId("compaction")).toHaveText(`Compacted · ${n(compaction.tokensBefore)} tokens before`);

  const thinking = lines
    .flatMap((l) => (l.type === "message" && l.message.role === "assistant" ? l.message.content : []))
    .find((b: { type: string; thinking?: string }) => b.type === "thinking" && (b.thinking ?? "").length > 40);
  const folded = turns.getByTestId("thinking").filter({ hasText: thinking.thinking.slice(0, 30) });
  await expect(folded.getByText(thinking.thinking.slice(0, 30))).toBeHidden();
  await folded.locator("summary").click();
  await expect(folded.getByText(thinking.thinking.slice(0, 30))).toBeVisible();

  // pi prices every reply itself: its figure is shown beside Threadline's on each reply. This session
  // is a branch whose replies are all copies of its parent's: the header's one figure counts none of
  // them (they count where they ran, as on /usage), so it has no agent's figure to put beside it.
  const replies = lines.filter((l) => l.type === "message" && l.message.role === "assistant" && l.message.usage?.cost);
  await expect(page.getByTestId("header-figure")).toHaveText("no responses of its own");
  await expect(page.locator("header dl").getByTestId("cost-reported")).toHaveCount(0);
  await expect(turns.getByTestId("turn-cost").first().getByTestId("cost-reported")).toHaveText(
    `(agent says ${formatUsd(replies[0]!.message.usage.cost.total)})`,
  );
});

test("a Copilot CLI session: tool results paired, the shutdown report's totals per model, no guessed usage per reply", async ({
  page,
  request,
  threads,
}) => {
  const events = jsonLines(COPILOT);
  const sessionId = events.find((e) => e.type === "session.start")!.data.sessionId as string;
  const [id] = await importFixture(request, threads, COPILOT, `session-state/${sessionId}/events.jsonl`, "copilot", [sessionId]);
  await page.goto(`/threads/${id}`);
  const turns = page.getByRole("list", { name: "Turns" });

  const requests = events.filter((e) => e.type === "assistant.message").flatMap((e) => e.data.toolRequests ?? []);
  await expect(turns.getByTestId("tool-call")).toHaveCount(requests.length);
  const completed = events.find(
    (e) => e.type === "tool.execution_complete" && typeof e.data.result?.content === "string" && e.data.result.content.trim().length > 10,
  )!;
  const card = turns.getByTestId("tool-call").filter({ hasText: completed.data.toolCallId });
  await card.locator("summary").first().click();
  await expect(card.getByTestId("tool-result")).toContainText(completed.data.result.content.trim().split("\n")[0].slice(0, 40));

  // Copilot reports tokens only when a process ends: per model, input including the cache.
  const [model, metrics] = Object.entries(
    events.find((e) => e.type === "session.shutdown")!.data.modelMetrics as Record<string, { usage: Record<string, number> }>,
  )[0]!;
  const totals = page.getByTestId("session-totals");
  await expect(totals).toContainText("Session totals");
  const row = totals.getByTestId("session-totals-model").filter({ hasText: model });
  await expect(row.getByTestId("session-totals-figures")).toContainText(
    `in ${n(metrics.usage.inputTokens! - metrics.usage.cacheReadTokens! - metrics.usage.cacheWriteTokens!)}`,
  );
  await expect(row.getByTestId("session-totals-figures")).toContainText(`out ${n(metrics.usage.outputTokens!)}`);
  await expect(turns.getByTestId("turn-usage")).toHaveCount(0);
});

test("an Aider history: one thread per run, SEARCH/REPLACE kept as code, rounded usage with Aider's cost", async ({
  page,
  request,
  threads,
}) => {
  const text = raw(AIDER);
  const name = "afi-core/.aider.chat.history.md";
  const starts = [...text.matchAll(/^# aider chat started at (.+)$/gm)].map((m) => m[1]!.trim());
  const ids = await importFixture(
    request,
    threads,
    AIDER,
    name,
    "aider",
    starts.map((start) => `${name}#${start}`),
  );
  expect(ids).toHaveLength(starts.length);

  // The first run with an edit block: its prompt, the block verbatim, and the Tokens line after it.
  const runs = text.split(/^# aider chat started at .+$/m).slice(1);
  const index = runs.findIndex((run) => run.includes("<<<<<<< SEARCH") && /^> Tokens: .* Cost: \$/m.test(run));
  const run = runs[index]!;
  await page.goto(`/threads/${ids[index]}`);
  const turns = page.getByRole("list", { name: "Turns" });
  const prompt = run
    .split("\n")
    .find((l) => l.startsWith("#### "))!
    .slice(5)
    .trim();
  await expect(
    turns
      .getByRole("article")
      .filter({ hasText: prompt.slice(0, 40) })
      .first(),
  ).toBeVisible();
  await expect(turns.locator("pre code", { hasText: "<<<<<<< SEARCH" }).first()).toBeVisible();

  const tokens = /^> Tokens: .*?Cost: \$([\d.]+) message/m.exec(run)!;
  const line = turns.getByTestId("turn-usage").first();
  await expect(line.getByTestId("usage-rounded")).toHaveText("rounded");
  await expect(line.getByTestId("cost-reported")).toHaveText(`(agent says ${formatUsd(Number(tokens[1]))})`);
});
