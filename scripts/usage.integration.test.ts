/**
 * `npm run usage` on this test file's database (SQLite, or PostgreSQL in the PostgreSQL pass)
 * holding the real fixtures, imported: as users run it (a child process: npm, tsx) where the case
 * is about the process (its streams, exit codes, --help), else its main function in this process
 * (usageMain, all scripts/usage.ts runs), which reads the same database without a tsx start. Its JSON must be what
 * GET /api/usage answers for the same query (the route handler called in this process, on the
 * same database), its table must show the report's totals, a secret in a title must be masked as
 * the API masks it, and bad options must be refused by name with exit code 2.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as usageRoute } from "@/app/api/usage/route";
import { formatUsd } from "@/lib/domain/usage/cost";
import type { UsageReport } from "@/lib/domain/usage/usage-report";
import { formatTokens } from "@/lib/domain/usage/usage-table";
import { importPath } from "@/lib/imports/import-file";
import { transcriptFiles } from "@/lib/imports/transcript-files";
import { jsonRequest } from "@/lib/testing/api";
import { newThread, newTurn } from "@/lib/testing/integration";
import { usageMain } from "./usage-main";

const exec = promisify(execFile);
const root = process.cwd();

/** The fixtures' sessions run from March 2023 (ChatGPT) to April 2026 (Gemini CLI). */
const SINCE = "2023-03-01";
const UNTIL = "2026-04-30";

type Run = { code: number; stdout: string; stderr: string };

