// Following a folder of agent sessions (lib/sources), on the bench's database: the first sync in
// this process, then a restarted server's, in a fresh child process that goes on following the
// folder (by change events, then by polling) while it is measured.
import { appendFileSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { BENCH_DIR, CONFIG, KEEP_DB } from "../config";
import { Bench, fmtBytes, runBenchChild } from "../section";

export const SOURCES_CHILD = "--sources-child";
const SOURCES_DIR = path.join(BENCH_DIR, "sources");
/** Lines appended while the child follows the folder, one at a time, each waited for. */
const CHANGES = 5;

/** What a child following the folder measured. */
type FollowRun = {
  mode: "events" | "polling";
  /** The first sync of the restarted process: every file unchanged, its watch or poll set up. */
  warmSeconds: number;
  unchanged: number;
  watchMode: string | null;
  inotifyWatches: number | null;
  rssBeforeMb: number;
  rssFollowingMb: number;
  /** The longest the event loop waited, during the first sync and while following unchanged files. */
  blockedStartMs: number;
  blockedFollowingMs: number;
  /** CPU used while following unchanged files, as a share of one core. */
  idleCpuPercent: number;
  /** From a line appended to a session to its turn stored. */
  delaysMs: number[];
};

/**
 * A folder of 10,000 (x BENCH_SCALE, at least 200) real-shaped Claude Code sessions followed as
 * THREADLINE_SOURCES would: the first sync (everything imported), a restarted server's first
 * sync (every file unchanged) and what following the folder costs afterwards, by events and by
 * polling, each in a fresh child process: memory, event-loop pauses, CPU, and how soon an appended
 * line is stored.
 */
export async function sectionSources(bench: Bench): Promise<void> {
  process.env.DATABASE_URL = bench.databaseUrl;
  const { writeRealShapedSessions } = await import("../../../lib/testing/real-shaped-sessions");
  const { createSourceSync } = await import("../../../lib/sources/sync");
  const { importPath } = await import("../../../lib/imports/import-file");
  const dir = SOURCES_DIR;
  rmSync(dir, { recursive: true, force: true });
  try {
    const count = Math.max(200, Math.round(CONFIG.followedFiles * CONFIG.scale));
    const { files, bytes } = writeRealShapedSessions(dir, count);
    let read = 0;
    const following = () =>
      createSourceSync({
        setting: () => ({ origin: "setting", folders: [dir], warnings: [] }),
        log: () => undefined,
        importFile: (file) => (read++, importPath(file)),
      });
    const timed = async (sync: ReturnType<typeof following>) => {
      const started = performance.now();
      const status = await sync.sync();
      return { seconds: (performance.now() - started) / 1000, folder: status.folders[0]! };
    };

    const first = await timed(following());
    if (first.folder.imported !== count) throw new Error(`sources: the first sync imported ${first.folder.imported} of ${count} files`);
    bench.record({
      section: "sources",
      name: `first sync of a folder of ${count} sessions (files/s)`,
      value: count / first.seconds,
      unit: "files/s",
      note: `${fmtBytes(bytes)} in ${first.seconds.toFixed(1)} s`,
    });

    const again = following();
    appendFileSync(files[0]!, readFileSync(files[0]!, "utf8").split("\n")[0] + "\n");
    read = 0;
    const grown = await timed(again);
    if (read !== 1) throw new Error(`sources: after one file grew the sync read ${read} files`);
    bench.record({
      section: "sources",
      name: `a full sync after one of ${count} sessions grew (s)`,
      value: grown.seconds,
      unit: "s",
      note: "that file read again whole; every other one only stat'ed (a new sync on the same database)",
    });

    const events = await runFollowChild(bench.databaseUrl, "events");
    const polling = await runFollowChild(bench.databaseUrl, "polling");
    for (const run of [events, polling])
      if (run.unchanged !== count)
        throw new Error(`sources: a restarted ${run.mode} sync found ${run.unchanged} of ${count} files unchanged`);
    bench.record({
      section: "sources",
      name: `first sync after a restart, ${count} files unchanged (s)`,
      value: events.warmSeconds,
      unit: "s",
      // The target: 10,000 unchanged files in under 1 s. A smaller folder has none: a fresh
      // process's first queries cost about 0.1 s whatever the number of files.
      ...(count >= 10_000 ? { target: { metric: "ceiling" as const, max: 1 } } : {}),
      note: `a fresh process on the same database, watches set up (${events.inotifyWatches ?? "?"} inotify watches); none read. Polling: ${polling.warmSeconds.toFixed(2)} s`,
    });
    bench.record({
      section: "sources",
      name: `RSS of a process following ${count} files (MB)`,
      value: events.rssFollowingMb,
      unit: "MB",
      target: { metric: "ceiling", max: 300 },
      note: `${events.rssBeforeMb} MB before its first sync (Prisma client and importers loaded). Polling: ${polling.rssFollowingMb} MB`,
    });
    for (const run of [events, polling]) {
      const sorted = [...run.delaysMs].sort((a, b) => a - b);
      bench.record({
        section: "sources",
        name: `${run.mode === "events" ? "watching" : "polling"}: a line appended to one of ${count} sessions, stored (s, median of ${sorted.length})`,
        value: sorted[Math.floor(sorted.length / 2)]! / 1000,
        unit: "s",
        note: `max ${(sorted.at(-1)! / 1000).toFixed(2)} s; while following unchanged files: ${run.idleCpuPercent.toFixed(1)}% of a core, event loop blocked at most ${run.blockedFollowingMs.toFixed(0)} ms (during the first sync ${run.blockedStartMs.toFixed(0)} ms)`,
      });
    }
  } finally {
    if (!KEEP_DB) rmSync(dir, { recursive: true, force: true });
  }
}

function runFollowChild(databaseUrl: string, mode: FollowRun["mode"]): Promise<FollowRun> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, THREADLINE_SOURCES_POLL: mode === "polling" ? "1" : "" };
  return runBenchChild<FollowRun>([SOURCES_CHILD, mode], `sources child (${mode})`, env);
}

