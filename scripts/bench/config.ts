// The bench's knobs (environment) and fixed figures: sizes, targets, where results go.
import path from "node:path";
import { root } from "../lib.mjs";

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------

const SCALE = Math.min(1, Math.max(0.01, Number(process.env.BENCH_SCALE ?? "1") || 1));
export const KEEP_DB = process.env.BENCH_KEEP_DB === "1";
const TURNS = process.env.BENCH_TURNS ? Math.max(10_000, Math.round(Number(process.env.BENCH_TURNS))) : Math.round(200_000 * SCALE);
export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL?.trim() || null;

export const CONFIG = {
  seed: 20261122,
  threads: process.env.BENCH_TURNS ? Math.round(TURNS / 20) : Math.round(10_000 * SCALE),
  turns: TURNS,
  /** At most half the turns: at BENCH_SCALE=0.01 the other threads' turns would be none, and turnCounts would never end. */
  bigThreadTurns: Math.min(2_000, Math.floor(TURNS / 2)),
  /** Appends: WRITERS concurrent clients, each posting TURNS_PER_WRITER turns. */
  writers: 16,
  turnsPerWriter: 100,
  /** Timed iterations per measurement (after WARMUP untimed ones). */
  iterations: { list: 200, listPage2: 100, search: 40, filteredSearch: 20, bigThread: 40, compaction: 20 },
  warmup: 5,
  /** Must exceed writers x turnsPerWriter for the one-thread append run. */
  maxConversationTurns: 100_000,
  /**
   * Chains for the context preview: threads linked by parentThreadId, oldest first, measured from
   * the last one (the history builder walks at most 20 threads). Not scaled by BENCH_SCALE. The
   * last is one thread of 10,000 turns (issue 38: a preview of one long thread, not only of a
   * long chain); the appends are measured on it.
   */
  chains: [
    { label: "1k", threads: 10, turnsPerThread: 100 },
    { label: "10k", threads: 20, turnsPerThread: 500 },
    { label: "10k-thread", threads: 1, turnsPerThread: 10_000 },
  ],
  /** Share of chain user turns naming files that also store a snapshot of the first one. */
  chainSnapshotChance: 0.1,
  /** Warm context previews per chain and mode (after 2 untimed ones). */
  contextIterations: 20,
  /** Mixed text for tokenizer throughput: generated turns plus the repository's code, in bytes. */
  tokenizerTextBytes: 3_000_000,
  /** Size of the generated Claude Code session the import CLI reads (scaled by BENCH_SCALE). */
  importBytes: Math.round(200_000_000 * SCALE),
  /** Small Claude Code sessions imported against one file of the same bytes (times `scale`, at least 100). */
  smallImportFiles: 1_000,
  /** Claude Code sessions in the folder the first-sync section starts `npm start` on (times `scale`, at least 20). */
  firstSyncSessions: 2_000,
  /** Short Claude Code sessions (10 KB each) a restart confirms unchanged in the restart section (times `scale`, at least 200). */
  restartFiles: 20_000,
  /** Sessions in the folder the sources section follows (times `scale`, at least 200). */
  followedFiles: 10_000,
  /**
   * The usage section's own database: a year of sessions (1,000,000 turns in 5,000 threads at
   * BENCH_SCALE=1), and timed reports per measurement (after 3 untimed ones).
   */
  usageTurns: Math.round(1_000_000 * SCALE),
  usageThreads: Math.max(20, Math.round(5_000 * SCALE)),
  usageIterations: 40,
  /** Appends to a session, each followed by a report. */
  usageAppends: 20,
  scale: SCALE,
} as const;

/** Search queries, from common to absent; selectivity is measured after the fill and printed. */
export const SEARCH_TERMS = [
  { label: "common word", q: "error" },
  { label: "medium word", q: "migration" },
  { label: "rare word", q: "idempotency" },
  { label: "two words (AND)", q: "kubernetes ingress" },
  { label: "planted identifier", q: "flakyLeaseRenewal" },
  { label: "no match", q: "zebrafish" },
] as const;
/** The list's filters a search is measured with: a rarer model, a rarer tool. */
export const SEARCH_FILTERS = ["model=o3", "tool=secaudit"] as const;
/** Reported separately, without a target: what a search-as-you-type box sends first. */
export const STRESS_SEARCH_TERMS = [{ label: "one-letter prefix", q: "s" }] as const;
/** How many turns carry the planted identifier. */
export const PLANTED_TURNS = 12;

export const TARGETS = {
  listP50: 50,
  searchP50: 200,
  /** Issue 38: a search p95 under 100 ms at a million turns (50 ms over 2,000 Claude Code sessions), both databases. */
  searchFilteredP95: 100,
  searchHitsP95: 100,
  bigThreadP50: 150,
  /** Warm GET /api/threads/:id/context over the 10,000-turn chain. */
  /** A preview of a 10,000-turn chain: p50 under this, and at most contextRatio times a 10-turn thread's. */
  contextP50: 15,
  contextRatio: 3,
  /** A preview of a 1,000-turn chain. */
  context1kP50: 5,
  /** o200k_base counting, MB of UTF-8 per second on one core. */
  o200kMbPerSecond: 4,
  /** `npm run import` of a generated 200 MB Claude Code session. */
  importMbPerSecond: 20,
  importPeakRssMb: 400,
  /** An extractive compaction preview of the 2,000-turn thread. */
  compactionP50: 500,
  /** Issue 38, over the first-sync section's folder: the first sync within this many times ccusage's daily report. */
  firstSyncOverCcusage: 10,
  /** The summed RSS of `npm start`'s process group during the first sync, and at rest after it. */
  syncPeakRssMb: 400,
  restRssMb: 250,
  /** "No measurable CPU" while nothing changes: under 1% of a core. */
  restCpuPercent: 1,
  syncedSearchP95: 50,
  /** A restart's sync confirming every file unchanged, from the moment the server answers. */
  restartConfirmSeconds: 1.5,
  /** The same over 20,000 files. */
  restartManyConfirmSeconds: 10,
  /** GET /api/usage?groupBy=day over a year of data (1,000,000 turns). */
  usageDayP50: 100,
  /** GET /api/insights for 30 days and for all time over a year of data (1,000,000 turns). */
  insightsP50: 100,
} as const;

export const BENCH_DIR = path.join(root, ".tmp", "bench");
export const DB_FILE = path.join(BENCH_DIR, "bench.db");
export const DB_URL = `file:${DB_FILE}`;
export const SERVER_LOG = path.join(BENCH_DIR, "server.log");
export const RESULTS_FILE = path.join(BENCH_DIR, "results.json");
