import { trimText } from "./trim";
import { hasText, isPrompt, partsOf, toolOutputs } from "./turn-content";
import type { CompactionOptions, CompactionPlan, CompactionTurn, RangeOptions, TrimmedOutput, TrimOptions, WindowOptions } from "./types";

/**
 * Decides which turns a compaction replaces with a summary and which stay verbatim, following
 * co-cli's context governance (seeds/001 §4.2-4.5). Turn indexes are array positions: callers pass
 * the thread's turns in index order 0..n-1.
 *
 * Every plan partitions 0..n-1 into keptBefore + replaced + keptAfter. Plans that replace nothing
 * (noop, trim-tool-output) keep every turn in keptBefore.
 *
 * No plan separates a tool call from its result: a model rejects a history where a result has
 * lost its call (or a call its result), so a boundary that would split a pair moves to keep more.
 */
export function planCompaction(turns: CompactionTurn[], options: CompactionOptions): CompactionPlan {
  switch (options.strategy) {
    case "full":
      return planFull(turns);
    case "window":
      return planWindow(turns, options);
    case "range":
      return planRange(turns, options);
    case "trim-tool-output":
      return planTrim(turns, options);
  }
}

/**
 * Index of the last turn of the first run: the first assistant turn that answers in text. A run
 * may span tool calls (request, tool call, tool result, answer), so no fixed count is assumed.
 * -1 when no assistant turn has text (co-cli keeps no head then).
 * @internal exported for its tests
 */
export function firstRunEnd(turns: CompactionTurn[]): number {
  return turns.findIndex((turn) => turn.role === "assistant" && hasText(turn));
}

/**
 * Start of the last exchange: the last user turn that is a prompt (not only tool results). Trimming
 * protects it so the model can still reason about the latest tool output. A thread without any
 * prompt falls back to co-cli's safe tail, the last 2 turns.
 * @internal exported for its tests
 */
export function lastExchangeStart(turns: CompactionTurn[]): number {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn && isPrompt(turn)) return i;
  }
  return Math.max(0, turns.length - 2);
}

// ---------------------------------------------------------------------------------------------
// Strategies

function planFull(turns: CompactionTurn[]): CompactionPlan {
  // A full compaction writes two turns (summary + acknowledgement): fewer than two can't shrink.
  if (turns.length < 2)
    return noop(turns, "full", `Nothing to compact: a full compaction writes 2 turns and the thread has ${turns.length}.`);
  // Everything is replaced, so every tool call goes with its result and no boundary needs moving.
  return { ...emptyPlan("full"), replaced: range(0, turns.length - 1) };
}

function planWindow(turns: CompactionTurn[], options: WindowOptions): CompactionPlan {
  const n = turns.length;
  let tailStart: number;
  if (options.trigger === "turns") {
    const { maxTurns } = options;
    assertCount(maxTurns, "maxTurns");
    if (maxTurns === 0) return noop(turns, "window", "The turn limit is 0, which disables the sliding window.");
    if (n <= maxTurns) return noop(turns, "window", `Under the threshold: ${n} turns, limit ${maxTurns}.`);
    // co-cli: at least 4 turns for usable context, otherwise half the budget.
    tailStart = Math.max(0, n - Math.max(4, Math.floor(maxTurns / 2)));
  } else {
    const { maxTokens, tokens } = options;
    assertCount(maxTokens, "maxTokens");
    if (tokens.length !== n) throw new RangeError(`tokens has ${tokens.length} counts for ${n} turns; it needs one count per turn.`);
    if (maxTokens === 0) return noop(turns, "window", "The token limit is 0, which disables the sliding window.");
    let total = 0;
    for (const count of tokens) total += count;
    if (total <= maxTokens) return noop(turns, "window", `Under the threshold: ${total} tokens, limit ${maxTokens}.`);
    tailStart = tokenTailStart(tokens, Math.floor(maxTokens / 2));
  }

  let headEnd = firstRunEnd(turns);
  const adjustments: string[] = [];
  const groups = toolPairGroups(turns);
  // Boundaries only move outwards (head later, tail earlier), so this settles.
  for (let changed = true; changed && tailStart > headEnd + 1;) {
    changed = false;
    for (const group of groups) {
      if (tailStart <= headEnd + 1) break;
      const middle = group.members.filter((m) => m > headEnd && m < tailStart);
      if (middle.length === 0 || middle.length === group.members.length) continue;
      changed = true;
      if (group.members[0]! <= headEnd) {
        // The head ends later to take in the rest of the pair (usually the result).
        const newEnd = middle[middle.length - 1]!;
        const anchor = lastAtOrBefore(group.members, headEnd);
        adjustments.push(keptMessage(headEnd + 1, newEnd, newEnd, anchor, group));
        headEnd = newEnd;
      } else {
        // The tail starts earlier to take in the rest of the pair (usually the call).
        const newStart = group.members[0]!;
        const anchor = firstAtOrAfter(group.members, tailStart);
        adjustments.push(keptMessage(newStart, tailStart - 1, newStart, anchor, group));
        tailStart = newStart;
      }
    }
  }

  if (tailStart <= headEnd + 1) {
    const reason = adjustments.length > 0 ? "once tool calls were kept with their results" : "with this limit";
    return { ...noop(turns, "window", `Nothing between the first run and the kept tail ${reason}.`), adjustments };
  }
  return {
    ...emptyPlan("window"),
    keptBefore: range(0, headEnd),
    replaced: range(headEnd + 1, tailStart - 1),
    keptAfter: range(tailStart, n - 1),
    adjustments,
  };
}

