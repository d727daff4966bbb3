// `npm run bench`: fills a fresh SQLite database with a realistic volume of threads and turns,
// starts the production server (`next start`) on it and prints latency and throughput figures for
// the REST API next to their targets. It prints figures; it is not a test (it fails only when the
// setup fails or the append check finds a lost turn).
//
// Results: printed as a table and written to .tmp/bench/results.json.
// Knobs (environment): BENCH_SCALE=0.1 shrinks the fill (threads and turns) for a quick run;
// BENCH_TURNS=1000000 sets the number of turns (one thread per 20 of them);
// BENCH_POSTGRES_URL=postgresql://user:pass@host/postgres runs on PostgreSQL: the fill is copied
// from the SQLite file into a new database threadline_bench on that server (with db:copy's code,
// timed) and the server runs on it; the role must be allowed to create databases;
// BENCH_KEEP_DB=1 leaves the database(s) afterwards (they are deleted by the next run);
// BENCH_ONLY=compaction,import runs those sections only (the fill and server start still happen).
//
// Sections, in the order they run (SECTIONS below): list, search, thread (one big thread), context
// (GET /api/threads/:id/context over chains of 1,000 and 10,000 turns and one thread of 10,000: cold first request, then
// warm), append, compaction (extractive previews and full/window plans), linear-count (10 MB runs
// of one character, CJK and emoji counted by every engine, then posted while the list is read),
// tokenizers (no server: one fresh child process per tokenizer, on a few MB of mixed text),
// import (the import CLI in a child process, on its own database), parsers (OpenCode's, Pi's,
// Copilot CLI's and Aider's real fixtures parsed in this process, no database), sources (a followed folder),
// follow (a followed 20 MB session growing an exchange at a time), live (a line appended to a
// followed session until an open page shows it: a second server following a folder, and Chromium)
// usage (GET /api/usage over a year of sessions, 1,000,000 turns x BENCH_SCALE, on a database
// of its own: the backfill, the reports, an append then a report) and first-sync (`npm start` on a
// fresh database following 2,000 real Claude Code sessions x BENCH_SCALE: first sync, memory, CPU at
// rest, search, restart; ccusage's daily report over the same folder beside it) and restart (`npm
// start` over 20,000 short sessions x BENCH_SCALE synced before: from serving until all are confirmed)
// and push (`threadline push` of the first-sync section's folder to a server with sign-in on: the
// first push, a second that sends nothing, and a line appended while following, until it is a turn).
//
// Layout: config.ts (knobs, targets), generate.ts and fill.ts (the deterministic fill; usage-fill.ts
// the usage section's), store.ts
// (what is asked of the database), server.ts (next start and HTTP), measure.ts, section.ts (what a
// section is handed), sections/*.ts (one file per section), report.ts (the printed tables).
// Adding a measurement: write a section (an async function taking the Bench context) in
// sections/ and add it to SECTIONS; inside, time things with `measure(name, fn, iterations)` and
// record them with `bench.record(...)`, giving a target when there is one.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { copyDatabase, settleCopiedDatabase } from "../../lib/db/engine/copy";
import { createDatabase } from "../../lib/db/engine/create-client";
import { migrateDatabase } from "../../lib/db/engine/migrate";
import { ensureBuild, root } from "../lib.mjs";
import { BENCH_DIR, CONFIG, DB_FILE, DB_URL, KEEP_DB, POSTGRES_ADMIN_URL, RESULTS_FILE, TARGETS } from "./config";
import { DEFAULT_TOKENIZER_ID } from "../../lib/tokenizers/registry";
import { cpuSnapshot, otherCpuPercent } from "./contention";
import { fillDatabase } from "./fill";
import { ResultRow, meets, summarize } from "./measure";
import { TokenizerFacts, chainTurns, machine, printTable, printTokenizerTable } from "./report";
import { Bench, fmtBytes, fmtMs, fmtValue } from "./section";
import { sectionAppend, sectionBigThread, sectionList, sectionSearch } from "./sections/api";
import { sectionCompaction } from "./sections/compaction";
import { sectionFirstSync } from "./sections/first-sync";
import { sectionContext } from "./sections/context";
import { sectionImport } from "./sections/import";
import { sectionLinearCount } from "./sections/linear-count";
import { sectionParsers } from "./sections/parsers";
import { sectionPush } from "./sections/push";
import { sectionRestart } from "./sections/restart";
import { sectionFollow } from "./sections/follow";
import { sectionLive } from "./sections/live";
import { SOURCES_CHILD, sectionSources, sourcesChild } from "./sections/sources";
import { TOKENIZER_CHILD, sectionTokenizers, tokenizerChild } from "./sections/tokenizers";
import { USAGE_CHILD, sectionUsage, usageChild } from "./sections/usage";
import { caughtUp, getBody, killServer, startServer } from "./server";
import { dropPostgresDatabase, freshPostgresDatabase, postgresStore, sqliteStore } from "./store";

