import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { isWithin, LINK_OUTSIDE_REASON, notRegularReason } from "@/lib/domain/paths";
import { isTranscriptPath } from "@/lib/importers";
import { timeSlices } from "@/lib/runtime/time-slices";
import { isAgentDatabase } from "@/lib/importers/databases";
import { isLeftOutFolder } from "@/lib/importers/editor-storage";
import { droidSettingsPath, inDroidSessions } from "@/lib/importers/factory-droid/paths";
import { openCodeSourceOf, storageSessionStamp } from "./opencode-files";
import { clineTaskStamp } from "./cline-task-files";

/** A transcript file found by a walk, with what it looked like then (ctime moves on a chmod too, where mtime does not). */
export type TranscriptFile = { path: string; size: number; mtimeMs: number; ctimeMs: number };

/** Something a walk could not read (a folder or file it then left out), or left out on purpose, and why. */
export type WalkProblem = { path: string; reason: string };

export type WalkOptions = {
  /** Told of what could not be read; without it, that throws. */
  onProblem?: (problem: WalkProblem) => void;
  /**
   * Told of what is left out unopened on purpose: a link out of `within` that may be a transcript
   * or leads to a folder, and a special file (a pipe, a socket, a device) with a transcript's name.
   */
  onSkip?: (skip: WalkProblem) => void;
  /**
   * The real path nothing may be reached outside of. Default: the entry's own real path when it is
   * a folder (a folder a person named is the boundary); a file named on its own is read as it is.
   */
  within?: string;
  /** The event loop is let in after this long of blocking calls (SLICE_MS); a test sets 0. */
  sliceMs?: number;
};

/** What a walk makes of one path. */
type Look =
  { kind: "folder" | "file"; stat: Stats; path: string } | { kind: "skip"; reason: string; path: string } | { kind: "none"; path: string };

/**
 * What `child` is, looked at without opening it. `mayBeLink`: the listing said it is a link (or
 * did not say what it is), so its real path is checked against `within` before it is stat'ed;
 * what a link out leads to is stat'ed only to tell a folder (listed) from a file of another name.
 * Blocking calls, each a few microseconds on a local disk: a walk slices them (see transcriptFiles).
 */
export function lookInside(child: string, within: string, mayBeLink = true): Look {
  if (mayBeLink && !isWithin(within, realpathSync.native(child))) {
    const listed = isTranscriptPath(child) || statOrNull(child)?.isDirectory() === true;
    return listed ? { kind: "skip", reason: LINK_OUTSIDE_REASON, path: child } : { kind: "none", path: child };
  }
  const info = statSync(child);
  if (info.isDirectory()) return { kind: "folder", stat: info, path: child };
  if (!isTranscriptPath(child)) return { kind: "none", path: child };
  // Special files with a transcript's name are never opened: a pipe waits for a writer, a device streams for ever.
  return info.isFile() ? { kind: "file", stat: info, path: child } : { kind: "skip", reason: notRegularReason(info), path: child };
}

