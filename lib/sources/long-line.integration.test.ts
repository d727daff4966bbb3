/**
 * A followed folder holding a Claude Code session with a 200 MB line in the middle (a pasted image
 * far past the line limit), synced by a server-like child process (lib/testing/long-line-sync-worker.ts,
 * which can collect its garbage on demand) while it reads the database every 20 ms: the line is
 * skipped and said so on the folder's status, every other line is imported, memory stays bounded
 * and comes back, and the reads keep being answered.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { sourceFilesUnder } from "@/lib/db/imports/source-files";
import type { SourcesStatus } from "@/lib/domain/sources/sources";
import { serverSettings } from "@/lib/env";
import { numberedLines } from "@/lib/importers";
import { parseClaudeCodeSession } from "@/lib/importers/claude-code";
import { importedThreadId } from "@/lib/importers/stable-id";
import { forgetSyncedImports } from "@/lib/testing/integration";
import { writeLongLineSession, type LongLineSession } from "@/lib/testing/long-line-session";
import { CLAUDE_CODE_FIXTURES } from "@/lib/testing/sources-home";

const MB = 1024 * 1024;
const WORKER = path.resolve("lib/testing/long-line-sync-worker.ts");

type Measured = {
  status: SourcesStatus;
  seconds: number;
  rssMb: { rest: number; peakSampled: number; peakMaxRss: number | null; after: number };
  readsMs: { n: number; p50: number; p95: number; max: number };
  eventLoopLagMs: { n: number; p50: number; p95: number; max: number };
};

function runWorker(warmUp: string, folder: string): Promise<Measured> {
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "--conditions=react-server", WORKER, warmUp, folder], {
    cwd: process.cwd(),
    env: { ...process.env, DATABASE_URL: serverSettings().databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      if (code !== 0 || !line) reject(new Error(`the worker exited with ${code}\n${stderr}\n${stdout}`));
      else resolve(JSON.parse(line) as Measured);
    });
  });
}

let dir: string;
let session: LongLineSession;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "threadline-long-line-"));
  const warmUp = path.join(dir, "warm-up", "-home-marco-projects-spotter");
  mkdirSync(warmUp, { recursive: true });
  cpSync(
    path.join(CLAUDE_CODE_FIXTURES, "-home-marco-projects-spotter", "55604662-cf2a-4331-851a-ec234028f8ca.jsonl"),
    path.join(warmUp, "55604662-cf2a-4331-851a-ec234028f8ca.jsonl"),
  );
  session = writeLongLineSession(path.join(dir, "followed"), 200 * MB);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await forgetSyncedImports();
});

describe("a 200 MB line in a followed session", () => {
  it(
    "is skipped and reported with its file, line and size; the rest imports, in bounded memory, while reads go on",
    { timeout: 180_000 },
    async () => {
      const measured = await runWorker(path.join(dir, "warm-up"), path.join(dir, "followed"));
      console.log(`[long line] ${JSON.stringify({ ...measured, status: undefined })}`);

      const folder = measured.status.folders[0]!;
      expect(folder).toMatchObject({ state: "found", filesSeen: 1, imported: 1, failed: 0, failures: [] });
      expect(folder.warnings).toEqual([
        { file: session.file, reason: expect.stringContaining(`line ${session.line}: line too long (200.0 MB)`) },
      ]);
      expect(folder.warnings[0]!.reason).toContain("THREADLINE_MAX_LINE_MB");
      // Remembered: a restarted server shows it without reading the file.
      expect((await sourceFilesUnder(path.join(dir, "followed"))).map((row) => [row.path, row.failure, row.warning])).toEqual([
        [session.file, null, folder.warnings[0]!.reason],
      ]);

      // Every other line imported: the threads hold what the fixture alone gives.
      const expected = await parseClaudeCodeSession(numberedLines(`${session.fixture.join("\n")}\n`), { name: session.file });
      const client = await db();
      for (const thread of expected.threads) {
        const turns = await client.turn.findMany({
          where: { threadId: importedThreadId("claude-code", thread.key) },
          orderBy: { index: "asc" },
          select: { content: true },
        });
        expect(turns.map((t) => t.content)).toEqual(thread.turns.map((t) => t.content));
      }
      expect(expected.threads.reduce((n, t) => n + t.turns.length, 0)).toBeGreaterThan(20);

      // Memory: bounded while the line is read (a line is carried up to the 16 MB limit, then
      // dropped), and given back after. Reads every 20 ms keep being answered.
      const peak = Math.max(measured.rssMb.peakSampled, measured.rssMb.peakMaxRss ?? 0);
      expect(peak - measured.rssMb.rest).toBeLessThan(400);
      expect(measured.rssMb.after - measured.rssMb.rest).toBeLessThan(100);
      expect(measured.readsMs.n).toBeGreaterThan(10);
      expect(measured.readsMs.p95).toBeLessThan(1000);
      expect(measured.eventLoopLagMs.p95).toBeLessThan(1000);
    },
  );
});
