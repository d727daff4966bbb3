// The first start of someone with thousands of Claude Code sessions (issue 38): a ~/.claude/projects
// folder of 2,000 sessions (x BENCH_SCALE) made from the real fixtures, `npm start` on a fresh
// database with HOME holding that folder (and THREADLINE_SOURCES naming it), measured as that
// person meets it, with ccusage's daily report over the same folder beside it.
import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { migrateDatabase } from "../../../lib/db/engine/migrate";
import { writeClaudeCodeFolder } from "../../../lib/testing/claude-code-folder";
import { ensureBuild, ensurePrismaClient, root } from "../../lib.mjs";
import { BENCH_DIR, CONFIG, KEEP_DB, POSTGRES_ADMIN_URL, TARGETS } from "../config";
import { measure, summarize } from "../measure";
import { groupAtRest } from "../process-group";
import { Bench, fmtBytes } from "../section";
import { caughtUp, getBody, getJson, getStatus, startNpmStart } from "../server";
import { importedThreadId } from "../../../lib/importers/stable-id";
import { dropPostgresDatabase, freshPostgresDatabase } from "../store";

const DIR = path.join(BENCH_DIR, "first-sync");
const POSTGRES_DB = "threadline_bench_first_sync";
const CCUSAGE_RUNS = 3;
/** Words of the real fixtures, from one in every session to none. */
const SEARCH_WORDS = ["error", "function", "database", "README install", "zebrafish"];
const SEARCH_REQUESTS = 50;
const REST_SECONDS = 60;
/**
 * Rest is measured from this long after the sync: its trailing work ends first (the token counts
 * it left to the backlog, 15-30 s for the 2,000 sessions, the counting worker's idle end after
 * 10 s, the heap's one collection after 5 s of quiet).
 */
const SETTLE_SECONDS = 60;
const SYNC_TIMEOUT_MS = 30 * 60_000;
const MB = 1024 * 1024;

type SourcesStatus = {
  syncing: boolean;
  folders: {
    path: string;
    state: string;
    filesSeen: number;
    imported: number;
    unchanged: number;
    failed: number;
    lastSyncAt: string | null;
  }[];
};

/** A started `npm start`: its process group, and when it first answered and when its sync was done. */
type Started = {
  child: ChildProcess;
  baseUrl: string;
  servedMs: number;
  /** From npm start until the sources' status said every folder synced (the scan and the sums may still run). */
  confirmedMs: number;
  /** From npm start until that, and the secret scan and the usage sums caught up too. */
  syncedMs: number;
  /** From npm start until the newest session's thread answered (the first sync reads newest first); null when it was already stored. */
  newestMs: number | null;
  status: SourcesStatus;
  stop: () => Promise<void>;
};

export async function sectionFirstSync(bench: Bench): Promise<void> {
  // What npm start would otherwise do first, once, inside the timed start: a stale Prisma client
  // regenerated, then the app rebuilt.
  ensurePrismaClient();
  ensureBuild();
  rmSync(DIR, { recursive: true, force: true });
  const home = path.join(DIR, "home");
  const count = Math.max(20, Math.round(CONFIG.firstSyncSessions * CONFIG.scale));
  const written = performance.now();
  const folder = writeClaudeCodeFolder(path.join(home, ".claude", "projects"), count, { days: 60 });
  const files = folder.files.length;
  console.log(
    `[bench] first-sync: ${count} sessions + ${folder.companionFiles} sub-agent and compaction files, ${fmtBytes(folder.bytes)}, written in ${((performance.now() - written) / 1000).toFixed(1)} s`,
  );
  const ccusage = runCcusage(home);
  bench.record({
    section: "first-sync",
    name: `ccusage daily over the ${count} sessions (s)`,
    value: ccusage.seconds.p50,
    unit: "s",
    note: `${CCUSAGE_RUNS} runs ${ccusage.seconds.min.toFixed(2)}-${ccusage.seconds.max.toFixed(2)} s, peak RSS ${Math.round(ccusage.peakMb)} MB; ${ccusage.days} days reported`,
  });

  const databases: { label: string; url: string }[] = [{ label: "SQLite", url: `file:${path.join(DIR, "threadline.db")}` }];
  if (POSTGRES_ADMIN_URL) databases.push({ label: "PostgreSQL", url: await freshPostgresDatabase(POSTGRES_ADMIN_URL, POSTGRES_DB) });
  const facts: Record<string, unknown> = { sessions: count, files, bytes: folder.bytes, ccusage };
  try {
    for (const database of databases) {
      migrateDatabase(database.url, root);
      const newestThread = importedThreadId("claude-code", folder.newestSession);
      facts[database.label] = await measureServer(bench, { ...database, home, files, newestThread, ccusageSeconds: ccusage.seconds.p50 });
    }
  } finally {
    if (!KEEP_DB) {
      rmSync(DIR, { recursive: true, force: true });
      if (POSTGRES_ADMIN_URL) await dropPostgresDatabase(POSTGRES_ADMIN_URL, POSTGRES_DB);
    }
  }
  bench.facts.firstSync = facts;
}

