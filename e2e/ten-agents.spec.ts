/**
 * The agents of issue 40 as a new user meets them: their files uploaded to /api/import as the
 * agents wrote them (a database posted whole, known by its SQLite header; a file by its content),
 * each detected as its agent's and read on the thread page; the /import page saying where each
 * agent keeps its sessions. Expected values come from the raw fixtures, read here with plain SQL
 * and JSON, not from the page.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import Database from "better-sqlite3";
import type { ImportFormat } from "../lib/importers";
import { importedThreadId } from "../lib/importers/stable-id";
import { IMPORTS_URL } from "../playwright.config";
import { expect, test, type Threads } from "./fixtures";

test.use({ baseURL: IMPORTS_URL });
// Imports, whole pages and axe on a shared two-core machine.
test.describe.configure({ timeout: 180_000 });

const FIXTURES = path.join(process.cwd(), "fixtures/real");

type Report = { status: string; format: string | null; threadIds: string[]; error?: string };

/** Posts a fixture's bytes under `name` and answers the import's report. */
async function upload(request: APIRequestContext, threads: Threads, relative: string, name: string): Promise<Report> {
  const response = await request.post(`${IMPORTS_URL}/api/import?name=${encodeURIComponent(name)}`, {
    data: readFileSync(path.join(FIXTURES, relative)),
    headers: { "content-type": "application/octet-stream" },
  });
  expect(response.status(), await response.text()).toBe(201);
  const report = (await response.json()) as Report;
  for (const id of report.threadIds) threads.track(id);
  return report;
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("a Crush database posted whole: each session a thread, its tool calls cards holding their results", async ({
  page,
  request,
  threads,
}) => {
  const file = "crush/dbos-transact-golang/.crush/crush.db";
  const crush = new Database(path.join(FIXTURES, file), { readonly: true, fileMustExist: true });
  const sessions = crush.prepare("SELECT id, title FROM sessions ORDER BY message_count DESC").all() as { id: string; title: string }[];
  const parts = (crush.prepare("SELECT parts FROM messages WHERE session_id = ?").pluck().all(sessions[0]!.id) as string[]).flatMap(
    (json) => JSON.parse(json) as { type: string; data: Record<string, unknown> }[],
  );
  crush.close();
  const calls = parts.filter((part) => part.type === "tool_call");

  const report = await upload(request, threads, file, "crush.db");
  expect(report).toMatchObject({ status: "imported", format: "crush" });
  expect([...report.threadIds].sort()).toEqual(sessions.map((s) => importedThreadId("crush", s.id)).sort());

  await page.goto(`/threads/${importedThreadId("crush", sessions[0]!.id)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(sessions[0]!.title);
  // Every call stored once, each paired with its result (the page shows the turns a window at a time).
  const stored = (await (await request.get(`/api/threads/${importedThreadId("crush", sessions[0]!.id)}`)).json()) as {
    turns: { parts?: { type: string; id?: string; toolCallId?: string }[] | null }[];
  };
  const storedParts = stored.turns.flatMap((turn) => turn.parts ?? []);
  const callIds = calls.map((call) => String(call.data.id)).sort();
  expect(
    storedParts
      .filter((part) => part.type === "tool_call")
      .map((part) => part.id)
      .sort(),
  ).toEqual(callIds);
  expect(
    storedParts
      .filter((part) => part.type === "tool_result")
      .map((part) => part.toolCallId)
      .sort(),
  ).toEqual(callIds);
  const turns = page.getByRole("list", { name: "Turns" });
  await expect(turns.getByTestId("tool-call").first()).toBeVisible();
  const first = turns.getByTestId("tool-call").first();
  await first.locator("summary").first().click();
  await expect(first.getByTestId("tool-result")).toBeVisible();
  await expectNoSeriousViolations(page);
});

test("Amp, Goose, Cursor, Qwen Code, Continue, Factory Droid, Cline, Roo Code and Kilo Code files are each detected as their agent's and read", async ({
  page,
  request,
  threads,
}) => {
  const files: { relative: string; name: string; format: ImportFormat }[] = [
    {
      relative: "amp/threads/T-01a050f5-e597-7057-a9bf-c6fdaa0fd5c0.json",
      name: "T-01a050f5-e597-7057-a9bf-c6fdaa0fd5c0.json",
      format: "amp",
    },
    { relative: "goose/synthetic/sessions/sessions.db", name: "sessions.db", format: "goose" },
    { relative: "cursor/User/globalStorage/state.vscdb", name: "state.vscdb", format: "cursor" },
    {
      relative: "qwen-code/projects/-home-dev-src-todo-api/chats/8f14e45f-ceea-4e7a-9b61-2c0a1d3e5b77.jsonl",
      name: "8f14e45f-ceea-4e7a-9b61-2c0a1d3e5b77.jsonl",
      format: "qwen-code",
    },
    {
      relative: "continue/sessions/6b3c0f2e-9d47-4a18-8e25-1f7a3c9d0b41.json",
      name: "6b3c0f2e-9d47-4a18-8e25-1f7a3c9d0b41.json",
      format: "continue",
    },
    {
      relative: "factory-droid/sessions/-home-dev-webapp/5f3c2a10-7d4e-4b8a-9c21-3e6f0a1b2c3d.jsonl",
      name: "5f3c2a10-7d4e-4b8a-9c21-3e6f0a1b2c3d.jsonl",
      format: "factory-droid",
    },
    {
      relative: "cline/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1767225600000/api_conversation_history.json",
      name: "api_conversation_history.json",
      format: "cline",
    },
    // A folder uploaded from the /import page names each file by its path in the folder: the extension's folder says whose task it is.
    ...(["roo-code", "kilo-code"] as const).map((format) => {
      const extension = format === "roo-code" ? "rooveterinaryinc.roo-cline" : "kilocode.kilo-code";
      const tasks = `${format}/Code/User/globalStorage/${extension}/tasks`;
      const task = readdirSync(path.join(FIXTURES, tasks)).sort()[0]!;
      return {
        relative: `${tasks}/${task}/api_conversation_history.json`,
        name: `globalStorage/${extension}/tasks/${task}/api_conversation_history.json`,
        format,
      };
    }),
  ];
  for (const { relative, name, format } of files) {
    const report = await upload(request, threads, relative, name);
    expect({ relative, status: report.status, format: report.format, error: report.error }).toEqual({
      relative,
      status: "imported",
      format,
      error: undefined,
    });
    expect(report.threadIds.length, relative).toBeGreaterThan(0);
    // Every thread reads: a title, turns, and the agent named as its source.
    await page.goto(`/threads/${report.threadIds[0]}`);
    await expect(page.getByRole("heading", { level: 1 })).not.toBeEmpty();
    await expect(page.getByRole("list", { name: "Turns" }).getByRole("article").first()).toBeVisible();
  }
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`/import says where each agent keeps its sessions (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/import");
    await page.getByText("Formats, and where to find them").click();
    const list = page.getByTestId("agent-locations");
    for (const agent of ["Cursor", "Cline", "Roo Code", "Kilo Code", "Amp", "Goose", "Qwen Code", "Crush", "Continue", "Factory Droid"])
      await expect(list.getByRole("listitem").filter({ hasText: `${agent}:` })).toHaveCount(1);
    await expect(list).toContainText("~/.local/share/amp/threads");
    // Nothing wider than the page at either width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoSeriousViolations(page);
  });
}
