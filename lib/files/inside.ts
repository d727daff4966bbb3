import "server-only";
// Opening files only inside a folder, whatever symbolic links say: followed folders (lib/sources,
// the imports they run) and budget previews (./file-source.ts) both go through here.
import { constants, type Stats } from "node:fs";
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

/**
 * The real path of `p` (every link resolved) when it is `within` (a real path) or under it; else
 * throws RefusedPathError. Throws what realpath throws: ENOENT for a path gone or a broken link.
 */
export async function realInside(p: string, within: string): Promise<string> {
  const real = await realpath(p);
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
  const real = await realInside(p, within);
  const before = await lstat(real);
  if (!before.isFile()) throw special(p, before);
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw special(p, info);
    const opened = await openedPath(handle, real, info);
    if (opened === null || !isWithin(within, opened)) throw outside(p);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Where the file open on `handle` is. Linux says which file the descriptor holds
 * (/proc/self/fd); elsewhere the path is resolved again and must still lead to that very file
 * (null when it does not).
 */
async function openedPath(handle: FileHandle, real: string, info: Stats): Promise<string | null> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    const again = await realpath(real).catch(() => null);
    const there = again === null ? null : await stat(again).catch(() => null);
    return there && there.dev === info.dev && there.ino === info.ino ? again : null;
  }
}

/** Opens `p` for reading: inside `within` only (openInside) when given, else as it is (a file a person named). */
export function openForReading(p: string, within?: string): Promise<FileHandle> {
  return within === undefined ? open(p, "r") : openInside(p, within);
}
