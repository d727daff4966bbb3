import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";

/**
 * Checkpoints of the SQLite write-ahead log after imports, on another thread.
 *
 * SQLite checkpoints the log itself, on the connection that commits, once the log holds 1,000
 * pages: it copies them into the database file and waits for the disk twice. A run of small
 * imports commits often, and each commit adds its own copy of every page it touched (about 64
 * for a 26 KB session: the turns, the thread, their indexes and the search index), so the
 * importing thread stopped every 15 files or so to write and sync 4 MB: 0.3-0.7 s of 1,000
 * files. The import writer's connection, and the app's Prisma connection (dialect.ts
 * prepareConnection), leave that to checkpoint-worker.mjs instead (PASSIVE: readers and the writer
 * never wait for it), every few commits and after the last, and checkpoint themselves only past
 * FALLBACK_CHECKPOINT_PAGES, should the worker fall behind or fail.
 */
export const FALLBACK_CHECKPOINT_PAGES = 10_000;

/** Resolved from the project root, as lib/tokenizers/count-worker.mjs is. */
const WORKER_FILE = path.join(process.cwd(), "lib", "db", "engine", "checkpoint-worker.mjs");

/** Commits between checkpoints while imports follow one another (about 1,000 pages of small files). */
const COMMITS_PER_CHECKPOINT = 16;
/** A checkpoint this long after the last commit, when fewer came. */
const IDLE_CHECKPOINT_MS = 100;

/**
 * The worker ends once no checkpoint has been asked for in this long: idle, it held 8-16 MB of a
 * server at rest (the next checkpoint starts another, in tens of ms).
 * @internal exported for its tests, which shorten it
 */
export const checkpointWorkerIdle = { endAfterMs: 10_000 };

let worker: Worker | null = null;
let idleEnd: NodeJS.Timeout | null = null;

/** Per database file: commits since its last checkpoint began, and whether one is running or waiting. */
const files = new Map<string, { commits: number; running: boolean; timer: NodeJS.Timeout | null }>();

/**
 * Whether the worker is there (started and not ended idle).
 * @internal exported for its tests
 */
export function checkpointWorkerRunning(): boolean {
  return worker !== null;
}

/** Whether checkpoints can run on the worker (its file is there); else SQLite checkpoints as usual. */
export function checkpointsOffThread(): boolean {
  return existsSync(WORKER_FILE);
}

/** After a commit to `file`: a checkpoint on the worker every COMMITS_PER_CHECKPOINT commits, and after the last. */
export function checkpointSoon(file: string): void {
  let state = files.get(file);
  if (!state) files.set(file, (state = { commits: 0, running: false, timer: null }));
  state.commits += 1;
  if (state.running) return;
  if (state.commits >= COMMITS_PER_CHECKPOINT) startCheckpoint(file);
  else waitForMore(file);
}

function waitForMore(file: string): void {
  const state = files.get(file);
  if (!state || state.timer) return;
  state.timer = setTimeout(() => startCheckpoint(file), IDLE_CHECKPOINT_MS);
  // A process that ends meanwhile leaves the log to the next connection (or its own close).
  state.timer.unref();
}

function startCheckpoint(file: string): void {
  const state = files.get(file);
  if (!state || state.running) return;
  if (state.timer) clearTimeout(state.timer);
  Object.assign(state, { commits: 0, running: true, timer: null });
  if (idleEnd) clearTimeout(idleEnd);
  idleEnd = null;
  checkpointWorker().postMessage({ file });
}

function checkpointed(file: string): void {
  const state = files.get(file);
  if (!state) return;
  state.running = false;
  if (state.commits >= COMMITS_PER_CHECKPOINT) startCheckpoint(file);
  else if (state.commits > 0) waitForMore(file);
  else files.delete(file);
  if (files.size === 0) endWhenIdle();
}

/** Ends the worker once nothing has been asked of it for checkpointWorkerIdle.endAfterMs. */
function endWhenIdle(): void {
  if (idleEnd) clearTimeout(idleEnd);
  idleEnd = setTimeout(() => {
    idleEnd = null;
    if (!worker || files.size > 0) return;
    // Forgotten before it ends: a checkpoint asked for meanwhile starts another worker.
    const ending = worker;
    worker = null;
    void ending.terminate();
  }, checkpointWorkerIdle.endAfterMs);
  idleEnd.unref();
}

function checkpointWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_FILE);
  // A checkpoint cut short by the process's exit is safe: the next one finishes it.
  started.unref();
  started.on("message", ({ file, error }: { file: string; error?: string }) => {
    if (error !== undefined) console.error(`[threadline] checkpoint of ${file} failed: ${error}`);
    checkpointed(file);
  });
  const lost = () => {
    // A worker ended idle was forgotten already, and what waits now is another's.
    if (worker !== started) return;
    worker = null;
    for (const state of files.values()) if (state.timer) clearTimeout(state.timer);
    files.clear();
  };
  started.on("error", (error) => {
    console.error(`[threadline] checkpoint worker failed: ${error.message}`);
    lost();
  });
  started.on("exit", lost);
  worker = started;
  return started;
}