/** Run in order against the running server; add new measurements here. */
const SECTIONS: { name: string; run: (bench: Bench) => Promise<void> }[] = [
  { name: "list", run: sectionList },
  { name: "search", run: sectionSearch },
  { name: "thread", run: sectionBigThread },
  { name: "context", run: sectionContext },
  { name: "append", run: sectionAppend },
  { name: "compaction", run: sectionCompaction },
  // Counting pathological texts in this process, then posting them to the server while it is read.
  { name: "linear-count", run: sectionLinearCount },
  // Does not use the server (idle meanwhile): child processes of the bench, one per tokenizer.
  { name: "tokenizers", run: sectionTokenizers },
  // Does not use the server either: the import CLI in a child process, on its own database.
  { name: "import", run: sectionImport },
  { name: "parsers", run: sectionParsers },
  // In this process on the server's database (the server does not follow folders in the bench),
  // then in child processes that follow the folder (by events, then by polling).
  { name: "sources", run: sectionSources },
  // In this process too: a followed session that grows, imported from where the last import stopped.
  { name: "follow", run: sectionFollow },
  // A second server on the same database, following a folder, and a Chromium page on it.
  { name: "live", run: sectionLive },
  // A database of its own (a year of sessions, 1,000,000 turns), a child process for the backfill
  // and a second server on it (then on its PostgreSQL copy with BENCH_POSTGRES_URL).
  { name: "usage", run: sectionUsage },
  // Issue 38's measure: `npm start` (a process group of its own, on a database of its own) with a
  // HOME holding 2,000 Claude Code sessions, first start and restart; ccusage over the same folder.
  { name: "first-sync", run: sectionFirstSync },
  // Issue 38's restart over many files: a folder synced by a child process, then `npm start` on it.
  { name: "restart", run: sectionRestart },
  // Issue 39: a laptop of 2,000 sessions pushed to a server with sign-in on, again, and followed.
  { name: "push", run: sectionPush },
];

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const POSTGRES_BENCH_DB = "threadline_bench";
type CopySummary = { url: string; rows: number; seconds: number };

/** The filled SQLite file copied into a fresh PostgreSQL database, as `npm run db:copy` does it. */
async function copyToPostgres(admin: string): Promise<CopySummary> {
  const url = await freshPostgresDatabase(admin, POSTGRES_BENCH_DB);
  migrateDatabase(url, root);
  console.log(`[bench] copying the fill into PostgreSQL (${new URL(url).host}/${POSTGRES_BENCH_DB})...`);
  const source = createDatabase(DB_URL);
  const destination = createDatabase(url);
  const started = performance.now();
  try {
    const report = await copyDatabase(source, destination);
    const seconds = (performance.now() - started) / 1000;
    const rows = report.reduce((sum, table) => sum + table.rows, 0);
    console.log(`[bench] copied ${rows} rows in ${seconds.toFixed(1)} s`);
    await settleCopiedDatabase(destination); // as npm run db:copy does
    return { url, rows, seconds };
  } finally {
    await Promise.all([source.$disconnect(), destination.$disconnect()]);
  }
}

/** What a request waits while the server counts: a search that finds nothing (7-8 ms at a million turns on a server at rest). */
const WHILE_COUNTING_QUERY = "zebrafish";

/**
 * Waits until the server's count backlog has counted every turn under the default tokenizer,
 * asking a search every 100 ms meanwhile (recorded when there was a backlog); answers the
 * seconds waited.
 */
