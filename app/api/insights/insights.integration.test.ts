/**
 * Integration test (real database) of GET /api/insights: the real transcripts of every agent
 * imported, their tool calls and failures held to a count made here straight from the raw Claude
 * Code and Codex files, their activity to the stored turns' times (in UTC and in India's +5:30),
 * their sessions to the stored threads; appends and purges show in the next report.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as insightsRoute } from "@/app/api/insights/route";
import { db } from "@/lib/db/engine/client";
import { databaseKind } from "@/lib/db/engine/create-client";
import { markHoursToResum } from "@/lib/db/insights/insights-hours";
import { insightsReport } from "@/lib/db/insights/insights-report";
import type { InsightsFilters, InsightsReport } from "@/lib/domain/insights/insights-report";
import type { Thread, Turn } from "@/lib/domain/types";
import { importFile } from "@/lib/imports/import-file";
import { jsonRequest, json } from "@/lib/testing/api";
import { api, expectError, fetchThread, newThread, newTurn } from "@/lib/testing/integration";
import { fixtureFiles } from "@/lib/testing/real-fixtures";

const ALL_TIME = { since: "2000-01-01", tz: "UTC" };

async function insights(query: Record<string, string>): Promise<InsightsReport> {
  const response = await insightsRoute(jsonRequest("GET", `/api/insights?${new URLSearchParams(query)}`));
  expect(response.status, await response.clone().text()).toBe(200);
  return json<InsightsReport>(response);
}

/**
 * The report from the hourly sums without the thread and from the rollups per thread, held to each
 * other (costs summed in another order may differ in the last digits). Returns the rows compared.
 */
async function expectSamePaths(asked: { since?: string; until?: string; timeZone: string }, filters: InsightsFilters): Promise<number> {
  const fast = await insightsReport(asked, filters, null);
  const exact = await insightsReport(asked, filters, null, new Date(), { fromThreadsOnly: true });
  const withoutCost = (report: InsightsReport) => JSON.parse(JSON.stringify(report, (key, value) => (key === "costUsd" ? 0 : value)));
  const label = JSON.stringify({ asked, filters });
  expect(withoutCost(fast), label).toEqual(withoutCost(exact));
  fast.models.forEach((model, i) => expect(model.costUsd, label).toBeCloseTo(exact.models[i]!.costUsd, 9));
  fast.agents.forEach((agent, i) => expect(agent.costUsd, label).toBeCloseTo(exact.agents[i]!.costUsd, 9));
  return fast.activity.length + fast.tools.length + fast.models.length + fast.agents.length;
}

type ToolCount = Map<string, { calls: number; errors: number }>;

function countInto(counts: ToolCount, calls: Map<string, string>, failed: Set<string>): void {
  for (const [id, name] of calls) {
    const entry = counts.get(name) ?? { calls: 0, errors: 0 };
    entry.calls++;
    if (failed.has(id)) entry.errors++;
    counts.set(name, entry);
  }
}

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));

/**
 * Claude Code's tool calls from the raw files: each tool_use block's id once per file (a response
 * is written a line per block, and a line may repeat), failed when a tool_result for it says
 * is_error. A compaction run's file makes no thread and is left out.
 */
function rawClaudeCodeTools(files: string[]): ToolCount {
  const counts: ToolCount = new Map();
  for (const file of files.filter((f) => !path.basename(f).startsWith("agent-acompact-"))) {
    const calls = new Map<string, string>();
    const failed = new Set<string>();
    for (const entry of lines(file)) {
      const content = entry.message?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        if (block.type === "tool_use") calls.set(block.id, block.name);
        if (block.type === "tool_result" && block.is_error === true) failed.add(block.tool_use_id);
      }
    }
    countInto(counts, calls, failed);
  }
  return counts;
}

/**
 * Codex's tool calls from the raw rollouts: function, custom and local shell calls by call_id,
 * failed when their output reports a non-zero exit code (0.4x's JSON metadata, newer outputs'
 * "Exit code: N" / "Process exited with code N" header) or success false.
 */
