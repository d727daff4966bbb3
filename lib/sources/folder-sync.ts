import "server-only";
// A followed folder synced: whole (a full sync), or only the paths in it that changed. Each file is
// compared with what the last sync remembered of it, and read when it changed.
import { realpath, stat } from "node:fs/promises";
import { startBulkImports, type BulkRun } from "@/lib/db/imports/import-batch";
import type { FileImportReport } from "@/lib/db/imports/imports";
import { isWithin } from "@/lib/domain/paths";
import type { SourceFolderStatus } from "@/lib/domain/sources/sources";
import { RefusedPathError } from "@/lib/files/inside";
import { longLinesWarning } from "@/lib/importers/long-lines";
import { ReadAhead } from "@/lib/imports/read-ahead";
import { droidSessionOfSettings } from "@/lib/importers/factory-droid/paths";
import { openCodeTranscriptOf } from "@/lib/imports/opencode-files";
import { clineTranscriptOf } from "@/lib/imports/cline-task-files";
import {
  describeFsError,
  lookInside,
  transcriptFileAt,
  transcriptFiles,
  type TranscriptFile,
  type WalkProblem,
} from "@/lib/imports/transcript-files";
import {
  clearNotes,
  countFolder,
  countOne,
  forgetUnder,
  isGone,
  newFolderBook,
  noteFailure,
  skipIn,
  stampOf,
  type FolderBook,
} from "./folder-book";
import type { FileMemory, KnownFile } from "./known-files";
import type { SyncState } from "./sync-state";

/** Remembered files are written in batches of this many while a folder syncs. */
const SAVE_EVERY = 200;

/** How a sync's imports run: a full sync's in a bulk run (many files to a transaction), a few changed paths' each in its own. */
type Imports = Pick<BulkRun, "run" | "whenCommitted">;
const eachAlone: Imports = { run: (work) => work(), whenCommitted: (done) => done() };

/**
 * Imports a file unless it is as the last sync left it; notes the outcome in the folder's book.
 * What is remembered of it waits for its import's commit: a batch rolled back (its COMMIT failed)
 * leaves the file to be read again.
 */
async function visit(
  state: SyncState,
  folder: SourceFolderStatus,
  book: FolderBook,
  file: TranscriptFile,
  mem: FileMemory,
  sync: number,
  imports: Imports,
  readAhead?: ReadAhead,
): Promise<"imported" | "unchanged" | "failed" | "skipped"> {
  clearNotes(book, file.path);
  const entry = { stamp: stampOf(file), importedBy: 0 };
  book.files.set(file.path, entry);
  const fail = (reason: string, retry: boolean) => noteFailure(book, file.path, reason, retry);
  const before = state.known.get(file.path);
  if (before && isAsRemembered(before, file)) {
    if (before.warning !== undefined) book.warnings.set(file.path, before.warning);
    return before.failure !== undefined ? fail(before.failure, false) : "unchanged";
  }
  let report: FileImportReport;
  try {
    // The importer looks at the path again right before it opens it, and at the open file (one
    // look here as well cost a realpath per file: a first sync's slowest wait after the reads).
    report = await imports.run(() => state.importFile(file.path, book.root, readAhead));
  } catch (error) {
    // A link out of the folder (or a pipe) swapped in since the walk: left unopened, not a failure.
    if (error instanceof RefusedPathError) return (skipIn(book, file.path, error.reason, (gone) => mem.remember(gone, null)), "skipped");
    // Unreadable (permissions, gone meanwhile) or a fault of the importer: reported, and tried
    // again at the next sync, since nothing about it is remembered.
    mem.remember(file.path, null);
    return fail(describeFsError(error), true);
  }
  const undone = () => {
    // The batch it was in could not be committed: nothing of it is stored or remembered.
    entry.importedBy = 0;
    book.warnings.delete(file.path);
    noteFailure(book, file.path, "its import could not be committed", true);
  };
  if (report.status === "failed") {
    // Bad content stays bad until the file changes: not read again until then.
    const reason = report.error ?? "could not be imported";
    imports.whenCommitted(() => mem.remember(file.path, { size: file.size, mtimeMs: file.mtimeMs, failure: reason }), undone);
    return fail(reason, false);
  }
  // Lines left out are shown until the file changes (content skipped by its hash, as imported
  // before, reports no lines: a file touched but not changed is no longer listed).
  const warning = longLinesWarning(report.skipped) ?? undefined;
  if (warning !== undefined) book.warnings.set(file.path, warning);
  const known = { size: file.size, mtimeMs: file.mtimeMs, ...(warning !== undefined ? { warning } : {}) };
  imports.whenCommitted(() => mem.remember(file.path, known), undone);
  await mem.store(SAVE_EVERY);
  if (report.status !== "imported") return "unchanged";
  entry.importedBy = sync;
  folder.lastChangeAt = state.now().toISOString();
  return "imported";
}

