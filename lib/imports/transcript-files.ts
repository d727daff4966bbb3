import type { Dirent, Stats } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isWithin, LINK_OUTSIDE_REASON, notRegularReason } from "@/lib/domain/paths";
import { isTranscriptPath } from "@/lib/importers";
import { databaseStamp, openCodeSourceOf, storageSessionStamp } from "./opencode-files";

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
};

const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/** What a walk makes of one path. */
type Look =
  { kind: "folder" | "file"; stat: Stats; path: string } | { kind: "skip"; reason: string; path: string } | { kind: "none"; path: string };

/**
 * What `child` is, looked at without opening it. `mayBeLink`: the listing said it is a link (or
 * did not say what it is), so its real path is checked against `within` before it is stat'ed;
 * what a link out leads to is stat'ed only to tell a folder (listed) from a file of another name.
 */
export async function lookInside(child: string, within: string, mayBeLink = true): Promise<Look> {
  if (mayBeLink && !isWithin(within, await realpath(child))) {
    const listed = isTranscriptPath(child) || (await stat(child).catch(() => null))?.isDirectory() === true;
    return listed ? { kind: "skip", reason: LINK_OUTSIDE_REASON, path: child } : { kind: "none", path: child };
  }
  const info = await stat(child);
  if (info.isDirectory()) return { kind: "folder", stat: info, path: child };
  if (!isTranscriptPath(child)) return { kind: "none", path: child };
  // Special files with a transcript's name are never opened: a pipe waits for a writer, a device streams for ever.
  return info.isFile() ? { kind: "file", stat: info, path: child } : { kind: "skip", reason: notRegularReason(info), path: child };
}

/**
 * The transcript files under `entry`, walked recursively in name order (the files `npm run import`
 * and the followed sources import), or `entry` itself when it is a file, whatever its name.
 * node_modules and .git are left out. Symbolic links are followed while they stay within
 * `options.within` (each folder walked once); one that leads out is neither opened nor walked (its
 * target is stat'ed only to tell a folder), and goes to `onSkip`. Each folder's real path is
 * checked again right before it is listed. `entry` itself must be readable (else this throws); something
 * inside that cannot be read is handed to `onProblem` and left out, or throws when no `onProblem`
 * is given.
 */
export async function* transcriptFiles(entry: string, options: WalkOptions = {}): AsyncGenerator<TranscriptFile> {
  const { onProblem, onSkip } = options;
  let top: Stats;
  let boundary: string;
  if (options.within !== undefined) {
    boundary = options.within;
    const look = await lookInside(entry, boundary);
    if (look.kind === "skip") onSkip?.({ path: entry, reason: look.reason });
    if (look.kind === "file") yield await transcriptFileAt(entry, look.stat, boundary);
    if (look.kind !== "folder") return;
    top = look.stat;
  } else {
    top = await stat(entry);
    if (!top.isDirectory()) {
      yield await transcriptFileAt(entry, top);
      return;
    }
    boundary = await realpath(entry);
  }
  const visited = new Set<string>();
  const report = (problemPath: string, error: unknown) => {
    const problem = { path: problemPath, reason: describeFsError(error) };
    if (!onProblem) throw Object.assign(new Error(`${problem.path}: ${problem.reason}`), { cause: error });
    onProblem(problem);
  };
  type Listing =
    | { kind: "outside" }
    | { kind: "unreadable"; error: unknown }
    | { kind: "listed"; looks: (Look | { kind: "error"; path: string; error: unknown })[] };
  // The real path is checked right before the folder is listed: a folder swapped for a link out
  // since it was found is not walked. Never rejects.
  async function list(dir: string): Promise<Listing> {
    let entries: Dirent[];
    try {
      if (!isWithin(boundary, await realpath(dir))) return { kind: "outside" };
      entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      return { kind: "unreadable", error };
    }
    // Only what may be a transcript or a folder is looked at (a link, or a type the listing did not
    // give, may be either), all of a folder's at once: a folder of 10,000 sessions was 10,000 stat
    // calls one after the other. Only links have their real path checked.
    const wanted = entries.filter((e) => !SKIPPED_FOLDERS.has(e.name) && (!e.isFile() || isTranscriptPath(e.name)));
    const looks = await Promise.all(
      wanted.map(async (e) => {
        const child = path.join(dir, e.name);
        try {
          return await lookInside(child, boundary, !e.isFile() && !e.isDirectory());
        } catch (error) {
          return { kind: "error" as const, path: child, error };
        }
      }),
    );
    return { kind: "listed", looks };
  }
  // Listings begun before the walk reaches their folder: a folder's subfolders are all listed at
  // once when it is, so their waits overlap (Claude Code keeps a folder per session: 2,000
  // listings one after the other were most of a restart's sync). What is done with them, and in
  // what order, is as if each were listed when reached.
  const ahead = new Map<string, Promise<Listing>>();
  async function* walk(dir: string, dirStat: { dev: number; ino: number }): AsyncGenerator<TranscriptFile> {
    const id = `${dirStat.dev}:${dirStat.ino}`;
    const early = ahead.get(dir);
    ahead.delete(dir);
    if (visited.has(id)) return;
    visited.add(id);
    const listed = await (early ?? list(dir));
    if (listed.kind === "outside") {
      onSkip?.({ path: dir, reason: LINK_OUTSIDE_REASON });
      return;
    }
    if (listed.kind === "unreadable") {
      report(dir, listed.error);
      return;
    }
    for (const look of listed.looks) if (look.kind === "folder" && !ahead.has(look.path)) ahead.set(look.path, list(look.path));
    for (const look of listed.looks) {
      if (look.kind === "error") {
        // A file that went away between the listing and now is no problem; a broken link is left out too.
        if ((look.error as NodeJS.ErrnoException).code !== "ENOENT") report(look.path, look.error);
      } else if (look.kind === "skip") onSkip?.({ path: look.path, reason: look.reason });
      else if (look.kind === "folder") yield* walk(look.path, look.stat);
      else if (look.kind === "file") yield await transcriptFileAt(look.path, look.stat, boundary);
    }
  }
  yield* walk(entry, top);
}

/**
 * A transcript file as a sync compares it. An OpenCode session record or database stands for more
 * files than itself (its messages and parts; its write-ahead log): their sizes and times are
 * folded in, so that a change to any of them is a change of the transcript (none out of `within`).
 */
export async function transcriptFileAt(
  filePath: string,
  info: { size: number; mtimeMs: number; ctimeMs: number },
  within?: string,
): Promise<TranscriptFile> {
  const own = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
  const openCode = openCodeSourceOf(filePath);
  const stamp =
    openCode === "storage-session"
      ? await storageSessionStamp(filePath, own, within)
      : openCode === "database"
        ? await databaseStamp(filePath, own)
        : own;
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
