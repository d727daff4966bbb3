// A restart over many files (issue 38: "20,000 within 10 s"): a folder of 20,000 short Claude Code
// sessions (x BENCH_SCALE) synced once by the server's own sync in a child process, then `npm start`
// on that database, timed from the moment it answers until its sync has confirmed every file.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { migrateDatabase } from "../../../lib/db/engine/migrate";
import { writeRealShapedSessions } from "../../../lib/testing/real-shaped-sessions";
import { ensureBuild, ensurePrismaClient, root } from "../../lib.mjs";
import { BENCH_DIR, CONFIG, KEEP_DB, POSTGRES_ADMIN_URL, TARGETS } from "../config";
import { groupCpuSeconds } from "../process-group";
import { Bench, fmtBytes } from "../section";
import { getJson, startNpmStart } from "../server";
import { dropPostgresDatabase, freshPostgresDatabase } from "../store";

const DIR = path.join(BENCH_DIR, "restart");
const POSTGRES_DB = "threadline_bench_restart";
const RESTARTS = 2;
const TIMEOUT_MS = 10 * 60_000;

type Folder = { path: string; state: string; filesSeen: number; imported: number; unchanged: number; lastSyncAt: string | null };

export async function sectionRestart(bench: Bench): Promise<void> {
  ensurePrismaClient();
  ensureBuild();
  rmSync(DIR, { recursive: true, force: true });
  const folder = path.join(DIR, "projects");
  const count = Math.max(200, Math.round(CONFIG.restartFiles * CONFIG.scale));
  const { bytes } = writeRealShapedSessions(folder, count, { shortOnly: true });
  const databases: { label: string; url: string }[] = [{ label: "SQLite", url: `file:${path.join(DIR, "threadline.db")}` }];
  if (POSTGRES_ADMIN_URL) databases.push({ label: "PostgreSQL", url: await freshPostgresDatabase(POSTGRES_ADMIN_URL, POSTGRES_DB) });
  try {
    for (const { label, url } of databases) {
      migrateDatabase(url, root);
      const firstSeconds = firstSync(url, folder, count);
      for (let run = 1; run <= RESTARTS; run++) {
        const restart = await restartServer(url, folder, count);
        bench.record({
          section: "restart",
          name: `${label}: restart over ${count.toLocaleString("en-US")} unchanged files, from serving until confirmed (s), run ${run}`,
          value: restart.confirmSeconds,
          unit: "s",
          target: { metric: "ceiling", max: TARGETS.restartManyConfirmSeconds },
          note:
            `${count} sessions, ${fmtBytes(bytes)}, synced first in ${firstSeconds.toFixed(0)} s; served after ${restart.servedSeconds.toFixed(1)} s; ` +
            `server CPU until confirmed ${restart.cpuSeconds.toFixed(2)} s (start-up included), group peak RSS ${Math.round(restart.peakMb)} MB`,
        });
      }
    }
  } finally {
    if (!KEEP_DB) {
      rmSync(DIR, { recursive: true, force: true });
      if (POSTGRES_ADMIN_URL) await dropPostgresDatabase(POSTGRES_ADMIN_URL, POSTGRES_DB);
    }
  }
}

/** The first sync, by the server's own sync object in a child process (lib/testing/sync-probe-worker.ts): seconds. */
function firstSync(url: string, folder: string, files: number): number {
  const started = performance.now();
  const probe = spawnSync(process.execPath, ["--import", "tsx", "--conditions=react-server", "lib/testing/sync-probe-worker.ts"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: url, THREADLINE_SOURCES: folder },
  });
  const line = probe.stdout.trim().split("\n").at(-1) ?? "";
  if (probe.status !== 0 || !line.startsWith("{")) throw new Error(`restart: the first sync failed: ${probe.stderr.slice(-800)}`);
  const { imported } = JSON.parse(line) as { imported: number };
  if (imported !== files) throw new Error(`restart: the first sync imported ${imported} of ${files} files`);
  return (performance.now() - started) / 1000;
}

/** `npm start` following the folder on the synced database, until its sync confirmed every file; then stopped. */
async function restartServer(
  url: string,
  folder: string,
  files: number,
): Promise<{ servedSeconds: number; confirmSeconds: number; cpuSeconds: number; peakMb: number }> {
  const server = await startNpmStart({ THREADLINE_SOURCES: folder, DATABASE_URL: url }, path.join(DIR, "server.log"));
  try {
    let servedMs: number | null = null;
    for (;;) {
      if (server.exited()) throw new Error(`restart: npm start exited; see ${DIR}/server.log`);
      if (performance.now() - server.startedAt > TIMEOUT_MS) throw new Error("restart: not confirmed in time");
      const status = await getJson<{ syncing: boolean; folders: Folder[] }>(server.baseUrl, "/api/sources").catch(() => null);
      if (status) servedMs ??= performance.now() - server.startedAt;
      const synced = status?.folders.find((f) => f.path === folder);
      if (status && !status.syncing && synced?.lastSyncAt && synced.state === "watching") {
        const doneMs = performance.now() - server.startedAt;
        if (synced.unchanged !== files || synced.imported !== 0)
          throw new Error(`restart: ${synced.unchanged} unchanged and ${synced.imported} imported of ${files} files`);
        return {
          servedSeconds: servedMs! / 1000,
          confirmSeconds: (doneMs - servedMs!) / 1000,
          cpuSeconds: groupCpuSeconds(server.child.pid!),
          peakMb: server.peakBytes() / (1024 * 1024),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await server.stop();
  }
}
