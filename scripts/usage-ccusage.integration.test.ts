/**
 * Our usage reports against ccusage itself (node_modules/.bin/ccusage, a dev dependency) on the
 * real Claude Code fixtures: ccusage reads the files, we read what we imported from them, both in
 * UTC over all time. Per 5-hour block (ccusage's gap blocks left out: we list no gaps) the start,
 * end, responses, the four token counts, cost and models; per session the tokens and cost, the
 * sub-agents in their session's figures as ccusage counts them. ccusage missing fails the test.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { usageReport } from "@/lib/db/usage/usage-report";
import type { UsageReport } from "@/lib/domain/usage/usage-report";
import { importPath } from "@/lib/imports/import-file";
import { importedThreadId } from "@/lib/importers/stable-id";
import { transcriptFiles } from "@/lib/imports/transcript-files";

const exec = promisify(execFile);
const CONFIG_DIR = path.join(process.cwd(), "fixtures/real/claude-code");
const CCUSAGE = path.join(process.cwd(), "node_modules/.bin/ccusage");

type CcusageBlock = {
  startTime: string;
  endTime: string;
  isGap: boolean;
  entries: number;
  models: string[];
  costUSD: number;
  tokenCounts: { inputTokens: number; outputTokens: number; cacheCreationInputTokens: number; cacheReadInputTokens: number };
};
/** ccusage 20 names a session's id `period`. */
type CcusageSession = {
  period: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
};

/** ccusage's JSON for a command, reading the fixtures only (an empty HOME: no other agent's folders). */
async function ccusage(command: string): Promise<unknown> {
  const home = mkdtempSync(path.join(tmpdir(), "threadline-ccusage-"));
  try {
    const { stdout } = await exec(CCUSAGE, [command, "--json", "--offline", "--timezone", "UTC"], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: CONFIG_DIR, HOME: home, TZ: "UTC" },
      maxBuffer: 64 << 20,
    });
    return JSON.parse(stdout);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  let files = 0;
  for await (const file of transcriptFiles(CONFIG_DIR)) {
    const report = await importPath(file.path);
    expect(report.status, `${file.path}: ${report.error ?? ""}`).toBe("imported");
    files++;
  }
  expect(files).toBeGreaterThan(3);
}, 120_000);

describe("usage reports equal ccusage's on the real Claude Code fixtures", () => {
  it("in 5-hour blocks", async () => {
    const theirs = ((await ccusage("blocks")) as { blocks: CcusageBlock[] }).blocks.filter((block) => !block.isGap);
    const ours: UsageReport = await usageReport({ groupBy: "block", timeZone: "UTC" }, null);
    expect(theirs.length).toBeGreaterThan(2);
    expect(ours.rows.map((row) => row.start)).toEqual(theirs.map((block) => block.startTime));
    for (const [i, block] of theirs.entries()) {
      const row = ours.rows[i]!;
      expect(row.end, block.startTime).toBe(block.endTime);
      expect(row.responses, block.startTime).toBe(block.entries);
      expect(
        { input: row.inputTokens, output: row.outputTokens, cacheWrite: row.cacheWriteTokens, cacheRead: row.cacheReadTokens },
        block.startTime,
      ).toEqual({
        input: block.tokenCounts.inputTokens,
        output: block.tokenCounts.outputTokens,
        cacheWrite: block.tokenCounts.cacheCreationInputTokens,
        cacheRead: block.tokenCounts.cacheReadInputTokens,
      });
      expect(Math.abs(row.costUsd - block.costUSD), block.startTime).toBeLessThan(1e-6);
      expect([...row.models!].sort(), block.startTime).toEqual([...block.models].sort());
    }
  }, 120_000);

  it("per session, sub-agents counted in their session", async () => {
    const theirs = ((await ccusage("session")) as { session: CcusageSession[] }).session;
    const ours = await usageReport({ groupBy: "thread", timeZone: "UTC" }, null);
    expect(theirs.length).toBeGreaterThan(2);
    const byId = new Map(ours.rows.map((row) => [row.key, row]));
    for (const session of theirs) {
      const row = byId.get(importedThreadId("claude-code", session.period));
      expect(row, session.period).toBeDefined();
      expect(
        { input: row!.inputTokens, output: row!.outputTokens, cacheWrite: row!.cacheWriteTokens, cacheRead: row!.cacheReadTokens },
        session.period,
      ).toEqual({
        input: session.inputTokens,
        output: session.outputTokens,
        cacheWrite: session.cacheCreationTokens,
        cacheRead: session.cacheReadTokens,
      });
      expect(Math.abs(row!.costUsd - session.totalCost), session.period).toBeLessThan(1e-6);
    }
    expect(ours.rows).toHaveLength(theirs.length);
  }, 120_000);
});