function rawCodexTools(files: string[]): ToolCount {
  const counts: ToolCount = new Map();
  for (const file of files) {
    const calls = new Map<string, string>();
    const failed = new Set<string>();
    for (const entry of lines(file)) {
      const payload = entry.type === "response_item" ? entry.payload : null;
      if (!payload) continue;
      if (["function_call", "custom_tool_call", "local_shell_call"].includes(payload.type))
        calls.set(payload.call_id, payload.name ?? "shell");
      if (payload.type === "function_call_output" || payload.type === "custom_tool_call_output") {
        if (codexOutputFailed(payload.output)) failed.add(payload.call_id);
      }
    }
    countInto(counts, calls, failed);
  }
  return counts;
}

function codexOutputFailed(output: unknown): boolean {
  if (typeof output === "object" && output !== null) return (output as { success?: unknown }).success === false;
  if (typeof output !== "string") return false;
  try {
    const wrapped = JSON.parse(output) as { metadata?: { exit_code?: number } };
    if (typeof wrapped?.metadata?.exit_code === "number") return wrapped.metadata.exit_code !== 0;
  } catch {
    // Not JSON: a text output with a header, or none.
  }
  const code = /^(?:Exit code: |Process exited with code )(-?\d+)/m.exec(output);
  return code !== null && Number(code[1]) !== 0;
}

function toolsOf(report: InsightsReport, source: string): ToolCount {
  const counts: ToolCount = new Map();
  for (const tool of report.tools)
    for (const agent of tool.agents) if (agent.source === source) counts.set(tool.name, { calls: agent.calls, errors: agent.errors });
  return counts;
}

const sorted = (counts: ToolCount) => [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));

/** The local "day hour" of an instant at a fixed offset in minutes. */
const localHour = (at: string, offsetMinutes: number) => new Date(Date.parse(at) + offsetMinutes * 60_000).toISOString().slice(0, 13);

