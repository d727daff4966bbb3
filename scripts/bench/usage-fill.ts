// A year of agent sessions with reported usage, for the usage section: its own SQLite file,
// written with better-sqlite3 in one transaction, as fill.ts writes the main one.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import Database, { type Statement } from "better-sqlite3";
import { titleFromContent } from "../../lib/domain/threads/title";
import { estimateTokens } from "../../lib/domain/tokens/tokens";
import { makeRng } from "../../lib/testing/rng";
import { CONFIG } from "./config";
import { stored } from "./generate";

/** The usage the fill wrote, summed, to check a year's report against. */
export type UsageSums = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  responses: number;
};

export type UsageFillSummary = {
  threads: number;
  turns: number;
  /** Assistant turns, each with reported usage. */
  responses: number;
  /** The local days (UTC) the data covers, as a report's since/until. */
  since: string;
  until: string;
  models: Record<string, number>;
  sums: UsageSums;
  /** Tool calls (an assistant turn's, answered by the tool turn after it) and the ones whose result failed. */
  toolCalls: number;
  toolErrors: number;
  /** The longest session, to append to. */
  appendThreadId: string;
  appendThreadTurns: number;
  seconds: number;
};

type Model = { provider: string; name: string; style: "anthropic" | "openai" | "gemini" | "plain" };
const SONNET: Model = { provider: "anthropic", name: "claude-sonnet-4-5", style: "anthropic" };
const HAIKU: Model = { provider: "anthropic", name: "claude-haiku-4-5", style: "anthropic" };
const GPT5: Model = { provider: "openai", name: "gpt-5", style: "openai" };
const GEMINI: Model = { provider: "google", name: "gemini-2.5-pro", style: "gemini" };
/** No price is known for it: its responses are counted, unpriced. */
const UNKNOWN: Model = { provider: "local", name: "acme-coder-7b", style: "plain" };

/** Where sessions come from, how often, and the models each uses (the first most). */
const SOURCES: { source: string; tool: string; share: number; models: Model[] }[] = [
  { source: "import:claude-code", tool: "claude-code", share: 0.55, models: [SONNET, HAIKU] },
  { source: "import:codex", tool: "codex", share: 0.2, models: [GPT5] },
  { source: "import:gemini-cli", tool: "gemini-cli", share: 0.1, models: [GEMINI] },
  { source: "api", tool: "chat", share: 0.15, models: [SONNET, GPT5, UNKNOWN] },
];
const PROJECTS = ["threadline", "billing-service", "mobile-app", "infra", "data-pipeline", "docs-site", "auth-gateway", "search"].map(
  (p) => `/home/dev/${p}`,
);
const WORDS = `the a to of and in is it that for on with this we fix test build error type file function call return value state
cache token session query update change response client handler module route database schema index thread turn model retry
async promise queue worker job api field string list import export component render hook props config server deploy release`.split(/\s+/);

const DAY_MS = 86_400_000;

/**
 * Fills `file` (migrated, empty) with CONFIG.usageThreads sessions of varied length summing to
 * CONFIG.usageTurns turns, spread over the 365 days before today (UTC), weekdays and working
 * hours busier: user, assistant and tool turns, every assistant turn with reported usage in its
 * source's style (Anthropic's cache reads and writes, OpenAI's and Gemini's reasoning). An
 * assistant turn a tool turn follows calls a tool; one result in twenty fails.
 */
