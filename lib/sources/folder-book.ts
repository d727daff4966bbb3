// What the syncs of a followed folder found in it, kept in memory between syncs: every transcript
// file as it was last seen, which sync imported it, and what could not be read or imported. A
// sync of a few changed paths updates it, and the folder's counts are recomputed from it, so they
// are what a full sync would say. A poll compares a stat-only walk with it.
import { isWithin } from "@/lib/domain/paths";
import { MAX_LISTED_FAILURES, type SourceFolderStatus } from "@/lib/domain/sources/sources";

export type FolderBook = {
  /** The folder's real path when the full sync began: nothing outside it is opened, walked or watched. */
  root: string;
  /** Every transcript file seen: its stat stamp (stampOf) then, and the number of the sync that imported it (0: none did). */
  files: Map<string, { stamp: string; importedBy: number }>;
  /** Files that could not be read or imported, and subfolders that could not be read: why, in the order found. */
  failures: Map<string, string>;
  /** Files imported with lines left out (too long to read): what the page says of them. */
  warnings: Map<string, string>;
  /** Failed files to try again at the slow check, although they did not change (unreadable ones, importer faults). */
  retry: Set<string>;
  /** What was left out unopened (a link out of the folder, a special file): why, in the order found. */
  skipped: Map<string, string>;
};

export function newFolderBook(root: string): FolderBook {
  return { root, files: new Map(), failures: new Map(), warnings: new Map(), retry: new Set(), skipped: new Map() };
}

/** Size, modification and change time: a file that was written, replaced or chmod'ed has another stamp. */
export function stampOf(file: { size: number; mtimeMs: number; ctimeMs: number }): string {
  return `${file.size}:${file.mtimeMs}:${file.ctimeMs}`;
}

/** Forgets every file, failure and skipped entry at or under `path`; `forgotten` is told of each file that was known. */
export function forgetUnder(book: FolderBook, path: string, forgotten: (file: string) => void): void {
  for (const file of [...book.files.keys()]) {
    if (!isWithin(path, file)) continue;
    book.files.delete(file);
    book.retry.delete(file);
    forgotten(file);
  }
  for (const failed of [...book.failures.keys()]) if (isWithin(path, failed)) book.failures.delete(failed);
  for (const skipped of [...book.skipped.keys()]) if (isWithin(path, skipped)) book.skipped.delete(skipped);
  for (const warned of [...book.warnings.keys()]) if (isWithin(path, warned)) book.warnings.delete(warned);
}

/** Lists `path` as left out unopened, and why, forgetting what was known at or under it. */
export function skipIn(book: FolderBook, path: string, reason: string, forgotten: (file: string) => void): void {
  forgetUnder(book, path, forgotten);
  book.skipped.set(path, reason);
}

/** What a stat-only walk of a followed folder found: each file's stamp, what could not be read, what was left out and why. */
export type Walked = { files: Map<string, string>; problems: Set<string>; skips: Map<string, string> };

/**
 * The paths where a walk differs from the book: new, grown, rewritten and gone files, newly
 * unreadable ones, and entries newly skipped or no longer. `retry`: failed files to try again too.
 */
export function differences(book: FolderBook, walked: Walked, retry: boolean): string[] {
  const differ: string[] = [];
  for (const [file, stamp] of walked.files) if (book.files.get(file)?.stamp !== stamp || (retry && book.retry.has(file))) differ.push(file);
  for (const problem of walked.problems) if (!book.failures.has(problem) || book.files.has(problem)) differ.push(problem);
  for (const [skipped, reason] of walked.skips) if (book.skipped.get(skipped) !== reason) differ.push(skipped);
  const seen = (path: string) => walked.files.has(path) || walked.problems.has(path) || walked.skips.has(path);
  for (const file of book.files.keys()) if (!seen(file)) differ.push(file);
  for (const failed of book.failures.keys()) if (!seen(failed) && !book.files.has(failed)) differ.push(failed);
  for (const skipped of book.skipped.keys()) if (!seen(skipped)) differ.push(skipped);
  return differ;
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
  const skippedEntries = [...book.skipped].slice(0, MAX_LISTED_FAILURES).map(([file, reason]) => ({ file, reason }));
  const warnings: SourceFolderStatus["warnings"] = [];
  for (const [file, reason] of book.warnings)
    if (warnings.length < MAX_LISTED_FAILURES && book.files.has(file)) warnings.push({ file, reason });
  Object.assign(folder, {
    filesSeen: book.files.size,
    imported,
    unchanged: book.files.size - imported - failedFiles,
    failed: book.failures.size,
    failures,
    skipped: book.skipped.size,
    skippedEntries,
    warnings,
  });
}

/** Counts one outcome of a full sync as it goes (the page shows its progress); countFolder gives the same totals at its end. */
export function countOne(
  folder: SourceFolderStatus,
  outcome: "imported" | "unchanged" | "failed" | "problem" | "skipped",
  failure?: { file: string; reason: string },
  warning?: { file: string; reason: string },
): void {
  if (outcome === "skipped") {
    folder.skipped += 1;
    if (failure && folder.skippedEntries.length < MAX_LISTED_FAILURES) folder.skippedEntries.push(failure);
    return;
  }
  if (warning && folder.warnings.length < MAX_LISTED_FAILURES) folder.warnings.push(warning);
  if (outcome !== "problem") folder.filesSeen += 1;
  if (outcome === "imported") folder.imported += 1;
  else if (outcome === "unchanged") folder.unchanged += 1;
  else folder.failed += 1;
  if (failure && folder.failures.length < MAX_LISTED_FAILURES) folder.failures.push(failure);
}

/** Forgets what the last visit noted of `file` (a failure, a skip, a warning, a retry) before it is visited again. */
export function clearNotes(book: FolderBook, file: string): void {
  book.failures.delete(file);
  book.skipped.delete(file);
  book.warnings.delete(file);
  book.retry.delete(file);
}

/** Notes `file` as failed, tried again at the slow check when `retry`. The importer's reasons start with the file's name, which the list names already. */
export function noteFailure(book: FolderBook, file: string, reason: string, retry: boolean): "failed" {
  book.failures.set(file, reason.startsWith(`${file}: `) ? reason.slice(file.length + 2) : reason);
  if (retry) book.retry.add(file);
  return "failed";
}
