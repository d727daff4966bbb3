import "server-only";
import { open, realpath } from "node:fs/promises";
import path from "node:path";

export type FileRead = { ok: true; content: string } | { ok: false; reason: string };

/** Larger files are refused rather than read: no context budget has room for them anyway. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

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

function isInside(child: string, root: string): boolean {
  const relative = path.relative(root, child);
  return relative === "" ? false : !relative.startsWith("..") && !path.isAbsolute(relative);
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
    if (!isInside(candidate, root)) continue;
    sawCandidate = true;
    let real: string;
    let realRoot: string;
    try {
      [real, realRoot] = await Promise.all([realpath(candidate), realpath(root)]);
    } catch {
      continue; // missing under this root; another root may have it
    }
    if (!isInside(real, realRoot)) return { ok: false, reason: "outside the allowed roots (through a symbolic link)" };
    try {
      const handle = await open(real, "r");
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) return { ok: false, reason: "not a regular file" };
        if (stat.size > MAX_FILE_BYTES) return { ok: false, reason: `larger than ${MAX_FILE_BYTES} bytes` };
        return { ok: true, content: await handle.readFile({ encoding: "utf8" }) };
      } finally {
        await handle.close();
      }
    } catch {
      return { ok: false, reason: "not readable" };
    }
  }
  return { ok: false, reason: sawCandidate ? "file not found under the allowed roots" : "outside the allowed roots" };
}