/** The path's stat, or null when it cannot be stat'ed (gone, a broken link, not allowed). */
export function statOrNull(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

/**
 * The transcript files under `entry`, walked recursively in name order (the files `npm run import`
 * and the followed sources import), or `entry` itself when it is a file, whatever its name.
 * node_modules, .git and what in an editor's storage holds no agent's files are left out (isLeftOutFolder). Symbolic links are followed while they stay within
 * `options.within` (each folder walked once); one that leads out is neither opened nor walked (its
 * target is stat'ed only to tell a folder), and goes to `onSkip`. Each folder's real path is
 * checked again right before it is listed. `entry` itself must be readable (else this throws); something
 * inside that cannot be read is handed to `onProblem` and left out, or throws when no `onProblem`
 * is given.
 *
 * The calls block, in slices of a few milliseconds with the event loop let in between: through the
 * thread pool, a promise each, the walk of 2,800 files held the server's thread for 0.5 s of a
 * restart's sync, against 35-55 ms this way (docs/benchmarks.md, "Twelfth round").
 */
export async function* transcriptFiles(entry: string, options: WalkOptions = {}): AsyncGenerator<TranscriptFile> {
  const { onProblem, onSkip } = options;
  const slices = timeSlices(options.sliceMs);
  let top: Stats;
  let boundary: string;
  if (options.within !== undefined) {
    boundary = options.within;
    const look = lookInside(entry, boundary);
    if (look.kind === "skip") onSkip?.({ path: entry, reason: look.reason });
    if (look.kind === "file") yield await transcriptFileAt(entry, look.stat, boundary);
    if (look.kind !== "folder") return;
    top = look.stat;
  } else {
    top = statSync(entry);
    if (!top.isDirectory()) {
      yield await transcriptFileAt(entry, top);
      return;
    }
    boundary = realpathSync.native(entry);
  }
  const visited = new Set<string>();
  const report = (problemPath: string, error: unknown) => {
    const problem = { path: problemPath, reason: describeFsError(error) };
    if (!onProblem) throw Object.assign(new Error(`${problem.path}: ${problem.reason}`), { cause: error });
    onProblem(problem);
  };
  async function* walk(dir: string, dirStat: { dev: number; ino: number }): AsyncGenerator<TranscriptFile> {
    const id = `${dirStat.dev}:${dirStat.ino}`;
    if (visited.has(id)) return;
    visited.add(id);
    let entries: Dirent[];
    try {
      if (!isWithin(boundary, realpathSync.native(dir))) {
        onSkip?.({ path: dir, reason: LINK_OUTSIDE_REASON });
        return;
      }
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      report(dir, error);
      return;
    }
    for (const e of entries) {
      if (e.isFile() && !isTranscriptPath(e.name)) continue;
      const child = path.join(dir, e.name);
      if (!e.isFile() && isLeftOutFolder(child)) continue;
      if (slices.due()) await slices.next();
      let look: Look;
      try {
        look = lookInside(child, boundary, !e.isFile() && !e.isDirectory());
      } catch (error) {
        // A file that went away between the listing and now is no problem; a broken link is left out too.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") report(child, error);
        continue;
      }
      if (look.kind === "skip") onSkip?.({ path: look.path, reason: look.reason });
      else if (look.kind === "folder") yield* walk(look.path, look.stat);
      else if (look.kind === "file") yield await transcriptFileAt(look.path, look.stat, boundary);
    }
  }
  yield* walk(entry, top);
}

/**
 * A transcript file as a sync compares it. An OpenCode session record or an agent's database stands for more
 * files than itself (its messages and parts; its write-ahead log), and so do a Factory Droid session (its settings) and a Cline, Roo Code or
 * Kilo Code task's API history (its ui_messages.json, task_metadata.json, history_item.json): their
 * sizes and times are folded in, so that a change to any of them is a change of the transcript
 * (none out of `within`).
 */
export async function transcriptFileAt(
  filePath: string,
  info: { size: number; mtimeMs: number; ctimeMs: number },
  within?: string,
): Promise<TranscriptFile> {
  const own = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
  const stamp =
    openCodeSourceOf(filePath) === "storage-session"
      ? await storageSessionStamp(filePath, own, within)
      : isAgentDatabase(filePath)
        ? await withSideFile(own, `${filePath}-wal`)
        : inDroidSessions(filePath)
          ? await withSideFile(own, droidSettingsPath(filePath)!)
          : await clineTaskStamp(filePath, own, within);
  return { path: filePath, ...stamp };
}

/** An fs error as a short reason ("permission denied"), without the stack. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const known: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    ENOENT: "no such file or folder",
    ENOTDIR: "not a folder",
    EISDIR: "is a folder",
    ELOOP: "too many symbolic links",
    EMFILE: "too many open files",
  };
  if (code && known[code]) return `${known[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A transcript's stamp with a side file's folded in: a database's write-ahead log (a write lands
 * there long before the .db changes), a Factory Droid session's settings (its totals).
 */
async function withSideFile(
  own: { size: number; mtimeMs: number; ctimeMs: number },
  sidePath: string,
): Promise<{ size: number; mtimeMs: number; ctimeMs: number }> {
  const side = await stat(sidePath).catch(() => null);
  // An empty side file holds nothing: a write-ahead log a read-only open left behind (SQLite makes one to read a database in
  // WAL mode) or one checkpointed away, whose changes are in the database itself.
  if (!side || side.size === 0) return own;
  return { size: own.size + side.size, mtimeMs: Math.max(own.mtimeMs, side.mtimeMs), ctimeMs: Math.max(own.ctimeMs, side.ctimeMs) };
}
