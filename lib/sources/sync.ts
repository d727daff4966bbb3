import "server-only";
// Follows the folders THREADLINE_SOURCES names (by default the agents' own folders): a full sync
// walks them for transcript files and imports what is new or changed, as `npm run import` would;
// between full syncs each folder is followed (./follow.ts: change events, or a poll) and only the
// paths that changed are looked at again.
// The parts: ./sync-state.ts (what a sync holds), ./folder-sync.ts (a folder synced, whole or the
// paths that changed); this file schedules the syncs, holds the lease and follows the folders.
import { realpath } from "node:fs/promises";
import { claimJobLease, newLeaseOwner, releaseJobLease, renewJobLease } from "@/lib/db/engine/job-leases";
import type { FileImportReport } from "@/lib/db/imports/imports";
import { isWithin } from "@/lib/domain/paths";
import { emptyFolderStatus, type SourceFolderStatus, type SourcesSetting, type SourcesStatus } from "@/lib/domain/sources/sources";
import { serverSettings } from "@/lib/env";
import { isTranscriptPath } from "@/lib/importers";
import type { ReadAhead } from "@/lib/imports/read-ahead";
import { importPath } from "@/lib/imports/import-file";
import { endParseWorkerSoon } from "@/lib/imports/parse-pool";
import { transcriptFiles, type WalkProblem } from "@/lib/imports/transcript-files";
import { agentDatabaseOf } from "@/lib/importers/databases";
import { droidSessionOfSettings } from "@/lib/importers/factory-droid/paths";
import { isClineTaskSideName } from "@/lib/importers/cline/paths";
import { liveHub } from "@/lib/live/hub";
import { dbFiles, knownFiles, type KnownFilesStore } from "./known-files";
import { followFolder } from "./follow";
import { differences, stampOf, type Walked } from "./folder-book";
import { syncFolder, syncPaths } from "./folder-sync";
import { applyMode, exclusive, exists, followed, statusOf, type JobLeases, type SyncState } from "./sync-state";
import type { TreeWatch, TreeWatchOptions } from "./watch";

/**
 * The lease that lets one instance at a time sync on a shared database.
 * @internal exported for its tests
 */
export const SOURCES_LEASE = "sources";
const SOURCES_LEASE_MS = 60_000;
const RENEW_EVERY_MS = 15_000;

export type SourceSyncOptions = {
  /** Imports one file (importPath, opening nothing out of `within`); a test passes a wrapper that counts the files actually read. */
  importFile?: (path: string, within: string, readAhead?: ReadAhead) => Promise<FileImportReport>;
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
  /** How often a polled folder is walked (POLL_MS), and the slow check's interval (RESYNC_MS). */
  pollMs?: number;
  resyncMs?: number;
  /** Tests hand in a tree watch that fails (./watch.ts watchTree). */
  watchTree?: (root: string, options: TreeWatchOptions) => Promise<TreeWatch>;
  /** Where what a sync learnt of each file is kept across restarts (lib/db/imports/source-files). */
  files?: KnownFilesStore;
  /** Told when the status changes: `settled` when a full sync starts or ends, else progress (a file done, a folder's state). */
  onStatusChange?: (settled: boolean) => void;
};

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
 * The slow check's interval: a folder to follow that is missing or was made meanwhile is looked
 * for, and each polled folder is walked (stat only) and compared with what the last syncs found,
 * its unreadable files tried again.
 */
const RESYNC_MS = 60_000;
/**
 * A folder whose change events are followed is compared at every this many slow checks only (10
 * minutes), in case an event was missed: its walk of 2,800 files cost 0.6-0.8 s of CPU, 1% of a
 * core at rest when it ran every minute.
 */
const WATCHED_RESYNC_EVERY = 10;

const dbLeases: JobLeases = { claim: claimJobLease, renew: renewJobLease, release: releaseJobLease };

export function createSourceSync(options: SourceSyncOptions = {}): SourceSync {
  const state = newSyncState(options);
  return {
    status: () => statusOf(state),
    sync: () => syncAll(state),
    start: () => {
      void syncAll(state);
      return statusOf(state);
    },
    close: () => close(state),
  };
}