async function countsCaughtUp(bench: Bench, timeoutMs: number): Promise<number> {
  const started = performance.now();
  const initially = await bench.store.uncountedTurns(DEFAULT_TOKENIZER_ID);
  let left = initially;
  let checkedAt = performance.now();
  const searches: number[] = [];
  while (left > 0) {
    if (performance.now() - started > timeoutMs) throw new Error(`the server had ${left} turns left to count after ${timeoutMs / 1000} s`);
    const asked = performance.now();
    await getBody(bench.baseUrl, `/api/search?q=${WHILE_COUNTING_QUERY}`);
    searches.push(performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (performance.now() - checkedAt >= 2_000) {
      left = await bench.store.uncountedTurns(DEFAULT_TOKENIZER_ID);
      checkedAt = performance.now();
    }
  }
  if (searches.length > 0)
    bench.record({
      section: "search",
      name: `GET /api/search?q=${JSON.stringify(WHILE_COUNTING_QUERY)} while the server counted ${initially} turns' tokens`,
      stats: summarize(searches),
    });
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const info = machine();
  console.log(
    `[bench] machine: ${info.cores} cores, ${info.cpuModel}, ${info.memoryGiB} GiB, node ${info.node}, ${info.platform}, load ${info.loadAverage.join(" ")}`,
  );

  // Require a current production build first: it is the slow, failure-prone step.
  ensureBuild();

  rmSync(BENCH_DIR, { recursive: true, force: true });
  mkdirSync(BENCH_DIR, { recursive: true });
  console.log(`[bench] applying migrations to ${path.relative(root, DB_FILE)}...`);
  migrateDatabase(DB_URL, root);

  console.log(`[bench] filling ${CONFIG.threads} threads / ${CONFIG.turns} turns...`);
  const fill = fillDatabase(DB_FILE);
  const rows: ResultRow[] = [];
  let copied: CopySummary | null = null;
  let store = sqliteStore(DB_FILE);
  if (POSTGRES_ADMIN_URL) {
    copied = await copyToPostgres(POSTGRES_ADMIN_URL);
    store = await postgresStore(copied.url);
  }
  const sizesAfterFill = await store.sizes();
  console.log(
    `[bench] filled in ${fill.seconds.toFixed(1)} s (${Math.round((fill.turns + chainTurns(fill)) / fill.seconds)} turns/s, avg ${fill.avgTurnChars} chars/turn); database ${fmtBytes(sizesAfterFill.fileBytes)}`,
  );

  const bench: Bench = {
    baseUrl: "",
    databaseUrl: store.url,
    store,
    fill,
    facts: {},
    record: (row) => {
      rows.push(row);
      const s = row.stats;
      console.log(
        `[bench] ${row.name}: ${row.value !== undefined ? `${fmtValue(row.value)} ${row.unit} ` : ""}${s ? `p50 ${fmtMs(s.p50)} ms, p95 ${fmtMs(s.p95)} ms (n=${s.count})` : ""}${row.note ? `; ${row.note}` : ""}`,
      );
    },
  };

  console.log("[bench] starting next start...");
  const serverStarted = performance.now();
  const server = await startServer(store.url);
  bench.baseUrl = server.baseUrl;
  const readySeconds = (performance.now() - serverStarted) / 1000;
  console.log(`[bench] server ready at ${server.baseUrl} in ${readySeconds.toFixed(1)} s`);
  const catchUpSeconds = await caughtUp(server.baseUrl, 30 * 60_000);
  console.log(`[bench] the server caught up with the fill (secret scan, usage sums) ${catchUpSeconds.toFixed(1)} s after it served`);
  // The token counts the fill left out: a server counting them answers slower (by 40-50 ms a
  // search at a million turns), and what the sections measure is the server at rest.
  const countedSeconds = await countsCaughtUp(bench, 30 * 60_000);
  console.log(`[bench] the server had counted every turn's tokens ${(catchUpSeconds + countedSeconds).toFixed(1)} s after it served`);
  const contention: Record<string, number | null> = {};
  try {
    const only = process.env.BENCH_ONLY?.split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = only?.filter((name) => !SECTIONS.some((section) => section.name === name)) ?? [];
    if (unknown.length > 0)
      throw new Error(`BENCH_ONLY: no section ${unknown.join(", ")}; sections: ${SECTIONS.map((x) => x.name).join(", ")}`);
    for (const section of SECTIONS.filter((x) => !only || only.includes(x.name))) {
      const before = cpuSnapshot(server.child.pid);
      await section.run(bench);
      contention[section.name] = otherCpuPercent(before, cpuSnapshot(server.child.pid));
    }
  } finally {
    await server.stop();
  }
  const sizesAfterRun = await store.sizes();
  await store.close();

  console.log("");
  console.log(`Threadline bench — ${new Date().toISOString()}`);
  console.log(`Machine:  ${info.cores} cores (${info.cpuModel}), ${info.memoryGiB} GiB RAM, node ${info.node}, ${info.platform}`);
  const busy = info.loadAverage[0]! > info.cores / 2;
  console.log(
    `          load average at start ${info.loadAverage.join(" / ")} (1/5/15 min)${busy ? ": OTHER WORK WAS RUNNING, figures are pessimistic" : ""}`,
  );
  console.log(
    `Data:     ${fill.threads} threads, ${fill.turns} turns (one of ${CONFIG.bigThreadTurns}), avg ${fill.avgTurnChars} chars/turn, ${fmtBytes(fill.contentChars)} of turn text; filled in ${fill.seconds.toFixed(1)} s`,
  );
  console.log(
    `Chains:   ${fill.chains
      .map(
        (c) =>
          `${c.threads} threads x ${c.turnsPerThread} turns (${c.turns} turns, ${fmtBytes(c.contentChars)} of text, ${c.snapshots} file snapshots)`,
      )
      .join("; ")}, linked by parentThreadId, in addition to the above`,
  );
  console.log(
    `Database: ${fmtBytes(sizesAfterFill.fileBytes)} after fill (${Object.entries(sizesAfterFill.objects)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmtBytes(v)}`)
      .join(", ")}); ${fmtBytes(sizesAfterRun.fileBytes)} + ${fmtBytes(sizesAfterRun.walBytes)} WAL after the run`,
  );
  if (copied) {
    console.log(
      `Database: PostgreSQL (${new URL(copied.url).host}); the fill copied into it from SQLite by db:copy's code in ${copied.seconds.toFixed(1)} s (${Math.round(copied.rows / copied.seconds)} rows/s, ${copied.rows} rows, verified by count and checksum)`,
    );
  }
  console.log(`Server:   next start ready in ${readySeconds.toFixed(1)} s; caught up with the fill ${catchUpSeconds.toFixed(1)} s later`);
  const contended = Object.entries(contention).filter(([, v]) => v !== null);
  if (contended.length > 0) {
    const worst = Math.max(...contended.map(([, v]) => v!));
    console.log(
      `Other:    CPU used by other processes while measuring (share of the machine): ${contended.map(([k, v]) => `${k} ${v}%`).join(", ")}${worst >= 15 ? " -- figures are pessimistic; rerun on a quiet machine" : ""}`,
    );
  }
  printTokenizerTable(bench.facts.tokenizers as TokenizerFacts | undefined);
  console.log("");
  printTable(rows);
  const misses = rows.filter((r) => meets(r) === false).map((r) => r.name);
  console.log("");
  console.log(misses.length === 0 ? "All targets met." : `Targets missed: ${misses.join("; ")}`);
  const totalSeconds = (performance.now() - benchStarted) / 1000;
  console.log(`Bench took ${totalSeconds.toFixed(0)} s. Results: ${path.relative(root, RESULTS_FILE)}`);

  writeFileSync(
    RESULTS_FILE,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        machine: info,
        config: CONFIG,
        targets: TARGETS,
        fill,
        database: {
          kind: store.kind,
          afterFill: sizesAfterFill,
          afterRun: sizesAfterRun,
          copiedFromSqlite: copied && { rows: copied.rows, seconds: copied.seconds },
        },
        serverReadySeconds: readySeconds,
        otherCpuPercentBySection: contention,
        results: rows.map((r) => ({ ...r, met: meets(r) })),
        facts: bench.facts,
        totalSeconds,
      },
      null,
      2,
    ) + "\n",
  );
  if (!KEEP_DB) {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(DB_FILE + suffix, { force: true });
    if (POSTGRES_ADMIN_URL) await dropPostgresDatabase(POSTGRES_ADMIN_URL, POSTGRES_BENCH_DB);
  }
  if (bench.facts.appendFailures) {
    console.error("[bench] the append check found lost or inconsistent turns (see above).");
    process.exitCode = 1;
  }
}

const child = process.argv.includes(TOKENIZER_CHILD)
  ? tokenizerChild
  : process.argv.includes(SOURCES_CHILD)
    ? sourcesChild
    : process.argv.includes(USAGE_CHILD)
      ? usageChild
      : null;
(child ?? main)().catch((error: unknown) => {
  console.error("[bench] failed:", error instanceof Error ? (error.stack ?? error.message) : error);
  killServer("SIGKILL");
  process.exit(1);
});