/** The newest turns whose tokens fit the budget, but never fewer than 4 (or all there are). */
function tokenTailStart(tokens: number[], budget: number): number {
  let start = tokens.length;
  let sum = 0;
  while (start > 0 && sum + tokens[start - 1]! <= budget) {
    start--;
    sum += tokens[start]!;
  }
  return Math.min(start, Math.max(0, tokens.length - 4));
}

function planRange(turns: CompactionTurn[], options: RangeOptions): CompactionPlan {
  const n = turns.length;
  const { direction, at } = options;
  if (!Number.isInteger(at) || at < 0 || at >= n) {
    throw new RangeError(`Range compaction at turn ${at} is out of range: the thread has turns 0..${n - 1}.`);
  }
  const adjustments: string[] = [];
  const groups = toolPairGroups(turns);
  // Replaced run is [first, last]; a split pair shrinks it from the inner side.
  let first = direction === "up-to" ? 0 : at;
  let last = direction === "up-to" ? at : n - 1;
  for (let changed = true; changed && first <= last;) {
    changed = false;
    for (const group of groups) {
      if (first > last) break;
      const inside = group.members.filter((m) => m >= first && m <= last);
      if (inside.length === 0 || inside.length === group.members.length) continue;
      changed = true;
      if (direction === "up-to") {
        const newLast = group.members[0]! - 1;
        adjustments.push(keptMessage(newLast + 1, last, newLast + 1, firstAtOrAfter(group.members, last + 1), group));
        last = newLast;
      } else {
        const newFirst = group.members[group.members.length - 1]! + 1;
        adjustments.push(keptMessage(first, newFirst - 1, newFirst - 1, lastAtOrBefore(group.members, first - 1), group));
        first = newFirst;
      }
    }
  }
  if (first > last) {
    return { ...noop(turns, "range", "Nothing left to summarise once tool calls were kept with their results."), adjustments };
  }
  return {
    ...emptyPlan("range"),
    keptBefore: range(0, first - 1),
    replaced: range(first, last),
    keptAfter: range(last + 1, n - 1),
    adjustments,
  };
}

function planTrim(turns: CompactionTurn[], options: TrimOptions): CompactionPlan {
  const { maxChars } = options;
  assertCount(maxChars, "maxChars");
  if (maxChars === 0) return noop(turns, "trim-tool-output", "The character limit is 0, which disables trimming.");
  const protectedFrom = lastExchangeStart(turns);
  const trimmed: TrimmedOutput[] = [];
  for (let index = 0; index < protectedFrom; index++) {
    for (const output of toolOutputs(turns[index]!)) {
      if (output.text.length <= maxChars) continue;
      const charsAfter = trimText(output.text, maxChars).length;
      if (charsAfter >= output.text.length) continue; // just over the limit: the marker would make it longer
      trimmed.push({ index, partIndex: output.partIndex, charsBefore: output.text.length, charsAfter });
    }
  }
  if (trimmed.length === 0) {
    return noop(turns, "trim-tool-output", `No tool output before the last exchange is over ${maxChars} characters.`);
  }
  // Trimming keeps every turn (and every call id), so no tool call loses its result.
  return { ...emptyPlan("trim-tool-output"), keptBefore: range(0, turns.length - 1), trimmed, trimChars: maxChars };
}