function newSyncState(options: SourceSyncOptions): SyncState {
  const log = options.log ?? ((line: string) => console.log(`[threadline] ${line}`));
  return {
    importFile:
      options.importFile ??
      ((path: string, within: string, readAhead?: ReadAhead) => importPath(path, path, undefined, { follow: true, within, readAhead })),
    setting: options.setting ?? (() => serverSettings().sources),
    forcePoll: options.poll ?? (() => serverSettings().sourcesPoll),
    leases: options.leases ?? dbLeases,
    now: options.now ?? (() => new Date()),
    log,
    statusChanged: options.onStatusChange ?? (() => {}),
    watch: options.watch ?? false,
    pollMs: options.pollMs,
    resyncMs: options.resyncMs ?? RESYNC_MS,
    watchTree: options.watchTree,
    owner: newLeaseOwner(),
    known: knownFiles(options.files ?? dbFiles, log),
    books: new Map(),
    folders: new Map(),
    origin: null,
    heldElsewhere: false,
    syncs: 0,
    jobs: Promise.resolve(),
    full: null,
    followers: new Map(),
    changedPaths: new Set(),
    debounce: null,
    pendingSince: 0,
    flushWaiting: false,
    resync: null,
    resyncs: 0,
    closed: false,
  };
}

function changed(state: SyncState, path: string): void {
  if (state.closed) return;
  state.changedPaths.add(path);
  const at = Date.now();
  if (state.debounce) {
    // A file written without pause (a live session) must not postpone the sync for ever.
    if (at - state.pendingSince >= WATCH_MAX_WAIT_MS) return;
    clearTimeout(state.debounce);
  } else state.pendingSince = at;
  state.debounce = setTimeout(() => {
    state.debounce = null;
    flush(state);
  }, WATCH_DEBOUNCE_MS);
  state.debounce.unref();
}

/** Syncs the changed paths after the running sync; paths that change until it starts go with it. */
function flush(state: SyncState): void {
  if (state.flushWaiting || state.changedPaths.size === 0) return;
  state.flushWaiting = true;
  void exclusive(state, async () => {
    state.flushWaiting = false;
    const paths = [...state.changedPaths].sort();
    state.changedPaths.clear();
    await syncChanged(state, paths);
  }).catch((error: unknown) =>
    state.log(`sources: sync of changed files failed: ${error instanceof Error ? error.message : String(error)}`),
  );
}

/** Follows a folder that exists, once: before its walk, so that what changes meanwhile is heard. */
async function follow(state: SyncState, folder: SourceFolderStatus): Promise<void> {
  if (!state.watch || state.closed || state.followers.has(folder.path) || !exists(folder.path)) return;
  const path = folder.path;
  const follower = await followFolder(path, {
    // An agent's database changes in its -wal file first; a task's usage lands in its ui_messages.json (Cline, Roo Code,
    // Kilo Code), a Factory Droid session's totals in its <id>.settings.json.
    wanted: (name) =>
      isTranscriptPath(name) || agentDatabaseOf(name) !== null || isClineTaskSideName(name) || droidSessionOfSettings(name) !== null,
    onChange: (changedPath) => changed(state, changedPath),
    onPoll: () => scan(state, path, false),
    onModeChange: (mode) => {
      applyMode(state, path, mode);
      changed(state, path); // events may have been missed before the watch failed: the whole folder is compared
    },
    forcePoll: state.forcePoll(),
    pollMs: state.pollMs,
    watch: state.watchTree,
  });
  if (state.closed) follower.close();
  else state.followers.set(path, follower);
}

function unfollow(state: SyncState, path: string): void {
  state.followers.get(path)?.close();
  state.followers.delete(path);
  state.books.delete(path);
  applyMode(state, path, null);
}

