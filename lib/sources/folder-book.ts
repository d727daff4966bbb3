// What the syncs of a followed folder found in it, kept in memory between syncs: every transcript
// file as it was last seen, which sync imported it, and what could not be read or imported. A
// sync of a few changed paths updates it, and the folder's counts are recomputed from it, so they
// are what a full sync would say. A poll compares a stat-only walk with it.
import { MAX_LISTED_FAILURES, type SourceFolderStatus } from "@/lib/domain/sources";

export type FolderBook = {
  /** Every transcript file seen: its stat stamp (stampOf) then, and the number of the sync that imported it (0: none did). */
  files: Map<string, { stamp: string; importedBy: number }>;
  /** Files that could not be read or imported, and subfolders that could not be read: why, in the order found. */
  failures: Map<string, string>;
  /** Files imported with lines left out (too long to read): what the page says of them. */
  warnings: Map<string, string>;
  /** Failed files to try again at the slow check, although they did not change (unreadable ones, importer faults). */
  retry: Set<string>;
};

export function newFolderBook(): FolderBook {
  return { files: new Map(), failures: new Map(), warnings: new Map(), retry: new Set() };
}

/** Size, modification and change time: a file that was written, replaced or chmod'ed has another stamp. */
export function stampOf(file: { size: number; mtimeMs: number; ctimeMs: number }): string {
  return `${file.size}:${file.mtimeMs}:${file.ctimeMs}`;
}

/** Whether `path` is `folder` or under it. */
export function within(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

export function isGone(error: NodeJS.ErrnoException): boolean {
  return error.code === "ENOENT" || error.code === "ENOTDIR";
}

/** Sets the folder's counts from its book; `sync` is the number of the sync that just ran. */
export function countFolder(folder: SourceFolderStatus, book: FolderBook, sync: number): void {
  let imported = 0;
  for (const file of book.files.values()) if (file.importedBy === sync) imported += 1;
  let failedFiles = 0;
  const failures: SourceFolderStatus["failures"] = [];
  for (const [file, reason] of book.failures) {
    if (book.files.has(file)) failedFiles += 1;
    if (failures.length < MAX_LISTED_FAILURES) failures.push({ file, reason });
  }
  const warnings: SourceFolderStatus["warnings"] = [];
  for (const [file, reason] of book.warnings) if (warnings.length < MAX_LISTED_FAILURES && book.files.has(file)) warnings.push({ file, reason });
  Object.assign(folder, { filesSeen: book.files.size, imported, unchanged: book.files.size - imported - failedFiles, failed: book.failures.size, failures, warnings });
}

/** Counts one outcome of a full sync as it goes (the page shows its progress); countFolder gives the same totals at its end. */
export function countOne(folder: SourceFolderStatus, outcome: "imported" | "unchanged" | "failed" | "problem", failure?: { file: string; reason: string }, warning?: { file: string; reason: string }): void {
  if (warning && folder.warnings.length < MAX_LISTED_FAILURES) folder.warnings.push(warning);
  if (outcome !== "problem") folder.filesSeen += 1;
  if (outcome === "imported") folder.imported += 1;
  else if (outcome === "unchanged") folder.unchanged += 1;
  else folder.failed += 1;
  if (failure && folder.failures.length < MAX_LISTED_FAILURES) folder.failures.push(failure);
}
