/**
 * The usage report: tokens, money and counts of model responses over a range of days, grouped
 * by a period, model, provider, project, source or thread. The shape GET /api/usage answers, the
 * /usage page draws and `npm run usage` prints. Pure.
 */
import type { SessionFigures } from "../types";
import type { AskedRange } from "./usage-period";

export const USAGE_GROUPS = [
  "day",
  "week",
  "month",
  "model",
  "provider",
  "project",
  "source",
  "thread",
  "block",
  "person",
  "machine",
] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];
/** The calendar periods (days, weeks, months of a zone). */
export const TIME_GROUPS: readonly UsageGroup[] = ["day", "week", "month"];
/** The groups whose rows are listed in time order (the others costliest first). */
const TIME_ORDERED: readonly UsageGroup[] = [...TIME_GROUPS, "block"];

/** The rows' order: time groups ascending by default, the others descending by cost. */
export const USAGE_ORDERS = ["asc", "desc"] as const;
export type UsageOrder = (typeof USAGE_ORDERS)[number];

/** What a row or the totals count. Costs are sums of per-response prices; unpriced responses add nothing to costUsd. */
export type UsageFigures = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costUsd: number;
  /** Model responses with usage. */
  responses: number;
  /** Distinct threads those responses belong to. */
  threads: number;
  /** Responses whose model has no known price (counted in the tokens, not in costUsd). */
  unpricedResponses: number;
  /** Responses whose usage the source did not report, estimated by our tokenizer (a lower bound). */
  estimatedResponses: number;
};

export type UsageRow = UsageFigures & {
  /** The day ("YYYY-MM-DD"), week (its Monday), month ("YYYY-MM"), model, provider, project, source, thread id, person's id or machine; "" for none. */
  key: string;
  /**
   * For groupBy=thread: the thread's title (null when it has none, or when the reader may not read
   * the thread: an admin's team figures). For groupBy=person: the person's name. For
   * groupBy=machine: null (the key is the machine's name; "" for the server's own folders).
   */
  title?: string | null;
  /** For groupBy=thread: a thread the reader may not read (an admin's team figures), shown without its title or a link. */
  private?: boolean;
  /** With breakdown=model: the row's figures per model, the costliest first. */
  breakdown?: (UsageFigures & { key: string })[];
  /**
   * For groupBy=thread, where each row is a session (the thread with its sub-agent threads, their
   * rows added to its own): the figures' split into the thread's own responses, its sub-agents' and
   * the compaction runs', and what they cover (lib/domain/usage/thread-figures.ts).
   */
  figures?: SessionFigures;
} & Partial<UsageBlockFields>;

/**
 * For groupBy=block: a 5-hour billing window as Claude plans meter use and ccusage counts it. A
 * block starts at its first response's hour (UTC, floored) and ends 5 hours later; the next
 * response after that starts a new block. The row's key is `start`.
 */
export type UsageBlockFields = {
  /** ISO instant: the first response's hour, floored. */
  start: string;
  /** ISO instant: start + 5 hours. */
  end: string;
  /** ISO instant of the block's last response. */
  lastResponseAt: string;
  /** Whether the block is still open: now is before its end and within 5 hours of its last response. */
  isActive: boolean;
  /** The models its responses named, in order of first use. */
  models: string[];
  /** The active block only: tokens (input, output and cache) and dollars per minute between its first and last response. */
  burnRate?: { tokensPerMinute: number; costUsdPerMinute: number };
  /** The active block only: its tokens and cost at its end if the burn rate holds. */
  projection?: { totalTokens: number; costUsd: number; remainingMinutes: number };
  /** With a token limit: whether the block's tokens exceed it. */
  overTokenLimit?: boolean;
};

type UsageFilters = { source?: string; project?: string; model?: string };

/**
 * A report as asked for: its range may be open at either end (usageReport resolves it against the
 * data, lib/domain/usage/usage-period.ts resolveRange). `perThread`: groupBy=thread without rolling
 * sub-agent threads into their sessions. `tokenLimit`: groupBy=block marks the blocks above it.
 */
export type UsageQuery = AskedRange &
  UsageFilters & {
    groupBy: UsageGroup;
    breakdown?: "model";
    limit?: number;
    order?: UsageOrder;
    perThread?: boolean;
    tokenLimit?: number | "max";
  };

export type UsageReport = {
  groupBy: UsageGroup;
  since: string;
  until: string;
  tz: string;
  filters: UsageFilters;
  /** groupBy=block with a token limit: the limit as a number ("max" resolved); null when "max" found no completed block. */
  tokenLimit?: number | null;
  rows: UsageRow[];
  totals: UsageFigures & { unpricedModels: string[] };
};

export function emptyFigures(): UsageFigures {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
    responses: 0,
    threads: 0,
    unpricedResponses: 0,
    estimatedResponses: 0,
  };
}

const SUMMED = [
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "reasoningTokens",
  "costUsd",
  "responses",
  "unpricedResponses",
  "estimatedResponses",
] as const;

/** Adds `from` into `into` (all but `threads`, which are distinct and cannot be summed). */
export function addFigures(into: UsageFigures, from: UsageFigures): UsageFigures {
  for (const field of SUMMED) into[field] += from[field];
  return into;
}

/**
 * Rows in the order a report lists them: periods and blocks in time order, the others costliest
 * first (then by tokens, then key). `order` reverses either: "desc" puts the latest period first,
 * "asc" the cheapest row.
 */
export function sortRows<R extends UsageFigures & { key: string }>(rows: R[], group: UsageGroup, order?: UsageOrder): R[] {
  const byKey = (a: R, b: R) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  if (TIME_ORDERED.includes(group)) return rows.sort((a, b) => (order === "desc" ? -byKey(a, b) : byKey(a, b)));
  return rows.sort((a, b) => (order === "asc" ? -costliestFirst(a, b) : costliestFirst(a, b)) || byKey(a, b));
}

type CostAndTokens = Pick<UsageFigures, "costUsd" | "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens">;

/** The order of rows that are not periods: costliest first, then by tokens (0 when they tie; the caller breaks ties by key). */
export function costliestFirst(a: CostAndTokens, b: CostAndTokens): number {
  const tokens = (r: CostAndTokens) => r.inputTokens + r.outputTokens + r.cacheReadTokens + r.cacheWriteTokens;
  return b.costUsd - a.costUsd || tokens(b) - tokens(a);
}
