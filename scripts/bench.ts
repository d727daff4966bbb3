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
// Sections: list, search, one big thread, context previews (GET /api/threads/:id/context over
// chains of 1,000 and 10,000 turns: cold first request, then warm), appends, pathological turns
// (linear-count: 10 MB runs of one character, CJK and emoji counted by every engine, then posted
// while the list is read; BENCH_ONLY=linear-count runs it alone), and tokeniser throughput (no
// server: one fresh child process per tokenizer, on a few MB of mixed text).
//
// Adding a measurement: write a section (an async function taking the Bench context) and add it
// to SECTIONS; inside, time things with `measure(name, fn, iterations)` and record them with
// `bench.record(...)`, giving a target when there is one.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import pg from "pg";
import { copyDatabase, settleCopiedDatabase } from "../lib/db/copy";
import { createDatabase } from "../lib/db/create-client";
import { containsPattern, toTsQuery, TURN_TSVECTOR } from "../lib/db/dialect";
import { migrateDatabase } from "../lib/db/migrate";
import { searchTerms, toFtsMatch } from "../lib/domain/search";
import { titleFromContent } from "../lib/domain/title";
import { estimateTokens } from "../lib/domain/tokens";
import type { TurnPart } from "../lib/domain/types";
import { makeRng } from "../lib/testing/rng";
import { ensureBuild, root } from "./lib.mjs";

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------

const SCALE = Math.min(1, Math.max(0.01, Number(process.env.BENCH_SCALE ?? "1") || 1));
const KEEP_DB = process.env.BENCH_KEEP_DB === "1";
const TURNS = process.env.BENCH_TURNS ? Math.max(10_000, Math.round(Number(process.env.BENCH_TURNS))) : Math.round(200_000 * SCALE);
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL?.trim() || null;

const CONFIG = {
  seed: 20261122,
  threads: process.env.BENCH_TURNS ? Math.round(TURNS / 20) : Math.round(10_000 * SCALE),
  turns: TURNS,
  bigThreadTurns: 2_000,
  /** Appends: WRITERS concurrent clients, each posting TURNS_PER_WRITER turns. */
  writers: 16,
  turnsPerWriter: 100,
  /** Timed iterations per measurement (after WARMUP untimed ones). */
  iterations: { list: 200, listPage2: 100, search: 40, bigThread: 40, compaction: 20 },
  warmup: 5,
  /** Must exceed writers x turnsPerWriter for the one-thread append run. */
  maxConversationTurns: 100_000,
  /**
   * Chains for the context preview: threads linked by parentThreadId, oldest first, measured from
   * the last one (the history builder walks at most 20 threads). Not scaled by BENCH_SCALE.
   */
  chains: [
    { label: "1k", threads: 10, turnsPerThread: 100 },
    { label: "10k", threads: 20, turnsPerThread: 500 },
  ],
  /** Share of chain user turns naming files that also store a snapshot of the first one. */
  chainSnapshotChance: 0.1,
  /** Warm context previews per chain and mode (after 2 untimed ones). */
  contextIterations: 20,
  /** Mixed text for tokenizer throughput: generated turns plus the repository's code, in bytes. */
  tokenizerTextBytes: 3_000_000,
  /** Size of the generated Claude Code session the import CLI reads (scaled by BENCH_SCALE). */
  importBytes: Math.round(200_000_000 * SCALE),
} as const;

/** Search queries, from common to absent; selectivity is measured after the fill and printed. */
const SEARCH_TERMS = [
  { label: "common word", q: "error" },
  { label: "medium word", q: "migration" },
  { label: "rare word", q: "idempotency" },
  { label: "two words (AND)", q: "kubernetes ingress" },
  { label: "planted identifier", q: "flakyLeaseRenewal" },
  { label: "no match", q: "zebrafish" },
] as const;
/** Reported separately, without a target: what a search-as-you-type box sends first. */
const STRESS_SEARCH_TERMS = [{ label: "one-letter prefix", q: "s" }] as const;
/** How many turns carry the planted identifier. */
const PLANTED_TURNS = 12;

const TARGETS = {
  listP50: 50,
  searchP50: 200,
  bigThreadP50: 150,
  /** Warm GET /api/threads/:id/context over the 10,000-turn chain. */
  contextP50: 150,
  /** o200k_base counting, MB of UTF-8 per second on one core. */
  o200kMbPerSecond: 4,
  /** `npm run import` of a generated 200 MB Claude Code session. */
  importMbPerSecond: 20,
  importPeakRssMb: 400,
  /** An extractive compaction preview of the 2,000-turn thread. */
  compactionP50: 500,
} as const;

const BENCH_DIR = path.join(root, ".tmp", "bench");
const DB_FILE = path.join(BENCH_DIR, "bench.db");
const DB_URL = `file:${DB_FILE}`;
const SERVER_LOG = path.join(BENCH_DIR, "server.log");
const RESULTS_FILE = path.join(BENCH_DIR, "results.json");

// ---------------------------------------------------------------------------------------------
// Measurement helpers
// ---------------------------------------------------------------------------------------------

export type Stats = { count: number; p50: number; p95: number; min: number; max: number; mean: number };

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function summarize(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

export type Measured = Stats & { samples: number[] };

/**
 * Runs `fn` `warmup` times untimed, then `iterations` times one after another, timing each call
 * (milliseconds, wall clock).
 */
export async function measure(
  name: string,
  fn: (iteration: number) => Promise<unknown>,
  iterations: number,
  { warmup = CONFIG.warmup }: { warmup?: number } = {},
): Promise<Measured> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    try {
      await fn(i);
    } catch (error) {
      throw new Error(`${name}: iteration ${i} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    samples.push(performance.now() - started);
  }
  return { ...summarize(samples), samples };
}

type Target = { metric: "p50" | "p95"; maxMs: number } | { metric: "rate"; min: number } | { metric: "ceiling"; max: number };

export type ResultRow = {
  section: string;
  name: string;
  /** Latency figures in ms. */
  stats?: Stats;
  /** A single figure (e.g. a rate) with its unit. */
  value?: number;
  unit?: string;
  target?: Target;
  /** Free-form detail shown after the figures (selectivity, bytes, ...). */
  note?: string;
};

function meets(row: ResultRow): boolean | null {
  const t = row.target;
  if (!t) return null;
  if (t.metric === "rate") return row.value !== undefined && row.value >= t.min;
  if (t.metric === "ceiling") return row.value !== undefined && row.value < t.max;
  return row.stats !== undefined && row.stats[t.metric] < t.maxMs;
}

// ---------------------------------------------------------------------------------------------
// Deterministic data generation
// ---------------------------------------------------------------------------------------------


const rng = makeRng(CONFIG.seed);
const int = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const chance = (p: number) => rng() < p;
function pick<T>(items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}
function gaussian(): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Samples items with Zipf-like frequencies: the item at rank r has weight 1 / r^s. */
function zipfSampler(items: readonly string[], s = 1): () => string {
  const cdf = new Float64Array(items.length);
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += 1 / Math.pow(i + 1, s);
    cdf[i] = total;
  }
  return () => {
    const u = rng() * total;
    let lo = 0;
    let hi = items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]!;
  };
}

const FUNCTION_WORDS = `the to and a of in is that it for this we on with be as you not when if are but from can so or at by
then all an should will there which one our now only also still into each after before because just more here than what why
how does do has have was were i me my your they them these those some any no yes would could might need make see use get set
run first new other same every both while until without over again about under where`.split(/\s+/);

const CONTENT_WORDS = `function request test file value config server data user type call return state cache token session query
build update change response client handler module route database schema index thread turn model version path check log timeout
retry async promise event queue worker job api field string number object array list import export default component render hook
effect props memory leak stack trace exception null undefined fix bug issue patch commit branch merge review deploy release
pipeline container image docker pod service cluster node network socket connection pool transaction lock table column row key
constraint foreign join select insert delete refresh auth authentication authorization password hash encrypt secret permission
role scope header cookie cors proxy latency throughput benchmark profile metric alert dashboard monitor span parser lexer compiler
bundle webpack vite typescript javascript python rust golang regex unicode encoding buffer stream pipe backpressure debounce
throttle pagination cursor offset limit sort filter search fulltext tokenizer embedding vector prompt completion context window
temperature streaming backoff jitter circuit breaker fallback feature flag rollout canary rollback snapshot fixture mock stub spy
assertion coverage flaky race deadlock mutex semaphore atomic consistency replica shard partition vacuum checkpoint fsync
performance regression slow fast memory cpu disk latency benchmark allocation garbage collector heap closure scope variable
constant interface generic union literal enum class method property getter setter constructor inheritance composition pattern
factory singleton adapter observer middleware controller view template layout style theme dark light mobile responsive browser
chrome firefox safari accessibility keyboard focus screen reader label button input form validation error warning message
notification email queue scheduler cron interval retry idempotent duplicate ordering delivery webhook payload signature verify
certificate tls https domain dns cdn edge region zone latency outage incident postmortem runbook oncall escalation severity
customer tenant billing invoice subscription plan quota usage rate limiter abuse spam captcha login logout signup onboarding
profile avatar upload download storage bucket object blob archive compress gzip brotli json yaml toml csv parquet schema
contract openapi graphql grpc protobuf serialization deserialization marshal unmarshal endpoint resource collection item detail
summary report export import sync async await callback thenable generator iterator reducer selector store action dispatch
mutation subscription resolver loader prefetch hydration suspense boundary fallback server client edge runtime lambda function
cold start warm provisioned concurrency container orchestration helm chart manifest secret configmap volume mount probe readiness
liveness sidecar mesh envoy nginx apache caddy traefik haproxy balancer upstream downstream gateway terraform ansible pulumi
module provider resource state drift plan apply destroy workspace backend remote local environment variable secret vault key
rotation expiry ttl eviction lru lfu hit miss warmup invalidation stale fresh revalidate etag conditional header range chunk
multipart boundary upload resume retry progress cancel abort signal controller timeout deadline budget`.split(/\s+/);

const VERBS = `load save parse build fetch read write send handle create update delete find resolve validate normalize merge split
format render compute apply check ensure retry flush open close start stop reset refresh sync encode decode map filter reduce
collect emit dispatch register schedule`.split(/\s+/);
const NOUNS = `Session Token Config Header Request Response User Thread Turn Model Cache Queue Job Event Handler Route Schema Index
Cursor Page Result Error Record Entry Buffer Stream Payload Message Context Options Settings State Store Client Server Pool
Connection Transaction Lock Lease Snapshot Manifest Bundle Chunk Span Metric Report Invoice Tenant Plan Quota`.split(/\s+/);
const QUALIFIERS = ["", "", "", "Async", "Sync", "Batch", "Local", "Remote", "Cached", "Pending", "Next", "Last", "Default"];

/** camelCase identifiers for the long tail of the vocabulary (code, inline code). */
const IDENTIFIERS = (() => {
  const out = new Set<string>();
  for (const verb of VERBS) for (const noun of NOUNS) for (const q of QUALIFIERS.slice(3, 6)) out.add(`${verb}${q}${noun}`);
  for (const verb of VERBS) for (const noun of NOUNS) out.add(`${verb}${noun}`);
  const list = [...out];
  // A fixed shuffle so that no verb dominates the frequent end.
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list.slice(0, 1800);
})();

/** Search terms put at chosen frequency ranks so that their selectivity is known in advance. */
const PLACED_WORDS: [string, number][] = [
  ["error", 14],
  ["migration", 300],
  ["kubernetes", 700],
  ["ingress", 900],
  ["idempotency", 2000],
];

const VOCABULARY = (() => {
  const placed = new Set(PLACED_WORDS.map(([w]) => w));
  const words = [...new Set([...FUNCTION_WORDS, ...CONTENT_WORDS, ...IDENTIFIERS])].filter((w) => !placed.has(w));
  for (const [w, rank] of [...PLACED_WORDS].sort((a, b) => a[1] - b[1])) words.splice(Math.min(rank, words.length), 0, w);
  return words;
})();

const word = zipfSampler(VOCABULARY, 1.0);
const identifier = zipfSampler(IDENTIFIERS, 0.9);

const DIRS = ["auth", "api", "db", "billing", "search", "jobs", "ui", "lib", "workers", "infra", "payments", "sync", "cli"];
const FILES = ["session", "tokens", "client", "handler", "router", "schema", "queue", "retry", "index", "config", "migrate", "cache", "store"];
const EXTS = ["ts", "ts", "ts", "tsx", "py", "go", "rs", "sql"];
const filePath = () => `src/${pick(DIRS)}/${pick(FILES)}.${pick(EXTS)}`;

const OPENERS = [
  "Why does the",
  "Can you review the",
  "How do I fix the",
  "Please analyze the",
  "What causes the",
  "Help me debug the",
  "Is it safe to change the",
  "Explain how the",
  "Compare two ways to handle the",
  "Plan the refactor of the",
  "Write tests for the",
  "Audit the",
];
const TITLE_TEMPLATES = [
  (a: string, b: string) => `Fix ${a} in ${b}`,
  (a: string, b: string) => `Review ${a} ${b} changes`,
  (a: string, b: string) => `Investigate ${a} ${b} regression`,
  (a: string, b: string) => `Plan: ${a} to ${b}`,
  (a: string, b: string) => `${a} vs ${b}`,
  (a: string, b: string) => `Debug intermittent ${a} ${b}`,
  (a: string) => `Security audit of ${a}`,
  (a: string) => `Tests for ${a}`,
];

function sentence(min: number, max: number, end = "."): string {
  const n = int(min, max);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng();
    if (r < 0.04) parts.push(`\`${identifier()}\``);
    else if (r < 0.06) parts.push(`\`${filePath()}\``);
    else parts.push(word());
  }
  const text = parts.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1) + end;
}

