// Watches a folder tree with one non-recursive fs.watch per folder. On Linux that is one inotify
// watch per folder, which reports what happens to the files in it: 10,000 sessions in 200 folders
// take 200 watches. Node 20's `fs.watch(folder, {recursive: true})` is no good there: on Linux it
// is written in JavaScript, walks the whole tree with readdirSync and statSync at start (the event
// loop waits meanwhile) and adds one inotify watch per file, 10,000 for 10,000 sessions, where the
// system's default limit may be 8,192 (fs.inotify.max_user_watches). docs/benchmarks.md, "Following
// folders", has the measurements against chokidar and @parcel/watcher.
import { readdirSync, realpathSync, watch, type Dirent, type FSWatcher, type Stats } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isWithin } from "@/lib/domain/paths";
import { isLeftOutFolder } from "@/lib/importers/editor-storage";
import { statOrNull } from "@/lib/imports/transcript-files";
import { timeSlices } from "@/lib/runtime/time-slices";

export type TreeWatchOptions = {
  /** Whether a file's name matters (a transcript); other files' changes are ignored without a system call. */
  wanted(name: string): boolean;
  /**
   * A wanted file was written, made, renamed or deleted, or a folder appeared or went away (then
   * the path is the folder's, already watched when it is reported, and anything under it may have
   * changed). Called often while a file is being written: the caller gathers and debounces.
   */
  onChange(path: string): void;
  /** Watching stopped for good (the tree's root went away, a watch could not be added, an error): everything is closed. */
  onFail(reason: string, error: NodeJS.ErrnoException): void;
};

export type TreeWatch = {
  /** How many folders are watched now. */
  folders(): number;
  close(): void;
};

/** Folders a walk leaves out (lib/imports/transcript-files does the same). */

const GONE = new Set(["ENOENT", "ENOTDIR"]);
const isGone = (error: unknown) => GONE.has((error as NodeJS.ErrnoException | null)?.code ?? "");
const DENIED = new Set(["EACCES", "EPERM"]);

function realpathOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/** Why a watch could not be added, said for a person. */
export function describeWatchError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOSPC") return "the system's limit of watched folders is reached (fs.inotify.max_user_watches) (ENOSPC)";
  if (code === "EMFILE") return "too many open files or watchers (fs.inotify.max_user_instances) (EMFILE)";
  if (code === "ENOENT") return "the folder went away (ENOENT)";
  if (code === "ENOSYS" || code === "ENOTSUP" || code === "EOPNOTSUPP") return `watching is not supported here (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Watches `root` and every folder under it (symbolic links followed while they stay inside `root`'s
 * real path, each folder once; a folder reached through a link out of it is never watched), and
 * each folder made later. Resolves once every folder found is watched. Rejects when `root` cannot be
 * watched at all; a subfolder that cannot be read is left out (the sync reports it) and retried
 * when its entry changes (chmod). A folder that cannot be watched for any other reason (the
 * inotify limit, say) ends the whole watch through `onFail`, so the caller can poll instead.
 */
export async function watchTree(root: string, options: TreeWatchOptions): Promise<TreeWatch> {
  const watched = new Map<string, { watcher: FSWatcher; id: string }>();
  const ids = new Set<string>();
  /** Subfolders that could not be read: tried again when something happens to them. */
  const denied = new Set<string>();
  /** Links to folders out of the tree, left unwatched: reported when they go (the sync lists them). */
  const declined = new Set<string>();
  let closed = false;

  function close(): void {
    closed = true;
    for (const { watcher } of watched.values()) watcher.close();
    watched.clear();
    ids.clear();
  }

  function fail(error: unknown): void {
    if (closed) return;
    close();
    const errno = (error instanceof Error ? error : new Error(String(error))) as NodeJS.ErrnoException;
    options.onFail(describeWatchError(errno), errno);
  }

  /** Stops watching `folder` and everything under it; whether anything was watched there. */
  function drop(folder: string): boolean {
    const prefix = `${folder}/`;
    let any = false;
    for (const [dir, { watcher, id }] of watched) {
      if (dir !== folder && !dir.startsWith(prefix)) continue;
      watcher.close();
      watched.delete(dir);
      ids.delete(id);
      any = true;
    }
    return any;
  }

  /**
   * Watches `dir` and the folders under it. Throws what fs.watch throws, except for a folder gone
   * meanwhile or one it may not read. Blocking calls in slices, as the walk's
   * (lib/imports/transcript-files): through the thread pool, a restart spent 0.75 s here for
   * Claude Code's 821 folders (a folder per session with sub-agents), with the event loop's turns
   * between each folder's stat, realpath and listing.
   */
  async function add(dir: string, info: Stats): Promise<void> {
    const id = `${info.dev}:${info.ino}`;
    if (closed || watched.has(dir) || ids.has(id)) return;
    // Where it really is, right before it is watched: a link out of the folder is the sync's to list as skipped.
    if (dir !== root && !isWithin(boundary, realpathOrNull(dir) ?? "")) {
      declined.add(dir);
      return;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (event, name) => onEvent(dir, event, name));
    } catch (error) {
      if (isGone(error)) return;
      if (DENIED.has((error as NodeJS.ErrnoException).code ?? "") && dir !== root) {
        denied.add(dir);
        return;
      }
      throw error;
    }
    watcher.on("error", (error) => {
      // A folder removed under us ends its watch; anything else means events may be lost.
      void stat(dir).then(
        () => fail(error),
        () => (dir === root ? fail(Object.assign(new Error("the folder went away"), { code: "ENOENT" })) : drop(dir)),
      );
    });
    watched.set(dir, { watcher, id });
    ids.add(id);
    denied.delete(dir);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (!isGone(error) && !DENIED.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
      return;
    }
    // Only entries that may be folders are stat'ed; files are the sync's business.
    for (const entry of entries) {
      if (!(entry.isDirectory() || entry.isSymbolicLink() || !entry.isFile())) continue;
      const child = path.join(dir, entry.name);
      if (isLeftOutFolder(child)) continue;
      if (slices.due()) await slices.next();
      if (closed) return;
      const childInfo = statOrNull(child);
      if (childInfo?.isDirectory()) await add(child, childInfo);
    }
  }

  function onEvent(dir: string, event: string, name: string | Buffer | null): void {
    if (closed) return;
    if (name === null) {
      // No name: anything in the folder may have changed.
      options.onChange(dir);
      return;
    }
    const entry = String(name);
    const full = path.join(dir, entry);
    if (options.wanted(entry)) {
      options.onChange(full);
      return;
    }
    // A content change of some other file: not ours. Made, deleted or moved (rename): it may be a folder.
    if (isLeftOutFolder(full) || (event === "change" && !denied.has(full))) return;
    void settle(dir, entry, full).catch(fail);
  }

  /** Something named `entry` appeared in or left `dir` (or `dir` itself went, when `entry` is its own name). */
  async function settle(dir: string, entry: string, full: string): Promise<void> {
    const info = await stat(full).catch((error: unknown) => {
      if (isGone(error) || DENIED.has((error as NodeJS.ErrnoException).code ?? "")) return null;
      throw error;
    });
    if (closed) return;
    if (info?.isDirectory()) {
      if (watched.has(full)) return;
      await add(full, info);
      // Reported once its watches are in place: what was written before is found by walking it, what comes after by the watches.
      options.onChange(full);
      return;
    }
    if (info) return; // some other file
    if (drop(full) || declined.delete(full)) options.onChange(full);
    denied.delete(full);
    // The watched folder itself was deleted or moved away (inotify names it by its own name).
    if (path.basename(dir) === entry && watched.has(dir)) {
      const still = await stat(dir).catch(() => null);
      if (still?.isDirectory() || closed) return;
      if (dir === root) fail(Object.assign(new Error("the folder went away"), { code: "ENOENT" }));
      else if (drop(dir)) options.onChange(dir);
    }
  }

  const top = await stat(root);
  if (!top.isDirectory()) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
  // The followed folder may itself be a link (the user's choice): its real place is the boundary.
  const boundary = await realpath(root);
  const slices = timeSlices();
  try {
    await add(root, top);
  } catch (error) {
    close();
    throw error;
  }
  if (closed) throw Object.assign(new Error("watching stopped while it started"), { code: "ECANCELED" });
  return { folders: () => watched.size, close };
}
