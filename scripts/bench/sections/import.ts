import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { root } from "../../lib.mjs";
import { BENCH_DIR, CONFIG, KEEP_DB, POSTGRES_ADMIN_URL, TARGETS } from "../config";
import { Bench, fmtBytes } from "../section";
import { dropPostgresDatabase, freshPostgresDatabase } from "../store";

/**
 * `npm run import` as users run it, in a child process on a database of its own, on a generated
 * Claude Code session (lib/testing/claude-code-session.ts): MB/s, turns/s and peak RSS.
 */
export async function sectionImport(bench: Bench): Promise<void> {
  const { writeClaudeCodeSession } = await import("../../../lib/testing/claude-code-session");
  const dir = path.join(BENCH_DIR, "import");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const database = path.join(BENCH_DIR, "import.db");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(database + suffix, { force: true });
  const importDb = "threadline_bench_import";
  const databaseUrl = POSTGRES_ADMIN_URL ? await freshPostgresDatabase(POSTGRES_ADMIN_URL, importDb) : `file:${database}`;
  try {
    const sessionFile = path.join(dir, `${randomUUID()}.jsonl`);
    const generated = writeClaudeCodeSession(sessionFile, CONFIG.importBytes);
    const stats = runImport(dir, databaseUrl);
    if (stats.turns !== generated.turns) throw new Error(`import stored ${stats.turns} turns of ${generated.turns}`);
    const mb = stats.bytes / 1e6;
    const what = `${fmtBytes(stats.bytes)} Claude Code session, ${generated.lines} lines, ${generated.turns} turns`;
    bench.record({ section: "import", name: "npm run import, one big session (MB/s)", value: mb / stats.seconds, unit: "MB/s", target: { metric: "rate", min: TARGETS.importMbPerSecond }, note: `${what} in ${stats.seconds.toFixed(1)} s; FTS index, usage and o200k counts stored in the same transaction (the last batches' counts just after it)` });
    bench.record({ section: "import", name: "npm run import, turns per second", value: stats.turns / stats.seconds, unit: "turns/s" });
    await recordSecretDetection(bench, sessionFile, mb / stats.seconds);
    bench.record({ section: "import", name: "npm run import, peak RSS (MB)", value: stats.maxRssBytes / 1e6, unit: "MB", target: { metric: "ceiling", max: TARGETS.importPeakRssMb }, note: "streamed in two passes, o200k counted on a worker thread; the CLI runs with a 256 MB V8 heap" });
    await importManySmallFiles(bench, databaseUrl);
  } finally {
    if (!KEEP_DB) {
      rmSync(dir, { recursive: true, force: true });
      for (const suffix of ["", "-wal", "-shm"]) rmSync(database + suffix, { force: true });
      if (POSTGRES_ADMIN_URL) await dropPostgresDatabase(POSTGRES_ADMIN_URL, importDb);
    }
  }
}

/** `npm run import` of `dir` on `databaseUrl` in a child process: its --stats. */
type ImportStats = { bytes: number; seconds: number; turns: number; imported: number; unchanged: number; maxRssBytes: number };

function runImport(dir: string, databaseUrl: string): ImportStats {
  const output = execFileSync("npm", ["run", "--silent", "import", "--", dir, "--stats", "--quiet"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_OPTIONS: "" },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return (JSON.parse(output.trim().split("\n").pop() ?? "{}") as { stats: ImportStats }).stats;
}

/**
 * Many small sessions against one big file of the same content, in the same run: 1,000 (scaled by
 * BENCH_SCALE, at least 100) copies of real Claude Code sessions with their ids rewritten, then the
 * same bytes as one file; then the small files again, unchanged.
 */
async function importManySmallFiles(bench: Bench, databaseUrl: string): Promise<void> {
  const { writeRealShapedSessions } = await import("../../../lib/testing/real-shaped-sessions");
  const smallDir = path.join(BENCH_DIR, "import-small");
  const bigDir = path.join(BENCH_DIR, "import-big");
  rmSync(smallDir, { recursive: true, force: true });
  rmSync(bigDir, { recursive: true, force: true });
  try {
    const count = Math.max(100, Math.round(CONFIG.smallImportFiles * CONFIG.scale));
    const { files, bytes } = writeRealShapedSessions(smallDir, count);
    mkdirSync(path.join(bigDir, "-home-user-big"), { recursive: true });
    writeFileSync(path.join(bigDir, "-home-user-big", `${randomUUID()}.jsonl`), files.map((file) => readFileSync(file)).join(""));
    const small = runImport(smallDir, databaseUrl);
    const big = runImport(bigDir, databaseUrl);
    const again = runImport(smallDir, databaseUrl);
    if (small.imported !== count || again.unchanged !== count) throw new Error(`import of ${count} small files: ${small.imported} imported, then ${again.unchanged} unchanged`);
    const smallRate = bytes / 1e6 / small.seconds;
    const bigRate = bytes / 1e6 / big.seconds;
    bench.record({
      section: "import",
      name: `npm run import, ${count} small real-shaped sessions (MB/s)`,
      value: smallRate,
      unit: "MB/s",
      target: { metric: "rate", min: bigRate / 2 },
      note: `${fmtBytes(bytes)} in ${small.seconds.toFixed(2)} s (${((small.seconds / count) * 1000).toFixed(1)} ms a file); the same bytes as one file: ${bigRate.toFixed(1)} MB/s in ${big.seconds.toFixed(2)} s; small files at ${Math.round((100 * smallRate) / bigRate)}% of it (target 50%)`,
    });
    bench.record({ section: "import", name: `npm run import, the ${count} files again, unchanged (s)`, value: again.seconds, unit: "s", note: "each file read and hashed, and found imported before" });
  } finally {
    if (!KEEP_DB) {
      rmSync(smallDir, { recursive: true, force: true });
      rmSync(bigDir, { recursive: true, force: true });
    }
  }
}

/**
 * Secret detection (lib/domain/secrets) over the same session's text, line by line as the scan
 * reads turns, and the import rate with it added: 1 / (1/import + 1/detection), since the scan
 * reads every byte the import wrote once more. Both rates are printed.
 */
async function recordSecretDetection(bench: Bench, file: string, importMbPerSecond: number): Promise<void> {
  const { detectSecrets } = await import("../../../lib/domain/secrets/detect");
  const lines = readFileSync(file, "utf8").split("\n");
  const bytes = lines.reduce((sum, line) => sum + line.length, 0);
  for (const line of lines.slice(0, 200)) detectSecrets(line); // warm up
  const started = performance.now();
  let found = 0;
  for (const line of lines) found += detectSecrets(line).length;
  const seconds = (performance.now() - started) / 1000;
  const detectMbPerSecond = bytes / 1e6 / seconds;
  const withDetection = 1 / (1 / importMbPerSecond + 1 / detectMbPerSecond);
  bench.record({ section: "import", name: "secret detection (MB/s)", value: detectMbPerSecond, unit: "MB/s", note: `${fmtBytes(bytes)} in ${(seconds * 1000).toFixed(0)} ms, ${found} findings` });
  bench.record({
    section: "import",
    name: "npm run import with detection (MB/s)",
    value: withDetection,
    unit: "MB/s",
    note: `without: ${importMbPerSecond.toFixed(2)} MB/s, with: ${withDetection.toFixed(2)} MB/s = ${((100 * withDetection) / importMbPerSecond).toFixed(0)}% (target at least 80%)`,
  });
}