const paragraph = (min: number, max: number) => Array.from({ length: int(min, max) }, () => sentence(6, 16)).join(" ");

function codeLine(): string {
  const r = rng();
  if (r < 0.35) return `const ${identifier()} = await ${identifier()}(${word()}, ${identifier()});`;
  if (r < 0.55) return `if (!${identifier()}) throw new Error("${word()} ${word()} ${word()}");`;
  if (r < 0.7) return `// ${sentence(4, 10, "")}`;
  if (r < 0.85) return `return ${identifier()}.${identifier()}({ ${word()}: ${int(1, 5000)} });`;
  return `${identifier()}(${identifier()}, "${filePath()}");`;
}

function codeBlock(): string {
  const lang = pick(["ts", "ts", "python", "sql", "bash", "go"]);
  const lines = Array.from({ length: int(3, 9) }, codeLine);
  return "```" + lang + "\n" + lines.join("\n") + "\n```";
}

/** A source file as a turn could have snapshotted it (40-160 lines, indented blocks). */
function sourceFile(): string {
  const lines: string[] = [`// ${sentence(4, 10, "")}`, ""];
  for (let i = int(40, 160); i > 0; i--) lines.push((chance(0.6) ? "  " : "") + (chance(0.08) ? "" : codeLine()));
  return lines.join("\n") + "\n";
}

function userContent(): string {
  const question = sentence(5, 14, "?");
  let text = `${pick(OPENERS)} ${question.charAt(0).toLowerCase()}${question.slice(1)}`;
  if (chance(0.5)) text += ` See \`${filePath()}\`.`;
  if (chance(0.7)) text += " " + paragraph(1, 3);
  if (chance(0.1)) text += "\n\n" + codeBlock();
  return text;
}

function assistantContent(): string {
  const blocks: string[] = [];
  if (chance(0.3)) blocks.push(`## ${sentence(2, 6, "")}`);
  blocks.push(paragraph(1, 3));
  if (chance(0.5)) {
    blocks.push(Array.from({ length: int(2, 5) }, () => `- **${word()}**: ${sentence(4, 12)}`).join("\n"));
  }
  if (chance(0.3)) blocks.push(codeBlock());
  if (chance(0.4)) blocks.push(paragraph(1, 2));
  return blocks.join("\n\n");
}

function toolContent(): string {
  const lines = Array.from({ length: int(3, 8) }, () => {
    const level = pick(["INFO", "INFO", "WARN", "ERROR", "DEBUG"]);
    return `[${level}] ${identifier()}: ${sentence(4, 10, "")}`;
  });
  return "```\n" + lines.join("\n") + "\n```";
}

const systemContent = () => `You are a careful ${word()} assistant. ${paragraph(1, 2)}`;

const THREAD_TOOLS = ["chat", "chat", "chat", "analyze", "codereview", "debug", "thinkdeep", "planner", "consensus", "precommit", "refactor", "testgen", "secaudit"];
const MODELS: { provider: string; name: string }[] = [
  { provider: "anthropic", name: "claude-sonnet-4-5" },
  { provider: "anthropic", name: "claude-opus-4-1" },
  { provider: "openai", name: "gpt-5" },
  { provider: "openai", name: "o3" },
  { provider: "openai", name: "gpt-4o-mini" },
  { provider: "google", name: "gemini-2.5-pro" },
  { provider: "google", name: "gemini-2.5-flash" },
  { provider: "xai", name: "grok-4" },
  { provider: "openrouter", name: "deepseek-r1" },
];
const MODEL_WEIGHTS = zipfSampler(MODELS.map((_, i) => String(i)), 0.8);
const pickModel = () => MODELS[Number(MODEL_WEIGHTS())]!;

/** The adapter's stored text form of a DateTime: ISO 8601 with "+00:00" instead of "Z". */
const stored = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/** Turn counts per thread: skewed (many short threads, a few long ones), summing to `total`. */
function turnCounts(threads: number, total: number, bigIndex: number, big: number): number[] {
  const counts = Array.from({ length: threads }, () => Math.min(400, Math.max(1, Math.round(Math.exp(Math.log(12) + gaussian() * 0.85)))));
  counts[bigIndex] = 0;
  const rest = total - big;
  const sum = counts.reduce((a, b) => a + b, 0);
  for (let i = 0; i < threads; i++) if (i !== bigIndex) counts[i] = Math.max(1, Math.round((counts[i]! * rest) / sum));
  let diff = rest - counts.reduce((a, b) => a + b, 0);
  while (diff !== 0) {
    const i = Math.floor(rng() * threads);
    if (i === bigIndex) continue;
    if (diff > 0 && counts[i]! < big - 1) {
      counts[i]! += 1;
      diff -= 1;
    } else if (diff < 0 && counts[i]! > 1) {
      counts[i]! -= 1;
      diff += 1;
    }
  }
  counts[bigIndex] = big;
  return counts;
}

type ChainSummary = {
  label: string;
  threads: number;
  turnsPerThread: number;
  turns: number;
  /** Oldest first; the last is the one previews are asked for. */
  threadIds: string[];
  lastThreadId: string;
  snapshots: number;
  contentChars: number;
};

