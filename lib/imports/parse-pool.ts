import "server-only";
// The parse worker (parse-worker.ts) as the importing thread uses it: a followed folder's next files
// are read and parsed on another core while this thread writes the ones before (issue 38: the first
// sync's thread spent about half its time reading, parsing and preparing rows, while the other core
// idled until the token counts began). It runs from a bundle of parse-worker.ts that `npm start` and
// the tests build (scripts/build-workers.mjs); without it, or with one core, files are read here.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { ImportLimits } from "@/lib/importers/long-lines";
import type { ParseAnswer, WorkerRead } from "./parse-messages";

/**
 * Resolved from the project root, like the count worker: the server's bundles move modules, never
 * this file. Not bundled again either (turbopackIgnore): Turbopack used to make a chunk of its own
 * of it, minified, and that chunk ran instead. Its minifier inlined the parser's functions into
 * closures made anew for each file, which V8 optimized again and again: 0.5-1 s of compiling on
 * 2 cores during a first sync of 2,000 sessions (docs/benchmarks.md, "Fifteenth round").
 */
const WORKER_FILE = path.join(/* turbopackIgnore: true */ process.cwd(), "build", "workers", "parse-worker.cjs");
/** An idle worker ends after this long: its modules and heap are not kept by a server at rest. */
const IDLE_MS = 10_000;

/**
 * What the worker did since the process started.
 * @internal exported for its tests
 */
export const parseWorkerStats = { prepared: 0, read: 0 };

class ParseWorker {
  private readonly worker = new Worker(WORKER_FILE, { resourceLimits: { maxYoungGenerationSizeMb: 12 } });
  private readonly waiting = new Map<number, (read: WorkerRead) => void>();
  private nextId = 0;
  private idle: NodeJS.Timeout | null = null;
  private idleMs = IDLE_MS;
  ended = false;

  constructor() {
    this.worker.on("message", ({ id, read }: ParseAnswer) => {
      const resolve = this.waiting.get(id);
      this.waiting.delete(id);
      if (this.waiting.size === 0) this.rest();
      resolve?.(read);
    });
    // A worker that fails leaves its files to the importing thread.
    const end = () => {
      this.ended = true;
      for (const resolve of this.waiting.values()) resolve(null);
      this.waiting.clear();
    };
    this.worker.on("error", end);
    this.worker.on("exit", end);
    this.rest();
  }

  private rest(): void {
    if (this.idle) clearTimeout(this.idle);
    this.worker.unref();
    this.idle = setTimeout(() => {
      this.ended = true;
      void this.worker.terminate();
    }, this.idleMs);
    this.idle.unref();
  }

  /** Ends once it has answered what it was asked, instead of IDLE_MS after. */
  endWhenIdle(): void {
    this.idleMs = 0;
    if (this.waiting.size === 0) this.rest();
  }

  read(file: string, within: string, limits: ImportLimits): Promise<WorkerRead> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.idleMs = IDLE_MS;
    if (this.waiting.size === 0) this.worker.ref();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, path: file, within, name: file, limits, now: Date.now() });
    });
  }
}

const globalForPool = globalThis as unknown as { threadlineParseWorker?: ParseWorker };

/** Whether files are read on the parse worker: its bundle is built and the machine has a core for it. */
export function parseWorkerAvailable(): boolean {
  return availableParallelism() > 1 && existsSync(WORKER_FILE);
}

/**
 * A followed folder's file read (and prepared, when it is a Claude Code session that is not live)
 * on the parse worker; null when the importing thread should read it itself (too large to hold,
 * unreadable, refused: its own read then reports why).
 */
export async function readInWorker(file: string, within: string, limits: ImportLimits): Promise<WorkerRead> {
  let worker = globalForPool.threadlineParseWorker;
  if (!worker || worker.ended) worker = globalForPool.threadlineParseWorker = new ParseWorker();
  const read = await worker.read(file, within, limits);
  if (read && "prepared" in read) parseWorkerStats.prepared++;
  else if (read) parseWorkerStats.read++;
  return read;
}

/**
 * A full sync has ended: the worker ends once it has answered, not IDLE_MS later. The token counts
 * begin then, and their vocabulary on top of an idle parse worker was the group's peak.
 */
export function endParseWorkerSoon(): void {
  globalForPool.threadlineParseWorker?.endWhenIdle();
}

/**
 * Whether a parse worker is running now.
 * @internal exported for its tests
 */
export function parseWorkerRunning(): boolean {
  const worker = globalForPool.threadlineParseWorker;
  return worker !== undefined && !worker.ended;
}
