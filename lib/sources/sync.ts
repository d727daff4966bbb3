import "server-only";
// Follows the folders THREADLINE_SOURCES names (by default the agents' own folders): a full sync
// walks them for transcript files and imports what is new or changed, as `npm run import` would;
// between full syncs each folder is followed (./follow.ts: change events, or a poll) and only the
// paths that changed are looked at again.
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { claimJobLease, releaseJobLease, renewJobLease } from "@/lib/db/job-leases";
import type { FileImportReport } from "@/lib/db/imports";
import { isWithin } from "@/lib/domain/paths";
import { emptyFolderStatus, type SourceFolderStatus, type SourcesSetting, type SourcesStatus } from "@/lib/domain/sources";
import { serverSettings } from "@/lib/env";
import { realInside, RefusedPathError } from "@/lib/files/inside";
import { isTranscriptPath } from "@/lib/importers";
import { longLinesWarning } from "@/lib/importers/long-lines";
import { importPath } from "@/lib/imports/import-file";
import { openCodeTranscriptOf } from "@/lib/imports/opencode-files";
import {
  describeFsError,
  lookInside,
  transcriptFileAt,
  transcriptFiles,
  type TranscriptFile,
  type WalkProblem,
} from "@/lib/imports/transcript-files";
import { openCodeDatabaseOf } from "@/lib/importers/opencode/paths";
import { liveHub } from "@/lib/live/hub";
import { dbFiles, knownFiles, type FileMemory, type KnownFilesStore } from "./known-files";
import { followFolder, type FolderFollower, type FollowMode } from "./follow";
import {
  clearNotes,
  countFolder,
  countOne,
  differences,
  forgetUnder,
  isGone,
  newFolderBook,
  noteFailure,
  skipIn,
  stampOf,
  type FolderBook,
  type Walked,
} from "./folder-book";
import type { TreeWatch, TreeWatchOptions } from "./watch";

/**
 * The lease that lets one instance at a time sync on a shared database.
 * @internal exported for its tests
 */
export const SOURCES_LEASE = "sources";
const SOURCES_LEASE_MS = 60_000;
const RENEW_EVERY_MS = 15_000;

type JobLeases = {
  claim(name: string, owner: string, ms: number): Promise<boolean>;
  renew(name: string, owner: string, ms: number): Promise<boolean>;
  release(name: string, owner: string): Promise<void>;
};

export type SourceSyncOptions = {
  /** Imports one file (importPath, opening nothing out of `within`); a test passes a wrapper that counts the files actually read. */
  importFile?: (path: string, within: string) => Promise<FileImportReport>;
  /** The folders to follow; read at each sync (serverSettings().sources). */
  setting?: () => SourcesSetting;
  leases?: JobLeases;
  now?: () => Date;
  log?: (line: string) => void;
  /**
   * Follow each synced folder between syncs (change events, or a poll) and import what changes
   * shortly after it changed. On in the server; tests that want it turn it on and call close().
   */
  watch?: boolean;
  /** Poll instead of watching (serverSettings().sourcesPoll, THREADLINE_SOURCES_POLL). */
  poll?: () => boolean;
  /** How often a polled folder is walked (POLL_MS) and every followed folder checked whole (RESYNC_MS). */
  pollMs?: number;
  resyncMs?: number;
  /** Tests hand in a tree watch that fails (./watch.ts watchTree). */
  watchTree?: (root: string, options: TreeWatchOptions) => Promise<TreeWatch>;
  /** Where what a sync learnt of each file is kept across restarts (lib/db/source-files). */
  files?: KnownFilesStore;
  /** Told when the status changes: `settled` when a full sync starts or ends, else progress (a file done, a folder's state). */
  onStatusChange?: (settled: boolean) => void;
};

/** Remembered files are written in batches of this many while a folder syncs. */
const SAVE_EVERY = 200;

export type SourceSync = {
  /** The status now: folders, their states and the last sync's counts. A copy, safe to send. */
  status(): SourcesStatus;
  /** Syncs every folder once, whole; while one full sync runs, another call joins it. */
  sync(): Promise<SourcesStatus>;
  /** Starts a sync in the background (or joins the running one) and answers the status at once. */
  start(): SourcesStatus;
  /** Stops following (the folders stay as they are); resolves once the sync that is running, if any, has ended and let go of the lease. */
  close(): Promise<void>;
};

