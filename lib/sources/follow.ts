// How one followed folder is kept up with: change events from a tree watch (./watch.ts) where the
// system gives them, else a poll (a walk that only stats, every POLL_MS). The sync (./sync.ts)
// decides what to read; this decides how it hears of changes.
import { statfs } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { describeWatchError, watchTree, type TreeWatch, type TreeWatchOptions } from "./watch";

/** How often a polled folder is walked (stat only: an unchanged file is not read); less often when a walk takes longer than a fifth of this. */
const POLL_MS = 2_000;

/**
 * Network file systems by their statfs type (linux/magic.h). A change made on another machine
 * raises no inotify event here, and a FUSE file system (sshfs and the like) may raise none at all:
 * such folders are polled.
 */
const NETWORK_FILE_SYSTEMS = new Map<number, string>([
  [0x6969, "NFS"],
  [0x517b, "SMB"],
  [0xfe534d42, "SMB2"],
  [0xff534d42, "CIFS"],
  [0x65735546, "FUSE"],
  [0x01021997, "9p"],
  [0x5346414f, "AFS"],
  [0x6b414653, "AFS"],
  [0x00c36400, "Ceph"],
  [0x73757245, "Coda"],
  [0x564c, "NCP"],
]);

/**
 * The name of the network file system `folder` is on, or null (a local one, or statfs not available).
 * @internal exported for its tests
 */
export async function networkFileSystem(folder: string): Promise<string | null> {
  try {
    // The type is a C long: the same 32 bits on every platform once read unsigned.
    return NETWORK_FILE_SYSTEMS.get(Number((await statfs(folder)).type) >>> 0) ?? null;
  } catch {
    return null;
  }
}

/** `events`: a tree watch reports changes as they happen. `polling`: the folder is walked every POLL_MS, and `note` says why. */
export type FollowMode = { mode: "events" | "polling"; note: string | null };

export type FolderFollower = {
  mode(): FollowMode;
  close(): void;
};

export type FollowOptions = {
  wanted(name: string): boolean;
  /** A path under the folder changed (events mode): see TreeWatchOptions.onChange. */
  onChange(path: string): void;
  /** Walk the folder and compare (polling mode, every pollMs; never two at once). */
  onPoll(): Promise<void>;
  /** The mode changed after the start (a watch that failed: now polling). */
  onModeChange(mode: FollowMode): void;
  /** Poll even where events would do (THREADLINE_SOURCES_POLL=1). */
  forcePoll?: boolean;
  pollMs?: number;
  /** Tests hand in a watch that fails. */
  watch?: (root: string, options: TreeWatchOptions) => Promise<TreeWatch>;
};

/** Starts following `folder`: resolves once its watches are in place, or once it is known to be polled. */
export async function followFolder(folder: string, options: FollowOptions): Promise<FolderFollower> {
  const pollMs = options.pollMs ?? POLL_MS;
  const every = `checked every ${pollMs / 1000} s`;
  let closed = false;
  let tree: TreeWatch | null = null;
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;
  let mode: FollowMode;

  /** How long the last walk took: a slow one (a network file system, a huge folder) spaces the next out, so walking takes at most a fifth of the time. */
  let lastWalkMs = 0;
  function schedule(): void {
    if (closed || mode.mode !== "polling" || timer || polling) return;
    timer = setTimeout(
      () => {
        timer = null;
        const started = performance.now();
        polling = options
          .onPoll()
          .catch(() => undefined)
          .finally(() => {
            lastWalkMs = performance.now() - started;
            polling = null;
            schedule();
          });
      },
      Math.max(pollMs, 4 * lastWalkMs),
    );
    timer.unref();
  }

  const network = options.forcePoll ? null : await networkFileSystem(folder);
  if (options.forcePoll) mode = { mode: "polling", note: `THREADLINE_SOURCES_POLL is set: ${every}` };
  else if (network)
    mode = { mode: "polling", note: `on a network file system (${network}), where changes made elsewhere raise no event: ${every}` };
  else {
    try {
      tree = await (options.watch ?? watchTree)(folder, {
        wanted: options.wanted,
        onChange: options.onChange,
        onFail: (reason) => {
          tree = null;
          if (closed) return;
          mode = { mode: "polling", note: `watching stopped (${reason}): ${every}` };
          options.onModeChange(mode);
          schedule();
        },
      });
      mode = { mode: "events", note: null };
    } catch (error) {
      mode = { mode: "polling", note: `cannot watch it (${describeWatchError(error)}): ${every}` };
    }
  }
  schedule();
  return {
    mode: () => mode,
    close() {
      closed = true;
      tree?.close();
      tree = null;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
