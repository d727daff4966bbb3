/**
 * "What did this whole session cost?", answered on the thread page: a real Claude Code session, its
 * sub-agent and its compaction run, imported in the order the folder lists them (the agent files
 * first), show the thread's own usage and the session's with both, equal to a count of the files
 * made here; the run on the compaction marker; the Task result's report beside the sub-agent's.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
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
const n = (value: number) => value.toLocaleString("en-US");

type Usage = { input_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number; output_tokens?: number };

/** Each response once (message id + request id), each field's largest count over its streamed lines, summed over `files`. */
function countOf(files: string[]): string {
  const responses = new Map<string, Required<Usage>>();
  for (const file of files) {
    for (const line of readFileSync(path.join(DIR, file), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line) as { type: string; requestId?: string; message?: { id?: string; model?: string; usage?: Usage } };
      const usage = entry.type === "assistant" && entry.message?.model !== "<synthetic>" ? entry.message?.usage : undefined;
      if (!usage) continue;
      const key = `${entry.message!.id}|${entry.requestId}`;
      const known = responses.get(key) ?? { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 };
      for (const field of Object.keys(known) as (keyof Usage)[]) known[field] = Math.max(known[field], usage[field] ?? 0);
      responses.set(key, known);
    }
  }
  const sum = (field: keyof Usage) => [...responses.values()].reduce((total, u) => total + u[field], 0);
  return `in ${n(sum("input_tokens"))} · cache read ${n(sum("cache_read_input_tokens"))} · cache write ${n(sum("cache_creation_input_tokens"))} · out ${n(sum("output_tokens"))}`;
}

test("a session's usage with its sub-agent and its compaction run, the folder's files in the folder's order", async ({
  page,
  request,
  threads,
}) => {
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

  await page.goto(`/threads/${sessionId}`);
  const totals = page.getByTestId("thread-usage");
  await expect(totals.getByTestId("usage-figures")).toHaveText(countOf([FILES[2]!]));
  await expect(totals.getByTestId("session-usage")).toContainText("With 1 sub-agent and 1 compaction");
  await expect(totals.getByTestId("session-usage-figures")).toHaveText(countOf(FILES));
  // What it cost, each response priced alone (claude-opus-4-6 and claude-sonnet-4-5 list prices
  // when they ran), once on the page, in the header: $1.24 with the sub-agent and the compaction
  // run, the thread's own $0.385 in the split.
  await expect(totals.getByTestId("cost-total")).toHaveCount(0);
  const figure = page.getByTestId("header-figure");
  await expect(figure.getByTestId("figure-cost")).toHaveText("$1.24");
  await figure.getByTestId("figure-covers").click();
  await expect(figure.getByTestId("figure-split-line")).toHaveText([
    /^This thread.*\$0\.385$/,
    /^Its sub-agent.*\$0\.0867$/,
    /^Its compaction run.*\$0\.77$/,
  ]);

  // The compaction marker carries what its summariser used.
  await expect(page.getByTestId("compaction-run-usage")).toContainText("claude-opus-4-6");
  await expect(page.getByTestId("compaction-run-usage")).toContainText(`cache write ${n(121_689)}`);

  // The Task result's report of the agent's final request (out 938) beside the recorded one (out 1), flagged.
  await totals.getByTestId("subagent-usage").locator("summary").click();
  const row = totals.getByTestId("subagent-usage-row");
  await expect(row.getByRole("link")).toHaveText(/^Search hex\.pm/);
  await expect(row.getByTestId("subagent-reported")).toContainText("out 938");
  await expect(row.getByTestId("subagent-reported")).toContainText(
    "recorded: in 79 · cache read 15,436 · cache write 3,378 · out 1; differs in out",
  );

  // The thread list shows the same figure.
  await page.goto(`/threads?project=${encodeURIComponent("/home/USER/projects/spotter-worktrees/spotter-4te")}`);
  const item = page.getByRole("listitem").filter({ has: page.locator(`a[href="/threads/${sessionId}"]`) });
  await expect(item.getByTestId("figure-cost")).toHaveText("$1.24");
});