export function fillUsageDatabase(file: string): UsageFillSummary {
  const started = performance.now();
  const draw = drawsFrom(CONFIG.seed + 365);
  const threads = CONFIG.usageThreads;
  const total = CONFIG.usageTurns;
  const counts = sessionLengths(draw, threads, total);

  const today = Math.floor(Date.now() / DAY_MS);
  const firstDay = today - 365;
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -262144");
  const fill: UsageFill = {
    draw,
    insertThread: sqlite.prepare(
      `INSERT INTO "Thread" ("id", "title", "toolName", "initialContext", "metadata", "source", "project", "createdAt", "lastUpdatedAt", "turnCount", "tokenEstimate", "modelsUsed")
     VALUES (?, ?, ?, '{}', NULL, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertTurn: sqlite.prepare(
      `INSERT INTO "Turn" ("id", "threadId", "index", "role", "content", "timestamp", "files", "images", "toolName", "modelProvider", "modelName", "modelMetadata", "tokenEstimate", "parts")
     VALUES (?, ?, ?, ?, ?, ?, '[]', '[]', ?, ?, ?, ?, ?, ?)`,
    ),
    firstDay,
    sums: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, responses: 0 },
    models: {},
    longest: { id: "", turns: 0 },
    lastDay: firstDay,
    toolCalls: 0,
    toolErrors: 0,
  };
  sqlite.transaction(() => {
    for (let t = 0; t < threads; t++) fillSession(fill, counts[t]!);
  })();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
  const dayKey = (d: number) => new Date(d * DAY_MS).toISOString().slice(0, 10);
  return {
    threads,
    turns: total,
    responses: fill.sums.responses,
    since: dayKey(firstDay),
    // Today at least: the bench appends to a session and reports it.
    until: dayKey(Math.max(fill.lastDay, today)),
    models: fill.models,
    sums: fill.sums,
    toolCalls: fill.toolCalls,
    toolErrors: fill.toolErrors,
    appendThreadId: fill.longest.id,
    appendThreadTurns: fill.longest.turns,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The fill's own seeded draws: the same whatever the main fill drew before it. */
type Draws = {
  rng: () => number;
  int: (min: number, max: number) => number;
  chance: (p: number) => boolean;
  pick: <T>(items: readonly T[]) => T;
  /** Words, between min and max of them. */
  text: (min: number, max: number) => string;
};

function drawsFrom(seed: number): Draws {
  const rng = makeRng(seed);
  const int = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
  return {
    rng,
    int,
    chance: (p: number) => rng() < p,
    pick,
    text: (min: number, max: number) => Array.from({ length: int(min, max) }, () => pick(WORDS)).join(" "),
  };
}

/** Lengths: log-normal around 120 turns (a few of thousands), scaled to the total, at least 2 each. */
function sessionLengths({ rng }: Draws, threads: number, total: number): number[] {
  const raw = Array.from({ length: threads }, () =>
    Math.exp(Math.log(120) + Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng()) * 0.9),
  );
  const rawSum = raw.reduce((a, b) => a + b, 0);
  const counts = raw.map((r) => Math.max(2, Math.round((r * total) / rawSum)));
  let diff = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % threads) {
    const step = diff > 0 ? 1 : counts[i]! > 2 ? -1 : 0;
    counts[i]! += step;
    diff -= step;
  }
  return counts;
}

/** What the fill writes with, and what it sums while it writes. */
type UsageFill = {
  draw: Draws;
  insertThread: Statement;
  insertTurn: Statement;
  firstDay: number;
  sums: UsageSums;
  models: Record<string, number>;
  longest: { id: string; turns: number };
  lastDay: number;
  toolCalls: number;
  toolErrors: number;
};

const TOOL_NAMES = ["Bash", "Read", "Edit", "Grep", "exec_command", "apply_patch", "read_file", "WebSearch"];

/** One session of `count` turns: its turns, then the thread row (it counts them), then theirs. */
function fillSession(fill: UsageFill, count: number): void {
  const { int, chance, pick, text } = fill.draw;
  const id = randomUUID();
  const r = fill.draw.rng();
  let acc = 0;
  const origin = SOURCES.find((s) => (acc += s.share) > r) ?? SOURCES[0]!;
  const project = chance(0.9) ? pick(PROJECTS) : null;
  // A weekday more often than a weekend day, working hours more often than the night.
  let day = fill.firstDay + int(0, 364);
  if ((day + 3) % 7 >= 5 && chance(0.6)) day = fill.firstDay + int(0, 364);
  const hour = chance(0.8) ? int(8, 19) : int(0, 23);
  let ts = day * DAY_MS + hour * 3_600_000 + int(0, 3_599_999);
  const createdAt = ts;
  const modelsUsed: string[] = [];
  let title: string | null = null;
  let tokens = 0;
  let context = int(8_000, 20_000);
  let previous = "";
  const rows: unknown[][] = [];
  for (let i = 0; i < count; i++) {
    const role = i === 0 ? "user" : previous === "assistant" ? (chance(0.5) ? "tool" : "user") : "assistant";
    previous = role;
    const content = role === "user" ? text(5, 40) : role === "tool" ? text(10, 60) : text(8, 50);
    const tokenEstimate = estimateTokens(content);
    tokens += tokenEstimate;
    if (title === null && role === "user") title = titleFromContent(content);
    // Seconds apart within an exchange, minutes to a day between a session's sittings.
    ts += role === "user" ? (chance(0.02) ? int(3_600_000, DAY_MS) : int(10_000, 300_000)) : int(2_000, 60_000);
    let model: Model | null = null;
    let metadata: string | null = null;
    if (role === "assistant") {
      model = origin.models.length === 1 || chance(0.75) ? origin.models[0]! : pick(origin.models.slice(1));
      if (!modelsUsed.includes(model.name)) modelsUsed.push(model.name);
      metadata = JSON.stringify(responseUsage(fill, model, context));
      fill.models[model.name] = (fill.models[model.name] ?? 0) + 1;
      fill.sums.responses += 1;
      context = Math.min(190_000, context + int(200, 3_000));
    }
    rows.push([
      randomUUID(),
      id,
      i,
      role,
      content,
      stored(ts),
      origin.tool,
      model?.provider ?? null,
      model?.name ?? null,
      metadata,
      tokenEstimate,
      null,
    ]);
    if (role === "tool") {
      // The assistant turn before calls the tool this turn answers.
      const callId = `call-${i}`;
      const failed = chance(0.05);
      rows[i - 1]![11] = JSON.stringify([{ type: "tool_call", id: callId, name: pick(TOOL_NAMES), arguments: {} }]);
      rows[i]![11] = JSON.stringify([{ type: "tool_result", toolCallId: callId, content, ...(failed ? { isError: true } : {}) }]);
      fill.toolCalls += 1;
      if (failed) fill.toolErrors += 1;
    }
  }
  fill.insertThread.run(
    id,
    title,
    origin.tool,
    origin.source,
    project,
    stored(createdAt),
    stored(ts),
    count,
    tokens,
    JSON.stringify(modelsUsed),
  );
  for (const row of rows) fill.insertTurn.run(...row);
  if (count > fill.longest.turns) fill.longest = { id, turns: count };
  fill.lastDay = Math.max(fill.lastDay, Math.floor(ts / DAY_MS));
}

/** A response's usage in its source's style (added to the sums); `context` grows along the session (cache reads). */
function responseUsage({ draw: { int, chance }, sums }: UsageFill, model: Model, context: number): Record<string, unknown> {
  const output = int(20, 1_500);
  if (model.style === "anthropic") {
    const write = chance(0.3) ? int(200, 6_000) : 0;
    const u = {
      inputTokens: int(1, 40),
      cacheWriteTokens: write,
      cacheReadTokens: context,
      outputTokens: output,
      cacheWrite5mTokens: write,
      cacheWrite1hTokens: 0,
      source: "reported",
    };
    sums.inputTokens += u.inputTokens;
    sums.cacheWriteTokens += write;
    sums.cacheReadTokens += context;
    sums.outputTokens += output;
    return { messageId: `msg_${randomUUID().slice(0, 24)}`, usage: u };
  }
  const reasoning = model.style === "plain" ? 0 : int(0, output);
  const fresh = int(100, 4_000);
  const u = {
    inputTokens: fresh,
    cacheReadTokens: context,
    outputTokens: output,
    ...(reasoning > 0 && { reasoningTokens: reasoning }),
    source: "reported",
  };
  sums.inputTokens += fresh;
  sums.cacheReadTokens += context;
  sums.outputTokens += output;
  sums.reasoningTokens += reasoning;
  if (model.style === "gemini")
    return {
      tokens: { input: fresh, output, cached: context, thoughts: reasoning, tool: 0, total: fresh + output + context + reasoning },
      usage: u,
    };
  return model.style === "openai" ? { effort: "medium", usage: u } : { usage: u };
}
