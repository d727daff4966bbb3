import "server-only";
// Follows the folders THREADLINE_SOURCES names (by default the agents' own folders): each sync
// walks them for transcript files and imports what is new or changed, as `npm run import` would.
import { randomUUID } from "node:crypto";
import { statSync, watch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import { claimJobLease, releaseJobLease, renewJobLease } from "@/lib/db/job-leases";
import { forgetSourceFiles, saveSourceFiles, sourceFilesUnder, type SourceFileRow } from "@/lib/db/source-files";
import type { FileImportReport } from "@/lib/db/imports";
import {
  emptyFolderStatus,
  MAX_LISTED_FAILURES,
  type SourceFolderStatus,
  type SourcesSetting,
  type SourcesStatus,
} from "@/lib/domain/sources";
import { serverSettings } from "@/lib/env";
import { importPath } from "@/lib/imports/import-file";
import { describeFsError, transcriptFiles } from "@/lib/imports/transcript-files";

/** The lease that lets one instance at a time sync on a shared database. */
export const SOURCES_LEASE = "sources";
export const SOURCES_LEASE_MS = 60_000;
const RENEW_EVERY_MS = 15_000;

export type JobLeases = {
  claim(name: string, owner: string, ms: number): Promise<boolean>;
  renew(name: string, owner: string, ms: number): Promise<boolean>;
  release(name: string, owner: string): Promise<void>;
};

export type SourceSyncOptions = {
  /** Imports one file (importPath); a test passes a wrapper that counts the files actually read. */
  importFile?: (path: string) => Promise<FileImportReport>;
  /** The folders to follow; read at each sync (serverSettings().sources). */
  setting?: () => SourcesSetting;
  leases?: JobLeases;
  now?: () => Date;
  log?: (line: string) => void;
  /**
   * Watch each synced folder (fs.watch, recursive) and sync again shortly after something in it
   * changes. On in the server; tests that want it turn it on and call close().
   */
  watch?: boolean;
  /** Where what a sync learnt of each file is kept across restarts (lib/db/source-files). */
  files?: KnownFilesStore;
};

export type KnownFilesStore = {
  under(folder: string): Promise<SourceFileRow[]>;
  save(rows: SourceFileRow[]): Promise<void>;
  forget(paths: string[]): Promise<void>;
};

const dbFiles: KnownFilesStore = { under: sourceFilesUnder, save: saveSourceFiles, forget: forgetSourceFiles };

/** Remembered files are written in batches of this many while a folder syncs. */
const SAVE_EVERY = 200;

export type SourceSync = {
  /** The status now: folders, their states and the last sync's counts. A copy, safe to send. */
  status(): SourcesStatus;
  /** Syncs every folder once; while one sync runs, another call joins it. */
  sync(): Promise<SourcesStatus>;
  /** Starts a sync in the background (or joins the running one) and answers the status at once. */
  start(): SourcesStatus;
  /** Stops watching (the folders stay as they are). */
  close(): void;
};

/** How long after the last change in a watched folder the next sync starts: a session being written changes many times a second. */
export const WATCH_DEBOUNCE_MS = 300;
/** The longest a stream of changes postpones the sync. */
export const WATCH_MAX_WAIT_MS = 1000;

/** What a file looked like when it was last imported (or failed to parse): unchanged size and mtime mean it is skipped unread. */
type KnownFile = { size: number; mtimeMs: number; failure?: string };

const dbLeases: JobLeases = { claim: claimJobLease, renew: renewJobLease, release: releaseJobLease };

export function createSourceSync(options: SourceSyncOptions = {}): SourceSync {
  const importFile = options.importFile ?? ((path: string) => importPath(path, path, undefined, { follow: true }));
  const setting = options.setting ?? (() => serverSettings().sources);
  const leases = options.leases ?? dbLeases;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(`[threadline] ${line}`));
  const owner = randomUUID();
  const files = options.files ?? dbFiles;
  const known = new Map<string, KnownFile>();
  /** Folders whose remembered files were read from the store in this process. */
  const loaded = new Set<string>();
  let folders = new Map<string, SourceFolderStatus>();
  let origin: SourcesStatus["origin"] | null = null;
  let heldElsewhere = false;
  let running: Promise<SourcesStatus> | null = null;
  const watchers = new Map<string, FSWatcher>();
  let debounce: NodeJS.Timeout | null = null;
  let pendingSince = 0;
  /** A change arrived while a sync ran (which may have passed the file already): sync once more after it. */
  let changedDuringSync = false;

  function changed(): void {
    if (running) {
      changedDuringSync = true;
      return;
    }
    const at = Date.now();
    if (debounce) {
      // A file written without pause (a live session) must not postpone the sync for ever.
      if (at - pendingSince >= WATCH_MAX_WAIT_MS) return;
      clearTimeout(debounce);
    } else pendingSince = at;
    debounce = setTimeout(() => {
      debounce = null;
      void sync();
    }, WATCH_DEBOUNCE_MS);
    debounce.unref();
  }

  /** Watches a synced folder, once; a watcher that fails is closed, and the next sync starts another. */
  function follow(folder: SourceFolderStatus): void {
    if (!options.watch || folder.state !== "found") return;
    if (!watchers.has(folder.path)) {
      try {
        const watcher = watch(folder.path, { recursive: true, persistent: false }, changed);
        watcher.on("error", (error) => {
          watcher.close();
          watchers.delete(folder.path);
          Object.assign(folder, { state: exists(folder.path) ? "error" : "missing", error: exists(folder.path) ? `watching stopped: ${describeFsError(error)}` : null });
          changed();
        });
        watchers.set(folder.path, watcher);
      } catch (error) {
        folder.error = `cannot watch it (${describeFsError(error)}): changes are picked up by the next sync`;
        return;
      }
    }
    folder.state = "watching";
  }

  function unfollowOthers(paths: string[]): void {
    for (const [path, watcher] of watchers) {
      if (paths.includes(path)) continue;
      watcher.close();
      watchers.delete(path);
    }
  }

  /** The folders to follow now: the default ones only when they exist (a folder made later is picked up by the next sync). */
  function followed(current: SourcesSetting): string[] {
    if (current.origin !== "default") return current.folders;
    return current.folders.filter((folder) => {
      try {
        return statSync(folder).isDirectory();
      } catch {
        return false;
      }
    });
  }

  function status(): SourcesStatus {
    if (origin === null) {
      // Not synced yet: the folders as configured, each found or missing.
      const current = setting();
      const list = followed(current).map((path) => folders.get(path) ?? { ...emptyFolderStatus(path), state: exists(path) ? ("found" as const) : ("missing" as const) });
      return structuredClone({ origin: current.origin, syncing: running !== null, heldElsewhere, folders: list });
    }
    return structuredClone({ origin, syncing: running !== null, heldElsewhere, folders: [...folders.values()] });
  }

  async function syncFolder(folder: SourceFolderStatus): Promise<void> {
    const counts = { filesSeen: 0, imported: 0, unchanged: 0, failed: 0, failures: [] as SourceFolderStatus["failures"] };
    Object.assign(folder, counts, { state: "syncing", error: null });
    const fail = (file: string, reason: string) => {
      folder.failed += 1;
      // The importer's reasons start with the file's name, which the failure names already.
      const own = reason.startsWith(`${file}: `) ? reason.slice(file.length + 2) : reason;
      if (folder.failures.length < MAX_LISTED_FAILURES) folder.failures.push({ file, reason: own });
    };
    let unreadable: string | null = null;
    try {
      const info = await stat(folder.path);
      if (!info.isDirectory()) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      Object.assign(folder, { state: missing ? "missing" : "error", error: missing ? null : describeFsError(error), lastSyncAt: now().toISOString() });
      return;
    }
    const seen = new Set<string>();
    const toSave: SourceFileRow[] = [];
    const toForget: string[] = [];
    const remember = (path: string, file: KnownFile | null) => {
      if (file) {
        known.set(path, file);
        toSave.push({ path, size: file.size, mtime: String(file.mtimeMs), failure: file.failure ?? null });
      } else if (known.delete(path)) toForget.push(path);
    };
    const store = async () => {
      await files.save(toSave.splice(0));
      await files.forget(toForget.splice(0));
    };
    try {
      if (!loaded.has(folder.path)) {
        // A restarted server knows what the last sync saw: unchanged files are not read again.
        for (const row of await files.under(folder.path)) known.set(row.path, { size: row.size, mtimeMs: Number(row.mtime), ...(row.failure !== null ? { failure: row.failure } : {}) });
        loaded.add(folder.path);
      }
      const onProblem = (problem: { path: string; reason: string }) => {
        if (problem.path === folder.path) unreadable = problem.reason;
        else fail(problem.path, problem.reason);
      };
      for await (const file of transcriptFiles(folder.path, onProblem)) {
        folder.filesSeen += 1;
        seen.add(file.path);
        const before = known.get(file.path);
        if (before && before.size === file.size && before.mtimeMs === file.mtimeMs) {
          if (before.failure !== undefined) fail(file.path, before.failure);
          else folder.unchanged += 1;
          continue;
        }
        let report: FileImportReport;
        try {
          report = await importFile(file.path);
        } catch (error) {
          // Unreadable (permissions, gone meanwhile) or a fault of the importer: reported, and tried
          // again at the next sync, since nothing about it is remembered.
          remember(file.path, null);
          fail(file.path, describeFsError(error));
          continue;
        }
        if (report.status === "failed") {
          // Bad content stays bad until the file changes: not read again until then.
          const reason = report.error ?? "could not be imported";
          remember(file.path, { size: file.size, mtimeMs: file.mtimeMs, failure: reason });
          fail(file.path, reason);
          continue;
        }
        remember(file.path, { size: file.size, mtimeMs: file.mtimeMs });
        if (toSave.length >= SAVE_EVERY) await store();
        if (report.status === "imported") {
          folder.imported += 1;
          folder.lastChangeAt = now().toISOString();
        } else folder.unchanged += 1;
      }
      Object.assign(folder, { state: unreadable ? "error" : "found", error: unreadable });
    } catch (error) {
      Object.assign(folder, { state: "error", error: describeFsError(error) });
    }
    // A file that is gone is forgotten (its threads stay): should it come back, it is read again.
    const prefix = folder.path.endsWith("/") ? folder.path : `${folder.path}/`;
    for (const path of [...known.keys()]) if (path.startsWith(prefix) && !seen.has(path)) remember(path, null);
    try {
      await store();
    } catch (error) {
      // Only a restart's first sync is slower for it: the files are read again then.
      log(`could not remember the files of ${folder.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    folder.lastSyncAt = now().toISOString();
  }

  async function run(): Promise<SourcesStatus> {
    const current = setting();
    origin = current.origin;
    const paths = followed(current);
    unfollowOthers(paths);
    folders = new Map(paths.map((path) => [path, folders.get(path) ?? emptyFolderStatus(path)]));
    if (paths.length === 0) return status();
    if (!(await leases.claim(SOURCES_LEASE, owner, SOURCES_LEASE_MS))) {
      heldElsewhere = true;
      return status();
    }
    heldElsewhere = false;
    const renewal = setInterval(() => void leases.renew(SOURCES_LEASE, owner, SOURCES_LEASE_MS).catch(() => undefined), RENEW_EVERY_MS);
    renewal.unref();
    try {
      for (const folder of folders.values()) {
        await syncFolder(folder);
        follow(folder);
      }
    } finally {
      clearInterval(renewal);
      await leases.release(SOURCES_LEASE, owner).catch(() => undefined);
    }
    const all = [...folders.values()];
    const sum = (key: "filesSeen" | "imported" | "unchanged" | "failed") => all.reduce((n, f) => n + f[key], 0);
    log(`sources: ${all.length} folder(s), ${sum("filesSeen")} file(s): ${sum("imported")} imported, ${sum("unchanged")} unchanged, ${sum("failed")} failed`);
    return status();
  }

  function sync(): Promise<SourcesStatus> {
    running ??= run()
      .catch((error: unknown) => {
        // The database is away, say: every folder says why, and the next sync tries again.
        const reason = error instanceof Error ? error.message : String(error);
        for (const folder of folders.values()) Object.assign(folder, { state: "error", error: `sync failed: ${reason}` });
        log(`sources: sync failed: ${reason}`);
        return status();
      })
      .finally(() => {
        running = null;
        if (changedDuringSync) {
          changedDuringSync = false;
          changed();
        }
      });
    return running.then(() => status());
  }

  function start(): SourcesStatus {
    void sync();
    return status();
  }

  function close(): void {
    if (debounce) clearTimeout(debounce);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  }

  return { status, sync, start, close };
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
  globalForSources.threadlineSources ??= createSourceSync({ watch: true });
  return globalForSources.threadlineSources;
}
