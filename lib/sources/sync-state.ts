import "server-only";
// What a source sync (./sync.ts) is made of and holds between calls, and the small readers of it
// the other parts share.
import { statSync } from "node:fs";
import type { FileImportReport } from "@/lib/db/imports/imports";
import { emptyFolderStatus, type SourceFolderStatus, type SourcesSetting, type SourcesStatus } from "@/lib/domain/sources/sources";
import type { ReadAhead } from "@/lib/imports/read-ahead";
import { listedCrushProjects } from "./crush-projects";
import type { FolderBook } from "./folder-book";
import type { FolderFollower, FollowMode } from "./follow";
import type { KnownFiles } from "./known-files";
import type { TreeWatch, TreeWatchOptions } from "./watch";

export type JobLeases = {
  claim(name: string, owner: string, ms: number): Promise<boolean>;
  renew(name: string, owner: string, ms: number): Promise<boolean>;
  release(name: string, owner: string): Promise<void>;
};

export type SyncState = {
  // Its parts: the options (./sync.ts SourceSyncOptions) with their defaults, fixed at creation.
  readonly importFile: (path: string, within: string, readAhead?: ReadAhead) => Promise<FileImportReport>;
  readonly setting: () => SourcesSetting;
  readonly forcePoll: () => boolean;
  readonly leases: JobLeases;
  readonly now: () => Date;
  readonly log: (line: string) => void;
  readonly statusChanged: (settled: boolean) => void;
  readonly watch: boolean;
  readonly pollMs: number | undefined;
  readonly resyncMs: number;
  readonly watchTree: ((root: string, options: TreeWatchOptions) => Promise<TreeWatch>) | undefined;
  /** Who holds the lease: this instance. */
  readonly owner: string;
  readonly known: KnownFiles;
  /** What the last syncs found in each followed folder (the status counts come from it). */
  readonly books: Map<string, FolderBook>;
  folders: Map<string, SourceFolderStatus>;
  origin: SourcesStatus["origin"] | null;
  heldElsewhere: boolean;
  syncs: number;
  /** Every sync, full or of changed paths, runs after the one before (jobs), one at a time. */
  jobs: Promise<unknown>;
  /** The full sync asked for (waiting or running): another request joins it. */
  full: Promise<SourcesStatus> | null;
  readonly followers: Map<string, FolderFollower>;
  /** Paths changed since the last sync of changed paths, and the wait before it. */
  readonly changedPaths: Set<string>;
  debounce: NodeJS.Timeout | null;
  pendingSince: number;
  flushWaiting: boolean;
  resync: NodeJS.Timeout | null;
  /** Slow checks run so far: folders followed by their events are compared at every tenth. */
  resyncs: number;
  closed: boolean;
};

export function exclusive<T>(state: SyncState, job: () => Promise<T>): Promise<T> {
  const result = state.jobs.then(job);
  state.jobs = result.catch(() => undefined);
  return result;
}

export function applyMode(state: SyncState, path: string, mode: FollowMode | null): void {
  const folder = state.folders.get(path);
  if (folder) Object.assign(folder, { watchMode: mode?.mode ?? null, watchNote: mode?.note ?? null });
  state.statusChanged(false);
}

/**
 * The folders to follow now: the default ones only when they exist (a folder made later is picked
 * up by the next sync), with the .crush folders of the projects Crush lists.
 */
export function followed(current: SourcesSetting): string[] {
  if (current.origin !== "default") return current.folders;
  const defaults = current.folders.filter(exists);
  return [...defaults, ...listedCrushProjects().filter((folder) => !defaults.includes(folder) && exists(folder))];
}

/** The status now: folders, their states and the last sync's counts. A copy, safe to send. */
export function statusOf(state: SyncState): SourcesStatus {
  const { origin, heldElsewhere, folders } = state;
  const syncing = state.full !== null;
  if (origin === null) {
    // Not synced yet: the folders as configured, each found or missing.
    const current = state.setting();
    const list = followed(current).map(
      (path) => folders.get(path) ?? { ...emptyFolderStatus(path), state: exists(path) ? ("found" as const) : ("missing" as const) },
    );
    return structuredClone({ origin: current.origin, syncing, heldElsewhere, folders: list });
  }
  return structuredClone({ origin, syncing, heldElsewhere, folders: [...folders.values()] });
}

export function exists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
