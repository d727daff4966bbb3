/**
 * Integration test (real database) of a Claude Code session's usage with everything it ran: the
 * session file, its sub-agent file and its compaction run's file, imported in either order, give
 * the sub-agent its Task call and the session a total equal to an independent count of the files.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { purgeThread } from "@/lib/db/threads/threads";
import type { SessionUsage, Turn } from "@/lib/domain/types";
import { importFile } from "@/lib/imports/import-file";
import { importedThreadId } from "@/lib/importers/stable-id";
import { fetchThread } from "@/lib/testing/integration";

const DIR = path.join(process.cwd(), "fixtures/real/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-4te");
const SESSION = "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl";
const AGENT = "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl";
const RUN = "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-acompact-946d2b.jsonl";
const SESSION_ID = importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04");
const AGENT_ID = importedThreadId("claude-code", "ae4a77f8-aedd-4bc1-888f-c94edc91af04:agent:aac57f5");
const TASK_CALL = "toolu_01Hf8v1Za7y4af8VUwSR4CXU";

const read = (name: string) => readFileSync(path.join(DIR, name), "utf8");

/**
 * The files' usage counted without Threadline's parser, as ccusage-style tools do: every assistant
 * line's message.usage, one response per (message.id, requestId), the largest count of each field
 * over the lines that repeat it (a streamed response's last copy), synthetic messages left out.
 */
function independentCount(names: string[]) {
  const responses = new Map<string, Record<string, number>>();
  for (const name of names) {
    for (const line of read(name).split("\n")) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line);
      const usage = entry.type === "assistant" ? entry.message?.usage : null;
      if (!usage || entry.message.model === "<synthetic>") continue;
      const key = `${entry.message.id}|${entry.requestId}`;
      const known = responses.get(key) ?? {};
      for (const field of ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens"])
        known[field] = Math.max(known[field] ?? 0, usage[field] ?? 0);
      responses.set(key, known);
    }
  }
  const sum = (field: string) => [...responses.values()].reduce((total, r) => total + (r[field] ?? 0), 0);
  return {
    inputTokens: sum("input_tokens"),
    cacheWriteTokens: sum("cache_creation_input_tokens"),
    cacheReadTokens: sum("cache_read_input_tokens"),
    outputTokens: sum("output_tokens"),
    reasoningTokens: 0,
  };
}

async function importAll(order: string[]): Promise<void> {
  for (const name of order) {
    const report = await importFile(name, read(name));
    expect(report.status, `${name}: ${report.error ?? ""}`).toBe("imported");
  }
}

async function expectSessionWhole(): Promise<void> {
  const child = await fetchThread(AGENT_ID);
  expect(child.thread.metadata?.relation).toEqual({ kind: "subagent", toolCallId: TASK_CALL, agentId: "aac57f5" });

  const { thread, turns } = await fetchThread(SESSION_ID);
  const session = thread.usageWithSubagents as SessionUsage;
  const files = independentCount([SESSION, AGENT, RUN]);
  expect(session).toMatchObject({ ...files, source: "reported", subagentThreads: 1, compactionRuns: 1 });
  // The run adds 121,689 cache writes to the session's 77,978 and the agent's 18,814.
  expect(session.cacheWriteTokens).toBe(77_978 + 18_814 + 121_689);
  expect(thread.usage).toMatchObject(independentCount([SESSION]));

  // The run is shown on the marker it wrote the summary of.
  const marker = turns.find((t: Turn) => t.parts?.some((p) => p.type === "compaction"))!;
  expect(marker.compactionRun).toEqual({
    runId: "acompact-946d2b",
    modelName: "claude-opus-4-6",
    responses: 1,
    usage: { inputTokens: 3, cacheWriteTokens: 121_689, cacheReadTokens: 17_842, outputTokens: 8, reasoningTokens: 0 },
  });
  expect(turns.filter((t) => t.compactionRun)).toHaveLength(1);

  // The Task result's report of the agent's final request sits beside the recorded one: output 938 against 1.
  expect(session.subagents).toEqual([
    expect.objectContaining({
      threadId: AGENT_ID,
      toolCallId: TASK_CALL,
      lastResponse: { inputTokens: 79, cacheWriteTokens: 3378, cacheReadTokens: 15_436, outputTokens: 1, reasoningTokens: 0 },
      reported: {
        inputTokens: 79,
        cacheWriteTokens: 3378,
        cacheReadTokens: 15_436,
        outputTokens: 938,
        totalTokens: 19_831,
        toolUses: 12,
        durationMs: 32_548,
      },
      differs: ["outputTokens"],
    }),
  ]);
}

describe("a session's usage with its sub-agents and compaction runs", () => {
  it("session first, then the sub-agent and the compaction run", async () => {
    await importAll([SESSION, AGENT, RUN]);
    await expectSessionWhole();
    await purgeThread(SESSION_ID);
    await purgeThread(AGENT_ID);
  });

  it("the folder's order: the sub-agent and the run before their session; and again after a re-import", async () => {
    await importAll([RUN, AGENT, SESSION]);
    await expectSessionWhole();
    // Re-importing the sub-agent (another copy of the file: its metadata is written again) keeps its link; an unchanged run file is skipped.
    const again = await importFile(AGENT, `${read(AGENT)}\n`);
    expect(again).toMatchObject({ status: "unchanged", threadIds: [AGENT_ID] });
    expect((await importFile(RUN, read(RUN))).status).toBe("unchanged");
    await expectSessionWhole();
  });
});