describe("GET /api/insights over the real transcripts", () => {
  const threads = new Map<string, { thread: Thread; turns: Turn[] }>();
  const threadOfFile = new Map<string, string>();

  beforeAll(async () => {
    for (const { file, name } of fixtureFiles) {
      const report = await importFile(name, readFileSync(file, "utf8"));
      expect(["imported", "unchanged"], `${file}: ${report.error ?? ""}`).toContain(report.status);
      if (report.threadIds[0]) threadOfFile.set(file, report.threadIds[0]);
      for (const id of report.threadIds) if (!threads.has(id)) threads.set(id, await fetchThread(id));
    }
    expect(threads.size).toBeGreaterThan(20);
  }, 120_000);

  it("counts Claude Code's and Codex's tool calls and failures as the raw files do, each call once", async () => {
    const report = await insights(ALL_TIME);
    const files = fixtureFiles.map((f) => f.file);
    const claude = rawClaudeCodeTools(files.filter((f) => f.includes("/claude-code/")));
    const codex = rawCodexTools(files.filter((f) => f.includes("/codex/")));
    expect([...claude.values()].reduce((n, t) => n + t.errors, 0)).toBeGreaterThan(0);
    expect(sorted(toolsOf(report, "import:claude-code"))).toEqual(sorted(claude));
    expect(sorted(toolsOf(report, "import:codex"))).toEqual(sorted(codex));
    // A tool's figures are its agents' sums, and an agent's are its tools'.
    for (const tool of report.tools) {
      expect(tool.calls).toBe(tool.agents.reduce((n, a) => n + a.calls, 0));
      expect(tool.errors).toBe(tool.agents.reduce((n, a) => n + a.errors, 0));
    }
    for (const agent of report.agents) {
      const mine = report.tools.flatMap((t) => t.agents.filter((a) => a.source === agent.source));
      expect(agent.toolCalls).toBe(mine.reduce((n, a) => n + a.calls, 0));
    }
    expect(report.tools.map((t) => t.calls)).toEqual([...report.tools.map((t) => t.calls)].sort((a, b) => b - a));
  });

  it("puts every stored turn in its local hour, in UTC and in Asia/Kolkata (+5:30), with the responses of each hour", async () => {
    for (const [tz, offset] of [
      ["UTC", 0],
      ["Asia/Kolkata", 330],
    ] as const) {
      const expected = new Map<string, number>();
      for (const { turns } of threads.values())
        for (const turn of turns) {
          if (turn.modelMetadata?.copiedFromParent === true) continue;
          const key = localHour(turn.timestamp, offset);
          expected.set(key, (expected.get(key) ?? 0) + 1);
        }
      const report = await insights({ since: "2000-01-01", tz });
      const got = new Map(report.activity.map((cell) => [`${cell.day}T${String(cell.hour).padStart(2, "0")}`, cell.turns]));
      expect([...got.entries()].sort(), tz).toEqual([...expected.entries()].sort());
      const responses = report.activity.reduce((n, cell) => n + cell.responses, 0);
      expect(responses).toBe(report.models.reduce((n, m) => n + m.responses, 0));
    }
    // A :30 offset moves turns across hours: the two reports' hours are not the same.
    const utc = await insights({ since: "2000-01-01", tz: "UTC" });
    const india = await insights({ since: "2000-01-01", tz: "Asia/Kolkata" });
    expect(india.activity.map((c) => c.hour)).not.toEqual(utc.activity.map((c) => c.hour));
  });

  it("counts sessions: the threads that are no sub-agent's, their compactions, sub-agents and interrupted endings", async () => {
    const report = await insights(ALL_TIME);
    const all = [...threads.values()].map((t) => t.thread);
    const subagentThreads = all.filter((t) => (t.metadata as { relation?: { kind?: string } } | null)?.relation?.kind === "subagent");
    expect(subagentThreads.length).toBeGreaterThan(0);
    // A thread all of whose turns are copies of its parent session's (a Pi branch left at once) has no time of its own.
    const ownTurns = (id: string) => threads.get(id)!.turns.filter((turn) => turn.modelMetadata?.copiedFromParent !== true).length;
    const withoutOwn = all.filter((t) => ownTurns(t.id) === 0);
    expect(withoutOwn.map((t) => t.source)).toEqual(["import:pi"]);
    expect(report.sessions.count).toBe(all.length - subagentThreads.length - withoutOwn.length);
    expect(report.sessions.withSubagents).toBe(new Set(subagentThreads.map((t) => t.parentThreadId)).size);
    const compactions = [...threads.values()]
      .filter(({ thread }) => !subagentThreads.includes(thread))
      .map(
        ({ turns }) =>
          turns.filter((turn) => turn.modelMetadata?.copiedFromParent !== true && turn.parts?.some((p) => p.type === "compaction")).length,
      );
    expect(report.sessions.compactions).toBe(compactions.reduce((a, b) => a + b, 0));
    expect(report.sessions.withCompaction).toBe(compactions.filter((n) => n > 0).length);
    // The two Claude Code sessions whose last user-visible line is "[Request interrupted by user…]".
    const interrupted = fixtureFiles
      .filter(({ file }) => file.endsWith(".jsonl") && file.includes("/claude-code/"))
      .filter(({ file }) => {
        const visible = lines(file).filter((e) => (e.type === "user" || e.type === "assistant") && !e.isMeta);
        const last = visible.at(-1)?.message?.content;
        return Array.isArray(last) && last.some((b: { type: string; text?: string }) => b.text?.startsWith("[Request interrupted by user"));
      })
      .map(({ file }) => threadOfFile.get(file));
    expect(interrupted).toHaveLength(2);
    const endedByInterrupt = report.sessions.endedBadly.filter((s) => s.endedWith === "interrupt").map((s) => s.threadId);
    expect(endedByInterrupt.sort()).toEqual(interrupted.sort());
    expect(report.sessions.interrupted).toBe(2);
    const longest = report.sessions.longest.map((s) => Date.parse(s.endedAt) - Date.parse(s.startedAt));
    expect(longest).toEqual([...longest].sort((a, b) => b - a));
    expect(report.sessions.longest).toHaveLength(10);
    const withSub = report.sessions.longest.find((s) => s.subagents > 0) ?? report.sessions.endedBadly.find((s) => s.subagents > 0);
    expect(withSub?.source).toBe("import:claude-code");
  });

  it("filters by source, project and model", async () => {
    const all = await insights(ALL_TIME);
    const claude = await insights({ ...ALL_TIME, source: "import:claude-code" });
    expect(claude.agents.map((a) => a.source)).toEqual(["import:claude-code"]);
    expect(claude.filters).toEqual({ source: "import:claude-code" });
    expect(claude.sessions.count).toBe(all.agents.find((a) => a.source === "import:claude-code")!.sessions);
    const project = "/home/USER/projects/spotter-worktrees/spotter-4te";
    const one = await insights({ ...ALL_TIME, project });
    expect(one.sessions.count).toBe(1);
    const opus = await insights({ ...ALL_TIME, model: "claude-opus-4-6" });
    expect(opus.models.map((m) => m.model)).toEqual(["claude-opus-4-6"]);
    const opusTurns = [...threads.values()].flatMap(({ turns }) => turns).filter((t) => t.modelName === "claude-opus-4-6").length;
    expect(opus.activity.reduce((n, c) => n + c.turns, 0)).toBe(opusTurns);
    expect(opus.sessions.count).toBeGreaterThan(0);
    expect(opus.sessions.count).toBeLessThan(all.sessions.count);
  });

  it("reads the same report from the hourly sums as from the rollups per thread, in zones of whole and part hours", async () => {
    let compared = 0;
    const ranges = [{ since: "2000-01-01" }, { since: "2026-01-01", until: "2026-03-31" }, {}];
    for (const range of ranges)
      for (const timeZone of ["UTC", "Europe/Berlin", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"])
        for (const filters of [
          {},
          { source: "import:claude-code" },
          { model: "claude-opus-4-6" },
          { source: "import:codex", model: "gpt-5" },
        ])
          compared += await expectSamePaths({ ...range, timeZone }, filters);
    expect(compared).toBeGreaterThan(500);
  });

  it("remakes the hourly sums a refresh cut short left marked, at the next refresh", async () => {
    const asked = { since: "2000-01-01", timeZone: "UTC" };
    const whole = await insightsReport(asked, {}, null);
    const client = await db();
    const kind = databaseKind(client);
    // As a refresh leaves them when it stops after a transaction of threads: their hours marked, not remade.
    const hours = await client.$queryRawUnsafe<{ hour: number | bigint }[]>(`SELECT DISTINCT "hour" AS hour FROM "InsightsHour"`);
    expect(hours.length).toBeGreaterThan(10);
    await client.$transaction(async (tx) => {
      await markHoursToResum(tx, kind, new Set(hours.map((row) => Number(row.hour))));
      await tx.$executeRawUnsafe(`DELETE FROM "InsightsHour"`);
      await tx.$executeRawUnsafe(`DELETE FROM "InsightsToolHour"`);
    });
    // Nothing is stale: the report's refresh only remakes what is marked. (PostgreSQL adds costs in
    // the order it reads them: equal to 12 significant digits.)
    const rounded = (report: InsightsReport) =>
      JSON.parse(JSON.stringify(report, (key, value: unknown) => (key === "costUsd" ? Number(Number(value).toPrecision(12)) : value)));
    expect(rounded(await insightsReport(asked, {}, null))).toEqual(rounded(whole));
    expect(await client.appSetting.findUnique({ where: { key: "insights.hoursToResum" } })).toBeNull();
  });
});

describe("GET /api/insights as threads are written", () => {
  it("adds appended turns, calls and late failures, moves a session's ending, and drops a purged thread", async () => {
    const since = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const report = () => insights({ since, tz: "UTC" });
    const before = await report();
    const thread = await newThread({ toolName: "chat", title: "insights live" });
    await newTurn(thread.id, { role: "user", content: "list the files" });
    await newTurn(thread.id, {
      role: "assistant",
      content: "",
      modelName: "gpt-5",
      modelProvider: "openai",
      parts: [
        { type: "tool_call", id: "call-1", name: "probe_tool", arguments: {} },
        { type: "tool_call", id: "call-2", name: "probe_tool", arguments: {} },
      ],
    });
    const first = await report();
    await expectSamePaths({ since, timeZone: "UTC" }, {});
    const tool = () => first.tools.find((t) => t.name === "probe_tool");
    expect(tool()).toMatchObject({ calls: 2, errors: 0 });
    expect(first.sessions.count).toBe(before.sessions.count + 1);
    const turnsNow = (r: InsightsReport) => r.activity.reduce((n, c) => n + c.turns, 0);
    expect(turnsNow(first)).toBe(turnsNow(before) + 2);

    // A result appended later fails an earlier call; a call repeated later counts once.
    await newTurn(thread.id, {
      role: "tool",
      content: "no such file",
      parts: [
        { type: "tool_result", toolCallId: "call-2", content: "no such file", isError: true },
        { type: "tool_call", id: "call-1", name: "probe_tool", arguments: {} },
      ],
    });
    const second = await report();
    await expectSamePaths({ since, timeZone: "UTC" }, {});
    expect(second.tools.find((t) => t.name === "probe_tool")).toMatchObject({ calls: 2, errors: 1 });
    const session = () => second.sessions.endedBadly.find((s) => s.threadId === thread.id);
    expect(session()).toMatchObject({ endedWith: "error", turns: 3, title: "insights live" });
    expect(second.sessions.errored).toBe(before.sessions.errored + 1);

    await newTurn(thread.id, { role: "assistant", content: "The file is missing.", modelName: "gpt-5", modelProvider: "openai" });
    const third = await report();
    await expectSamePaths({ since, timeZone: "UTC" }, {});
    expect(third.sessions.endedBadly.find((s) => s.threadId === thread.id)).toBeUndefined();
    expect(third.sessions.errored).toBe(before.sessions.errored);
    expect(turnsNow(third)).toBe(turnsNow(before) + 4);

    expect((await api.deleteThread(thread.id)).status).toBe(204);
    const purged = await report();
    await expectSamePaths({ since, timeZone: "UTC" }, {});
    expect(purged.tools.find((t) => t.name === "probe_tool")).toBeUndefined();
    expect(purged.sessions.count).toBe(before.sessions.count);
    expect(turnsNow(purged)).toBe(turnsNow(before));
  });

  it("refuses a bad parameter with 400 naming it, takes open and long ranges, and defaults to the last 30 days", async () => {
    const cases: [string, string][] = [
      ["tz=Mars%2FOlympus", "tz"],
      ["since=2026-02-30", "since"],
      ["until=26-01-01", "until"],
      ["since=2026-02-01&until=2026-01-01", "until"],
      ["groupBy=day", "groupBy"],
      ["sinse=2026-01-01", "sinse"],
    ];
    for (const [query, field] of cases) {
      const body = await expectError(await insightsRoute(jsonRequest("GET", `/api/insights?${query}`)), 400, "validation_failed");
      expect(body.message, query).toMatch(new RegExp(`^${field}\\b`));
    }
    const thread = await newThread({ toolName: "chat" });
    await newTurn(thread.id, { role: "user", content: "today" });
    const today = new Date().toISOString().slice(0, 10);
    const recent = await insights({ tz: "UTC" });
    expect(recent.until).toBe(today);
    expect(Date.parse(recent.until) - Date.parse(recent.since)).toBeLessThanOrEqual(29 * 86_400_000);
    const long = await insights({ since: "1990-01-01", tz: "UTC" });
    expect(long.until).toBe(today);
    expect(long.since > "1990-01-01").toBe(true);
    const none = await insights({ since: "1990-01-01", until: "1990-12-31", tz: "UTC" });
    expect(none).toMatchObject({ since: "1990-01-01", until: "1990-12-31", activity: [], tools: [], agents: [] });
    expect(none.sessions.count).toBe(0);
  });
});
