import "server-only";
// Claude Code sessions on disk: imported in two passes (lib/importers/claude-code), and, for a
// session being followed (lib/sources), taken up again where the last import stopped when the file
// only grew: its new lines are read, not the whole file again.
import { createHash, type Hash } from "node:crypto";
import { previousImport, type FileImportReport, type SourceFile } from "@/lib/db/imports/imports";
import { ResumeMismatch, storeTurnStream, type StoreResume, type ThreadCheckpoint } from "@/lib/db/imports/turn-stream-import";
import { openForReading } from "@/lib/files/inside";
import { claudeCodePlanner, claudeCodeTurnReader, type Plan, type SessionPlanner, type TurnReader } from "@/lib/importers/claude-code";
import type { ImportLimits } from "@/lib/importers/long-lines";
import { LineReader, rangeBytes, type OpenLongLine, type SourceBytes } from "./file-lines";
import { planLines, planSession, type HeldEntries } from "./claude-code-lines";

/**
 * What is kept of a followed session between imports: where its complete lines end, enough of
 * the file to tell that it only grew, and both passes' state after its last complete line.
 */
type FollowedSession = {
  dev: number;
  ino: number;
  /** Bytes of complete lines taken, and of a long line being written (never read again); the next import reads from here. */
  offset: number;
  lines: number;
  /** The line being written when it is already too long to keep: only its length so far. */
  open: OpenLongLine | null;
  /** The file's first bytes and the bytes before `offset`, as they were. */
  head: Buffer;
  probe: Buffer;
  /** SHA-256 over the bytes before `offset`. */
  hash: Hash;
  planner: SessionPlanner;
  reader: TurnReader;
  plan: Plan;
  checkpoint: ThreadCheckpoint[];
};

const PROBE_BYTES = 4096;
/**
 * What a followed session's state costs per line (the planner's skeleton, the line maps): 840
 * bytes of heap, measured over the 420 files of 300 real sessions held after a first sync (300
 * was assumed before, so the cap let three times as much be held).
 */
const HELD_BYTES_PER_LINE = 850;
/**
 * Followed sessions' state is kept up to about this much, the least recently imported dropped
 * first: a first sync of a folder written within the hour takes every session for live, and
 * what it holds stays with the server at rest.
 */
const MAX_HELD_BYTES = 32 * 1024 * 1024;
/** A file that grew by more than this is read whole again (a rewrite, most likely). */
const MAX_RESUMED_BYTES = 64 * 1024 * 1024;

const globalForSessions = globalThis as unknown as { threadlineFollowedSessions?: Map<string, FollowedSession> };
/** By path, least recently imported first. On globalThis: the server's bundles share it. */
const followed = (globalForSessions.threadlineFollowedSessions ??= new Map<string, FollowedSession>());

/**
 * How many followed sessions are held, and what their files' taken bytes add up to (tests, the bench).
 * @internal exported for its tests
 */
export function followedSessionStats(): { sessions: number; bytes: number; lines: number } {
  let bytes = 0;
  let lines = 0;
  for (const session of followed.values()) {
    bytes += session.offset;
    lines += session.lines;
  }
  return { sessions: followed.size, bytes, lines };
}

/** @internal exported for its tests */
export function forgetFollowedSessions(): void {
  followed.clear();
}

const counts = { resumed: 0, readWhole: 0, bytesRead: 0 };

/**
 * Since the process started: imports that went on from where the last stopped, imports of a held
 * session that had to read the file whole after all, and the bytes the resumed ones read.
 */
export function resumeCounts(): { resumed: number; readWhole: number; bytesRead: number } {
  return { ...counts };
}

/**
 * Imports a Claude Code session read whole. `follow`: the file at `path` is being written (a
 * session followed live); its state is kept so that the next import reads only what was appended.
 */
export async function importClaudeCodeSession(
  source: SourceBytes,
  file: SourceFile,
  follow: { path: string; dev: number; ino: number } | null,
  limits: ImportLimits,
): Promise<FileImportReport> {
  const lines = new LineReader(source, { limits, json: true });
  const planner = claudeCodePlanner({ name: file.name });
  const taken = follow ? new TakenBytes(createHash("sha256"), null) : undefined;
  const entries = await planLines(planner, lines, taken, file.size);
  const run = await importLines(planner, claudeCodeTurnReader, lines, entries, file, {});
  if (follow && taken && run.keep) {
    const { hash, head, probe, bytes } = taken.result();
    keep(follow.path, {
      dev: follow.dev,
      ino: follow.ino,
      offset: bytes,
      lines: lines.count,
      open: lines.open,
      head,
      probe,
      hash,
      planner,
      reader: run.reader,
      plan: run.plan,
      checkpoint: run.checkpoint,
    });
  }
  return run.report;
}

/**
 * Imports what was appended to a followed session since its last import, when the file only grew
 * (same file, its first bytes and the bytes before the old end unchanged) and the new lines leave
 * every earlier line in the thread it was in (a rewind moves lines to a fork thread). Answers null
 * when it cannot go on from there; the caller then imports the file whole.
 */
export async function resumeClaudeCodeSession(
  path: string,
  name: string,
  limits: ImportLimits,
  within?: string,
): Promise<FileImportReport | null> {
  const session = followed.get(path);
  if (!session) return null;
  followed.delete(path); // taken; put back only when this import succeeds
  const report = await resume(path, name, session, limits, within);
  if (report) counts.resumed += 1;
  else counts.readWhole += 1;
  return report;
}