/** How long after the last change in a followed folder the changed files are synced: a session being written changes many times a second. */
const WATCH_DEBOUNCE_MS = 300;
/** The longest a stream of changes postpones that sync. */
const WATCH_MAX_WAIT_MS = 1000;
/**
 * Every followed folder is walked (stat only) this often and compared with what the last syncs
 * found, in case an event was missed; a followed folder that is missing or was made meanwhile is
 * looked for then too.
 */
const RESYNC_MS = 60_000;

const dbLeases: JobLeases = { claim: claimJobLease, renew: renewJobLease, release: releaseJobLease };

export function createSourceSync(options: SourceSyncOptions = {}): SourceSync {
  const importFile = options.importFile ?? ((path: string, within: string) => importPath(path, path, undefined, { follow: true, within }));
  const setting = options.setting ?? (() => serverSettings().sources);
  const forcePoll = options.poll ?? (() => serverSettings().sourcesPoll);
  const leases = options.leases ?? dbLeases;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(`[threadline] ${line}`));
  const owner = randomUUID();
  const known = knownFiles(options.files ?? dbFiles, log);
  /** What the last syncs found in each followed folder (the status counts come from it). */
  const books = new Map<string, FolderBook>();
  let folders = new Map<string, SourceFolderStatus>();
  let origin: SourcesStatus["origin"] | null = null;
  let heldElsewhere = false;
  let syncs = 0;
  /** Every sync, full or of changed paths, runs after the one before (jobs), one at a time. */
  let jobs: Promise<unknown> = Promise.resolve();
  /** The full sync asked for (waiting or running): another request joins it. */
  let full: Promise<SourcesStatus> | null = null;
  const followers = new Map<string, FolderFollower>();
  /** Paths changed since the last sync of changed paths, and the wait before it. */
  const changedPaths = new Set<string>();
  let debounce: NodeJS.Timeout | null = null;
  let pendingSince = 0;
  let flushWaiting = false;
  let resync: NodeJS.Timeout | null = null;
  let closed = false;
  const statusChanged = options.onStatusChange ?? (() => {});

  function exclusive<T>(job: () => Promise<T>): Promise<T> {
    const result = jobs.then(job);
    jobs = result.catch(() => undefined);
    return result;
  }

  function changed(path: string): void {
    if (closed) return;
    changedPaths.add(path);
    const at = Date.now();
    if (debounce) {
      // A file written without pause (a live session) must not postpone the sync for ever.
      if (at - pendingSince >= WATCH_MAX_WAIT_MS) return;
      clearTimeout(debounce);
    } else pendingSince = at;
    debounce = setTimeout(() => {
      debounce = null;
      flush();
    }, WATCH_DEBOUNCE_MS);
    debounce.unref();
  }

  /** Syncs the changed paths after the running sync; paths that change until it starts go with it. */
  function flush(): void {
    if (flushWaiting || changedPaths.size === 0) return;
    flushWaiting = true;
    void exclusive(async () => {
      flushWaiting = false;
      const paths = [...changedPaths].sort();
      changedPaths.clear();
      await syncChanged(paths);
    }).catch((error: unknown) => log(`sources: sync of changed files failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  function applyMode(path: string, mode: FollowMode | null): void {
    const folder = folders.get(path);
    if (folder) Object.assign(folder, { watchMode: mode?.mode ?? null, watchNote: mode?.note ?? null });
    statusChanged(false);
  }

  /** Follows a folder that exists, once: before its walk, so that what changes meanwhile is heard. */
  async function follow(folder: SourceFolderStatus): Promise<void> {
    if (!options.watch || closed || followers.has(folder.path) || !exists(folder.path)) return;
    const path = folder.path;
    const follower = await followFolder(path, {
      // OpenCode's database changes in its -wal file first.
      wanted: (name) => isTranscriptPath(name) || openCodeDatabaseOf(name) !== null,
      onChange: changed,
      onPoll: () => scan(path, false),
      onModeChange: (mode) => {
        applyMode(path, mode);
        changed(path); // events may have been missed before the watch failed: the whole folder is compared
      },
      forcePoll: forcePoll(),
      pollMs: options.pollMs,
      watch: options.watchTree,
    });
    if (closed) follower.close();
    else followers.set(path, follower);
  }

  function unfollow(path: string): void {
    followers.get(path)?.close();
    followers.delete(path);
    books.delete(path);
    applyMode(path, null);
  }

  /** The folders to follow now: the default ones only when they exist (a folder made later is picked up by the next sync). */
  function followed(current: SourcesSetting): string[] {
    if (current.origin !== "default") return current.folders;
    return current.folders.filter(exists);
  }

  function status(): SourcesStatus {
    const syncing = full !== null;
    if (origin === null) {
      // Not synced yet: the folders as configured, each found or missing.
      const current = setting();
      const list = followed(current).map(
        (path) => folders.get(path) ?? { ...emptyFolderStatus(path), state: exists(path) ? ("found" as const) : ("missing" as const) },
      );
      return structuredClone({ origin: current.origin, syncing, heldElsewhere, folders: list });
    }
    return structuredClone({ origin, syncing, heldElsewhere, folders: [...folders.values()] });
  }

  /** Imports a file unless it is as the last sync left it; notes the outcome in the folder's book. */
  async function visit(
    folder: SourceFolderStatus,
    book: FolderBook,
    file: TranscriptFile,
    mem: FileMemory,
    sync: number,
  ): Promise<"imported" | "unchanged" | "failed" | "skipped"> {
    clearNotes(book, file.path);
    const entry = { stamp: stampOf(file), importedBy: 0 };
    book.files.set(file.path, entry);
    const fail = (reason: string, retry: boolean) => noteFailure(book, file.path, reason, retry);
    const before = known.get(file.path);
    if (before && before.size === file.size && before.mtimeMs === file.mtimeMs) {
      if (before.warning !== undefined) book.warnings.set(file.path, before.warning);
      return before.failure !== undefined ? fail(before.failure, false) : "unchanged";
    }
    let report: FileImportReport;
    try {
      // Looked at again right before it is opened (the importer checks too, on the open file).
      await realInside(file.path, book.root);
      report = await importFile(file.path, book.root);
    } catch (error) {
      // A link out of the folder (or a pipe) swapped in since the walk: left unopened, not a failure.
      if (error instanceof RefusedPathError) return (skipIn(book, file.path, error.reason, (gone) => mem.remember(gone, null)), "skipped");
      // Unreadable (permissions, gone meanwhile) or a fault of the importer: reported, and tried
      // again at the next sync, since nothing about it is remembered.
      mem.remember(file.path, null);
      return fail(describeFsError(error), true);
    }
    if (report.status === "failed") {
      // Bad content stays bad until the file changes: not read again until then.
      const reason = report.error ?? "could not be imported";
      mem.remember(file.path, { size: file.size, mtimeMs: file.mtimeMs, failure: reason });
      return fail(reason, false);
    }
    // Lines left out are shown until the file changes (content skipped by its hash, as imported
    // before, reports no lines: a file touched but not changed is no longer listed).
    const warning = longLinesWarning(report.skipped) ?? undefined;
    if (warning !== undefined) book.warnings.set(file.path, warning);
    mem.remember(file.path, { size: file.size, mtimeMs: file.mtimeMs, ...(warning !== undefined ? { warning } : {}) });
    await mem.store(SAVE_EVERY);
    if (report.status !== "imported") return "unchanged";
    entry.importedBy = sync;
    folder.lastChangeAt = now().toISOString();
    return "imported";
  }

  /** A full sync of one folder: every file walked, compared, and read when it changed. */
  async function syncFolder(folder: SourceFolderStatus, sync: number): Promise<void> {
    Object.assign(folder, {
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
        lastSyncAt: now().toISOString(),
      });
      return;
    }
    const book = newFolderBook(root);
    const mem = known.batch();
    let unreadable: string | null = null;
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
      for await (const file of transcriptFiles(folder.path, { onProblem, onSkip, within: root })) {
        const outcome = await visit(folder, book, file, mem, sync);
        const reason =
          outcome === "failed" ? book.failures.get(file.path) : outcome === "skipped" ? book.skipped.get(file.path) : undefined;
        const warning = book.warnings.get(file.path);
        countOne(
          folder,
          outcome,
          reason === undefined ? undefined : { file: file.path, reason },
          warning === undefined ? undefined : { file: file.path, reason: warning },
        );
        statusChanged(false);
      }
      Object.assign(folder, { state: unreadable ? "error" : "found", error: unreadable });
    } catch (error) {
      Object.assign(folder, { state: "error", error: describeFsError(error) });
    }
    // A file that is gone is forgotten (its threads stay): should it come back, it is read again.
    const prefix = folder.path.endsWith("/") ? folder.path : `${folder.path}/`;
    for (const path of [...known.paths()]) if (path.startsWith(prefix) && !book.files.has(path)) mem.remember(path, null);
    books.set(folder.path, book);
    countFolder(folder, book, sync);
    await mem.storeOrLog(folder.path);
    folder.lastSyncAt = now().toISOString();
  }

  /**
   * Syncs the paths under a followed folder that changed: a file is compared and read if it
   * changed, a folder walked, what went away forgotten. The counts become what a full sync would
   * say. The folder itself gone or unreadable: a full sync says so.
   */
  async function syncPaths(folder: SourceFolderStatus, book: FolderBook, paths: string[], sync: number): Promise<boolean> {
    const mem = known.batch();
    const forgotten = (file: string) => mem.remember(file, null);
    const forget = (path: string) => forgetUnder(book, path, forgotten);
    // A piece of an OpenCode session (a message or part file, the database's -wal) stands for its session or database.
    const transcripts = await Promise.all(paths.map(async (path) => (await openCodeTranscriptOf(path, book.root)) ?? path));
    for (const path of [...new Set(transcripts)].sort()) {
      // Nothing is stat'ed through a link out of the folder: where it leads is looked at first.
      const look = await lookInside(path, book.root).catch((error: unknown) => error as NodeJS.ErrnoException);
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
          await visit(folder, book, file, mem, sync);
        }
        for (const gone of before) forget(gone);
      } else if (look.kind === "file") {
        await visit(folder, book, await transcriptFileAt(path, look.stat, book.root), mem, sync);
      } else if (look.kind === "skip") skipIn(book, path, look.reason, forgotten);
      else forget(path);
    }
    countFolder(folder, book, sync);
    await mem.storeOrLog(folder.path);
    folder.lastSyncAt = now().toISOString();
    statusChanged(false);
    return true;
  }

  /** Runs `job` holding the sync lease, renewed while it runs; false when another instance holds it. */
  async function withLease(job: () => Promise<void>): Promise<boolean> {
    if (!(await leases.claim(SOURCES_LEASE, owner, SOURCES_LEASE_MS))) {
      heldElsewhere = true;
      return false;
    }
    heldElsewhere = false;
    const renewal = setInterval(() => void leases.renew(SOURCES_LEASE, owner, SOURCES_LEASE_MS).catch(() => undefined), RENEW_EVERY_MS);
    renewal.unref();
    try {
      await job();
    } finally {
      clearInterval(renewal);
      await leases.release(SOURCES_LEASE, owner).catch(() => undefined);
    }
    return true;
  }

  async function run(): Promise<SourcesStatus> {
    // Queued before close(): it must not claim the lease again after it.
    if (closed) return status();
    const current = setting();
    origin = current.origin;
    const paths = followed(current);
    for (const path of followers.keys()) if (!paths.includes(path)) unfollow(path);
    folders = new Map(paths.map((path) => [path, folders.get(path) ?? emptyFolderStatus(path)]));
    if (paths.length === 0) return status();
    const sync = ++syncs;
    const synced = await withLease(async () => {
      for (const folder of folders.values()) {
        // A followed link that leads elsewhere now: its watches are on the old place.
        if (followers.has(folder.path) && (await realpath(folder.path).catch(() => null)) !== books.get(folder.path)?.root)
          unfollow(folder.path);
        await follow(folder);
        await syncFolder(folder, sync);
        if (folder.state !== "found" || !followers.has(folder.path))
          unfollow(folder.path); // looked for again by a later sync
        else {
          folder.state = "watching";
          applyMode(folder.path, followers.get(folder.path)!.mode());
        }
      }
    });
    if (!synced) return status();
    const all = [...folders.values()];
    const sum = (key: "filesSeen" | "imported" | "unchanged" | "failed" | "skipped") => all.reduce((n, f) => n + f[key], 0);
    log(
      `sources: ${all.length} folder(s), ${sum("filesSeen")} file(s): ${sum("imported")} imported, ${sum("unchanged")} unchanged, ${sum("failed")} failed, ${sum("skipped")} skipped`,
    );
    return status();
  }

  /** Syncs the changed paths of each followed folder (and a whole folder that went away or came back). */
  async function syncChanged(paths: string[]): Promise<void> {
    const touched = [...folders.values()].filter((folder) => books.has(folder.path) && paths.some((path) => isWithin(folder.path, path)));
    if (touched.length === 0 || closed) return;
    const sync = ++syncs;
    let fullNeeded = false;
    await withLease(async () => {
      for (const folder of touched) {
        const book = books.get(folder.path);
        if (
          book &&
          !(await syncPaths(
            folder,
            book,
            paths.filter((path) => isWithin(folder.path, path)),
            sync,
          ))
        )
          fullNeeded = true;
      }
    });
    if (fullNeeded) void syncAll();
  }

  /**
   * Walks a followed folder (stat only) and marks what differs from what the last syncs found:
   * new, grown, rewritten and gone files. `retry`: files that could not be read are tried again.
   */
  async function scan(path: string, retry: boolean): Promise<void> {
    const book = books.get(path);
    if (!book || full || closed) return; // not synced yet, or a full sync is coming
    const walked: Walked = { files: new Map(), problems: new Set(), skips: new Map() };
    const differ: string[] = [];
    try {
      // A followed link that leads somewhere else now: the folder is synced whole.
      if ((await realpath(path)) !== book.root) throw new Error("moved");
      const onProblem = (problem: WalkProblem) => walked.problems.add(problem.path);
      const onSkip = (skip: WalkProblem) => walked.skips.set(skip.path, skip.reason);
      for await (const file of transcriptFiles(path, { onProblem, onSkip, within: book.root })) walked.files.set(file.path, stampOf(file));
    } catch {
      differ.push(path); // the folder itself is gone or unreadable
    }
    differ.push(...differences(book, walked, retry));
    // Found by a walk, not an event: no stream of changes to wait out.
    for (const changedPath of differ) changedPaths.add(changedPath);
    flush();
  }

  /** The slow check (RESYNC_MS): a folder to follow that is not followed yet but is there now gets a full sync; the followed ones are compared. */
  function resyncNow(): void {
    if (full || closed) return;
    const waiting = followed(setting()).some((path) => !followers.has(path) && exists(path));
    if (waiting) void syncAll();
    else for (const path of followers.keys()) void scan(path, true);
  }

  function syncAll(): Promise<SourcesStatus> {
    if (options.watch && !resync && !closed) {
      resync = setInterval(resyncNow, options.resyncMs ?? RESYNC_MS);
      resync.unref();
    }
    const starting = full === null;
    full ??= exclusive(run)
      .catch((error: unknown) => {
        // The database is away, say: every folder says why, and the next sync tries again.
        const reason = error instanceof Error ? error.message : String(error);
        for (const folder of folders.values()) Object.assign(folder, { state: "error", error: `sync failed: ${reason}` });
        log(`sources: sync failed: ${reason}`);
        return status();
      })
      .finally(() => {
        full = null;
        statusChanged(true);
      });
    if (starting) statusChanged(true);
    return full.then(() => status());
  }

  function start(): SourcesStatus {
    void syncAll();
    return status();
  }

  function close(): Promise<void> {
    closed = true;
    if (debounce) clearTimeout(debounce);
    if (resync) clearInterval(resync);
    for (const path of [...followers.keys()]) unfollow(path);
    return jobs.then(() => undefined);
  }

  return { status, sync: syncAll, start, close };
}

function exists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const globalForSources = globalThis as unknown as { threadlineSources?: SourceSync };

/**
 * The process's one source sync. On globalThis: the server start-up hook (instrumentation.ts) and
 * the route handlers are bundled apart, and must share it.
 */
export function sourceSync(): SourceSync {
  globalForSources.threadlineSources ??= createSourceSync({
    watch: true,
    // Open pages see a sync start, progress and end (GET /api/events).
    onStatusChange: (settled) => liveHub().sourcesChanged(() => sourceSync().status(), settled),
  });
  return globalForSources.threadlineSources;
}
