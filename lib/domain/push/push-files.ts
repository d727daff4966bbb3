/**
 * What `threadline push` and the server agree on (issue 39), pure: which names a laptop and which
 * paths may be pushed, and what one file's push is, given what the server holds of it.
 */

/** A machine's name: letters, digits, dots, dashes and underscores; it names a folder on the server. */
export const MACHINE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A machine name made of a host name: what the name rule refuses becomes a dash. */
export function machineNameOf(hostName: string): string {
  const name = hostName
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 64);
  return name === "" ? "laptop" : name;
}

/**
 * Why a pushed path is refused (null: it is fine): it must be relative to the laptop's home
 * folder, with `/`, and stay inside it.
 */
export function pushedPathProblem(path: string): string | null {
  if (path === "" || path.length > 1024) return "must be 1-1,024 characters";
  if (path.includes("\0") || path.includes("\\")) return "must use / between folders, and hold no NUL";
  if (path.startsWith("/")) return "must be relative to the home folder";
  if (path.split("/").some((part) => part === "" || part === "." || part === "..")) return "must not hold empty, . or .. parts";
  return null;
}

/** What the server holds of a file: the laptop's bytes up to `offset`, whose SHA-256 is `sha256`. */
export type HeldFile = { offset: number; sha256: string };

/**
 * One file's push: nothing (the server holds all of it), what follows `offset` (the file grew,
 * and what the server holds is still its start), or all of it (new, shrunk or rewritten).
 * `end`: where what may be sent ends (a file of lines: after its last complete line);
 * `startSha256`: the SHA-256 of the file's first `held.offset` bytes, when it is at least that long.
 */
export function pushStep(
  end: number,
  held: HeldFile | undefined,
  startSha256: string | null,
): { kind: "unchanged" } | { kind: "append"; from: number } | { kind: "whole" } {
  if (!held) return end === 0 ? { kind: "unchanged" } : { kind: "whole" };
  if (startSha256 !== held.sha256 || end < held.offset) return { kind: "whole" };
  return end === held.offset ? { kind: "unchanged" } : { kind: "append", from: held.offset };
}

/**
 * Where a piece of a file of lines may end: after the last newline at or before `limit` bytes from
 * `start` in `bytes`; past `limit` only when one line is longer than that (it goes alone). -1: no
 * complete line yet.
 */
export function linesEnd(bytes: Uint8Array, start: number, limit: number): number {
  const stop = Math.min(bytes.length, start + limit);
  const within = bytes.lastIndexOf(0x0a, stop - 1);
  if (within >= start) return within + 1;
  const next = bytes.indexOf(0x0a, stop);
  return next === -1 ? -1 : next + 1;
}