type FillSummary = {
  /** The main fill (chains not included). */
  threads: number;
  turns: number;
  bigThreadId: string;
  contentChars: number;
  avgTurnChars: number;
  /** Extra threads, linked into chains, added after the main fill. */
  chains: ChainSummary[];
  seconds: number;
};

/**
 * Fills the database with better-sqlite3 directly: one transaction, prepared statements, the same
 * columns and stored formats as the app's writes. The FTS triggers index the turns as they go in.
 */
function fillDatabase(file: string): FillSummary {
  const started = performance.now();
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -262144");
  const insertThread = sqlite.prepare(
    `INSERT INTO "Thread" ("id", "parentThreadId", "title", "toolName", "initialContext", "metadata", "source", "createdAt", "lastUpdatedAt", "expiresAt", "turnCount", "tokenEstimate", "modelsUsed")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTurn = sqlite.prepare(
    `INSERT INTO "Turn" ("id", "threadId", "index", "role", "content", "timestamp", "files", "images", "toolName", "modelProvider", "modelName", "modelMetadata", "parts", "tokenEstimate")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSnapshot = sqlite.prepare(`INSERT INTO "FileSnapshot" ("turnSeq", "position", "path", "content") VALUES (?, ?, ?, ?)`);

  const bigIndex = Math.floor(CONFIG.threads / 2);
  const counts = turnCounts(CONFIG.threads, CONFIG.turns, bigIndex, CONFIG.bigThreadTurns);
  const planted = new Set<number>();
  while (planted.size < Math.min(PLANTED_TURNS, CONFIG.turns)) planted.add(Math.floor(rng() * CONFIG.turns));

  const now = Date.now();
  const spanMs = 120 * 24 * 3_600_000;
  const firstCreated = now - spanMs - 3 * 24 * 3_600_000;
  const ids: string[] = [];
  let bigThreadId = "";
  let turnOrdinal = 0;
  let contentChars = 0;

  const fill = sqlite.transaction(() => {
    for (let t = 0; t < CONFIG.threads; t++) {
      const id = randomUUID();
      ids.push(id);
      if (t === bigIndex) bigThreadId = id;
      const toolName = pick(THREAD_TOOLS);
      const threadModels = Array.from({ length: chance(0.7) ? 1 : int(2, 3) }, pickModel);
      const createdAt = firstCreated + Math.floor((t / CONFIG.threads) * spanMs) + int(0, 600_000);
      const count = counts[t]!;
      const stepMs = t === bigIndex ? 60_000 : int(5_000, 300_000);
      const startsWithSystem = chance(0.05);

      let ts = createdAt;
      let title: string | null = chance(0.3) ? pick(TITLE_TEMPLATES)(word(), pick(CONTENT_WORDS)) : null;
      let titleFromUser = title === null;
      let tokens = 0;
      const modelsUsed: string[] = [];
      const rows: unknown[][] = [];
      let previous = "";
      for (let i = 0; i < count; i++) {
        const role =
          i === 0 ? (startsWithSystem ? "system" : "user") : previous === "assistant" ? (chance(0.12) ? "tool" : "user") : previous === "user" || previous === "tool" ? "assistant" : "user";
        previous = role;
        let content = role === "user" ? userContent() : role === "assistant" ? assistantContent() : role === "tool" ? toolContent() : systemContent();
        if (planted.has(turnOrdinal)) content += ` The lease fence failure comes from \`flakyLeaseRenewal\` in \`${filePath()}\`.`;
        turnOrdinal += 1;
        contentChars += content.length;
        const tokenEstimate = estimateTokens(content);
        tokens += tokenEstimate;
        const model = role === "assistant" ? (chance(0.8) ? threadModels[0]! : pick(threadModels)) : null;
        if (model && !modelsUsed.includes(model.name)) modelsUsed.push(model.name);
        if (titleFromUser && role === "user") {
          title = titleFromContent(content);
          titleFromUser = false;
        }
        ts += int(Math.floor(stepMs / 4), stepMs);
        rows.push([
          randomUUID(),
          id,
          i,
          role,
          content,
          stored(ts),
          role === "user" && chance(0.3) ? JSON.stringify([filePath(), filePath()]) : "[]",
          "[]",
          chance(0.8) ? (chance(0.9) ? toolName : pick(THREAD_TOOLS)) : null,
          model?.provider ?? null,
          model?.name ?? null,
          model && chance(0.5) ? JSON.stringify({ thinking_mode: pick(["low", "medium", "high"]), usage: { input_tokens: int(200, 90_000), output_tokens: int(50, 4_000) } }) : null,
          null,
          tokenEstimate,
        ]);
      }
      const parent = t > 0 && chance(0.1) ? ids[Math.max(0, t - int(1, 50))]! : null;
      insertThread.run(
        id,
        parent,
        title,
        toolName,
        chance(0.3) ? JSON.stringify({ relevant_files: [filePath()], thinking_mode: "medium" }) : "{}",
        chance(0.2) ? JSON.stringify({ cwd: `/home/dev/${pick(DIRS)}`, gitBranch: `feature/${word()}-${word()}` }) : null,
        chance(0.9) ? "api" : "import",
        stored(createdAt),
        stored(ts),
        null,
        count,
        tokens,
        JSON.stringify(modelsUsed),
      );
      for (const row of rows) insertTurn.run(...row);
    }
  });
  fill();

  // Chains: each thread continues the previous one (parentThreadId), timestamps increasing along
  // the chain, placed a quarter into the time span so that they stay off the list's first pages.
  const chains: ChainSummary[] = [];
  let chainTs = firstCreated + Math.floor(spanMs / 4);
  const fillChains = sqlite.transaction(() => {
    for (const spec of CONFIG.chains) {
      const summary: ChainSummary = { ...spec, turns: spec.threads * spec.turnsPerThread, threadIds: [], lastThreadId: "", snapshots: 0, contentChars: 0 };
      let parent: string | null = null;
      for (let t = 0; t < spec.threads; t++) {
        const id = randomUUID();
        const toolName = pick(THREAD_TOOLS);
        const model = pickModel();
        const createdAt = (chainTs += int(60_000, 600_000));
        let title: string | null = null;
        let tokens = 0;
        let previous = "";
        const turnRows: { row: unknown[]; snapshot: [string, string] | null }[] = [];
        for (let i = 0; i < spec.turnsPerThread; i++) {
          const role = i === 0 ? "user" : previous === "assistant" ? (chance(0.12) ? "tool" : "user") : "assistant";
          previous = role;
          const content = role === "user" ? userContent() : role === "assistant" ? assistantContent() : toolContent();
          summary.contentChars += content.length;
          const tokenEstimate = estimateTokens(content);
          tokens += tokenEstimate;
          if (title === null && role === "user") title = titleFromContent(content);
          const files = role === "user" && chance(0.3) ? [filePath(), filePath()] : [];
          const snapshot: [string, string] | null = files.length > 0 && chance(CONFIG.chainSnapshotChance) ? [files[0]!, sourceFile()] : null;
          const assistant = role === "assistant";
          chainTs += int(10_000, 80_000);
          turnRows.push({
            row: [
              randomUUID(),
              id,
              i,
              role,
              content,
              stored(chainTs),
              JSON.stringify(files),
              "[]",
              toolName,
              assistant ? model.provider : null,
              assistant ? model.name : null,
              assistant && chance(0.5) ? JSON.stringify({ thinking_mode: pick(["low", "medium", "high"]), usage: { input_tokens: int(200, 90_000), output_tokens: int(50, 4_000) } }) : null,
              null,
              tokenEstimate,
            ],
            snapshot,
          });
        }
        insertThread.run(id, parent, title, toolName, "{}", null, "api", stored(createdAt), stored(chainTs), null, spec.turnsPerThread, tokens, JSON.stringify([model.name]));
        for (const { row, snapshot } of turnRows) {
          const seq = insertTurn.run(...row).lastInsertRowid;
          if (snapshot) {
            insertSnapshot.run(seq, 0, snapshot[0], snapshot[1]);
            summary.snapshots += 1;
          }
        }
        summary.threadIds.push(id);
        parent = id;
      }
      summary.lastThreadId = parent!;
      chains.push(summary);
    }
  });
  fillChains();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
  return {
    threads: CONFIG.threads,
    turns: CONFIG.turns,
    bigThreadId,
    contentChars,
    avgTurnChars: Math.round(contentChars / CONFIG.turns),
    chains,
    seconds: (performance.now() - started) / 1000,
  };
}

// ---------------------------------------------------------------------------------------------
// Database facts
// ---------------------------------------------------------------------------------------------

type DbSizes = { fileBytes: number; walBytes: number; objects: Record<string, number> };
type Selectivity = { turns: number; threads: number; titleThreads: number };
type StoredThread = { turnCount: number; tokenEstimate: number; turns: { id: string; index: number }[] };

/**
 * What the bench reads straight from the database, beside the API: sizes, how many rows a search
 * matches (the same match the API runs), the appends' verification, stored token counts.
 */
type BenchStore = {
  kind: "sqlite" | "postgres";
  url: string;
  sizes(): Promise<DbSizes>;
  selectivity(q: string): Promise<Selectivity>;
  storedThread(threadId: string): Promise<StoredThread>;
  storedTokenCounts(threadIds: string[], tokenizer: string): Promise<number>;
  close(): Promise<void>;
};


function sqliteStore(file: string): BenchStore {
  const read = <T>(work: (sqlite: Database.Database) => T): T => {
    // A connection per read: WAL lets it read while the server writes.
    const sqlite = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return work(sqlite);
    } finally {
      sqlite.close();
    }
  };
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  return {
    kind: "sqlite",
    url: `file:${file}`,
    sizes: async () =>
      read((sqlite) => {
        const objects: Record<string, number> = {};
        // Group each table with its indexes (and the FTS table with its shadow tables).
        const owners = new Map<string, string>();
        for (const row of sqlite.prepare(`SELECT name, tbl_name AS tbl FROM sqlite_schema`).all() as { name: string; tbl: string }[]) {
          owners.set(row.name, row.tbl.startsWith("TurnSearch") ? "TurnSearch (FTS)" : row.tbl);
        }
        for (const row of sqlite.prepare(`SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name`).all() as { name: string; bytes: number }[]) {
          const owner = owners.get(row.name) ?? row.name;
          objects[owner] = (objects[owner] ?? 0) + row.bytes;
        }
        return { fileBytes: size(file), walBytes: size(`${file}-wal`), objects };
      }),
    selectivity: async (q) =>
      read((sqlite) => {
        const match = toFtsMatch(searchTerms(q));
        const like = containsPattern(q);
        const turns = (sqlite.prepare(`SELECT count(*) AS n FROM "TurnSearch" WHERE "TurnSearch" MATCH ?`).get(match) as { n: number }).n;
        const titleThreads = (sqlite.prepare(`SELECT count(*) AS n FROM "Thread" WHERE "title" LIKE ? ESCAPE '\\'`).get(like) as { n: number }).n;
        const threads = (
          sqlite
            .prepare(`SELECT count(*) AS n FROM "Thread" t WHERE t."title" LIKE ? ESCAPE '\\' OR t."id" IN (SELECT u."threadId" FROM "Turn" u WHERE u."seq" IN (SELECT rowid FROM "TurnSearch" WHERE "TurnSearch" MATCH ?))`)
            .get(like, match) as { n: number }
        ).n;
        return { turns, threads, titleThreads };
      }),
    storedThread: async (threadId) =>
      read((sqlite) => {
        const thread = sqlite.prepare(`SELECT "turnCount" AS c, "tokenEstimate" AS t FROM "Thread" WHERE "id" = ?`).get(threadId) as { c: number; t: number };
        const turns = sqlite.prepare(`SELECT "id", "index" FROM "Turn" WHERE "threadId" = ? ORDER BY "index"`).all(threadId) as { id: string; index: number }[];
        return { turnCount: thread.c, tokenEstimate: thread.t, turns };
      }),
    storedTokenCounts: async (threadIds, tokenizer) =>
      read((sqlite) => {
        const marks = threadIds.map(() => "?").join(", ");
        return (sqlite.prepare(`SELECT count(*) AS n FROM "TurnTokenCount" WHERE "tokenizer" = ? AND "threadId" IN (${marks})`).get(tokenizer, ...threadIds) as { n: number }).n;
      }),
    close: async () => {},
  };
}

