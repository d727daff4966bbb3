// Fills a fresh SQLite file with threads, turns, chains and the planted search terms.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import Database, { type Statement } from "better-sqlite3";
import { titleFromContent } from "../../lib/domain/threads/title";
import { estimateTokens } from "../../lib/domain/tokens/tokens";
import { CONFIG, PLANTED_TURNS } from "./config";
import {
  CONTENT_WORDS,
  DIRS,
  THREAD_TOOLS,
  TITLE_TEMPLATES,
  assistantContent,
  chance,
  filePath,
  int,
  pick,
  pickModel,
  rng,
  sourceFile,
  stored,
  systemContent,
  toolContent,
  turnCounts,
  userContent,
  word,
} from "./generate";

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

export type FillSummary = {
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
export function fillDatabase(file: string): FillSummary {
  const started = performance.now();
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -262144");
  const inserts = prepareInserts(sqlite);

  const bigIndex = Math.floor(CONFIG.threads / 2);
  // Drawn in this order from the seeded generator: the same seed gives the same fill.
  const counts = turnCounts(CONFIG.threads, CONFIG.turns, bigIndex, CONFIG.bigThreadTurns);
  const planted = new Set<number>();
  while (planted.size < Math.min(PLANTED_TURNS, CONFIG.turns)) planted.add(Math.floor(rng() * CONFIG.turns));
  const spanMs = 120 * 24 * 3_600_000;
  const main: MainFill = {
    inserts,
    counts,
    bigIndex,
    planted,
    spanMs,
    firstCreated: Date.now() - spanMs - 3 * 24 * 3_600_000,
    ids: [],
    bigThreadId: "",
    turnOrdinal: 0,
    contentChars: 0,
  };
  sqlite.transaction(() => {
    for (let t = 0; t < CONFIG.threads; t++) fillThread(main, t);
  })();

  // Chains: each thread continues the previous one (parentThreadId), timestamps increasing along
  // the chain, placed a quarter into the time span so that they stay off the list's first pages.
  const clock = { ts: main.firstCreated + Math.floor(spanMs / 4) };
  const chains = sqlite.transaction(() => CONFIG.chains.map((spec) => fillChain(inserts, spec, clock)))();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
  return {
    threads: CONFIG.threads,
    turns: CONFIG.turns,
    bigThreadId: main.bigThreadId,
    contentChars: main.contentChars,
    avgTurnChars: Math.round(main.contentChars / CONFIG.turns),
    chains,
    seconds: (performance.now() - started) / 1000,
  };
}

type Inserts = { thread: Statement; turn: Statement; snapshot: Statement };

function prepareInserts(sqlite: Database.Database): Inserts {
  return {
    thread: sqlite.prepare(
      `INSERT INTO "Thread" ("id", "parentThreadId", "title", "toolName", "initialContext", "metadata", "source", "createdAt", "lastUpdatedAt", "expiresAt", "turnCount", "tokenEstimate", "modelsUsed")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    turn: sqlite.prepare(
      `INSERT INTO "Turn" ("id", "threadId", "index", "role", "content", "timestamp", "files", "images", "toolName", "modelProvider", "modelName", "modelMetadata", "parts", "tokenEstimate")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    snapshot: sqlite.prepare(`INSERT INTO "FileSnapshot" ("turnSeq", "position", "path", "content") VALUES (?, ?, ?, ?)`),
  };
}

/** The main fill's plan, and what runs on over all its threads. */
type MainFill = {
  inserts: Inserts;
  /** Turns per thread. */
  counts: number[];
  bigIndex: number;
  /** Turn ordinals (over the whole fill) that carry the planted identifier. */
  planted: Set<number>;
  spanMs: number;
  firstCreated: number;
  /** Thread ids so far, oldest first: a thread's parent is one of them. */
  ids: string[];
  bigThreadId: string;
  turnOrdinal: number;
  contentChars: number;
};

type Model = ReturnType<typeof pickModel>;

/** One thread of the main fill: its turns, then the thread row (it counts them), then theirs. */
function fillThread(main: MainFill, t: number): void {
  const id = randomUUID();
  main.ids.push(id);
  if (t === main.bigIndex) main.bigThreadId = id;
  const toolName = pick(THREAD_TOOLS);
  const threadModels = Array.from({ length: chance(0.7) ? 1 : int(2, 3) }, pickModel);
  const createdAt = main.firstCreated + Math.floor((t / CONFIG.threads) * main.spanMs) + int(0, 600_000);
  const count = main.counts[t]!;
  const stepMs = t === main.bigIndex ? 60_000 : int(5_000, 300_000);
  const startsWithSystem = chance(0.05);

  let ts = createdAt;
  let title: string | null = chance(0.3) ? pick(TITLE_TEMPLATES)(word(), pick(CONTENT_WORDS)) : null;
  let titleFromUser = title === null;
  let tokens = 0;
  const modelsUsed: string[] = [];
  const rows: unknown[][] = [];
  let previous = "";
  for (let i = 0; i < count; i++) {
    const role = mainRole(i, previous, startsWithSystem);
    previous = role;
    let content =
      role === "user" ? userContent() : role === "assistant" ? assistantContent() : role === "tool" ? toolContent() : systemContent();
    if (main.planted.has(main.turnOrdinal)) content += ` The lease fence failure comes from \`flakyLeaseRenewal\` in \`${filePath()}\`.`;
    main.turnOrdinal += 1;
    main.contentChars += content.length;
    const tokenEstimate = estimateTokens(content);
    tokens += tokenEstimate;
    const model = role === "assistant" ? (chance(0.8) ? threadModels[0]! : pick(threadModels)) : null;
    if (model && !modelsUsed.includes(model.name)) modelsUsed.push(model.name);
    if (titleFromUser && role === "user") {
      title = titleFromContent(content);
      titleFromUser = false;
    }
    ts += int(Math.floor(stepMs / 4), stepMs);
    const files = role === "user" && chance(0.3) ? JSON.stringify([filePath(), filePath()]) : "[]";
    const turnTool = chance(0.8) ? (chance(0.9) ? toolName : pick(THREAD_TOOLS)) : null;
    rows.push(turnRow(id, i, role, content, ts, files, turnTool, model, tokenEstimate));
  }
  const parent = t > 0 && chance(0.1) ? main.ids[Math.max(0, t - int(1, 50))]! : null;
  main.inserts.thread.run(
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
  for (const row of rows) main.inserts.turn.run(...row);
}

/** A main-fill turn's role: the first a user's (now and then a system prompt), then user, assistant and now and then a tool. */
function mainRole(i: number, previous: string, startsWithSystem: boolean): string {
  if (i === 0) return startsWithSystem ? "system" : "user";
  if (previous === "assistant") return chance(0.12) ? "tool" : "user";
  return previous === "user" || previous === "tool" ? "assistant" : "user";
}

/** A Turn row; an assistant's, half the time, with model metadata. */
function turnRow(
  threadId: string,
  index: number,
  role: string,
  content: string,
  ts: number,
  files: string,
  toolName: string | null,
  model: Model | null,
  tokenEstimate: number,
): unknown[] {
  return [
    randomUUID(),
    threadId,
    index,
    role,
    content,
    stored(ts),
    files,
    "[]",
    toolName,
    model?.provider ?? null,
    model?.name ?? null,
    model && chance(0.5)
      ? JSON.stringify({
          thinking_mode: pick(["low", "medium", "high"]),
          usage: { input_tokens: int(200, 90_000), output_tokens: int(50, 4_000) },
        })
      : null,
    null,
    tokenEstimate,
  ];
}

/** A chain of threads, each the previous one's continuation; `clock` runs on along it (and into the next chain). */
function fillChain(inserts: Inserts, spec: (typeof CONFIG.chains)[number], clock: { ts: number }): ChainSummary {
  const summary: ChainSummary = {
    ...spec,
    turns: spec.threads * spec.turnsPerThread,
    threadIds: [],
    lastThreadId: "",
    snapshots: 0,
    contentChars: 0,
  };
  let parent: string | null = null;
  for (let t = 0; t < spec.threads; t++) {
    const id = randomUUID();
    const toolName = pick(THREAD_TOOLS);
    const model = pickModel();
    const createdAt = (clock.ts += int(60_000, 600_000));
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
      clock.ts += int(10_000, 80_000);
      const row = turnRow(
        id,
        i,
        role,
        content,
        clock.ts,
        JSON.stringify(files),
        toolName,
        role === "assistant" ? model : null,
        tokenEstimate,
      );
      turnRows.push({ row, snapshot });
    }
    inserts.thread.run(
      id,
      parent,
      title,
      toolName,
      "{}",
      null,
      "api",
      stored(createdAt),
      stored(clock.ts),
      null,
      spec.turnsPerThread,
      tokens,
      JSON.stringify([model.name]),
    );
    for (const { row, snapshot } of turnRows) {
      const seq = inserts.turn.run(...row).lastInsertRowid;
      if (snapshot) {
        inserts.snapshot.run(seq, 0, snapshot[0], snapshot[1]);
        summary.snapshots += 1;
      }
    }
    summary.threadIds.push(id);
    parent = id;
  }
  summary.lastThreadId = parent!;
  return summary;
}
