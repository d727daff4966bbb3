import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
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
    const generated = writeClaudeCodeSession(path.join(dir, `${randomUUID()}.jsonl`), CONFIG.importBytes);
    const output = execFileSync("npm", ["run", "--silent", "import", "--", dir, "--stats", "--quiet"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_OPTIONS: "" },
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    const { stats } = JSON.parse(output.trim().split("\n").pop() ?? "{}") as { stats: { bytes: number; seconds: number; turns: number; maxRssBytes: number } };
    if (stats.turns !== generated.turns) throw new Error(`import stored ${stats.turns} turns of ${generated.turns}`);
    const mb = stats.bytes / 1e6;
    const what = `${fmtBytes(stats.bytes)} Claude Code session, ${generated.lines} lines, ${generated.turns} turns`;
    bench.record({ section: "import", name: "npm run import, one big session (MB/s)", value: mb / stats.seconds, unit: "MB/s", target: { metric: "rate", min: TARGETS.importMbPerSecond }, note: `${what} in ${stats.seconds.toFixed(1)} s; o200k counts, FTS index and usage stored in the same transaction` });
    bench.record({ section: "import", name: "npm run import, turns per second", value: stats.turns / stats.seconds, unit: "turns/s" });
    bench.record({ section: "import", name: "npm run import, peak RSS (MB)", value: stats.maxRssBytes / 1e6, unit: "MB", target: { metric: "ceiling", max: TARGETS.importPeakRssMb }, note: "streamed in two passes, o200k counted on a worker thread; the CLI runs with a 256 MB V8 heap" });
  } finally {
    if (!KEEP_DB) {
      rmSync(dir, { recursive: true, force: true });
      for (const suffix of ["", "-wal", "-shm"]) rmSync(database + suffix, { force: true });
      if (POSTGRES_ADMIN_URL) await dropPostgresDatabase(POSTGRES_ADMIN_URL, importDb);
    }
  }
}