async function postgresStore(url: string): Promise<BenchStore> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const one = async (sql: string, params: unknown[]) => Number((await client.query<{ n: string }>(sql, params)).rows[0]!.n);
  const matches = `${TURN_TSVECTOR("u")} @@ to_tsquery('threadline'::regconfig, $1)`;
  return {
    kind: "postgres",
    url,
    sizes: async () => {
      const objects: Record<string, number> = {};
      const { rows } = await client.query<{ name: string; bytes: string }>(
        `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'public'`,
      );
      for (const row of rows) objects[row.name] = Number(row.bytes);
      const total = await one(`SELECT pg_database_size(current_database()) AS n`, []);
      return { fileBytes: total, walBytes: 0, objects };
    },
    selectivity: async (q) => {
      const match = toTsQuery(searchTerms(q));
      const like = containsPattern(q);
      const turns = await one(`SELECT count(*) AS n FROM "Turn" u WHERE ${matches}`, [match]);
      const titleThreads = await one(`SELECT count(*) AS n FROM "Thread" WHERE "title" ILIKE $1 ESCAPE '\\'`, [like]);
      // A union, not "title ILIKE ... OR id IN (...)": PostgreSQL plans that OR as a scan per thread.
      const threads = await one(`SELECT count(*) AS n FROM (SELECT "id" FROM "Thread" WHERE "title" ILIKE $2 ESCAPE '\\' UNION SELECT u."threadId" FROM "Turn" u WHERE ${matches}) matched`, [match, like]);
      return { turns, threads, titleThreads };
    },
    storedThread: async (threadId) => {
      const thread = (await client.query<{ c: number; t: number }>(`SELECT "turnCount" AS c, "tokenEstimate" AS t FROM "Thread" WHERE "id" = $1`, [threadId])).rows[0]!;
      const turns = (await client.query<{ id: string; index: number }>(`SELECT "id", "index" FROM "Turn" WHERE "threadId" = $1 ORDER BY "index"`, [threadId])).rows;
      return { turnCount: thread.c, tokenEstimate: thread.t, turns };
    },
    storedTokenCounts: (threadIds, tokenizer) => one(`SELECT count(*) AS n FROM "TurnTokenCount" WHERE "tokenizer" = $1 AND "threadId" = ANY($2)`, [tokenizer, threadIds]),
    close: () => client.end(),
  };
}

/** A new, empty database on the PostgreSQL server of BENCH_POSTGRES_URL (dropped first if it exists); its URL. */
async function freshPostgresDatabase(admin: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropPostgresDatabase(admin: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Contention: how much CPU other processes took while we measured (Linux /proc only)
// ---------------------------------------------------------------------------------------------

type CpuSnapshot = { total: number; busy: number; ours: number };

/** This process's process group (its tokenizer children share it); null off Linux. */
function ownProcessGroup(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return null;
  }
}

/**
 * Machine-wide CPU ticks and the ticks of this process, of its process group (the bench's own
 * child processes) and of the server's process group.
 */
function cpuSnapshot(serverPgid: number | undefined): CpuSnapshot | null {
  if (!existsSync("/proc/stat")) return null;
  const ownPgid = ownProcessGroup();
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const busy = total - fields[3]! - fields[4]!;
    let ours = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue;
      }
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pgrp = Number(rest[2]);
      // Our own process also counts the children it has reaped (cutime, cstime): the tokenizer
      // children leave /proc when they exit.
      if (Number(entry) === process.pid) ours += Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]);
      else if (pgrp === ownPgid || (serverPgid !== undefined && pgrp === serverPgid)) ours += Number(rest[11]) + Number(rest[12]);
    }
    return { total, busy, ours };
  } catch {
    return null;
  }
}

/** Percent of the whole machine's CPU used by processes other than the bench and its server. */
function otherCpuPercent(before: CpuSnapshot | null, after: CpuSnapshot | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  const other = after.busy - before.busy - (after.ours - before.ours);
  return Math.max(0, Math.round((100 * other) / (after.total - before.total)));
}

// ---------------------------------------------------------------------------------------------
// The production server
// ---------------------------------------------------------------------------------------------

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no server log)";
  }
}

type Server = { baseUrl: string; child: ChildProcess; stop: () => Promise<void> };
let runningServer: ChildProcess | undefined;

/** Kills the server's whole process group (it was started detached, as its group leader). */
function killServer(signal: NodeJS.Signals): void {
  const child = runningServer;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

process.on("exit", () => killServer("SIGKILL"));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    killServer("SIGTERM");
    process.exit(130);
  });
}

