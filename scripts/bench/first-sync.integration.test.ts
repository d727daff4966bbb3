// Issue 38's regression guard for the first sync and a restart, on figures that do not depend on
// the machine's speed or load (times do: the bench's first-sync section measures those), so CI can
// run it on a shared machine without flaking: what the kernel counted a syncing process read
// (bytes per byte of transcripts, calls per file) and its peak RSS, for a first sync of 100 real
// Claude Code sessions and a restart over them, each against the committed baseline
// (baseline.json, one per database: the highest figures seen on a warm checkout and a fresh clone)
// with 25% tolerance. A sync that reads every file twice, re-reads what it wrote or opens unchanged
// files on a restart moves them by far more than that.
// After a change that moves a figure on purpose: BENCH_BASELINE=write npx vitest run --project=integration
// scripts/bench/first-sync.integration.test.ts (and with THREADLINE_TEST_POSTGRES_URL for PostgreSQL's).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { writeClaudeCodeFolder } from "@/lib/testing/claude-code-folder";
import { testPostgresUrl } from "@/lib/testing/test-database";
import { regressions, type Figures } from "@/lib/testing/baseline-regressions";

const BASELINE_FILE = path.join(import.meta.dirname, "baseline.json");
const PROBE = path.resolve("lib/testing/sync-probe-worker.ts");
const SESSIONS = 100;
const TOLERANCE = 0.25;
/** Fixed, so the folder's bytes are the same on every run (only its ids differ, at the same lengths). */
const END_AT = new Date("2026-11-01T00:00:00Z");
const MB = 1024 * 1024;

/** What lib/testing/sync-probe-worker.ts prints. */
type Probe = {
  filesSeen: number;
  imported: number;
  unchanged: number;
  failed: number;
  peakRssBytes: number;
  readBytes: number;
  writtenBytes: number;
  readCalls: number;
  writeCalls: number;
};

const dir = mkdtempSync(path.join(os.tmpdir(), "threadline-first-sync-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One sync of `folder` in a fresh process on this file's database, as a server's. */
function probe(folder: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", PROBE], {
      env: { ...process.env, THREADLINE_SOURCES: folder },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`sync-probe exited ${code}: ${err.slice(-1500)}`));
      else resolve(JSON.parse(line) as Probe);
    });
  });
}

test("a first sync of 100 sessions and a restart over them stay within 25% of the baseline's reads and memory", async () => {
  // Synced first and not measured: the modules, tokenizers and workers a sync loads are compiled and cached then.
  writeClaudeCodeFolder(path.join(dir, "warm-up"), 1, { endAt: END_AT });
  await probe(path.join(dir, "warm-up"));
  const projects = path.join(dir, "projects");
  const folder = writeClaudeCodeFolder(projects, SESSIONS, { days: 60, endAt: END_AT });
  const files = folder.files.length;

  const first = await probe(projects);
  expect(first).toMatchObject({ filesSeen: files, imported: files, failed: 0 });
  const restart = await probe(projects);
  expect(restart).toMatchObject({ filesSeen: files, imported: 0, unchanged: files, failed: 0 });

  // Not the writes (they move with when SQLite checkpoints and when the background counts land) nor
  // a restart's calls (mostly the process's own start-up, which moves with the compile caches): on
  // a fresh clone those went 20-110% over the figures of a warm checkout, with nothing changed.
  const figures: Figures = {
    firstSyncPeakRssMb: first.peakRssBytes / MB,
    firstSyncReadBytesPerTranscriptByte: first.readBytes / folder.bytes,
    firstSyncReadCallsPerFile: first.readCalls / files,
    restartPeakRssMb: restart.peakRssBytes / MB,
    restartReadBytesPerFile: restart.readBytes / files,
  };
  const database = testPostgresUrl() ? "postgresql" : "sqlite";
  const baseline = JSON.parse(readFileSync(BASELINE_FILE, "utf8")) as Record<string, Figures>;
  if (process.env.BENCH_BASELINE === "write") {
    const rounded = Object.fromEntries(Object.entries(figures).map(([name, value]) => [name, Number(value.toPrecision(3))]));
    writeFileSync(BASELINE_FILE, `${JSON.stringify({ ...baseline, [database]: rounded }, null, 2)}\n`);
    return;
  }
  expect(regressions(baseline[database]!, figures, TOLERANCE), JSON.stringify(figures)).toEqual([]);
}, 180_000);