// ---------------------------------------------------------------------------------------------
// Tool call / result pairing

/**
 * The turns holding a tool call and its result(s), ascending. Two kinds: a call id with the
 * turns of its results (only ids that have both), and a call turn with the tool turns without a
 * tool_result part that follow it (see bareOutputGroups). Groups may share turns; the boundary
 * moves settle over all of them.
 */
type PairGroup = { callTurns: Set<number>; members: number[] };

function toolPairGroups(turns: CompactionTurn[]): PairGroup[] {
  const calls = new Map<string, Set<number>>();
  const results = new Map<string, Set<number>>();
  turns.forEach((turn, index) => {
    for (const part of partsOf(turn)) {
      if (part.type === "tool_call") addTo(calls, part.id, index);
      else if (part.type === "tool_result") addTo(results, part.toolCallId, index);
    }
  });
  const groups: PairGroup[] = [];
  for (const [id, callTurns] of calls) {
    const resultTurns = results.get(id);
    if (!resultTurns) continue; // a call without a result pairs with nothing
    const members = [...new Set([...callTurns, ...resultTurns])].sort((a, b) => a - b);
    if (members.length > 1) groups.push({ callTurns, members });
  }
  return [...groups, ...bareOutputGroups(turns)];
}

/**
 * A tool turn without a tool_result part (appended through the API, imported from ChatGPT) has no
 * id to pair by: it answers the nearest earlier turn with tool_call parts, provided only tool
 * turns lie between them (a run of tool outputs after a call). One group per such call turn.
 */
function bareOutputGroups(turns: CompactionTurn[]): PairGroup[] {
  const groups: PairGroup[] = [];
  let current: PairGroup | null = null;
  turns.forEach((turn, index) => {
    const parts = partsOf(turn);
    if (parts.some((part) => part.type === "tool_call")) {
      current = { callTurns: new Set([index]), members: [index] };
      groups.push(current);
    } else if (turn.role !== "tool") {
      current = null; // a turn other than a tool turn ends the run
    } else if (current && !parts.some((part) => part.type === "tool_result")) {
      current.members.push(index);
    }
  });
  return groups.filter((group) => group.members.length > 1);
}

function addTo(map: Map<string, Set<number>>, key: string, index: number): void {
  const set = map.get(key);
  if (set) set.add(index);
  else map.set(key, new Set([index]));
}

/**
 * "Kept turn #15 verbatim: its tool call's result is in turn #16, which is kept." `subject` is the
 * turn of the pair that moved to the kept side, `anchor` the one already kept (0-based indexes,
 * numbered from #1 as the thread page numbers them).
 */
function keptMessage(from: number, to: number, subject: number, anchor: number, group: PairGroup): string {
  const isCall = group.callTurns.has(subject);
  const n = (index: number) => `#${index + 1}`;
  if (from === to) {
    return isCall
      ? `Kept turn ${n(subject)} verbatim: its tool call's result is in turn ${n(anchor)}, which is kept.`
      : `Kept turn ${n(subject)} verbatim: it holds the result of the tool call in turn ${n(anchor)}, which is kept.`;
  }
  return isCall
    ? `Kept turns ${n(from)}-${n(to)} verbatim: the tool call in turn ${n(subject)} has its result in turn ${n(anchor)}, which is kept.`
    : `Kept turns ${n(from)}-${n(to)} verbatim: turn ${n(subject)} holds the result of the tool call in turn ${n(anchor)}, which is kept.`;
}

function lastAtOrBefore(sorted: number[], limit: number): number {
  let found = sorted[0]!;
  for (const m of sorted) if (m <= limit) found = m;
  return found;
}

function firstAtOrAfter(sorted: number[], limit: number): number {
  return sorted.find((m) => m >= limit) ?? sorted[sorted.length - 1]!;
}

// ---------------------------------------------------------------------------------------------

function emptyPlan(strategy: CompactionPlan["strategy"]): CompactionPlan {
  return { strategy, keptBefore: [], replaced: [], keptAfter: [], trimmed: [], noop: null, adjustments: [] };
}

function noop(turns: CompactionTurn[], strategy: CompactionPlan["strategy"], reason: string): CompactionPlan {
  return { ...emptyPlan(strategy), keptBefore: range(0, turns.length - 1), noop: reason };
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

function assertCount(value: number, name: string): void {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number >= 0 (0 disables); got ${value}.`);
}