async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const log = openSync(SERVER_LOG, "w");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const child = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: root,
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      MAX_CONVERSATION_TURNS: String(CONFIG.maxConversationTurns),
      CONVERSATION_TIMEOUT_HOURS: "0",
    },
  });
  closeSync(log);
  runningServer = child;
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    killServer("SIGTERM");
    const timer = setTimeout(() => killServer("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`next start exited (${child.exitCode ?? child.signalCode}) before it was ready. Log:\n${tail(SERVER_LOG)}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/threads?limit=1`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start was not ready within 90 s. Log:\n${tail(SERVER_LOG)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, child, stop };
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------------------------

async function getJson<T>(baseUrl: string, pathname: string): Promise<T> {
  const res = await fetch(baseUrl + pathname);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${pathname} -> ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** GET that reads the whole body (the time a client waits) and returns its size in bytes. */
async function getBody(baseUrl: string, pathname: string): Promise<number> {
  const res = await fetch(baseUrl + pathname);
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${pathname} -> ${res.status}: ${Buffer.from(body).toString("utf8").slice(0, 300)}`);
  return body.byteLength;
}

async function postJson<T>(baseUrl: string, pathname: string, body: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(baseUrl + pathname, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

type ApiThread = { id: string; turnCount: number; tokenEstimate: number };
type ApiTurn = { id: string; index: number; content: string; tokenEstimate: number };

// ---------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------

type Bench = {
  baseUrl: string;
  store: BenchStore;
  fill: FillSummary;
  record: (row: ResultRow) => void;
  facts: Record<string, unknown>;
};

const fmtMs = (ms: number) => (Number.isNaN(ms) ? "-" : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
/** Rates and single figures: whole numbers from 100 up, one decimal below. */
const fmtValue = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const fmtBytes = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${b} B`);

async function sectionList(bench: Bench): Promise<void> {
  let bytes = 0;
  const first = await measure("list", async () => (bytes = await getBody(bench.baseUrl, "/api/threads?limit=25")), CONFIG.iterations.list);
  bench.record({
    section: "list",
    name: "GET /api/threads?limit=25 (first page)",
    stats: first,
    target: { metric: "p50", maxMs: TARGETS.listP50 },
    note: `${fmtBytes(bytes)} body`,
  });
  // A deeper page through the cursor: the keyset path.
  const page = await getJson<{ nextCursor: string | null }>(bench.baseUrl, "/api/threads?limit=25");
  let cursor = page.nextCursor;
  for (let i = 0; i < 20 && cursor; i++) {
    cursor = (await getJson<{ nextCursor: string | null }>(bench.baseUrl, `/api/threads?limit=25&cursor=${encodeURIComponent(cursor)}`)).nextCursor;
  }
  if (cursor) {
    const deep = await measure("list page 22", () => getBody(bench.baseUrl, `/api/threads?limit=25&cursor=${encodeURIComponent(cursor!)}`), CONFIG.iterations.listPage2);
    bench.record({ section: "list", name: "GET /api/threads?limit=25&cursor=... (page 22)", stats: deep });
  }
  const tool = await measure("list by tool", () => getBody(bench.baseUrl, "/api/threads?limit=25&tool=codereview"), CONFIG.iterations.listPage2);
  bench.record({ section: "list", name: "GET /api/threads?limit=25&tool=codereview", stats: tool });
}

async function sectionSearch(bench: Bench): Promise<void> {
  const all: number[] = [];
  const chainThreads = bench.fill.chains.reduce((sum, c) => sum + c.threads, 0);
  const selectivity: Record<string, Selectivity> = {};
  for (const { label, q } of [...SEARCH_TERMS, ...STRESS_SEARCH_TERMS]) {
    const sel = await bench.store.selectivity(q);
    selectivity[q] = sel;
    let hits = 0;
    const pathname = `/api/threads?limit=25&q=${encodeURIComponent(q)}`;
    const result = await measure(`search ${q}`, async () => {
      const body = await getJson<{ items: unknown[] }>(bench.baseUrl, pathname);
      hits = body.items.length;
    }, CONFIG.iterations.search);
    const stress = STRESS_SEARCH_TERMS.some((s) => s.q === q);
    if (!stress) all.push(...result.samples);
    bench.record({
      section: "search",
      name: `q=${JSON.stringify(q)} (${label}${stress ? ", no target" : ""})`,
      stats: result,
      target: stress ? undefined : { metric: "p50", maxMs: TARGETS.searchP50 },
      note: `matches ${sel.turns} turns / ${sel.threads} threads (${((100 * sel.threads) / (CONFIG.threads + chainThreads)).toFixed(1)}%), page ${hits}`,
    });
  }
  bench.record({ section: "search", name: "search, all terms above (no stress)", stats: summarize(all), target: { metric: "p50", maxMs: TARGETS.searchP50 } });
  bench.facts.searchSelectivity = selectivity;
}

async function sectionBigThread(bench: Bench): Promise<void> {
  const id = bench.fill.bigThreadId;
  const check = await getJson<{ turns: unknown[] }>(bench.baseUrl, `/api/threads/${id}`);
  if (check.turns.length !== CONFIG.bigThreadTurns) throw new Error(`big thread has ${check.turns.length} turns, expected ${CONFIG.bigThreadTurns}`);
  let bytes = 0;
  const result = await measure("big thread", async () => (bytes = await getBody(bench.baseUrl, `/api/threads/${id}`)), CONFIG.iterations.bigThread);
  bench.record({
    section: "thread",
    name: `GET /api/threads/:id (${CONFIG.bigThreadTurns} turns)`,
    stats: result,
    target: { metric: "p50", maxMs: TARGETS.bigThreadP50 },
    note: `${fmtBytes(bytes)} body`,
  });
}

/**
 * WRITERS concurrent writers each post TURNS_PER_WRITER turns, into one shared thread or one
 * thread each; then checks in the database that every turn is there exactly once, indices are
 * 0..n-1 and the thread's counters match.
 */
async function appendRun(bench: Bench, mode: "one thread" | "thread per writer"): Promise<void> {
  const { writers, turnsPerWriter } = CONFIG;
  const threadIds: string[] = [];
  for (let w = 0; w < (mode === "one thread" ? 1 : writers); w++) {
    const created = await postJson<{ thread: ApiThread }>(bench.baseUrl, "/api/threads", { toolName: "bench", title: `bench append ${mode} ${w}` });
    if (created.status !== 201) throw new Error(`POST /api/threads -> ${created.status}`);
    threadIds.push(created.json.thread.id);
  }
  const bodies = Array.from({ length: writers }, (_, w) =>
    Array.from({ length: turnsPerWriter }, (_, n) => ({
      role: n % 2 === 0 ? "user" : "assistant",
      content: `bench w${w} n${n}: ${n % 2 === 0 ? userContent() : assistantContent()}`,
      ...(n % 2 === 1 ? { modelProvider: "anthropic", modelName: "claude-sonnet-4-5" } : {}),
      toolName: "bench",
    })),
  );
  const latencies: number[] = [];
  const posted: { threadId: string; id: string; index: number; tokens: number }[] = [];
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    bodies.map(async (list, w) => {
      const threadId = threadIds[mode === "one thread" ? 0 : w]!;
      for (const body of list) {
        const t0 = performance.now();
        const res = await postJson<{ turn?: ApiTurn; error?: { message: string } }>(bench.baseUrl, `/api/threads/${threadId}/turns`, body);
        latencies.push(performance.now() - t0);
        if (res.status !== 201 || !res.json.turn) failures.push(`${res.status} ${res.json.error?.message ?? ""}`);
        else posted.push({ threadId, id: res.json.turn.id, index: res.json.turn.index, tokens: res.json.turn.tokenEstimate });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const total = writers * turnsPerWriter;

  // Verification, straight from the database (SQLite's WAL lets it read while the server runs).
  const problems: string[] = [...new Set(failures)].slice(0, 5).map((f) => `request failed: ${f} (x${failures.filter((x) => x === f).length})`);
  for (const threadId of threadIds) {
    const expected = posted.filter((p) => p.threadId === threadId);
    const wantCount = mode === "one thread" ? total : turnsPerWriter;
    const { turnCount, tokenEstimate, turns } = await bench.store.storedThread(threadId);
    const tokenSum = expected.reduce((a, p) => a + p.tokens, 0);
    const ids = new Set(turns.map((t) => t.id));
    if (turns.length !== wantCount) problems.push(`thread ${threadId}: ${turns.length} turns stored, ${wantCount} posted`);
    if (turnCount !== turns.length) problems.push(`thread ${threadId}: turnCount ${turnCount} but ${turns.length} turns`);
    if (tokenEstimate !== tokenSum) problems.push(`thread ${threadId}: tokenEstimate ${tokenEstimate}, expected ${tokenSum}`);
    if (turns.some((t, i) => t.index !== i)) problems.push(`thread ${threadId}: indices are not 0..${turns.length - 1}`);
    const missing = expected.filter((p) => !ids.has(p.id)).length;
    if (missing > 0) problems.push(`thread ${threadId}: ${missing} acknowledged turns missing`);
  }
  const rate = posted.length / seconds;
  bench.record({
    section: "append",
    name: `append, ${writers} writers x ${turnsPerWriter} turns, ${mode}`,
    value: rate,
    unit: "turns/s",
    stats: summarize(latencies),
    note: `${posted.length}/${total} in ${seconds.toFixed(1)} s; ${problems.length === 0 ? "verified: no turn lost" : `VERIFY FAILED: ${problems.join("; ")}`}`,
  });
  if (problems.length > 0) bench.facts.appendFailures = [...((bench.facts.appendFailures as string[]) ?? []), ...problems];
}

async function sectionAppend(bench: Bench): Promise<void> {
  // Warm the write path (route compilation, first transaction) outside the timed runs.
  const warm = await postJson<{ thread: ApiThread }>(bench.baseUrl, "/api/threads", { toolName: "bench", title: "bench warm-up" });
  for (let i = 0; i < 20; i++) await postJson(bench.baseUrl, `/api/threads/${warm.json.thread.id}/turns`, { role: "user", content: `warm-up ${i}` });
  // One writer, one request at a time: the cost of a single append without contention.
  const single = await postJson<{ thread: ApiThread }>(bench.baseUrl, "/api/threads", { toolName: "bench", title: "bench append sequential" });
  const sequential = await measure(
    "append sequential",
    async (i) => {
      const res = await postJson(bench.baseUrl, `/api/threads/${single.json.thread.id}/turns`, {
        role: i % 2 === 0 ? "user" : "assistant",
        content: `bench sequential ${i}: ${assistantContent()}`,
      });
      if (res.status !== 201) throw new Error(`POST turns -> ${res.status}`);
    },
    200,
    { warmup: 0 },
  );
  bench.record({
    section: "append",
    name: "POST /api/threads/:id/turns, 1 writer, sequential",
    stats: sequential,
    value: 1000 / sequential.mean,
    unit: "turns/s",
  });
  await appendRun(bench, "one thread");
  await appendRun(bench, "thread per writer");
}

type ApiContextPreview = {
  tokenizer: { id: string };
  exact: boolean;
  allocation: { total: number; history: number };
  files: { included: unknown[]; skipped: unknown[] };
  turns: { included: number[]; excluded: number[] };
  perTurn: unknown[];
  totalTokens: number;
  text: string;
};

/** GET that parses the JSON body and also returns its size and the wall time until it was read. */
async function getJsonSized<T>(baseUrl: string, pathname: string): Promise<{ json: T; bytes: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(baseUrl + pathname);
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  const text = Buffer.from(body).toString("utf8");
  if (!res.ok) throw new Error(`GET ${pathname} -> ${res.status}: ${text.slice(0, 300)}`);
  return { json: JSON.parse(text) as T, bytes: body.byteLength, ms };
}


function describePreview(preview: ApiContextPreview, bytes: number): string {
  return (
    `${fmtBytes(bytes)} body (text ${fmtBytes(Buffer.byteLength(preview.text))}, perTurn ${preview.perTurn.length}); ` +
    `${preview.turns.included.length} turns included, ${preview.totalTokens} tokens of ${preview.allocation.history} history budget; ` +
    `files ${preview.files.included.length} in / ${preview.files.skipped.length} skipped`
  );
}

/**
 * Context preview (GET /api/threads/:id/context) over each chain, from its last thread: exact
 * mode for gpt-4o (o200k_base) and PAL mode at a 200,000-token window. The fill stores no per-turn
 * counts (as for imported turns), so the first request counts and stores them: timed on its own.
 */
async function sectionContext(bench: Bench): Promise<void> {
  const EXACT = "model=gpt-4o";
  const PAL = "contextWindow=200000&mode=pal";
  // Load the route's modules on an ordinary thread first, so that no chain figure includes it.
  const someThread = (await getJson<{ items: { id: string }[] }>(bench.baseUrl, "/api/threads?limit=1")).items[0]!.id;
  await getBody(bench.baseUrl, `/api/threads/${someThread}/context?${PAL}`);
  await getBody(bench.baseUrl, `/api/threads/${someThread}/context?${EXACT}`);

  const facts: Record<string, unknown> = {};
  for (const chain of bench.fill.chains) {
    const url = (query: string) => `/api/threads/${chain.lastThreadId}/context?${query}`;
    const label = `${chain.turns.toLocaleString("en-US")} turns (${chain.threads} threads x ${chain.turnsPerThread})`;
    const storedBefore = await bench.store.storedTokenCounts(chain.threadIds, "o200k_base");
    const cold = await getJsonSized<ApiContextPreview>(bench.baseUrl, url(EXACT));
    if (cold.json.perTurn.length !== chain.turns) throw new Error(`context ${chain.label}: perTurn has ${cold.json.perTurn.length} turns, expected ${chain.turns}`);
    if (cold.json.tokenizer.id !== "o200k_base") throw new Error(`context ${chain.label}: tokenizer ${cold.json.tokenizer.id}, expected o200k_base`);
    const storedAfter = await bench.store.storedTokenCounts(chain.threadIds, "o200k_base");
    bench.record({
      section: "context",
      name: `context ${label}, gpt-4o exact, COLD (first request)`,
      value: cold.ms,
      unit: "ms",
      note: `counted and stored ${storedAfter - storedBefore} o200k turn counts (${storedBefore} before)`,
    });

    for (const [mode, query] of [
      ["gpt-4o exact", EXACT],
      ["window 200000 pal", PAL],
    ] as const) {
      let last: { json: ApiContextPreview; bytes: number } | undefined;
      const warm = await measure(`context ${chain.label} ${mode}`, async () => (last = await getJsonSized<ApiContextPreview>(bench.baseUrl, url(query))), CONFIG.contextIterations, {
        warmup: 2,
      });
      if (last!.json.perTurn.length !== chain.turns) throw new Error(`context ${chain.label} ${mode}: perTurn has ${last!.json.perTurn.length} turns, expected ${chain.turns}`);
      bench.record({
        section: "context",
        name: `context ${label}, ${mode}, warm`,
        stats: warm,
        target: chain.turns >= 10_000 ? { metric: "p50", maxMs: TARGETS.contextP50 } : undefined,
        note: describePreview(last!.json, last!.bytes),
      });
      facts[`${chain.label} ${mode}`] = { bytes: last!.bytes, textBytes: Buffer.byteLength(last!.json.text), includedTurns: last!.json.turns.included.length, totalTokens: last!.json.totalTokens };
    }

    // The outline cache serves repeated previews of unchanged threads; after an append the thread
    // appended to is read again, the rest of the chain comes from the cache. Timed: the preview
    // only, one append before each.
    if (chain === bench.fill.chains.at(-1)) {
      const samples: number[] = [];
      let last: { json: ApiContextPreview; bytes: number; ms: number } | undefined;
      for (let i = 0; i < CONFIG.contextIterations; i++) {
        const appended = await postJson(bench.baseUrl, `/api/threads/${chain.lastThreadId}/turns`, { role: i % 2 ? "assistant" : "user", content: sentence(8, 20) });
        if (appended.status !== 201) throw new Error(`context ${chain.label}: append -> ${appended.status}`);
        last = await getJsonSized<ApiContextPreview>(bench.baseUrl, url(EXACT));
        samples.push(last.ms);
      }
      if (last!.json.perTurn.length !== chain.turns + CONFIG.contextIterations) throw new Error(`context ${chain.label}: the appended turns are missing from the preview`);
      bench.record({
        section: "context",
        name: `context ${label}, gpt-4o exact, right after an append (that thread read again)`,
        stats: summarize(samples),
        target: { metric: "p50", maxMs: TARGETS.contextP50 },
        note: describePreview(last!.json, last!.bytes),
      });
    }

    // What a cold request usually is in practice: turns appended through the API already have
    // o200k counts; the first preview for another model's tokenizer counts the whole chain again.
    if (chain === bench.fill.chains.at(-1)) {
      const claude = await getJsonSized<ApiContextPreview>(bench.baseUrl, url("model=claude-sonnet-4-5"));
      const again = await getJsonSized<ApiContextPreview>(bench.baseUrl, url("model=claude-sonnet-4-5"));
      bench.record({
        section: "context",
        name: `context ${label}, claude-sonnet-4-5 (claude estimate), COLD`,
        value: claude.ms,
        unit: "ms",
        note: `counted ${await bench.store.storedTokenCounts(chain.threadIds, "claude")} claude turn counts; next request ${fmtMs(again.ms)} ms`,
      });
    }
  }
  bench.facts.context = facts;
}

// ---------------------------------------------------------------------------------------------
// Tokeniser throughput (one fresh child process per tokenizer)
// ---------------------------------------------------------------------------------------------

const TOKENIZER_CHILD = "--tokenizer-child";

type TokenizerRun = {
  id: string;
  label: string;
  exact: boolean;
  mode: "whole" | "per piece";
  /** Milliseconds of the first count (loading the vocabulary). */
  loadMs: number;
  /** MB (10^6 bytes of UTF-8) per second of wall-clock time. */
  mbPerSecond: number;
  /**
   * MB per second of the process's CPU time (user + system, all its threads): the one-core figure,
   * less disturbed than wall time when other processes compete for the cores.
   */
  cpuMbPerSecond: number;
  tokens: number;
  bytes: number;
  chars: number;
  calls: number;
};

/**
 * The repository's own code at HEAD (lib, app, components, scripts) as a list of files; read from
 * git so that a working tree mid-edit does not change the text. Empty when git is unavailable.
 */
function repositoryCode(): string[] {
  try {
    const names = execFileSync("git", ["ls-tree", "-r", "--name-only", "HEAD", "lib", "app", "components", "scripts"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((n) => /\.(ts|tsx|mjs|js|css)$/.test(n))
      .sort();
    const all = execFileSync("git", ["archive", "--format=tar", "HEAD", ...names], { cwd: root, maxBuffer: 64 << 20 });
    // Split the tar stream back into files: 512-byte headers, size in octal at 124.
    const files: string[] = [];
    for (let offset = 0; offset + 512 <= all.length; ) {
      const header = all.subarray(offset, offset + 512);
      if (header.every((b) => b === 0)) break;
      const size = parseInt(header.subarray(124, 136).toString("ascii").replace(/\0.*$/, "").trim() || "0", 8);
      const type = String.fromCharCode(header[156]!);
      if ((type === "0" || type === "\0") && size > 0) files.push(all.subarray(offset + 512, offset + 512 + size).toString("utf8"));
      offset += 512 + Math.ceil(size / 512) * 512;
    }
    return files;
  } catch {
    return [];
  }
}

/**
 * A few MB of mixed text: conversation turns from the fill's generators (prose, markdown, lists,
 * code blocks, tool logs) with the repository's code files spread through it.
 */
function tokenizerCorpus(targetBytes: number): { pieces: string[]; turnBytes: number; codeBytes: number } {
  const code = repositoryCode();
  const pieces: string[] = [];
  let turnBytes = 0;
  let codeBytes = 0;
  let previous = "";
  let nextCode = 0;
  while (turnBytes + codeBytes < targetBytes) {
    // About one code file per 5 KB of turns, while the code lasts.
    if (nextCode < code.length && codeBytes * 5 < turnBytes) {
      const file = code[nextCode++]!;
      pieces.push(file);
      codeBytes += Buffer.byteLength(file);
      continue;
    }
    const role = previous === "assistant" ? (chance(0.12) ? "tool" : "user") : previous === "user" || previous === "tool" ? "assistant" : "user";
    previous = role;
    const text = role === "user" ? userContent() : role === "assistant" ? assistantContent() : toolContent();
    pieces.push(text);
    turnBytes += Buffer.byteLength(text);
  }
  return { pieces, turnBytes, codeBytes };
}

/** Child process: loads one tokenizer, counts the text once, prints a TokenizerRun as JSON. */
async function tokenizerChild(): Promise<void> {
  const [id, file, mode] = process.argv.slice(process.argv.indexOf(TOKENIZER_CHILD) + 1);
  const { getTokenizer } = await import("../lib/tokenizers/registry");
  const { measureTokenizerThroughput } = await import("../lib/tokenizers/throughput");
  const counter = getTokenizer(id!);
  const loadStarted = performance.now();
  counter.count("Load the vocabulary.");
  const loadMs = performance.now() - loadStarted;
  const pieces = JSON.parse(readFileSync(file!, "utf8")) as string[];
  const run: TokenizerRun = {
    id: counter.id,
    label: counter.label,
    exact: counter.exact,
    mode: mode === "per piece" ? "per piece" : "whole",
    loadMs,
    mbPerSecond: 0,
    cpuMbPerSecond: 0,
    tokens: 0,
    bytes: 0,
    chars: 0,
    calls: 0,
  };
  let cpuBefore = process.cpuUsage();
  if (run.mode === "whole") {
    // The text is one string: with any character above U+00FF in it (the repository's code has
    // some), V8 stores it two bytes per character, which makes regex splitting slower.
    const text = pieces.join("\n\n");
    cpuBefore = process.cpuUsage();
    const measured = measureTokenizerThroughput(counter.id, text);
    Object.assign(run, { mbPerSecond: measured.mbPerSecond, tokens: measured.tokens, bytes: Buffer.byteLength(text), chars: text.length, calls: 1 });
  } else {
    // Turn by turn, as the lazy fill counts a chain: one call per piece.
    const started = performance.now();
    let tokens = 0;
    for (const piece of pieces) tokens += counter.count(piece);
    const seconds = (performance.now() - started) / 1000;
    const bytes = pieces.reduce((sum, p) => sum + Buffer.byteLength(p), 0);
    Object.assign(run, { mbPerSecond: bytes / 1e6 / seconds, tokens, bytes, chars: pieces.reduce((sum, p) => sum + p.length, 0), calls: pieces.length });
  }
  const cpu = process.cpuUsage(cpuBefore);
  run.cpuMbPerSecond = run.bytes / 1e6 / Math.max((cpu.user + cpu.system) / 1e6, 1e-9);
  process.stdout.write(JSON.stringify(run) + "\n");
}

function runTokenizerChild(id: string, file: string, mode: TokenizerRun["mode"]): Promise<TokenizerRun> {
  return new Promise((resolve, reject) => {
    const script = path.join(root, "scripts", "bench.ts");
    const child = spawn(process.execPath, [...process.execArgv, script, TOKENIZER_CHILD, id, file, mode], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`tokenizer child ${id} (${mode}) exited ${code}: ${err.trim().slice(-500)}`));
      else resolve(JSON.parse(line) as TokenizerRun);
    });
  });
}

async function sectionTokenizers(bench: Bench): Promise<void> {
  const { listTokenizers } = await import("../lib/tokenizers/registry");
  const corpus = tokenizerCorpus(CONFIG.tokenizerTextBytes);
  const file = path.join(BENCH_DIR, "tokenizer-text.json");
  writeFileSync(file, JSON.stringify(corpus.pieces));
  const runs: TokenizerRun[] = [];
  const ids = listTokenizers().map((t) => t.id);
  // Each tokenizer in its own fresh process: the o200k-based estimates share o200k's counter and
  // gpt-tokenizer's merge cache, which would flatter every run after the first.
  try {
    for (const id of ids) runs.push(await runTokenizerChild(id, file, "whole"));
    // o200k turn by turn (what the lazy fill does), again in a fresh process.
    runs.push(await runTokenizerChild("o200k_base", file, "per piece"));
  } finally {
    if (!KEEP_DB) rmSync(file, { force: true });
  }
  for (const run of runs) {
    const isTarget = run.id === "o200k_base";
    bench.record({
      section: "tokenizers",
      name: `tokenise ${run.id}${run.mode === "per piece" ? `, turn by turn (${run.calls} calls)` : ", one string"} (MB/s per core, CPU time)`,
      value: run.cpuMbPerSecond,
      unit: "MB/s",
      target: isTarget ? { metric: "rate", min: TARGETS.o200kMbPerSecond } : undefined,
      note: `${fmtValue(run.mbPerSecond)} MB/s wall clock; ${run.exact ? "exact" : "estimate"}; ${(run.chars / Math.max(1, run.tokens)).toFixed(2)} chars/token; load ${fmtMs(run.loadMs)} ms`,
    });
  }
  bench.facts.tokenizers = {
    text: { bytes: corpus.turnBytes + corpus.codeBytes, turnBytes: corpus.turnBytes, codeBytes: corpus.codeBytes, pieces: corpus.pieces.length },
    runs,
  };
}

/**
 * `npm run import` as users run it, in a child process on a database of its own, on a generated
 * Claude Code session (lib/testing/claude-code-session.ts): MB/s, turns/s and peak RSS.
 */
async function sectionImport(bench: Bench): Promise<void> {
  const { writeClaudeCodeSession } = await import("../lib/testing/claude-code-session");
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

/**
 * The compaction workbench: an extractive preview of the whole 2,000-turn thread through the API
 * (plan, summary, o200k before and after, references), and what full and window compaction save
 * on the demo threads (computed in this process with the same domain functions).
 */
async function sectionCompaction(bench: Bench): Promise<void> {
  const id = bench.fill.bigThreadId;
  let shown = { tokensBefore: 0, tokensAfter: 0, summaryChars: 0 };
  const preview = async () => {
    const response = await postJson<{ preview: { tokensBefore: number; tokensAfter: number; summary: string } }>(bench.baseUrl, `/api/threads/${id}/compactions`, { strategy: "full" });
    if (response.status !== 200) throw new Error(`compaction preview -> ${response.status}`);
    const { tokensBefore, tokensAfter, summary } = response.json.preview;
    shown = { tokensBefore, tokensAfter, summaryChars: summary.length };
  };
  const result = await measure("compaction preview", preview, CONFIG.iterations.compaction);
  bench.record({
    section: "compaction",
    name: `POST /api/threads/:id/compactions, full, extractive (${CONFIG.bigThreadTurns} turns)`,
    stats: result,
    target: { metric: "p50", maxMs: TARGETS.compactionP50 },
    note: `${shown.tokensBefore.toLocaleString("en-US")} -> ${shown.tokensAfter.toLocaleString("en-US")} tokens, summary ${shown.summaryChars.toLocaleString("en-US")} chars`,
  });

  // Applying writes the revision: the first run, one summary turn, the newest 40 turns.
  const revisions: string[] = [];
  let revisionTurns = 0;
  const apply = async () => {
    const response = await postJson<{ thread: { id: string; turnCount: number } }>(bench.baseUrl, `/api/threads/${id}/compactions`, { strategy: "window", options: { maxTurns: 80 }, apply: true });
    if (response.status !== 201) throw new Error(`compaction apply -> ${response.status}`);
    revisions.push(response.json.thread.id);
    revisionTurns = response.json.thread.turnCount;
  };
  const applied = await measure("compaction apply", apply, 5);
  for (const revision of revisions) await fetch(`${bench.baseUrl}/api/threads/${revision}`, { method: "DELETE" });
  bench.record({
    section: "compaction",
    name: `POST /api/threads/:id/compactions, window, apply (${CONFIG.bigThreadTurns} turns)`,
    stats: applied,
    note: `a revision of ${revisionTurns} turns written, the original untouched`,
  });

  const { buildDemoDocument } = await import("../lib/demo/demo-data");
  const { planCompaction } = await import("../lib/domain/compaction/plan");
  const { extractiveSummary } = await import("../lib/domain/compaction/extractive");
  const { buildRevision } = await import("../lib/domain/compaction/revision");
  const { o200kBase } = await import("../lib/tokenizers/engines");
  const o200k = o200kBase();
  const count = (text: string) => o200k(text).tokens;
  for (const thread of buildDemoDocument().threads) {
    if (thread.turns.length < 4) continue;
    const turns = thread.turns.map((t, index) => ({ index, role: t.role, content: t.content, parts: (t.parts ?? null) as TurnPart[] | null, toolName: t.toolName ?? null, modelName: t.modelName ?? null, files: t.files ?? [], images: t.images ?? [] }));
    const before = turns.reduce((sum, t) => sum + count(t.content), 0);
    for (const options of [{ strategy: "full" as const }, { strategy: "window" as const, trigger: "turns" as const, maxTurns: 40 }]) {
      const plan = planCompaction(turns, options);
      if (plan.noop) continue;
      const revision = buildRevision(turns, plan, extractiveSummary(plan.replaced.map((i) => turns[i]!)));
      const after = revision.reduce((sum, t) => sum + count(t.content), 0);
      bench.record({
        section: "compaction",
        name: `demo "${thread.title}" (${turns.length} turns), ${options.strategy === "full" ? "full" : "window of 40"}`,
        value: (1 - after / before) * 100,
        unit: "% fewer tokens",
        note: `${before.toLocaleString("en-US")} -> ${after.toLocaleString("en-US")} o200k tokens, ${turns.length} -> ${revision.length} turns`,
      });
    }
  }
}

/** 10 MB (UTF-8) of one kind of character, deterministic: each is a single run no tokenizer can pre-split. */
function pathologicalTexts(): Record<string, string> {
  const megabytes = 10_000_000;
  const next = makeRng(15);
  const cjk: string[] = [];
  for (let bytes = 0; bytes < megabytes; bytes += 3) cjk.push(String.fromCharCode(0x4e00 + Math.floor(next() * 20_000)));
  const emoji = ["😀", "🎉", "🚀", "❤️", "👍🏽", "🔥", "✨", "🙏", "🧑‍💻"];
  const pictures: string[] = [];
  for (let bytes = 0; bytes < megabytes; ) {
    const one = emoji[Math.floor(next() * emoji.length)]!;
    pictures.push(one);
    bytes += Buffer.byteLength(one);
  }
  return { "one character": "A".repeat(megabytes), "CJK without punctuation": cjk.join(""), emoji: pictures.join(""), spaces: " ".repeat(megabytes) };
}

/**
 * Pathological turns (issue 15): each 10 MB text counted by every engine in this process (seconds;
 * linear-count.mjs cuts the single huge pre-token into pieces), the cost of counting in place
 * below countTexts' INLINE_CHARS, and then against the server: the three 10 MB turns POSTed to
 * /api/threads/:id/turns one after another while GET /api/threads?limit=25 is sent again and
 * again, its latency recorded (counting runs on the shared worker, not the event loop).
 */
async function sectionLinearCount(bench: Bench): Promise<void> {
  const { engine, ENGINE_IDS } = await import("../lib/tokenizers/linear-count.mjs");
  const texts = pathologicalTexts();
  for (const id of ENGINE_IDS) {
    const count = engine(id);
    count("Load the vocabulary.");
    for (const [kind, text] of Object.entries(texts)) {
      const started = performance.now();
      const counted = count(text);
      const seconds = (performance.now() - started) / 1000;
      bench.record({
        section: "linear-count",
        name: `${id}: 10 MB of ${kind} (s)`,
        value: seconds,
        unit: "s",
        target: id === "o200k_base" && kind !== "spaces" ? { metric: "ceiling", max: 2 } : undefined,
        note: `${counted.tokens} tokens${counted.estimated ? ", estimated (counted in pieces)" : ""}`,
      });
    }
  }

  const { INLINE_CHARS } = await import("../lib/tokenizers/background-counter");
  const ordinary = tokenizerCorpus(200_000).pieces.join("\n");
  const o200k = engine("o200k_base");
  for (const length of [1_024, INLINE_CHARS]) {
    const samples: string[] = [];
    for (let i = 0; i < 200; i++) {
      const start = Math.floor((i * 7_919) % Math.max(1, ordinary.length - length));
      samples.push(ordinary.slice(start, start + length));
    }
    const timed = await measure(`inline ${length}`, async (i) => o200k(samples[Math.max(0, i)]!), samples.length, { warmup: 5 });
    bench.record({ section: "linear-count", name: `o200k in place, ${length} characters of ordinary text`, stats: timed, note: "countTexts counts up to INLINE_CHARS in place" });
  }

  const created = await postJson<{ thread: ApiThread }>(bench.baseUrl, "/api/threads", { toolName: "bench", title: "bench pathological turns" });
  if (created.status !== 201) throw new Error(`POST /api/threads -> ${created.status}`);
  const threadId = created.json.thread.id;
  const idle = await measure("GET while idle", () => getBody(bench.baseUrl, "/api/threads?limit=25"), 50);
  bench.record({ section: "linear-count", name: "GET /api/threads?limit=25, idle (for comparison)", stats: idle });

  let posting = true;
  const latencies: number[] = [];
  const getter = (async () => {
    while (posting) {
      const started = performance.now();
      await getBody(bench.baseUrl, "/api/threads?limit=25");
      latencies.push(performance.now() - started);
    }
  })();
  try {
    for (const kind of ["one character", "CJK without punctuation", "emoji"]) {
      const started = performance.now();
      const answer = await postJson<{ turn: { tokens: number; tokensEstimated?: boolean } }>(bench.baseUrl, `/api/threads/${threadId}/turns`, { role: "tool", content: texts[kind] });
      const seconds = (performance.now() - started) / 1000;
      if (answer.status !== 201) throw new Error(`POST /api/threads/:id/turns (${kind}) -> ${answer.status}`);
      bench.record({
        section: "linear-count",
        name: `POST /api/threads/:id/turns, 10 MB of ${kind} (s)`,
        value: seconds,
        unit: "s",
        note: `${answer.json.turn.tokens} tokens${answer.json.turn.tokensEstimated ? ", estimated" : ""}; stored with its FTS index entry`,
      });
    }
  } finally {
    posting = false;
    await getter;
  }
  bench.record({
    section: "linear-count",
    name: "GET /api/threads?limit=25 while those turns are posted",
    stats: summarize(latencies),
    target: { metric: "p95", maxMs: 200 },
    note: `max ${fmtMs(Math.max(...latencies))} ms over ${latencies.length} requests`,
  });
}

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
];

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

function machine() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

const chainTurns = (fill: FillSummary) => fill.chains.reduce((sum, c) => sum + c.turns, 0);

type TokenizerFacts = { text: { bytes: number; turnBytes: number; codeBytes: number; pieces: number }; runs: TokenizerRun[] };

function printTokenizerTable(facts: TokenizerFacts | undefined): void {
  if (!facts) return;
  const { text, runs } = facts;
  console.log("");
  console.log(
    `Tokenisers: ${(text.bytes / 1e6).toFixed(2)} MB of mixed text (${(text.turnBytes / 1e6).toFixed(2)} MB generated turns, ${(text.codeBytes / 1e6).toFixed(2)} MB of the repository's code), one fresh process per row, one core`,
  );
  const header = ["tokenizer", "kind", "MB/s (CPU)", "MB/s (wall)", "tokens", "chars/token", "load ms"];
  const lines = runs.map((r) => [
    r.mode === "whole" ? `${r.id}, one string` : `${r.id}, turn by turn (${r.calls} calls)`,
    r.exact ? "exact" : "estimate",
    r.cpuMbPerSecond.toFixed(2),
    r.mbPerSecond.toFixed(2),
    String(r.tokens),
    (r.chars / Math.max(1, r.tokens)).toFixed(2),
    fmtMs(r.loadMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd();
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
}

function printTable(rows: ResultRow[]): void {
  const header = ["measurement", "n", "p50 ms", "p95 ms", "target", "", "notes"];
  const lines = rows.map((row) => {
    const ok = meets(row);
    const t = row.target;
    const target = !t ? "" : t.metric === "rate" ? `>= ${t.min}` : t.metric === "ceiling" ? `< ${t.max}` : `${t.metric} < ${t.maxMs} ms`;
    const figures = row.value !== undefined ? `${fmtValue(row.value)} ${row.unit ?? ""}`.trim() : "";
    return [
      row.name,
      row.stats ? String(row.stats.count) : "",
      row.stats ? fmtMs(row.stats.p50) : "",
      row.stats ? fmtMs(row.stats.p95) : "",
      target,
      ok === null ? "" : ok ? "OK" : "MISS",
      [figures, row.note].filter(Boolean).join("; "),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 1 || i === 2 || i === 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd();
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
}

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

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const info = machine();
  console.log(`[bench] machine: ${info.cores} cores, ${info.cpuModel}, ${info.memoryGiB} GiB, node ${info.node}, ${info.platform}, load ${info.loadAverage.join(" ")}`);

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
  const contention: Record<string, number | null> = {};
  try {
    const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim()).filter(Boolean);
    const unknown = only?.filter((name) => !SECTIONS.some((section) => section.name === name)) ?? [];
    if (unknown.length > 0) throw new Error(`BENCH_ONLY: no section ${unknown.join(", ")}; sections: ${SECTIONS.map((x) => x.name).join(", ")}`);
    for (const section of SECTIONS.filter((x) => !only || only.includes(x.name))) {
      const before = cpuSnapshot(server.child.pid);
      await section.run(bench);
      contention[section.name] = otherCpuPercent(before, cpuSnapshot(server.child.pid));
    }
  } finally {
    await server.stop();
    runningServer = undefined;
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
      .map((c) => `${c.threads} threads x ${c.turnsPerThread} turns (${c.turns} turns, ${fmtBytes(c.contentChars)} of text, ${c.snapshots} file snapshots)`)
      .join("; ")}, linked by parentThreadId, in addition to the above`,
  );
  console.log(
    `Database: ${fmtBytes(sizesAfterFill.fileBytes)} after fill (${Object.entries(sizesAfterFill.objects)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmtBytes(v)}`)
      .join(", ")}); ${fmtBytes(sizesAfterRun.fileBytes)} + ${fmtBytes(sizesAfterRun.walBytes)} WAL after the run`,
  );
  if (copied) {
    console.log(`Database: PostgreSQL (${new URL(copied.url).host}); the fill copied into it from SQLite by db:copy's code in ${copied.seconds.toFixed(1)} s (${Math.round(copied.rows / copied.seconds)} rows/s, ${copied.rows} rows, verified by count and checksum)`);
  }
  console.log(`Server:   next start ready in ${readySeconds.toFixed(1)} s`);
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
        database: { kind: store.kind, afterFill: sizesAfterFill, afterRun: sizesAfterRun, copiedFromSqlite: copied && { rows: copied.rows, seconds: copied.seconds } },
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

(process.argv.includes(TOKENIZER_CHILD) ? tokenizerChild : main)().catch((error: unknown) => {
  console.error("[bench] failed:", error instanceof Error ? (error.stack ?? error.message) : error);
  killServer("SIGKILL");
  process.exit(1);
});