async function resume(
  path: string,
  name: string,
  session: FollowedSession,
  limits: ImportLimits,
  within: string | undefined,
): Promise<FileImportReport | null> {
  const handle = await openForReading(path, within);
  let size: number;
  try {
    const info = await handle.stat();
    size = info.size;
    if (info.dev !== session.dev || info.ino !== session.ino || size < session.offset || size - session.offset > MAX_RESUMED_BYTES)
      return null;
    const same = async (at: number, bytes: Buffer) =>
      bytes.equals((await handle.read(Buffer.alloc(bytes.length), 0, bytes.length, at)).buffer);
    if (!(await same(0, session.head)) || !(await same(session.offset - session.probe.length, session.probe))) return null;
  } finally {
    await handle.close();
  }
  // Streamed when large, like a whole file: a long line being written is never held.
  const appended = await rangeBytes(path, session.offset, size, within);
  const digest = session.hash.copy();
  let read = 0;
  for await (const chunk of appended.chunks()) {
    digest.update(chunk);
    read += chunk.length;
  }
  counts.bytesRead += read;
  const file: SourceFile = { name, sha256: digest.digest("hex"), size: session.offset + read };
  const previous = await previousImport(file.sha256, name);
  if (previous) return previous;

  const lines = new LineReader(appended, { first: session.lines + 1, open: session.open, limits, json: true });
  const taken = new TakenBytes(session.hash, session.probe);
  const entries = await planLines(session.planner, lines, taken, read);
  const before = session.plan;
  const resumed = (plan: Plan) => {
    if (!keepsEarlierLines(before, plan, session.lines)) return null;
    session.reader.replan(plan);
    return session.reader;
  };
  let run: LinesImport;
  try {
    run = await importLines(session.planner, resumed, lines, entries, file, { from: session.checkpoint });
  } catch (error) {
    if (error instanceof ResumeMismatch || error instanceof PlanMoved) return null;
    throw error;
  }
  if (run.keep) {
    const { probe, bytes } = taken.result();
    keep(path, {
      ...session,
      offset: session.offset + bytes,
      lines: session.lines + lines.count,
      open: lines.open,
      probe,
      plan: run.plan,
      reader: run.reader,
      checkpoint: run.checkpoint,
    });
  }
  return run.report;
}

/** The earlier plan's lines all stay in the same threads (by key), and no new thread takes an earlier line. */
function keepsEarlierLines(before: Plan, after: Plan, lines: number): boolean {
  if (after.threads.length < before.threads.length) return false;
  for (const [index, thread] of after.threads.entries()) {
    const earlier = before.threads[index];
    if (earlier && earlier.thread.key !== thread.thread.key) return false;
    let taken = 0;
    for (const line of thread.lines) if (line <= lines) taken += 1;
    if (taken !== (earlier?.lines.size ?? 0)) return false;
    if (earlier) for (const line of earlier.lines) if (!thread.lines.has(line)) return false;
  }
  return true;
}

class PlanMoved extends Error {}

type LinesImport = { report: FileImportReport; keep: boolean; plan: Plan; reader: TurnReader; checkpoint: ThreadCheckpoint[] };

/** Plans the lines the planner has taken from `lines` and stores their turns (planSession). */
async function importLines(
  planner: SessionPlanner,
  turnReader: (plan: Plan) => TurnReader | null,
  lines: LineReader,
  entries: HeldEntries,
  file: SourceFile,
  resume: StoreResume,
): Promise<LinesImport> {
  const session = planSession(planner, turnReader, lines, entries);
  if (!session) throw new PlanMoved();
  const { outline, items, plan, reader, finished } = session;
  const report = await storeTurnStream(outline, items(), file, resume);
  return { report, keep: !finished && resume.saved !== undefined, plan, reader, checkpoint: resume.saved ?? [] };
}

function keep(path: string, session: FollowedSession): void {
  followed.delete(path);
  followed.set(path, session);
  let held = 0;
  for (const each of followed.values()) held += each.lines * HELD_BYTES_PER_LINE;
  for (const [oldest, each] of followed) {
    if (held <= MAX_HELD_BYTES || oldest === path) break;
    followed.delete(oldest);
    held -= each.lines * HELD_BYTES_PER_LINE;
  }
}

/** A followed file's complete lines as they are read (and a long line's bytes): their hash, their first and last bytes. */
class TakenBytes {
  private readonly first: Buffer[] = [];
  private firstBytes = 0;
  /** The last pieces, at least PROBE_BYTES of them once there are that many. */
  private readonly last: Buffer[] = [];
  private lastBytes = 0;
  private bytes = 0;

  /** `hash` goes on from what was taken before, whose last bytes were `probe` (null: from the file's start). */
  constructor(
    private readonly hash: Hash,
    probe: Buffer | null,
  ) {
    if (probe) {
      this.firstBytes = PROBE_BYTES; // the head was taken before
      this.last.push(probe);
      this.lastBytes = probe.length;
    }
  }

  update(piece: Buffer): void {
    if (piece.length === 0) return;
    this.hash.update(piece);
    this.bytes += piece.length;
    if (this.firstBytes < PROBE_BYTES) {
      this.first.push(piece);
      this.firstBytes += piece.length;
    }
    this.last.push(piece);
    this.lastBytes += piece.length;
    while (this.last.length > 1 && this.lastBytes - this.last[0]!.length >= PROBE_BYTES) this.lastBytes -= this.last.shift()!.length;
  }

  result(): { hash: Hash; head: Buffer; probe: Buffer; bytes: number } {
    const head = Buffer.concat(this.first).subarray(0, PROBE_BYTES);
    const last = Buffer.concat(this.last);
    // Copies: the pieces are views of the chunks read, which are not kept.
    return {
      hash: this.hash,
      head: Buffer.from(head),
      probe: Buffer.from(last.subarray(Math.max(0, last.length - PROBE_BYTES))),
      bytes: this.bytes,
    };
  }
}
