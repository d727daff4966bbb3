/**
 * Following ~/.copilot by default on a real database: a temporary HOME holding the real Copilot CLI
 * sessions in their real layout beside Copilot's other files (config, MCP config, logs), which are
 * never read. A session resumed later appends its events and a second shutdown report: the next
 * sync appends the new turns and the thread's session totals add up both reports.
 */
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionTotalsOf } from "@/lib/domain/usage/session-totals";
import { EVENTS_FILE, LEGACY_FILE } from "@/lib/importers/copilot/test-helpers";
import { fetchThread, forgetSyncedImports, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { makeSourcesHome } from "@/lib/testing/sources-home";
import { countingSync, ON_POSTGRES } from "@/lib/testing/source-sync";

const SESSION = "96ef38f0-9d09-45c3-8124-6448c36090ed";

let home: ReturnType<typeof makeSourcesHome>;
beforeEach(() => {
  home = makeSourcesHome({ withClaudeCode: false });
});
afterEach(async () => {
  home.remove();
  restoreServerEnv();
  await forgetSyncedImports();
});

/** The events of a second process: the session resumed, one more exchange, its own shutdown report. */
function resumedEvents(lastId: string): string {
  const at = (s: number) => new Date(Date.UTC(2026, 3, 24, 9, 0, s)).toISOString();
  const events = [
    {
      type: "session.resume",
      data: { resumeTime: at(0), eventCount: 51 },
      id: "a0000000-0000-4000-8000-000000000001",
      timestamp: at(0),
      parentId: lastId,
    },
    {
      type: "user.message",
      data: { content: "Thanks, one more question", transformedContent: "Thanks, one more question", attachments: [], interactionId: "i9" },
      id: "a0000000-0000-4000-8000-000000000002",
      timestamp: at(1),
      parentId: "a0000000-0000-4000-8000-000000000001",
    },
    {
      type: "assistant.message",
      data: { messageId: "m9", content: "Sure.", toolRequests: [], outputTokens: 12, interactionId: "i9" },
      id: "a0000000-0000-4000-8000-000000000003",
      timestamp: at(2),
      parentId: "a0000000-0000-4000-8000-000000000002",
    },
    {
      type: "session.shutdown",
      data: {
        shutdownType: "routine",
        totalPremiumRequests: 1,
        totalApiDurationMs: 900,
        codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] },
        modelMetrics: {
          "claude-sonnet-4.6": {
            requests: { count: 1, cost: 1 },
            usage: { inputTokens: 40000, outputTokens: 12, cacheReadTokens: 35000, cacheWriteTokens: 1000, reasoningTokens: 0 },
          },
        },
        currentModel: "claude-sonnet-4.6",
      },
      id: "a0000000-0000-4000-8000-000000000004",
      timestamp: at(3),
      parentId: "a0000000-0000-4000-8000-000000000003",
    },
  ];
  return `${events.map((e) => JSON.stringify(e)).join("\n")}\n`;
}

describe("following ~/.copilot", () => {
  it.skipIf(ON_POSTGRES)(
    "imports both session folders by default, never Copilot's other files, and keeps up with a resumed session",
    async () => {
      const copilot = path.join(home.home, ".copilot");
      const sessionDir = path.join(copilot, "session-state", SESSION);
      const legacyDir = path.join(copilot, "history-session-state");
      mkdirSync(sessionDir, { recursive: true });
      mkdirSync(legacyDir, { recursive: true });
      mkdirSync(path.join(copilot, "logs"), { recursive: true });
      const events = path.join(sessionDir, "events.jsonl");
      cpSync(EVENTS_FILE, events);
      writeFileSync(path.join(sessionDir, "workspace.yaml"), "id: x\n");
      cpSync(LEGACY_FILE, path.join(legacyDir, path.basename(LEGACY_FILE)));
      writeFileSync(path.join(copilot, "config.json"), JSON.stringify({ banner: "never", model: "claude-sonnet-4.6" }));
      writeFileSync(path.join(copilot, "mcp-config.json"), JSON.stringify({ mcpServers: {} }));
      writeFileSync(path.join(copilot, "logs", "session.log"), "log\n");

      setServerEnv({ HOME: home.home, THREADLINE_SOURCES: undefined });
      const { sync, read, reports } = countingSync();
      const first = await sync.sync();
      const followed = first.folders.filter((f) => f.path.startsWith(copilot));
      expect(followed.map((f) => f.path)).toEqual([path.join(copilot, "session-state"), legacyDir]);
      expect(followed.map((f) => [f.filesSeen, f.imported, f.failed])).toEqual([
        [1, 1, 0],
        [1, 1, 0],
      ]);
      expect(read.filter((file) => file.startsWith(copilot)).sort()).toEqual(
        [path.join(legacyDir, path.basename(LEGACY_FILE)), events].sort(),
      );
      const threadId = reports.get(events)!.threadIds[0]!;
      expect(sessionTotalsOf((await fetchThread(threadId)).thread.metadata)).toMatchObject({ reports: 1, premiumRequests: 2 });

      // The session is resumed: a second process appends its events and its own shutdown report.
      const lastId = JSON.parse(readFileSync(EVENTS_FILE, "utf8").trimEnd().split("\n").at(-1)!).id as string;
      appendFileSync(events, resumedEvents(lastId));
      const second = await sync.sync();
      expect(second.folders.find((f) => f.path === path.join(copilot, "session-state"))).toMatchObject({ imported: 1, failed: 0 });
      expect(reports.get(events)).toMatchObject({ status: "imported", threadIds: [threadId] });
      expect(reports.get(events)!.threadResults[0]).toMatchObject({ change: "appended", turnsAdded: 2, turnsRemoved: 0 });
      const { thread, turns } = await fetchThread(threadId);
      expect(turns.slice(-2).map((t) => [t.role, t.content])).toEqual([
        ["user", "Thanks, one more question"],
        ["assistant", "Sure."],
      ]);
      expect(sessionTotalsOf(thread.metadata)).toMatchObject({
        reports: 2,
        premiumRequests: 3,
        apiDurationMs: 60470 + 900,
        models: {
          "claude-sonnet-4.6": {
            requests: 7,
            premiumRequests: 3,
            reportedInputTokens: 186809 + 40000,
            inputTokens: 35071 + 4000,
            cacheReadTokens: 151738 + 35000,
            cacheWriteTokens: 1000,
            outputTokens: 2848 + 12,
          },
        },
      });
    },
  );
});