/** Runs `job` holding the sync lease, renewed while it runs; false when another instance holds it. */
async function withLease(state: SyncState, job: () => Promise<void>): Promise<boolean> {
  const { leases, owner } = state;
  if (!(await leases.claim(SOURCES_LEASE, owner, SOURCES_LEASE_MS))) {
    state.heldElsewhere = true;
    return false;
  }
  state.heldElsewhere = false;
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

/** A full sync: every folder to follow walked whole, followed from then on. */
async function run(state: SyncState): Promise<SourcesStatus> {
  // Queued before close(): it must not claim the lease again after it.
  if (state.closed) return statusOf(state);
  const current = state.setting();
  state.origin = current.origin;
  const paths = followed(current);
  for (const path of state.followers.keys()) if (!paths.includes(path)) unfollow(state, path);
  state.folders = new Map(paths.map((path) => [path, state.folders.get(path) ?? emptyFolderStatus(path)]));
  if (paths.length === 0) return statusOf(state);
  const sync = ++state.syncs;
  const synced = await withLease(state, async () => {
    for (const folder of state.folders.values()) {
      // A followed link that leads elsewhere now: its watches are on the old place.
      if (state.followers.has(folder.path) && (await realpath(folder.path).catch(() => null)) !== state.books.get(folder.path)?.root)
        unfollow(state, folder.path);
      await follow(state, folder);
      await syncFolder(state, folder, sync);
      if (folder.state !== "found" || !state.followers.has(folder.path))
        unfollow(state, folder.path); // looked for again by a later sync
      else {
        folder.state = "watching";
        applyMode(state, folder.path, state.followers.get(folder.path)!.mode());
      }
    }
    // Only a full sync reads on the parse worker.
    endParseWorkerSoon();
  });
  if (!synced) return statusOf(state);
  const all = [...state.folders.values()];
  const sum = (key: "filesSeen" | "imported" | "unchanged" | "failed" | "skipped") => all.reduce((n, f) => n + f[key], 0);
  state.log(
    `sources: ${all.length} folder(s), ${sum("filesSeen")} file(s): ${sum("imported")} imported, ${sum("unchanged")} unchanged, ${sum("failed")} failed, ${sum("skipped")} skipped`,
  );
  return statusOf(state);
}

/** Syncs the changed paths of each followed folder (and a whole folder that went away or came back). */
async function syncChanged(state: SyncState, paths: string[]): Promise<void> {
  const touched = [...state.folders.values()].filter(
    (folder) => state.books.has(folder.path) && paths.some((path) => isWithin(folder.path, path)),
  );
  if (touched.length === 0 || state.closed) return;
  const sync = ++state.syncs;
  let fullNeeded = false;
  await withLease(state, async () => {
    for (const folder of touched) {
      const book = state.books.get(folder.path);
      if (
        book &&
        !(await syncPaths(
          state,
          folder,
          book,
          paths.filter((path) => isWithin(folder.path, path)),
          sync,
        ))
      )
        fullNeeded = true;
    }
  });
  if (fullNeeded) void syncAll(state);
}

/**
 * Walks a followed folder (stat only) and marks what differs from what the last syncs found:
 * new, grown, rewritten and gone files. `retry`: files that could not be read are tried again.
 */
async function scan(state: SyncState, path: string, retry: boolean): Promise<void> {
  const book = state.books.get(path);
  if (!book || state.full || state.closed) return; // not synced yet, or a full sync is coming
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
  for (const changedPath of differ) state.changedPaths.add(changedPath);
  flush(state);
}

/** The slow check (RESYNC_MS): a folder to follow that is not followed yet but is there now gets a full sync; the followed ones are compared. */
function resyncNow(state: SyncState): void {
  if (state.full || state.closed) return;
  const waiting = followed(state.setting()).some((path) => !state.followers.has(path) && exists(path));
  if (waiting) return void syncAll(state);
  const watchedToo = ++state.resyncs % WATCHED_RESYNC_EVERY === 0;
  for (const [path, follower] of state.followers) if (watchedToo || follower.mode().mode === "polling") void scan(state, path, true);
}

/** Syncs every folder once, whole; while one full sync runs, another call joins it. */
function syncAll(state: SyncState): Promise<SourcesStatus> {
  if (state.watch && !state.resync && !state.closed) {
    state.resync = setInterval(() => resyncNow(state), state.resyncMs);
    state.resync.unref();
  }
  const starting = state.full === null;
  state.full ??= exclusive(state, () => run(state))
    .catch((error: unknown) => {
      // The database is away, say: every folder says why, and the next sync tries again.
      const reason = error instanceof Error ? error.message : String(error);
      for (const folder of state.folders.values()) Object.assign(folder, { state: "error", error: `sync failed: ${reason}` });
      state.log(`sources: sync failed: ${reason}`);
      return statusOf(state);
    })
    .finally(() => {
      state.full = null;
      state.statusChanged(true);
    });
  if (starting) state.statusChanged(true);
  return state.full.then(() => statusOf(state));
}

function close(state: SyncState): Promise<void> {
  state.closed = true;
  if (state.debounce) clearTimeout(state.debounce);
  if (state.resync) clearInterval(state.resync);
  for (const path of [...state.followers.keys()]) unfollow(state, path);
  return state.jobs.then(() => undefined);
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