/** The file has the size and modification time the last sync remembered: it is not read. */
function isAsRemembered(before: KnownFile | undefined, file: TranscriptFile): boolean {
  return before !== undefined && before.size === file.size && before.mtimeMs === file.mtimeMs;
}

/**
 * Latest modified first. Between files modified at once the path decides, backwards: a session's
 * sub-agent files (`<id>/subagents/…`) before the session's own `<id>.jsonl`, as the walk's order had them.
 * @internal exported for its tests
 */
export function newestFirst(a: TranscriptFile, b: TranscriptFile): number {
  return b.mtimeMs - a.mtimeMs || (a.path < b.path ? 1 : a.path > b.path ? -1 : 0);
}

/** A full sync of one folder: every file walked, compared, and read (newest first) when it changed. */
export async function syncFolder(state: SyncState, folder: SourceFolderStatus, sync: number): Promise<void> {
  Object.assign(folder, {
    filesFound: null,
    filesSeen: 0,
    imported: 0,
    unchanged: 0,
    failed: 0,
    failures: [],
    skipped: 0,
    skippedEntries: [],
    warnings: [],
    state: "syncing",
    error: null,
  });
  let root: string;
  try {
    const info = await stat(folder.path);
    if (!info.isDirectory()) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
    // The folder may be a link (the user's choice): its real place is the boundary until the next full sync.
    root = await realpath(folder.path);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    Object.assign(folder, {
      state: missing ? "missing" : "error",
      error: missing ? null : describeFsError(error),
      lastSyncAt: state.now().toISOString(),
    });
    return;
  }
  const book = newFolderBook(root);
  const mem = state.known.batch();
  let unreadable: string | null = null;
  // A run of imports, as the import CLI's: files share transactions, and each commits without
  // waiting for its last token counts (written with a later file's), which was most of a small session's wait.
  const bulk = startBulkImports();
  try {
    await mem.load(folder.path);
    const onProblem = (problem: { path: string; reason: string }) => {
      if (problem.path === folder.path) unreadable = problem.reason;
      else {
        book.failures.set(problem.path, problem.reason);
        countOne(folder, "problem", { file: problem.path, reason: problem.reason });
      }
    };
    const onSkip = (skip: WalkProblem) => {
      book.skipped.set(skip.path, skip.reason);
      countOne(folder, "skipped", { file: skip.path, reason: skip.reason });
    };
    // The walk is stat-only (0.2-0.3 s for 2,800 files): the newest sessions are read first, so a
    // first sync shows and finds the sessions a person worked in lately within its first seconds.
    const files: TranscriptFile[] = [];
    for await (const file of transcriptFiles(folder.path, { onProblem, onSkip, within: root })) files.push(file);
    folder.filesFound = files.length;
    state.statusChanged(false);
    files.sort(newestFirst);
    const toRead = files.filter((file) => !isAsRemembered(state.known.get(file.path), file));
    const readAhead = new ReadAhead(root);
    let readUpTo = 0;
    for (const file of files) {
      // The next files are opened and read while this one is parsed and written.
      if (toRead[readUpTo] === file) readUpTo += 1;
      for (; readUpTo < toRead.length && readAhead.wants(toRead[readUpTo]!.size); readUpTo++)
        readAhead.start(toRead[readUpTo]!.path, toRead[readUpTo]!.size);
      const outcome = await visit(state, folder, book, file, mem, sync, bulk, readAhead);
      const reason = outcome === "failed" ? book.failures.get(file.path) : outcome === "skipped" ? book.skipped.get(file.path) : undefined;
      const warning = book.warnings.get(file.path);
      countOne(
        folder,
        outcome,
        reason === undefined ? undefined : { file: file.path, reason },
        warning === undefined ? undefined : { file: file.path, reason: warning },
      );
      state.statusChanged(false);
    }
    Object.assign(folder, { state: unreadable ? "error" : "found", error: unreadable });
  } catch (error) {
    Object.assign(folder, { state: "error", error: describeFsError(error) });
  } finally {
    await bulk.finish();
  }
  // A file that is gone is forgotten (its threads stay): should it come back, it is read again.
  const prefix = folder.path.endsWith("/") ? folder.path : `${folder.path}/`;
  for (const path of [...state.known.paths()]) if (path.startsWith(prefix) && !book.files.has(path)) mem.remember(path, null);
  state.books.set(folder.path, book);
  countFolder(folder, book, sync);
  await mem.storeOrLog(folder.path);
  folder.lastSyncAt = state.now().toISOString();
}

