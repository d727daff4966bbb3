import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { isTranscriptPath } from "@/lib/importers";
import { databaseStamp, openCodeSourceOf, storageSessionStamp } from "./opencode-files";

/** A transcript file found by a walk, with what it looked like then (ctime moves on a chmod too, where mtime does not). */
export type TranscriptFile = { path: string; size: number; mtimeMs: number; ctimeMs: number };

/** Something a walk could not read (a folder or file it then left out), and why. */
export type WalkProblem = { path: string; reason: string };

const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/**
 * The transcript files under `entry`, walked recursively in name order (the files `npm run import`
 * and the followed sources import), or `entry` itself when it is a file, whatever its name.
 * node_modules and .git are left out; symbolic links are followed, each folder walked once.
 * `entry` itself must be readable (else this throws); something inside that cannot be read is
 * handed to `onProblem` and left out, or throws when no `onProblem` is given.
 */
export async function* transcriptFiles(entry: string, onProblem?: (problem: WalkProblem) => void): AsyncGenerator<TranscriptFile> {
  const top = await stat(entry);
  if (!top.isDirectory()) {
    yield await transcriptFileAt(entry, top);
    return;
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
      entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      report(dir, error);
      return;
    }
    // Only what may be a transcript or a folder is stat'ed (a link, or a type the listing did not
    // give, may be either), all of a folder's at once: a folder of 10,000 sessions was 10,000 stat
    // calls one after the other.
    const wanted = entries.filter((e) => !SKIPPED_FOLDERS.has(e.name) && (!e.isFile() || isTranscriptPath(e.name)));
    const stats = await Promise.all(
      wanted.map(async (e) => {
        const child = path.join(dir, e.name);
        try {
          return { child, stat: await stat(child) };
        } catch (error) {
          return { child, error };
        }
      }),
    );
    for (const found of stats) {
      if ("error" in found) {
        // A file that went away between the listing and now is no problem; a broken link is left out too.
        if ((found.error as NodeJS.ErrnoException).code !== "ENOENT") report(found.child, found.error);
        continue;
      }
      const { child, stat: childStat } = found;
      if (childStat.isDirectory()) yield* walk(child, childStat);
      else if (childStat.isFile() && isTranscriptPath(child)) yield await transcriptFileAt(child, childStat);
    }
  }
  yield* walk(entry, top);
}

/**
 * A transcript file as a sync compares it. An OpenCode session record or database stands for more
 * files than itself (its messages and parts; its write-ahead log): their sizes and times are
 * folded in, so that a change to any of them is a change of the transcript.
 */
export async function transcriptFileAt(filePath: string, info: { size: number; mtimeMs: number; ctimeMs: number }): Promise<TranscriptFile> {
  const own = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
  const openCode = openCodeSourceOf(filePath);
  const stamp = openCode === "storage-session" ? await storageSessionStamp(filePath, own) : openCode === "database" ? await databaseStamp(filePath, own) : own;
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
