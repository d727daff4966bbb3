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
    bench.record({
      section: "import",
      name: "npm run import, one big session (MB/s)",
      value: mb / stats.seconds,
      unit: "MB/s",
      target: { metric: "rate", min: TARGETS.importMbPerSecond },
      note: `${what} in ${stats.seconds.toFixed(1)} s; FTS index, usage and o200k counts stored in the same transaction (the last batches' counts just after it)`,
    });
    bench.record({ section: "import", name: "npm run import, turns per second", value: stats.turns / stats.seconds, unit: "turns/s" });
    await recordSecretDetection(bench, sessionFile);
    bench.record({
      section: "import",
      name: "npm run import, peak RSS (MB)",
      value: stats.maxRssBytes / 1e6,
      unit: "MB",
      target: { metric: "ceiling", max: TARGETS.importPeakRssMb },
      note: "streamed in two passes, o200k counted on a worker thread; the CLI runs with a 256 MB V8 heap",
    });
    await importManySmallFiles(bench, databaseUrl);
    await importsWithTheScan(bench, dir, database);
  } finally {
    if (!KEEP_DB) {
      rmSync(dir, { recursive: true, force: true });
      for (const suffix of ["", "-wal", "-shm"]) rmSync(database + suffix, { force: true });
      if (POSTGRES_ADMIN_URL) await dropPostgresDatabase(POSTGRES_ADMIN_URL, importDb);
    }
  }
}

/** `npm run import` of `dir` on `databaseUrl` in a child process: its --stats. */
type ImportStats = {
  bytes: number;
  seconds: number;
  scanSeconds: number | null;
  turns: number;
  imported: number;
  unchanged: number;
  failed: number;
  maxRssBytes: number;
};

function runImport(dir: string, databaseUrl: string, extra: string[] = []): ImportStats {
  const output = execFileSync("npm", ["run", "--silent", "import", "--", dir, "--stats", "--quiet", ...extra], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_OPTIONS: "" },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return (JSON.parse(output.trim().split("\n").pop() ?? "{}") as { stats: ImportStats }).stats;
}

/**
 * The scan's cost, timed: the generated session (in `bigDir`) and real-shaped small sessions, each
 * imported without and with --scan-secrets, each run on a database of its own.
 */
async function importsWithTheScan(bench: Bench, bigDir: string, database: string): Promise<void> {
  const { writeRealShapedSessions } = await import("../../../lib/testing/real-shaped-sessions");
  const smallDir = path.join(BENCH_DIR, "import-scan-small");
  rmSync(smallDir, { recursive: true, force: true });
  const files = (url: string) => ["", "-wal", "-shm"].map((suffix) => url.slice("file:".length) + suffix);
  const fresh = async (name: string) => {
    if (POSTGRES_ADMIN_URL) return freshPostgresDatabase(POSTGRES_ADMIN_URL, `threadline_bench_${name}`);
    const url = `file:${database.replace(/\.db$/, `-${name}.db`)}`;
    for (const file of files(url)) rmSync(file, { force: true });
    return url;
  };
  const drop = async (url: string) => {
    if (KEEP_DB) return;
    if (POSTGRES_ADMIN_URL) await dropPostgresDatabase(POSTGRES_ADMIN_URL, new URL(url).pathname.slice(1));
    else for (const file of files(url)) rmSync(file, { force: true });
  };
  try {
    const count = Math.max(100, Math.round(CONFIG.smallImportFiles * CONFIG.scale));
    writeRealShapedSessions(smallDir, count);
    await importWithAndWithoutScan(bench, "the generated session", bigDir, fresh, drop);
    await importWithAndWithoutScan(bench, `${count} real-shaped sessions`, smallDir, fresh, drop);
  } finally {
    if (!KEEP_DB) rmSync(smallDir, { recursive: true, force: true });
  }
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
    if (small.imported !== count || again.unchanged !== count)
      throw new Error(`import of ${count} small files: ${small.imported} imported, then ${again.unchanged} unchanged`);
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
    bench.record({
      section: "import",
      name: `npm run import, the ${count} files again, unchanged (s)`,
      value: again.seconds,
      unit: "s",
      note: "each file read and hashed, and found imported before",
    });
  } finally {
    if (!KEEP_DB) {
      rmSync(smallDir, { recursive: true, force: true });
      rmSync(bigDir, { recursive: true, force: true });
    }
  }
}

/**
 * Secret detection (lib/domain/secrets) alone over the same session's text, line by line as the
 * scan reads turns: its throughput, for comparison with the timed imports below.
 */
async function recordSecretDetection(bench: Bench, file: string): Promise<void> {
  const { detectSecrets } = await import("../../../lib/domain/secrets/detect");
  const lines = readFileSync(file, "utf8").split("\n");
  const bytes = lines.reduce((sum, line) => sum + line.length, 0);
  for (const line of lines.slice(0, 200)) detectSecrets(line); // warm up
  const started = performance.now();
  let found = 0;
  for (const line of lines) found += detectSecrets(line).length;
  const seconds = (performance.now() - started) / 1000;
  bench.record({
    section: "import",
    name: "secret detection alone (MB/s)",
    value: bytes / 1e6 / seconds,
    unit: "MB/s",
    note: `${fmtBytes(bytes)} in ${(seconds * 1000).toFixed(0)} ms, ${found} findings`,
  });
}

/** Imports and scans per corpus: without the scan, then with it, alternating, best of each. */
const SCAN_ROUNDS = 3;

/**
 * The import with and without secret detection, both timed: `npm run import` into a fresh
 * database, then the same files into another fresh one with --scan-secrets (the scan follows each
 * file's commit and the run ends when it has caught up, findings recorded). Alternated
 * SCAN_ROUNDS times, the best run of each kept; both rates and their ratio are printed.
 */
async function importWithAndWithoutScan(
  bench: Bench,
  label: string,
  dir: string,
  freshDatabase: (name: string) => Promise<string>,
  drop: (url: string) => Promise<void>,
): Promise<void> {
  const best = { off: null as ImportStats | null, on: null as ImportStats | null };
  for (let round = 0; round < SCAN_ROUNDS; round++) {
    for (const mode of ["off", "on"] as const) {
      const url = await freshDatabase(`scan_${mode}_${round}`);
      try {
        const stats = runImport(dir, url, mode === "on" ? ["--scan-secrets"] : []);
        if (stats.failed > 0) throw new Error(`import of ${label} with the scan ${mode}: ${stats.failed} failed`);
        if (!best[mode] || stats.seconds < best[mode].seconds) best[mode] = stats;
      } finally {
        await drop(url);
      }
    }
  }
  const off = best.off!;
  const on = best.on!;
  const rate = (s: ImportStats) => s.bytes / 1e6 / s.seconds;
  const ratio = rate(on) / rate(off);
  bench.record({
    section: "import",
    name: `npm run import, ${label}, scan off (MB/s)`,
    value: rate(off),
    unit: "MB/s",
    note: `${fmtBytes(off.bytes)}, ${off.turns} turns in ${off.seconds.toFixed(2)} s (best of ${SCAN_ROUNDS}, each on a fresh database)`,
  });
  bench.record({
    section: "import",
    name: `npm run import --scan-secrets, ${label} (MB/s)`,
    value: rate(on),
    unit: "MB/s",
    target: { metric: "rate", min: Math.round(8 * rate(off)) / 10 },
    note: `${on.seconds.toFixed(2)} s until the scan caught up (${(on.scanSeconds ?? 0).toFixed(2)} s of it after the last file); ${(100 * ratio).toFixed(0)}% of the rate without the scan (target at least 80%)`,
  });
}
