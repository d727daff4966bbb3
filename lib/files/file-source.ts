import "server-only";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { fileKind, isUnder } from "@/lib/domain/paths";
import { openInside, RefusedPathError } from "./inside";

export type FileRead = { ok: true; content: string } | { ok: false; reason: string };

/** Larger files are refused rather than read: no context budget has room for them anyway. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** A regular file under the roots reads in milliseconds; a slow network mount must not hold a preview. */
const READ_TIMEOUT_MS = 2_000;

/**
 * Parses THREADLINE_FILE_ROOTS: absolute directories separated by the platform's path delimiter
 * (":" here). Relative or blank entries are ignored, so a typo can never widen access.
 */
export function parseFileRoots(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(path.delimiter)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "" && path.isAbsolute(entry))
    .map((entry) => path.resolve(entry));
}

/**
 * Reads a file a turn names, but only from under an allowed root: the path is resolved against
 * each root (relative paths) or taken as is (absolute), symlinks are resolved, and the real path
 * must still be inside that root. Never reads anything else, whatever the turn says.
 */
export async function readFromRoots(filePath: string, roots: string[]): Promise<FileRead> {
  if (roots.length === 0) return { ok: false, reason: "no file snapshot stored, and no allowed roots configured (THREADLINE_FILE_ROOTS)" };
  if (filePath.includes("\0")) return { ok: false, reason: "invalid path" };
  let sawCandidate = false;
  for (const root of roots) {
    const candidate = path.isAbsolute(filePath) ? path.resolve(filePath) : path.resolve(root, filePath);
    if (!isUnder(root, candidate)) continue;
    sawCandidate = true;
    let real: string;
    let realRoot: string;
    try {
      [real, realRoot] = await Promise.all([realpath(candidate), realpath(root)]);
    } catch {
      continue; // missing under this root; another root may have it
    }
    if (!isUnder(realRoot, real)) return { ok: false, reason: OUTSIDE_THROUGH_LINK };
    return readRegularFile(real, realRoot);
  }
  return { ok: false, reason: sawCandidate ? "file not found under the allowed roots" : "outside the allowed roots" };
}

const OUTSIDE_THROUGH_LINK = "outside the allowed roots (through a symbolic link)";

/**
 * Reads a regular file and nothing else. Opening a named pipe for reading waits for a writer, and a
 * device can stream forever, so the kind and size are checked with lstat before the file is
 * opened; it is opened as followed folders open files (openInside: without following a link,
 * without blocking, and checked on the open handle for its kind and where it really is), and read
 * under a deadline.
 */
async function readRegularFile(real: string, realRoot: string): Promise<FileRead> {
  let handle;
  try {
    const before = await lstat(real);
    if (!before.isFile()) return { ok: false, reason: `not a regular file (${fileKind(before)})` };
    if (before.size > MAX_FILE_BYTES) return { ok: false, reason: `larger than ${MAX_FILE_BYTES} bytes` };
    handle = await openInside(real, realRoot);
    const stat = await handle.stat();
    if (stat.ino !== before.ino || stat.dev !== before.dev) return { ok: false, reason: "changed while being read" };
    if (stat.size > MAX_FILE_BYTES) return { ok: false, reason: `larger than ${MAX_FILE_BYTES} bytes` };
    const content = await handle.readFile({ encoding: "utf8", signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
    // A file that grew after the check is cut off rather than read on.
    if (Buffer.byteLength(content) > MAX_FILE_BYTES) return { ok: false, reason: `larger than ${MAX_FILE_BYTES} bytes` };
    return { ok: true, content };
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError")
      return { ok: false, reason: `not read within ${READ_TIMEOUT_MS / 1000} s` };
    if (error instanceof RefusedPathError)
      return { ok: false, reason: error.kind === "outside" ? OUTSIDE_THROUGH_LINK : "changed while being read" };
    return { ok: false, reason: "not readable" };
  } finally {
    await handle?.close();
  }
}
