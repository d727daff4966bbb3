// A Claude Code session's lines made into what its import stores: the planner's pass, then the
// turns (lib/importers/claude-code). No database here: the parse worker runs this as the importing
// thread does (claude-code-session.ts), and the import that stores a session takes what either made.
import type { SourceFile } from "@/lib/db/imports/imports";
import { TurnPreparer, type PreparedThreadTurn } from "@/lib/db/imports/imported-turn-rows";
import type { SourceOutline } from "@/lib/db/imports/turn-stream-import";
import type { JsonObject } from "@/lib/domain/types";
import {
  claudeCodePlanner,
  claudeCodeTurnReader,
  looksLikeClaudeCode,
  type Plan,
  type SessionPlanner,
  type TurnReader,
} from "@/lib/importers/claude-code";
import type { ImportLimits } from "@/lib/importers/long-lines";
import type { NumberedLine, ThreadTurn } from "@/lib/importers/types";
import { firstNonBlankLine, IN_MEMORY_BYTES, LineReader, sourceDigest, type SourceBytes } from "./file-lines";

/** A followed session last written this long ago or less is taken to be live. */
export const LIVE_WITHIN_MS = 60 * 60 * 1000;

/**
 * The entries the first pass parsed, by line, for the second pass to take instead of the lines: held
 * when the bytes read are few enough to be held (as a file up to IN_MEMORY_BYTES is, see
 * file-lines.ts; its entries take about 1.5 times its bytes), else null and the lines are read again.
 */
export type HeldEntries = { line: number; entry: JsonObject }[] | null;

/** A line of the .jsonl file `name` that says the file is a Claude Code session. */
export function isClaudeCodeLine(line: string | null, name: string): boolean {
  if (line === null) return false;
  try {
    return looksLikeClaudeCode(JSON.parse(line), name);
  } catch {
    return false;
  }
}

/** Something taken as lines are read (a followed session's hash and probes). */
export type LineTaker = { update(piece: Buffer): void };

/** The first pass over `lines`; answers the entries it parsed when `bytes` (what is read) may be held. */
export async function planLines(
  planner: SessionPlanner,
  lines: LineReader,
  taken: LineTaker | undefined,
  bytes: number,
): Promise<HeldEntries> {
  const entries: HeldEntries = bytes <= IN_MEMORY_BYTES ? [] : null;
  for await (const line of lines.lines(taken)) addPlanned(planner, line, entries);
  return entries;
}

function addPlanned(planner: SessionPlanner, line: NumberedLine, entries: HeldEntries): void {
  const entry = planner.add(line);
  if (entries && entry) entries.push({ line: line.line, entry });
}

/** A session planned: what its import stores, in order, and what a followed session keeps of it. */
export type PlannedSession = {
  outline: SourceOutline;
  items: () => AsyncGenerator<ThreadTurn | { settled: true }>;
  plan: Plan;
  reader: TurnReader;
  /** Its last line ended without a line end and was taken: the next import takes it again, so nothing is kept. */
  finished: boolean;
};

/**
 * Plans the lines the planner has taken from `lines` (and the tail: a complete last line without
 * its line end is taken too; a cut one is reported as skipped); its items are the turns (from the
 * entries held, else the lines read again), with the settled mark before the turns still open.
 * Null when `turnReader` will not go on from this plan.
 */
export function planSession(
  planner: SessionPlanner,
  turnReader: (plan: Plan) => TurnReader | null,
  lines: LineReader,
  entries: HeldEntries,
): PlannedSession | null {
  // A line being written rarely ends as an object does: it is decoded and parsed only when it may be one.
  const tail = lines.tailMayBeJson() ? lines.tailLine() : null;
  const finished = tail !== null && isJson(tail.text);
  if (finished) addPlanned(planner, tail, entries);
  const cut = finished ? null : lines.tailNumber();
  const basePlan = planner.plan(cut !== null ? { truncatedTail: cut } : {});
  // A long line still being written: said so in this report, skipped for good once it ends.
  const open = lines.openEntry();
  const plan = open ? { ...basePlan, skipped: [...basePlan.skipped, open] } : basePlan;
  const reader = turnReader(plan);
  if (!reader) return null;
  const items = () => sessionItems(reader, entries, lines, finished ? tail : null);
  const outline: SourceOutline = {
    format: "claude-code",
    threads: plan.threads.map((p) => p.thread),
    skipped: plan.skipped,
    warnings: plan.warnings,
    compactionRuns: plan.compactionRuns,
  };
  return { outline, items, plan, reader, finished };
}

/**
 * A planned session's turns, with the settled mark before those still open. Not a closure made
 * for each file: V8 optimized each such closure again (a first sync of 2,000 sessions compiled it
 * eleven times, 0.65 s on the parse worker's core).
 */
async function* sessionItems(
  reader: TurnReader,
  entries: HeldEntries,
  lines: LineReader,
  tail: NumberedLine | null,
): AsyncGenerator<ThreadTurn | { settled: true }> {
  if (entries) for (const { line, entry } of entries) yield* reader.addEntry(line, entry);
  else {
    // The long lines are not read again: the turns are stored under the write lock.
    for await (const line of lines.again()) yield* reader.add(line);
    if (tail) yield* reader.add(tail);
  }
  yield { settled: true };
  yield* reader.end();
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A whole Claude Code session made ready to store: its file's identity, its outline, its turns as rows. */
export type PreparedSession = { file: SourceFile; outline: SourceOutline; items: (PreparedThreadTurn | { settled: true })[] };

/**
 * What the import of a followed folder's file would store, made without the database when it is a
 * Claude Code session held in memory whole and not live (a live one's state is kept with the
 * importing thread for its next import); else null, and the importing thread imports it from its bytes.
 */
export async function prepareSession(
  source: SourceBytes,
  name: string,
  limits: ImportLimits,
  now: number,
): Promise<PreparedSession | null> {
  const file: SourceFile = { name, ...(await sourceDigest(source)) };
  const opened = source.opened;
  if (!/\.jsonl$/i.test(name) || file.size > IN_MEMORY_BYTES || !opened || now - opened.mtimeMs < LIVE_WITHIN_MS) return null;
  if (!isClaudeCodeLine(await firstNonBlankLine(source, limits), name)) return null;
  const lines = new LineReader(source, { limits, json: true });
  const planner = claudeCodePlanner({ name });
  const entries = await planLines(planner, lines, undefined, file.size);
  const session = planSession(planner, claudeCodeTurnReader, lines, entries)!;
  const preparer = new TurnPreparer(session.outline.format, session.outline.threads);
  const items: PreparedSession["items"] = [];
  for await (const item of session.items()) items.push("settled" in item ? item : preparer.prepare(item));
  return { file, outline: session.outline, items };
}
