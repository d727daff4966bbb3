/**
 * Cline, Roo Code and Kilo Code task folders through the real import service and a real database:
 * a folder walk finds only the API histories, each task imports with its ui_messages.json usage,
 * again unchanged, and anew when ui_messages.json grows; a side file's change stands for its task;
 * an API history uploaded alone still imports (without usage).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/import/route";
import { fetchThread, restoreServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import { importPath } from "./import-file";
import { clineTaskStamp, clineTranscriptOf } from "./cline-task-files";
import { transcriptFiles } from "./transcript-files";

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-cline-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => restoreServerEnv());

const FIXTURES = path.join(process.cwd(), "fixtures/real");
const CLINE_TASK = "cline/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1767225600000";

/** A copy of the fixtures' globalStorage folders, to change freely. */
function copyOf(variant: string): string {
  const to = path.join(work, `${variant}-${Math.random().toString(36).slice(2)}`);
  cpSync(path.join(FIXTURES, variant), to, { recursive: true });
  return to;
}

describe("a task folder", () => {
  it("is found by its API history alone, imported with its usage, unchanged again, and anew when ui_messages.json grows", async () => {
    await switchToFreshDatabase();
    const root = copyOf("cline");
    const found: string[] = [];
    for await (const file of transcriptFiles(root)) found.push(path.relative(root, file.path));
    expect(found).toEqual([`${CLINE_TASK.slice("cline/".length)}/api_conversation_history.json`]);

    const task = path.join(root, CLINE_TASK.slice("cline/".length));
    const history = path.join(task, "api_conversation_history.json");
    const first = await importPath(history, undefined, undefined, { within: root });
    expect(first).toMatchObject({ status: "imported", format: "cline", threads: { created: 1 }, skipped: [] });
    const threadId = first.threadIds[0]!;
    const { thread } = await fetchThread(threadId);
    expect(thread.usage).toMatchObject({ inputTokens: 3 + 4 + 4 + 4, cacheReadTokens: 12480 + 12890 + 13202, source: "reported" });
    expect(thread.title).toBe("Add a --verbose flag to the CLI in src/cli.ts that prints the parsed options before greeting.");

    expect(await importPath(history, undefined, undefined, { within: root })).toMatchObject({ status: "unchanged", threadIds: [threadId] });

    // The task goes on: a new request is recorded in ui_messages.json (its response not written yet).
    const uiFile = path.join(task, "ui_messages.json");
    const before = await clineTaskStamp(history, { size: 0, mtimeMs: 0, ctimeMs: 0 }, root);
    const ui = JSON.parse(readFileSync(uiFile, "utf8"));
    ui.push({
      ts: 1767225730000,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({ request: "…", tokensIn: 5, tokensOut: 40, cacheWrites: 0, cacheReads: 13400, cost: 0.0046 }),
      conversationHistoryIndex: 7,
    });
    writeFileSync(uiFile, JSON.stringify(ui));
    expect((await clineTaskStamp(history, { size: 0, mtimeMs: 0, ctimeMs: 0 }, root)).size).toBeGreaterThan(before.size);
    expect(await clineTranscriptOf(uiFile)).toBe(history);

    const grown = await importPath(history, undefined, undefined, { within: root });
    expect(grown).toMatchObject({ status: "imported", threadIds: [threadId], threadResults: [{ change: "appended", turnsAdded: 1 }] });
    const after = await fetchThread(threadId);
    expect(after.thread.usage).toMatchObject({ inputTokens: 15 + 5, cacheReadTokens: 12480 + 12890 + 13202 + 13400 });
    expect(await importPath(history, undefined, undefined, { within: root })).toMatchObject({ status: "unchanged" });
  });

  it("imports a Roo Code parent and its sub-task as parent and sub-agent, and a Kilo Code task as its own format", async () => {
    await switchToFreshDatabase();
    const roo = copyOf("roo-code");
    const tasks = path.join(roo, "Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks");
    const child = await importPath(path.join(tasks, "7d1e2f30-5b6a-4c8d-9e0f-1a2b3c4d5e6f/api_conversation_history.json"));
    const parent = await importPath(path.join(tasks, "0b6f8a4e-3c1d-4e9a-9f7b-2d5c8e1a4b60/api_conversation_history.json"));
    expect(parent).toMatchObject({ status: "imported", format: "roo-code" });
    expect((await fetchThread(child.threadIds[0]!)).thread.parentThreadId).toBe(parent.threadIds[0]);

    const kilo = copyOf("kilo-code");
    const report = await importPath(
      path.join(
        kilo,
        "Code/User/globalStorage/kilocode.kilo-code/tasks/4c2a9b7e-8f1d-4e3a-b5c6-d7e8f9a0b1c2/api_conversation_history.json",
      ),
    );
    expect(report).toMatchObject({ status: "imported", format: "kilo-code", threads: { created: 1 } });
  });

  it("imports without its side files, and refuses a history that is not a list", async () => {
    await switchToFreshDatabase();
    const root = copyOf("cline");
    const task = path.join(root, CLINE_TASK.slice("cline/".length));
    rmSync(path.join(task, "ui_messages.json"));
    rmSync(path.join(task, "task_metadata.json"));
    const report = await importPath(path.join(task, "api_conversation_history.json"));
    expect(report).toMatchObject({ status: "imported", format: "cline", skipped: [] });
    expect((await fetchThread(report.threadIds[0]!)).thread.usage?.source).not.toBe("reported");

    writeFileSync(path.join(task, "api_conversation_history.json"), JSON.stringify({ messages: [] }));
    expect(await importPath(path.join(task, "api_conversation_history.json"))).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/must be a JSON list of messages/),
    });
  });
});

describe("an API history uploaded alone", () => {
  it("imports through /api/import by its name and content, without usage", async () => {
    await switchToFreshDatabase();
    const body = readFileSync(path.join(FIXTURES, CLINE_TASK, "api_conversation_history.json"));
    const response = await importRoute(
      new Request("http://localhost/api/import?name=api_conversation_history.json", { method: "POST", body: new Uint8Array(body) }),
    );
    expect(response.status, await response.clone().text()).toBe(201);
    const report = (await response.json()) as { format: string; threadIds: string[]; threads: { created: number } };
    expect(report).toMatchObject({ format: "cline", threads: { created: 1 } });
    const { thread, turns } = await fetchThread(report.threadIds[0]!);
    expect(turns.filter((t) => t.role === "assistant")).toHaveLength(4);
    expect(turns.every((t) => t.usage?.source !== "reported")).toBe(true);
    expect(thread.title).toBe("Add a --verbose flag to the CLI in src/cli.ts that prints the parsed options before greeting.");
  });
});