/** inotify watches this process holds (Linux), or null. */
function inotifyWatches(): number | null {
  try {
    let count = 0;
    for (const fd of readdirSync("/proc/self/fd")) {
      let target = "";
      try {
        target = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        continue;
      }
      if (target === "anon_inode:inotify")
        count += readFileSync(`/proc/self/fdinfo/${fd}`, "utf8")
          .split("\n")
          .filter((l) => l.startsWith("inotify wd")).length;
    }
    return count;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Child process: a restarted server's sync, then following the folder; prints a FollowRun as JSON. */
export async function sourcesChild(): Promise<void> {
  const mode = process.argv[process.argv.indexOf(SOURCES_CHILD) + 1] as FollowRun["mode"];
  const { createSourceSync } = await import("../../../lib/sources/sync");
  const { importPath } = await import("../../../lib/imports/import-file");
  const { db } = await import("../../../lib/db/engine/client");
  await db(); // a server has its client before the first sync starts
  // The longest wait of a timer due every 2 ms: how long the event loop was kept from anything else.
  let blocked = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const at = performance.now();
    blocked = Math.max(blocked, at - last);
    last = at;
  }, 2);
  const stored = new Map<string, number>();
  const sync = createSourceSync({
    watch: true,
    setting: () => ({ origin: "setting", folders: [SOURCES_DIR], warnings: [] }),
    log: () => undefined,
    importFile: async (file) => {
      // As the server's sync imports a followed file (from where its last import stopped).
      const report = await importPath(file, file, undefined, { follow: true });
      stored.set(file, performance.now());
      return report;
    },
  });
  const rssBeforeMb = Math.round(process.memoryUsage().rss / 1e6);
  const started = performance.now();
  const status = await sync.sync();
  const warmSeconds = (performance.now() - started) / 1000;
  const blockedStartMs = blocked;
  const folder = status.folders[0]!;

  // Following unchanged files: 6 s with the ticker (three polls when polling), then 10 s without
  // it, for the CPU used.
  await sleep(500);
  blocked = 0;
  await sleep(6_000);
  const blockedFollowingMs = blocked;
  clearInterval(ticker);
  const cpu = process.cpuUsage();
  const idleStarted = performance.now();
  await sleep(10_000);
  const used = process.cpuUsage(cpu);
  const idleCpuPercent = ((used.user + used.system) / 1000 / (performance.now() - idleStarted)) * 100;
  const rssFollowingMb = Math.round(process.memoryUsage().rss / 1e6);
  const watches = inotifyWatches();

  const sessions = readdirSync(SOURCES_DIR, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => path.join(SOURCES_DIR, name));
  const delaysMs: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const file = sessions[Math.floor((i + 0.5) * (sessions.length / CHANGES))]!;
    const line = readFileSync(file, "utf8").split("\n")[0]!;
    stored.delete(file);
    const at = performance.now();
    appendFileSync(file, `${line}\n`);
    while (!stored.has(file) && performance.now() - at < 30_000) await sleep(5);
    if (!stored.has(file)) throw new Error(`${mode}: a line appended to ${file} was not stored within 30 s`);
    delaysMs.push(stored.get(file)! - at);
    await sleep(1500);
  }
  await sync.close();
  const run: FollowRun = {
    mode,
    warmSeconds,
    unchanged: folder.unchanged,
    watchMode: folder.watchMode,
    inotifyWatches: watches,
    rssBeforeMb,
    rssFollowingMb,
    blockedStartMs,
    blockedFollowingMs,
    idleCpuPercent,
    delaysMs,
  };
  process.stdout.write(`${JSON.stringify(run)}\n`);
  process.exit(0);
}
