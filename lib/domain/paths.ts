/**
 * Where a file is, against the folder it may be read from: shared by budget previews
 * (THREADLINE_FILE_ROOTS, lib/files/file-source.ts) and followed folders (lib/files/inside.ts).
 * Pure: paths are absolute and normalized already (path.resolve or realpath gave them).
 */

/** Why a followed folder's entry reached through a symbolic link out of it is left unopened. */
export const LINK_OUTSIDE_REASON = "a symbolic link to a place outside the followed folder";

/** Whether `child` is `folder` itself or under it. */
export function isWithin(folder: string, child: string): boolean {
  if (child === folder) return true;
  return child.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/** Whether `child` is under `folder` (not the folder itself). */
export function isUnder(folder: string, child: string): boolean {
  return child !== folder && isWithin(folder, child);
}

/** The stat answers that tell what a path is (node's Stats has them). */
export type FileKindProbe = {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
};

/** What a path that is not a regular file is, in words ("a named pipe"). */
export function fileKind(stat: FileKindProbe): string {
  if (stat.isFile()) return "a regular file";
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a named pipe";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** Why a special file (a pipe, a socket, a device) with a transcript's name is left unopened. */
export function notRegularReason(stat: FileKindProbe): string {
  const kind = fileKind(stat);
  return kind === "not a regular file" ? kind : `${kind}, not a regular file`;
}
