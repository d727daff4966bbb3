/**
 * The folders Threadline follows for agent transcripts (THREADLINE_SOURCES), and the status of
 * following them as the API and the UI show it. Pure: the caller hands in the home folder and the
 * database kind; lib/env reads the environment and lib/sources does the walking.
 */
import { AGENT_FOLDERS } from "./agent-folders";

/** The agents' own folders under the home folder (./agent-folders.ts), followed when THREADLINE_SOURCES is unset. */
const DEFAULT_SOURCE_FOLDERS: readonly string[] = AGENT_FOLDERS.map((entry) => entry.folder);

/**
 * - `default`: THREADLINE_SOURCES unset; the default folders, those of them that exist.
 * - `setting`: the folders THREADLINE_SOURCES lists; a missing one is reported as missing.
 * - `off`: nothing is followed (`off`, or unset on PostgreSQL).
 */
type SourcesOrigin = "default" | "setting" | "off";

export type SourcesSetting = {
  origin: SourcesOrigin;
  /** Absolute folders, without duplicates, in the order given. */
  folders: string[];
  /** One line per entry that was ignored, for the log. */
  warnings: string[];
};

/**
 * Parses THREADLINE_SOURCES: `:`-separated absolute folders (`~/` is the home folder), or `off`.
 * Unset or blank: the default folders under `home`, except on PostgreSQL, where a shared database
 * should not take in the server's own user's transcripts unasked (`off`). An entry that is not an
 * absolute path is left out with a warning, never a crash.
 */
export function parseSourcesSetting(raw: string | undefined, { home, postgres }: { home: string; postgres: boolean }): SourcesSetting {
  const text = raw?.trim() ?? "";
  if (text === "") {
    if (postgres) return { origin: "off", folders: [], warnings: [] };
    return { origin: "default", folders: DEFAULT_SOURCE_FOLDERS.map((folder) => joinPath(home, folder)), warnings: [] };
  }
  if (text.toLowerCase() === "off") return { origin: "off", folders: [], warnings: [] };
  const folders: string[] = [];
  const warnings: string[] = [];
  for (const entry of text.split(":").map((e) => e.trim())) {
    if (entry === "") continue;
    const expanded = entry === "~" ? home : entry.startsWith("~/") ? joinPath(home, entry.slice(2)) : entry;
    if (!expanded.startsWith("/") || expanded.includes("\0")) {
      warnings.push(
        `THREADLINE_SOURCES: ignored ${JSON.stringify(entry)}: not an absolute folder (such as /home/me/.claude/projects or ~/.codex/sessions)`,
      );
      continue;
    }
    const folder = normalizePath(expanded);
    if (!folders.includes(folder)) folders.push(folder);
  }
  return { origin: folders.length > 0 ? "setting" : "off", folders, warnings };
}

function joinPath(base: string, rest: string): string {
  return normalizePath(`${base}/${rest}`);
}

/**
 * Collapses `//`, `/./` and `/../` and drops a trailing `/`, as path.resolve would for an absolute path.
 * @internal exported for its tests
 */
export function normalizePath(absolute: string): string {
  const parts: string[] = [];
  for (const part of absolute.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/**
 * - `found`: the folder exists and has not been synced yet (or is idle after a sync).
 * - `missing`: it does not exist (yet); it is looked for again at the next sync.
 * - `syncing`: a sync is walking it now.
 * - `watching`: synced, and changes are picked up as they happen (`watchMode` says how).
 * - `error`: it could not be read (`error` says why).
 */
export type SourceFolderState = "found" | "missing" | "syncing" | "watching" | "error";

type SourceFailure = { file: string; reason: string };

/** One followed folder; the counts are those of the last sync (or the one running). */
export type SourceFolderStatus = {
  path: string;
  state: SourceFolderState;
  error: string | null;
  /**
   * The transcript files the last full sync's walk found, which it then reads newest first: while
   * it runs, `filesSeen` counts up to it. Null until its walk has ended.
   */
  filesFound: number | null;
  filesSeen: number;
  imported: number;
  unchanged: number;
  failed: number;
  failures: SourceFailure[];
  /**
   * What was left out unopened, and why: a symbolic link to a place outside the folder (a file
   * that may be a transcript, or a folder), and a named pipe, socket or device with a transcript's
   * name. Not failures: nothing went wrong, and nothing there is ever read.
   */
  skipped: number;
  skippedEntries: SourceFailure[];
  /**
   * Files imported with something left out that the page should show: lines too long to read
   * (their number and size). The first MAX_LISTED_FAILURES; the files count as imported.
   */
  warnings: SourceFailure[];
  /** ISO times: when the last sync of this folder ended, and when one last imported something. */
  lastSyncAt: string | null;
  lastChangeAt: string | null;
  /**
   * How changes are heard while the folder is followed: `events` from the system (inotify), or
   * `polling`, a walk that compares sizes and times every 2 s (a network file system, a watch that
   * could not be set up, or THREADLINE_SOURCES_POLL=1; `watchNote` says which). Null when the
   * folder is not followed between syncs (missing, unreadable, or no watching asked for).
   */
  watchMode: SourceWatchMode | null;
  watchNote: string | null;
};

type SourceWatchMode = "events" | "polling";

export type SourcesStatus = {
  origin: SourcesOrigin;
  /** True while a sync runs in this process. */
  syncing: boolean;
  /** Set when the last sync was skipped because another instance on the same database held the sync lease. */
  heldElsewhere: boolean;
  folders: SourceFolderStatus[];
};

/** Failures (and skipped entries) kept per folder in the status; the count says how many there were in all. */
export const MAX_LISTED_FAILURES = 100;

export function emptyFolderStatus(path: string): SourceFolderStatus {
  return {
    path,
    state: "found",
    error: null,
    filesFound: null,
    filesSeen: 0,
    imported: 0,
    unchanged: 0,
    failed: 0,
    failures: [],
    skipped: 0,
    skippedEntries: [],
    warnings: [],
    lastSyncAt: null,
    lastChangeAt: null,
    watchMode: null,
    watchNote: null,
  };
}
