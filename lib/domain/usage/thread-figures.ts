/**
 * One figure per thread: the tokens and the cost a thread's session used, as the thread list, the
 * thread header and /usage all show them. A session is the thread, its sub-agent threads (all
 * levels) and the compaction runs of both; each response counts once (a fork's or a compacted
 * revision's copies of its source's turns count in the source, lib/db/usage/usage-aggregates.ts). The
 * agent's own figure ("agent says") is kept beside ours, never added. Pure.
 */
import { formatUsd, type PricedResponse } from "./cost";
import type { ReportedCost, SessionFigures, UsagePart } from "../types";

export type { SessionFigures, UsagePart } from "../types";

const FIELDS = [
  "inputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "outputTokens",
  "reasoningTokens",
  "costUsd",
  "responses",
  "unpricedResponses",
  "estimatedResponses",
] as const;

export function emptyPart(): UsagePart {
  return {
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
    responses: 0,
    unpricedResponses: 0,
    estimatedResponses: 0,
  };
}

/** The sum of some parts. */
export function addParts(...parts: readonly UsagePart[]): UsagePart {
  const sum = emptyPart();
  for (const part of parts) for (const field of FIELDS) sum[field] += part[field];
  return sum;
}

/**
 * `whole` without `part`, where `part` is a share of it (a thread's compaction runs within its
 * summed usage). Never below zero: a cost's rounding dust is not a negative amount.
 */
export function withoutPart(whole: UsagePart, part: UsagePart): UsagePart {
  const rest = emptyPart();
  for (const field of FIELDS) rest[field] = Math.max(0, whole[field] - part[field]);
  if (rest.costUsd < 1e-12) rest.costUsd = 0;
  return rest;
}

/** What some priced responses used, summed as usage buckets sum them (lib/domain/usage/usage-buckets.ts). */
export function partOfResponses(responses: readonly PricedResponse[]): UsagePart {
  const part = emptyPart();
  for (const { usage, cost, responses: count = 1 } of responses) {
    part.inputTokens += usage.inputTokens;
    part.cacheReadTokens += usage.cacheReadTokens;
    part.cacheWriteTokens += usage.cacheWriteTokens;
    part.outputTokens += usage.outputTokens;
    part.reasoningTokens += usage.reasoningTokens;
    part.responses += count;
    if (cost.priced) part.costUsd += cost.totalUsd;
    else part.unpricedResponses += count;
    if (usage.source === "estimated") part.estimatedResponses += count;
  }
  return part;
}

/**
 * A session's figures from its parts: the thread's own, each sub-agent thread's, its compaction
 * runs'. A sub-agent thread without responses adds nothing and is not named in what the figure covers.
 */
export function sessionFigures(input: {
  thread: UsagePart;
  subagents: readonly UsagePart[];
  compactionRuns: UsagePart;
  compactionRunCount: number;
  unpricedModels?: readonly string[];
  reported?: ReportedCost | null;
}): SessionFigures {
  const subagents = addParts(...input.subagents);
  const figures: SessionFigures = {
    total: addParts(input.thread, subagents, input.compactionRuns),
    parts: { thread: input.thread, subagents, compactionRuns: input.compactionRuns },
    subagentThreads: input.subagents.filter((part) => part.responses > 0).length,
    compactionRuns: input.compactionRunCount,
    unpricedModels: [...new Set(input.unpricedModels ?? [])].sort(),
  };
  if (input.reported && input.reported.responses > 0) figures.reported = input.reported;
  return figures;
}

/** A thread's token figure: how many, and whether it is an estimate (shown with "~"). */
export type TokenFigure = { count: number; approximate: boolean };

/**
 * The rule, the same wherever a thread's tokens are shown: the tokens its model responses
 * processed, input + cache reads + cache writes + output, as each response's source reported
 * them (counted). Reasoning is not added: every source but Gemini CLI counts it inside output,
 * and Gemini's thoughts show in the usage breakdown, not here. Where a response's source reported
 * no usage, it was estimated with our tokenizer (the turns before it as input, a lower bound):
 * then the whole figure is an estimate, "~". A thread without responses used no tokens: 0, counted.
 */
export function tokenFigure(part: UsagePart): TokenFigure {
  return {
    count: part.inputTokens + part.cacheReadTokens + part.cacheWriteTokens + part.outputTokens,
    approximate: part.estimatedResponses > 0,
  };
}

/** 1234 -> "1.2k", 1234567 -> "1.2M" (as lib/format.ts formatCount, which lib/domain may not import). */
function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** "458k tokens", "~1.2k tokens", "1 token". */
export function tokenText(part: UsagePart): string {
  const { count, approximate } = tokenFigure(part);
  return `${approximate ? "~" : ""}${compactCount(count)} ${count === 1 ? "token" : "tokens"}`;
}

/** "$1.24"; "unpriced" when no response has a known price; "$1.24 + 2 unpriced" when some have none. */
export function costText(part: UsagePart): string {
  if (part.responses > 0 && part.unpricedResponses === part.responses) return "unpriced";
  return part.unpricedResponses > 0 ? `${formatUsd(part.costUsd)} + ${part.unpricedResponses} unpriced` : formatUsd(part.costUsd);
}

/** What the figure covers beyond the thread: "incl. 2 sub-agents and 1 compaction run"; null for the thread alone. */
export function coverageText(figures: Pick<SessionFigures, "subagentThreads" | "compactionRuns">): string | null {
  const parts = [
    figures.subagentThreads > 0 ? plural(figures.subagentThreads, "sub-agent") : null,
    figures.compactionRuns > 0 ? plural(figures.compactionRuns, "compaction run") : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? `incl. ${parts.join(" and ")}` : null;
}

/** The split as lines a hover or a disclosure lists: each part's cost and tokens, the empty ones left out (the thread's own always shown). */
export function splitLines(figures: SessionFigures): { label: string; cost: string; tokens: string }[] {
  const { thread, subagents, compactionRuns } = figures.parts;
  const lines = [{ label: "This thread", part: thread, show: true }];
  lines.push({
    label: figures.subagentThreads === 1 ? "Its sub-agent" : `Its ${figures.subagentThreads} sub-agents`,
    part: subagents,
    show: figures.subagentThreads > 0,
  });
  lines.push({
    label: figures.compactionRuns === 1 ? "Its compaction run" : `Its ${figures.compactionRuns} compaction runs`,
    part: compactionRuns,
    show: figures.compactionRuns > 0,
  });
  return lines.filter((line) => line.show).map(({ label, part }) => ({ label, cost: costText(part), tokens: tokenText(part) }));
}