/**
 * Syncs the paths under a followed folder that changed: a file is compared and read if it
 * changed, a folder walked, what went away forgotten. The counts become what a full sync would
 * say. The folder itself gone or unreadable: a full sync says so.
 */
export async function syncPaths(
  state: SyncState,
  folder: SourceFolderStatus,
  book: FolderBook,
  paths: string[],
  sync: number,
): Promise<boolean> {
  const mem = state.known.batch();
  const forgotten = (file: string) => mem.remember(file, null);
  const forget = (path: string) => forgetUnder(book, path, forgotten);
  // A piece of an OpenCode session (a message or part file, the database's -wal) stands for its session or database,
  // a task's ui_messages.json or task_metadata.json (Cline, Roo Code, Kilo Code) for its api_conversation_history.json,
  // a Factory Droid session's <id>.settings.json for its <id>.jsonl.
  const transcripts = await Promise.all(
    paths.map(
      async (path) =>
        (await openCodeTranscriptOf(path, book.root)) ?? (await clineTranscriptOf(path)) ?? droidSessionOfSettings(path) ?? path,
    ),
  );
  for (const path of [...new Set(transcripts)].sort()) {
    // Nothing is stat'ed through a link out of the folder: where it leads is looked at first.
    const look = lookOrError(path, book.root);
    // The folder itself gone, no longer a folder, or leading somewhere else now (a followed link pointed elsewhere): a full sync.
    if (path === folder.path && (look instanceof Error || look.kind !== "folder")) return false;
    if (look instanceof Error) {
      if (isGone(look)) forget(path);
      else book.failures.set(path, describeFsError(look));
    } else if (look.kind === "folder") {
      const before = new Set([...book.files.keys(), ...book.failures.keys(), ...book.skipped.keys()].filter((p) => isWithin(path, p)));
      const onProblem = (problem: WalkProblem) => {
        before.delete(problem.path);
        book.failures.set(problem.path, problem.reason);
      };
      const onSkip = (found: WalkProblem) => {
        before.delete(found.path);
        skipIn(book, found.path, found.reason, forgotten);
      };
      for await (const file of transcriptFiles(path, { onProblem, onSkip, within: book.root })) {
        before.delete(file.path);
        await visit(state, folder, book, file, mem, sync, eachAlone);
      }
      for (const gone of before) forget(gone);
    } else if (look.kind === "file") {
      await visit(state, folder, book, await transcriptFileAt(path, look.stat, book.root), mem, sync, eachAlone);
    } else if (look.kind === "skip") skipIn(book, path, look.reason, forgotten);
    else forget(path);
  }
  countFolder(folder, book, sync);
  await mem.storeOrLog(folder.path);
  folder.lastSyncAt = state.now().toISOString();
  state.statusChanged(false);
  return true;
}

function lookOrError(path: string, within: string): ReturnType<typeof lookInside> | NodeJS.ErrnoException {
  try {
    return lookInside(path, within);
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}