/** `npm run usage -- ...args` as users run it, in a child process. */
async function usageProcess(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await exec("npm", ["run", "--silent", "usage", "--", ...args], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: "" },
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** The same command in this process: usageMain with the streams collected. */
async function usageCli(...args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await usageMain(args, { out: (text) => (stdout += text), err: (line) => (stderr += `${line}\n`) });
  return { code, stdout, stderr };
}

/** What GET /api/usage answers for the query. */
async function expected(query: Record<string, string>): Promise<UsageReport> {
  const response = await usageRoute(jsonRequest("GET", `/api/usage?${new URLSearchParams(query)}`));
  expect(response.status).toBe(200);
  return (await response.json()) as UsageReport;
}

beforeAll(async () => {
  for await (const file of transcriptFiles("fixtures/real")) {
    const report = await importPath(file.path);
    expect(report.status, `${file.path}: ${report.error ?? ""}`).toBe("imported");
  }
}, 120_000);

describe("npm run usage", () => {
  it("prints exactly the API's report with --json, daily by default, compact dates taken", async () => {
    const run = await usageProcess("--since", SINCE.replaceAll("-", ""), "--until", UNTIL, "--tz", "UTC", "--json");
    expect(run.code, run.stderr).toBe(0);
    // stdout is the JSON alone: progress (a migration on PostgreSQL, say) goes to stderr.
    const printed = JSON.parse(run.stdout) as UsageReport;
    const report = await expected({ groupBy: "day", since: SINCE, until: UNTIL, tz: "UTC" });
    expect(printed).toEqual(report);
    // The fixtures hold usage on several days, some of it in models without a price.
    expect(report.rows.length).toBeGreaterThan(3);
    expect(report.totals.responses).toBeGreaterThan(50);
    expect(report.totals.costUsd).toBeGreaterThan(0);
  }, 120_000);

  it("prints sessions with their models under them, in another time zone, filtered by source", async () => {
    const run = await usageCli(
      "session",
      "--since",
      SINCE,
      "--until",
      UNTIL,
      "--tz",
      "Europe/Berlin",
      "--source",
      "import:claude-code",
      "--breakdown",
      "--limit",
      "3",
      "--json",
    );
    expect(run.code, run.stderr).toBe(0);
    const report = await expected({
      groupBy: "thread",
      since: SINCE,
      until: UNTIL,
      tz: "Europe/Berlin",
      source: "import:claude-code",
      breakdown: "model",
      limit: "3",
    });
    expect(JSON.parse(run.stdout)).toEqual(report);
    expect(report.rows).toHaveLength(3);
    expect(report.rows.every((row) => row.breakdown && row.breakdown.length > 0)).toBe(true);
  }, 120_000);

  it("prints a table whose totals line is the report's totals", async () => {
    const run = await usageProcess("monthly", "--since", SINCE, "--until", UNTIL, "--tz", "UTC");
    expect(run.code, run.stderr).toBe(0);
    const report = await expected({ groupBy: "month", since: SINCE, until: UNTIL, tz: "UTC" });
    const { totals } = report;
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe(`Usage by month, ${report.since} to ${report.until} (UTC)`);
    for (const row of report.rows)
      expect(run.stdout).toMatch(new RegExp(`^${row.key} +${formatTokens(row.inputTokens)} +${formatTokens(row.outputTokens)} `, "m"));
    const total = lines.find((line) => line.startsWith("Total "));
    const cost = formatUsd(totals.costUsd).replace(/[$.]/g, "\\$&") + (totals.unpricedResponses > 0 ? "\\*" : "");
    expect(total).toMatch(
      new RegExp(
        `^Total +${[totals.inputTokens, totals.outputTokens, totals.cacheReadTokens, totals.cacheWriteTokens, ...(totals.reasoningTokens > 0 ? [totals.reasoningTokens] : [])].map(formatTokens).join(" +")} +${cost} +${formatTokens(totals.responses)}$`,
      ),
    );
    if (totals.unpricedModels.length > 0) expect(run.stdout).toContain(`not in the cost: ${totals.unpricedModels.join(", ")}.`);
  }, 120_000);

  it("masks a secret in a session's title, in the JSON and in the table", async () => {
    const token = "ghp_R8xk2LmQ9vT4wZ7yB1nC5dF3gH6jK0pS2uX4";
    const thread = await newThread({ toolName: "chat", title: `Deploy with ${token} today` });
    await newTurn(thread.id, { role: "user", content: "Deploy it" });
    await newTurn(thread.id, {
      role: "assistant",
      content: "Deployed.",
      modelProvider: "anthropic",
      modelName: "claude-sonnet-4-5",
      modelMetadata: { usage: { inputTokens: 12, cacheReadTokens: 3_000, cacheWriteTokens: 500, outputTokens: 80 } },
    });
    // Without since/until: all time, today included (the turns above ran now).
    const json = await usageCli("session", "--tz", "UTC", "--json");
    const table = await usageCli("session", "--tz", "UTC");
    expect(json.code, json.stderr).toBe(0);
    expect(table.code, table.stderr).toBe(0);
    const report = await expected({ groupBy: "thread", tz: "UTC", until: new Date().toISOString().slice(0, 10) });
    expect(JSON.parse(json.stdout)).toEqual(report);
    expect(report.rows.find((row) => row.key === thread.id)?.title).toBe("Deploy with [GitHub token …680b] today");
    // All time: other fixtures reported reasoning, so the table has its column.
    expect(table.stdout).toMatch(
      new RegExp(`^Deploy with \\[GitHub token …680b\\] today +12 +80 +3,000 +500 +(0 +)?\\$\\S+ +1 +${thread.id}$`, "m"),
    );
    for (const run of [json, table]) expect(run.stdout).not.toContain(token.slice(4, 20));
  }, 120_000);

  it("reports all time without dates, since a day alone up to today, and newest first with -o desc", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const all = await usageCli("monthly", "-z", "UTC", "-j");
    expect(all.code, all.stderr).toBe(0);
    const allTime = JSON.parse(all.stdout) as UsageReport;
    // The fixtures' first day with data, whatever the last: nothing left out.
    expect(allTime).toEqual(await expected({ groupBy: "month", tz: "UTC", since: "2000-01-01", until: today }));
    expect(allTime.since < "2023-04-01").toBe(true);
    const since = await usageCli("-s", "20250101", "--timezone", "UTC", "-j", "-o", "desc");
    expect(since.code, since.stderr).toBe(0);
    const report = JSON.parse(since.stdout) as UsageReport;
    expect(report).toEqual(await expected({ groupBy: "day", tz: "UTC", since: "2025-01-01", order: "desc" }));
    expect(report.since).toBe("2025-01-01");
    expect(report.rows.length).toBeGreaterThan(2);
    expect(report.rows.map((row) => row.key)).toEqual(
      report.rows
        .map((row) => row.key)
        .sort()
        .reverse(),
    );
  }, 120_000);

  it("prints 5-hour blocks as the API gives them, and as a table with local start times", async () => {
    const run = await usageCli("blocks", "-s", SINCE, "-u", UNTIL, "-z", "UTC", "--token-limit", "max", "--json");
    expect(run.code, run.stderr).toBe(0);
    const report = await expected({ groupBy: "block", since: SINCE, until: UNTIL, tz: "UTC", tokenLimit: "max" });
    expect(JSON.parse(run.stdout)).toEqual(report);
    expect(report.rows.length).toBeGreaterThan(3);
    expect(report.tokenLimit).toBe(
      Math.max(...report.rows.map((r) => r.inputTokens + r.outputTokens + r.cacheReadTokens + r.cacheWriteTokens)),
    );
    const table = await usageCli("blocks", "-s", SINCE, "-u", UNTIL, "-z", "Asia/Tokyo");
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^Block start +Duration +Tokens +Cost +Responses +Models$/m);
    const first = report.rows[0]!;
    // Tokyo is 9 hours ahead of UTC.
    const local = new Date(Date.parse(first.start!) + 9 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");
    expect(table.stdout).toMatch(new RegExp(`^${local} +\\d+h \\d\\dm +[\\d,]+ +\\S+ +\\d+ +${first.models![0]}`, "m"));
  }, 120_000);

  it("prints sessions rolled up, or each thread alone with --threads", async () => {
    const rolled = await usageCli("session", "-s", SINCE, "-u", UNTIL, "-z", "UTC", "-j");
    const threads = await usageCli("session", "-s", SINCE, "-u", UNTIL, "-z", "UTC", "-j", "--threads");
    expect(threads.code, threads.stderr).toBe(0);
    const perThread = JSON.parse(threads.stdout) as UsageReport;
    expect(perThread).toEqual(await expected({ groupBy: "thread", since: SINCE, until: UNTIL, tz: "UTC", perThread: "true" }));
    const sessions = JSON.parse(rolled.stdout) as UsageReport;
    // The fixtures hold sub-agent threads: rows of their own here, in their session's there; the totals the same.
    expect(perThread.rows.length).toBeGreaterThan(sessions.rows.length);
    expect(perThread.totals).toEqual(sessions.totals);
    expect(perThread.rows.every((row) => row.figures === undefined)).toBe(true);
  }, 120_000);

  it("lists every command and option, with its short form, under --help", async () => {
    const run = await usageProcess("--help");
    expect(run.code, run.stderr).toBe(0);
    for (const command of ["daily", "weekly", "monthly", "session", "blocks", "model", "provider", "project", "source"])
      expect(run.stdout).toMatch(new RegExp(`^ +(.* )?${command} `, "m"));
    for (const option of [
      "-s, --since",
      "-u, --until",
      "-z, --tz",
      "--timezone",
      "-o, --order",
      "--threads",
      "--token-limit",
      "-b, --breakdown",
      "-j, --json",
      "-h, --help",
      "--source",
      "--project",
      "--model",
      "--limit",
    ])
      expect(run.stdout).toContain(option);
  }, 120_000);

  it.each([
    [["--since", "2026-02-30"], "usage: --since: is not a calendar date"],
    [["blocks", "--token-limit", "some"], "usage: --token-limit: must be a whole number of tokens or max"],
    [["-o", "sideways"], "usage: --order: must be one of asc, desc"],
    [["daily", "--since", "2026-03-10", "--until", "2026-03-01"], "usage: --until: must not be before since (2026-03-10)"],
    [["--tz", "Mars/Olympus"], "usage: --tz: is not a time zone"],
    [["hourly"], 'usage: unknown command "hourly"'],
    [["--sinse", "2026-01-01"], "usage: Unknown option '--sinse'"],
  ])(
    "refuses %j by name, with exit code 2",
    async (args, message) => {
      const run = await usageCli(...args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain("usage: npm run usage --");
    },
    120_000,
  );

  it("refuses bad usage as a process too: exit code 2, the mistake and the usage on stderr, nothing on stdout", async () => {
    const run = await usageProcess("--sinse", "2026-01-01");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("usage: Unknown option '--sinse'");
    expect(run.stderr).toContain("usage: npm run usage --");
  }, 120_000);
});
