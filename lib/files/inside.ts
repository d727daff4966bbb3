import "server-only";
// Opening files only inside a folder, whatever symbolic links say: followed folders (lib/sources,
// the imports they run) and budget previews (./file-source.ts) both go through here.
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { lstat, open, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import { isWithin, LINK_OUTSIDE_REASON, notRegularReason } from "@/lib/domain/paths";

/**
 * A path left unopened on purpose, and why, in words for the skipped list: `outside`, it leads out
 * of the folder (through a symbolic link, or a folder on the way swapped for one); `special`, it is
 * a named pipe, a socket or a device, which can block a reader or stream for ever.
 */
export class RefusedPathError extends Error {
  constructor(
    readonly path: string,
    readonly kind: "outside" | "special",
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = "RefusedPathError";
  }
}

const outside = (p: string) => new RefusedPathError(p, "outside", LINK_OUTSIDE_REASON);
const special = (p: string, info: Stats) => new RefusedPathError(p, "special", notRegularReason(info));

/** The file system calls a checked open makes: through the thread pool, or in place (blocking). */
type FileCalls<F> = {
  realpath(p: string): Promise<string> | string;
  lstat(p: string): Promise<Stats> | Stats;
  stat(p: string): Promise<Stats> | Stats;
  readlink(p: string): Promise<string> | string;
  open(p: string, flags: number): Promise<F> | F;
  fstat(file: F): Promise<Stats> | Stats;
  fd(file: F): number;
  close(file: F): Promise<void> | void;
};

const throughThreadPool: FileCalls<FileHandle> = {
  realpath: (p) => realpath(p),
  lstat: (p) => lstat(p),
  stat: (p) => stat(p),
  readlink: (p) => readlink(p),
  open: (p, flags) => open(p, flags),
  fstat: (handle) => handle.stat(),
  fd: (handle) => handle.fd,
  close: (handle) => handle.close(),
};

const inPlace: FileCalls<number> = {
  realpath: (p) => realpathSync.native(p),
  lstat: (p) => lstatSync(p),
  stat: (p) => statSync(p),
  readlink: (p) => readlinkSync(p),
  open: (p, flags) => openSync(p, flags),
  fstat: (fd) => fstatSync(fd),
  fd: (fd) => fd,
  close: (fd) => closeSync(fd),
};

/**
 * The real path of `p` (every link resolved) when it is `within` (a real path) or under it; else
 * throws RefusedPathError. Throws what realpath throws: ENOENT for a path gone or a broken link.
 */
export async function realInside(p: string, within: string): Promise<string> {
  return realInsideWith(p, within, throughThreadPool);
}

async function realInsideWith<F>(p: string, within: string, fs: FileCalls<F>): Promise<string> {
  const real = await fs.realpath(p);
  if (!isWithin(within, real)) throw outside(p);
  return real;
}

/**
 * Opens a regular file for reading, only if it really is inside `within` (a real path). The path
 * is resolved and checked, and its kind too, right before the open; the open follows no link and
 * does not block (a named pipe swapped in meanwhile would wait for a writer); the descriptor is
 * then checked again, for its kind and for where the file it holds really is, since a folder on
 * the way may have been swapped for a link out between the check and the open. Refused: throws
 * RefusedPathError, with the descriptor closed before anything was read.
 */
export async function openInside(p: string, within: string): Promise<FileHandle> {
  return (await openInsideWith(p, within, throughThreadPool)).file;
}

/**
 * The whole of a regular file inside `within`, opened and checked as openInside does, but with
 * blocking calls; null (nothing read) when it is larger than `maxBytes`. For a worker thread that
 * has nothing else to do meanwhile (the parse worker): through the thread pool, each of a file's
 * eight calls waited for the worker's next turn, which came only between two files' parsing, and
 * the worker spent a sixth of a first sync waiting for files long since asked for.
 */
export async function readWholeInside(p: string, within: string, maxBytes: number): Promise<{ bytes: Buffer; info: Stats } | null> {
  const { file: fd, info } = await openInsideWith(p, within, inPlace);
  try {
    if (info.size > maxBytes) return null;
    // Not zero-filled: every byte is read over, and what a short read leaves is cut off.
    const bytes = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) break;
      read += got;
    }
    return { bytes: bytes.subarray(0, read), info };
  } finally {
    closeSync(fd);
  }
}

async function openInsideWith<F>(p: string, within: string, fs: FileCalls<F>): Promise<{ file: F; info: Stats }> {
  const real = await realInsideWith(p, within, fs);
  const before = await fs.lstat(real);
  if (!before.isFile()) throw special(p, before);
  const file = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await fs.fstat(file);
    if (!info.isFile()) throw special(p, info);
    const opened = await openedPath(fs, file, real, info);
    if (opened === null || !isWithin(within, opened)) throw outside(p);
    return { file, info };
  } catch (error) {
    await fs.close(file);
    throw error;
  }
}

/**
 * Where the file open as `file` is. Linux says which file the descriptor holds
 * (/proc/self/fd); elsewhere the path is resolved again and must still lead to that very file
 * (null when it does not).
 */
async function openedPath<F>(fs: FileCalls<F>, file: F, real: string, info: Stats): Promise<string | null> {
  try {
    return await fs.readlink(`/proc/self/fd/${fs.fd(file)}`);
  } catch {
    try {
      const again = await fs.realpath(real);
      const there = await fs.stat(again);
      return there.dev === info.dev && there.ino === info.ino ? again : null;
    } catch {
      return null;
    }
  }
}

/** Opens `p` for reading: inside `within` only (openInside) when given, else as it is (a file a person named). */
export function openForReading(p: string, within?: string): Promise<FileHandle> {
  return within === undefined ? open(p, "r") : openInside(p, within);
}
