// Token usage: `event_msg token_count` carries the thread's cumulative totals; each positive
// difference is one model request's usage and goes on the assistant turn holding that request's
// output. The ledger keeps the totals, the order counts come in and the request waiting for one.
import type { JsonValue } from "@/lib/domain/types";
import { isObject, type ImportedTurn, type ImportedUsage, type SkippedEntry } from "../types";
import { defined, num } from "./values";

type Totals = { input: number; cached: number; output: number; reasoning: number; total: number };
const ZERO: Totals = { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };

function totalsOf(value: JsonValue | undefined): Totals | null {
  if (!isObject(value)) return null;
  const input = num(value.input_tokens);
  const output = num(value.output_tokens);
  if (input === null || output === null) return null;
  return {
    input,
    output,
    cached: num(value.cached_input_tokens) ?? 0,
    reasoning: num(value.reasoning_output_tokens) ?? 0,
    total: num(value.total_tokens) ?? input + output,
  };
}

function minus(a: Totals, b: Totals): Totals {
  return {
    input: a.input - b.input,
    cached: a.cached - b.cached,
    output: a.output - b.output,
    reasoning: a.reasoning - b.reasoning,
    total: a.total - b.total,
  };
}

function sameTotals(a: Totals, b: Totals): boolean {
  return a.input === b.input && a.cached === b.cached && a.output === b.output && a.reasoning === b.reasoning && a.total === b.total;
}

/** OpenAI counts cached input inside input; ImportedUsage keeps them apart. */
function usageOf(delta: Totals): ImportedUsage {
  return {
    inputTokens: delta.input - delta.cached,
    cacheReadTokens: delta.cached,
    outputTokens: delta.output,
    reasoningTokens: delta.reasoning,
  };
}

export function addUsage(a: ImportedUsage | null | undefined, b: ImportedUsage): ImportedUsage {
  if (!a) return { ...b };
  const sum = (x?: number, y?: number) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return defined({
    inputTokens: sum(a.inputTokens, b.inputTokens),
    cacheReadTokens: sum(a.cacheReadTokens, b.cacheReadTokens),
    cacheWriteTokens: sum(a.cacheWriteTokens, b.cacheWriteTokens),
    outputTokens: sum(a.outputTokens, b.outputTokens),
    reasoningTokens: sum(a.reasoningTokens, b.reasoningTokens),
  }) as ImportedUsage;
}

export function usageTotal(usage: ImportedUsage): number {
  return (usage.inputTokens ?? 0) + (usage.cacheReadTokens ?? 0) + (usage.outputTokens ?? 0);
}

/** A model request: the turn its first output went to, and whether its usage came. */
type Request = { turn: ImportedTurn; paid: boolean };

/**
 * Newer builds write a request's count after its items ("trailing"), 0.3x builds before them
 * ("leading"); the first positive count tells which: trailing if a request is waiting unpaid, else
 * leading. Trailing: a count pays the latest unpaid request (even when a fast tool output already
 * came in between). Leading: a count waits for the next request.
 */
export class TokenLedger {
  private previousTotals: Totals | null = null;
  private order: "leading" | "trailing" | null = null;
  private latestRequest: Request | null = null;
  /** Counted usage no request has taken yet. */
  pending: ImportedUsage | null = null;
  /** The latest request's own size (its context), for compaction markers. */
  lastContextTokens: number | null = null;
  lastCumulativeTokens: number | null = null;
  /** Usage of turns a rollback dropped. */
  dropped: ImportedUsage | null = null;

  constructor(
    private readonly skipped: SkippedEntry[],
    private readonly warnings: string[],
  ) {}

  /** A new request's first output went to `turn`: a count that came first (leading order) is its. */
  startRequest(turn: ImportedTurn): void {
    this.latestRequest = { turn, paid: false };
    if (this.pending) {
      // Leading order: this request's count came first. Trailing order: a count that found no
      // request to pay; the request still gets its own count later (so it stays unpaid).
      turn.usage = addUsage(turn.usage, this.pending);
      this.pending = null;
    }
  }

  /** A rollback: the turns of the latest request are gone; their usage is remembered. */
  rollBack(droppedTurns: ImportedTurn[]): void {
    this.latestRequest = null;
    for (const turn of droppedTurns) if (turn.usage) this.dropped = addUsage(this.dropped, turn.usage);
  }

  /** A `token_count` event's `info`. */
  count(line: number, info: JsonValue | undefined): void {
    if (info === null || info === undefined) return; // rate-limit-only events
    if (!isObject(info)) return void this.skipped.push({ line, reason: "token_count info: not an object" });
    const totals = totalsOf(info.total_token_usage);
    const last = totalsOf(info.last_token_usage);
    if (last) this.lastContextTokens = last.total;
    if (!totals) return void this.skipped.push({ line, reason: "token_count info.total_token_usage: missing input_tokens/output_tokens" });
    this.lastCumulativeTokens = totals.total;
    const delta = this.deltaOf(line, totals, last);
    if (delta) this.attribute(usageOf(delta));
  }

  /** What this count adds to the previous one; null for a repeated event or the file's first partial count. */
  private deltaOf(line: number, totals: Totals, last: Totals | null): Totals | null {
    if (this.previousTotals === null) {
      // The first count of a whole thread is its first request (total = last). More than that
      // means earlier history is missing from this file: that part is not attributed.
      if (last && !sameTotals(totals, last)) {
        this.previousTotals = totals;
        this.warnings.push(
          `line ${line}: the first token count is cumulative over history not in this file (${totals.total} tokens); usage counts from there`,
        );
        return null;
      }
      this.previousTotals = ZERO;
    }
    let delta = minus(totals, this.previousTotals);
    if (delta.input === 0 && delta.cached === 0 && delta.output === 0 && delta.reasoning === 0 && delta.total === 0) return null; // a repeated event
    if (delta.input < 0 || delta.cached < 0 || delta.output < 0 || delta.reasoning < 0 || delta.total < 0) {
      this.warnings.push(
        `line ${line}: cumulative token totals went down (${this.previousTotals.total} -> ${totals.total}); counted as a restart from zero`,
      );
      delta = totals;
    }
    this.previousTotals = totals;
    return delta;
  }

  private attribute(usage: ImportedUsage): void {
    const unpaid = this.latestRequest && !this.latestRequest.paid ? this.latestRequest : null;
    this.order ??= unpaid ? "trailing" : "leading";
    if (this.order === "trailing" && unpaid) {
      unpaid.turn.usage = addUsage(unpaid.turn.usage, usage);
      unpaid.paid = true;
    } else {
      this.pending = addUsage(this.pending, usage);
    }
  }
}