/** ccusage's daily report over the folder, `CCUSAGE_RUNS` times: wall time and peak RSS (GNU time's). */
function runCcusage(home: string): { seconds: ReturnType<typeof summarize>; peakMb: number; days: number } {
  const emptyHome = path.join(DIR, "ccusage-home");
  mkdirSync(emptyHome, { recursive: true });
  const timeFile = path.join(DIR, "ccusage-time.txt");
  const seconds: number[] = [];
  let peakKb = 0;
  let days = 0;
  for (let run = 0; run < CCUSAGE_RUNS; run++) {
    const result = spawnSync(
      "/usr/bin/time",
      ["-o", timeFile, "-f", "%e %M", path.join(root, "node_modules", ".bin", "ccusage"), "daily", "--json", "--offline"],
      { encoding: "utf8", maxBuffer: 64 * MB, env: { ...process.env, CLAUDE_CONFIG_DIR: path.join(home, ".claude"), HOME: emptyHome } },
    );
    if (result.status !== 0) throw new Error(`first-sync: ccusage exited ${result.status}: ${result.stderr.slice(-500)}`);
    const [elapsed, maxRssKb] = readFileSync(timeFile, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
    seconds.push(elapsed!);
    peakKb = Math.max(peakKb, maxRssKb!);
    days = (JSON.parse(result.stdout) as { daily: unknown[] }).daily.length;
  }
  if (days === 0) throw new Error("first-sync: ccusage reported no day: it did not read the folder");
  return { seconds: summarize(seconds), peakMb: peakKb / 1024, days };
}

/**
 * On one database: the first start (until every file is imported, the secret scan has caught up
 * and usage is summed), the group's peak RSS meanwhile, its memory and CPU at rest, search over
 * HTTP, then a restart until its sync has confirmed every file unchanged.
 */
async function measureServer(
  bench: Bench,
  run: { label: string; url: string; home: string; files: number; newestThread: string; ccusageSeconds: number },
): Promise<Record<string, unknown>> {
  const { label, files } = run;
  const record = (name: string, value: number, unit: string, note: string, max?: number) =>
    bench.record({
      section: "first-sync",
      name: `${label}: ${name}`,
      value,
      unit,
      note,
      ...(max !== undefined ? { target: { metric: "ceiling" as const, max } } : {}),
    });

  const first = await startAndSync(run, "first");
  const peakMb = first.peakBytes / MB;
  const firstSeconds = first.syncedMs / 1000;
  const folder = claudeFolder(first.status)!;
  record(
    "first sync, from npm start until all is synced (s)",
    firstSeconds,
    "s",
    `${folder.imported} files imported, ${folder.failed} failed, of ${files}; served after ${(first.servedMs / 1000).toFixed(1)} s; threads, usage and secret scan done`,
  );
  record(
    "first sync: every session listed and searchable, from npm start (s)",
    first.confirmedMs / 1000,
    "s",
    "every file imported; the secret scan and the usage sums, in the line above, run once it is",
  );
  record(
    "first sync over ccusage's time (x)",
    firstSeconds / run.ccusageSeconds,
    "x",
    `target: within ${TARGETS.firstSyncOverCcusage}x of ccusage's report`,
    TARGETS.firstSyncOverCcusage,
  );
  record(
    "newest session readable, from npm start (s)",
    first.newestMs! / 1000,
    "s",
    `its thread answered while the first sync went on (it reads the most recently modified files first); all ${files} files took ${firstSeconds.toFixed(1)} s`,
  );
  record("peak RSS of npm start's process group during the first sync (MB)", peakMb, "MB", "sampled every 100 ms", TARGETS.syncPeakRssMb);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  record(
    "peak RSS of the group, the token counts after the sync included (MB)",
    first.peakSoFar() / MB,
    "MB",
    `sampled every 100 ms until ${SETTLE_SECONDS} s after the sync: the counts of its turns are made then`,
    TARGETS.syncPeakRssMb,
  );
  const rest = await groupAtRest(first.child.pid!, REST_SECONDS);
  record(
    "RSS at rest after the first sync (MB)",
    rest.rssBytes / MB,
    "MB",
    `npm, the start script and Next.js, ${SETTLE_SECONDS} s after the sync; ${(rest.pssBytes / MB).toFixed(0)} MB without counting pages they share twice (PSS)`,
    TARGETS.restRssMb,
  );
  record(
    "CPU at rest, following the folder (% of a core)",
    rest.cpuShareOfCore * 100,
    "%",
    `over ${REST_SECONDS} s with nothing changing`,
    TARGETS.restCpuPercent,
  );
  const search: Record<string, number> = {};
  for (const words of SEARCH_WORDS) {
    const stats = await measure(
      `first-sync search ${words}`,
      () => getBody(first.baseUrl, `/api/search?${new URLSearchParams({ q: words })}`),
      SEARCH_REQUESTS,
      { warmup: 3 },
    );
    search[words] = stats.p95;
    bench.record({
      section: "first-sync",
      name: `${label}: GET /api/search "${words}"`,
      stats,
      target: { metric: "p95", maxMs: TARGETS.syncedSearchP95 },
    });
  }
  await first.stop();

  // Nothing asked of the restarted server but its status: a thread's page loaded meanwhile (its
  // route's modules, on the thread that syncs) was counted as the sync's time.
  const again = await startAndSync(run, "restart", { lookForNewest: false });
  await again.stop();
  const restartFolder = claudeFolder(again.status)!;
  const confirmSeconds = (again.confirmedMs - again.servedMs) / 1000;
  record(
    "restart: from serving until the sync confirmed every file (s)",
    confirmSeconds,
    "s",
    `${restartFolder.unchanged} unchanged, ${restartFolder.imported} imported; ${(again.confirmedMs / 1000).toFixed(1)} s from npm start`,
    TARGETS.restartConfirmSeconds,
  );
  record(
    "restart: from serving until the secret scan and the usage sums had caught up too (s)",
    (again.syncedMs - again.servedMs) / 1000,
    "s",
    "the bench asks the secret scan's progress every 200 ms, then for a usage report: each route's first request loads its modules",
  );
  return {
    firstSyncSeconds: firstSeconds,
    servedSeconds: first.servedMs / 1000,
    peakRssMb: peakMb,
    restRssMb: rest.rssBytes / MB,
    restPssMb: rest.pssBytes / MB,
    restCpuPercent: rest.cpuShareOfCore * 100,
    searchP95Ms: search,
    restartConfirmSeconds: confirmSeconds,
    restartSeconds: again.syncedMs / 1000,
    restartPeakRssMb: again.peakBytes / MB,
    databaseBytes: run.url.startsWith("file:") ? statSync(run.url.slice("file:".length)).size : null,
  };
}

/**
 * `npm start` as a person runs it (HOME holding the folder), in a process group of its own;
 * answers once the server reports the folder synced, the secret scan caught up and usage summed,
 * with the group's peak RSS until then.
 */
async function startAndSync(
  run: { url: string; home: string; files: number; newestThread: string },
  name: string,
  { lookForNewest = true } = {},
): Promise<Started & { peakBytes: number; peakSoFar: () => number }> {
  // THREADLINE_SOURCES names the folder a new user's default would follow on SQLite: on PostgreSQL
  // the default follows nothing.
  const sources = path.join(run.home, ".claude", "projects");
  const server = await startNpmStart(
    { HOME: run.home, THREADLINE_SOURCES: sources, DATABASE_URL: run.url },
    path.join(DIR, `${name}-server.log`),
  );
  try {
    const deadline = Date.now() + SYNC_TIMEOUT_MS;
    let servedMs: number | null = null;
    let status: SourcesStatus | null = null;
    let newestMs: number | null = null;
    for (;;) {
      if (server.exited()) throw new Error(`first-sync: npm start exited (${name}); see ${DIR}`);
      if (Date.now() > deadline) throw new Error(`first-sync: not synced within ${SYNC_TIMEOUT_MS / 60_000} min (${name})`);
      try {
        status = await getJson<SourcesStatus>(server.baseUrl, "/api/sources");
        servedMs ??= performance.now() - server.startedAt;
        if (lookForNewest && newestMs === null && (await getStatus(server.baseUrl, `/api/threads/${run.newestThread}`)) === 200)
          newestMs = performance.now() - server.startedAt;
        if (synced(status)) break;
      } catch (error) {
        if (servedMs !== null) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const confirmedMs = performance.now() - server.startedAt;
    await caughtUp(server.baseUrl, deadline - Date.now()); // the secret scan, then usage's sums
    const syncedMs = performance.now() - server.startedAt;
    const peakBytes = server.peakBytes();
    const seen = claudeFolder(status)!;
    if (seen.imported + seen.unchanged + seen.failed < run.files)
      throw new Error(`first-sync: the sync saw ${seen.imported + seen.unchanged + seen.failed} of ${run.files} files (${name})`);
    if (lookForNewest && newestMs === null && seen.imported > 0)
      throw new Error(`first-sync: the newest session's thread ${run.newestThread} was never found (${name})`);
    return {
      child: server.child,
      baseUrl: server.baseUrl,
      servedMs,
      confirmedMs,
      syncedMs,
      newestMs,
      status,
      stop: server.stop,
      peakBytes,
      peakSoFar: server.peakBytes,
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The followed ~/.claude/projects. */
const claudeFolder = (status: SourcesStatus) => status.folders.find((f) => f.path.endsWith(path.join(".claude", "projects")));

function synced(status: SourcesStatus): boolean {
  const folder = claudeFolder(status);
  return !status.syncing && folder !== undefined && folder.lastSyncAt !== null && folder.state === "watching";
}
