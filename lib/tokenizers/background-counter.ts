import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { TokenCount, TokenizerId } from "@/lib/domain/tokens/tokenizer";
import { engineLoaded, type EngineId } from "./engines";
import { engineRecipe, getTokenizer, scaleEngineCount } from "./registry";

/**
 * Counts batches of texts; `close` ends the counter (not the worker it counts on). A small batch
 * may wait a moment for others (see ImportQueue); `send` sends what waits now, for a caller
 * about to wait for its counts.
 */
export type BackgroundCounter = {
  tokenizer: TokenizerId;
  count(texts: string[]): Promise<TokenCount[]>;
  send(): void;
  close(): Promise<void>;
};

/** Resolved from the project root: the server bundle moves modules, never this plain file. */
const WORKER_FILE = path.join(process.cwd(), "lib", "tokenizers", "count-worker.mjs");

/**
 * A batch at most this long (UTF-16 units in all) is counted on the caller's thread if that thread
 * has the vocabulary: about a millisecond of o200k at worst, less than a round trip to the worker
 * costs in waiting. Other batches go to the worker (scripts/bench/sections/linear-count.ts measures both).
 */
export const INLINE_CHARS = 4_096;

type Waiting = { resolve: (counts: TokenCount[]) => void; reject: (error: Error) => void };

/**
 * A worker with nothing to count for this long ends: an idle o200k worker held about 70 MB of the
 * server's memory at rest (at 30 s, the first sync's import worker was still there 25 s after the
 * sync had ended, and its end took the server from 437 to 334 MB). The next count starts another
 * (0.4 s on its own thread, once per burst of imports more than this far apart).
 * @internal exported for its tests
 */
export const IDLE_MS = 10_000;

/** One count-worker.mjs thread: any engine, batches answered in order of their ids. */
class CountWorker {
  private readonly worker = new Worker(WORKER_FILE);
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private idle: NodeJS.Timeout | null = null;
  /** Why this worker counts no more (it failed, exited or ended idle): the next count starts another. */
  ended: Error | null = null;

  constructor() {
    countingStats.workersStarted++;
    // Keeps the process alive only while it has work.
    this.worker.unref();
    this.worker.on("message", (answer: { id: number; tokens?: number[]; estimated?: boolean[]; error?: string }) => {
      const waiting = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) this.rest();
      if (!waiting) return;
      if (answer.error !== undefined) waiting.reject(new Error(`token counting failed: ${answer.error}`));
      else waiting.resolve(answer.tokens!.map((tokens, i) => ({ tokens, estimated: answer.estimated![i]! })));
    });
    this.worker.on("error", (error) => this.failAll(error));
    this.worker.on("exit", (code) => this.failAll(new Error(`token counting worker exited (${code})`)));
    this.rest();
  }

  /** Nothing waits: the process may exit, and the worker ends after IDLE_MS unless given more. */
  private rest(): void {
    this.worker.unref();
    this.idle = setTimeout(() => {
      this.ended ??= new Error("token counting worker ended idle");
      void this.worker.terminate();
    }, IDLE_MS);
    this.idle.unref();
  }

  private failAll(error: Error): void {
    this.ended ??= error;
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }

  count(engine: EngineId, texts: string[]): Promise<TokenCount[]> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.waiting.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, engine, texts });
    });
  }
}

function countHere(tokenizer: TokenizerId, texts: string[]): TokenCount[] {
  const counter = getTokenizer(tokenizer);
  return texts.map((text) => counter.measure(text));
}

/** The worker imports count on, kept between them: starting one and loading a vocabulary took 0.4 s, per file. */
let importWorker: CountWorker | null = null;

/** Batches smaller than this (UTF-16 units in all) wait, up to QUEUE_MS, to go to the worker with others. */
const QUEUE_CHARS = 128 * 1024;
const QUEUE_MS = 50;

type Queued = { texts: string[]; resolve: (counts: TokenCount[]) => void; reject: (error: Error) => void };

/**
 * Imports' batches on their way to the import worker, small ones sent together: a run of small
 * files (a 26 KB session has 5 KB of text to count) sent the worker a message each, and on a
 * busy machine waking it for each cost the importing thread about half a millisecond. So they
 * wait here for others until QUEUE_CHARS are queued, QUEUE_MS have passed, or someone wants them (send).
 */
class ImportQueue {
  private queued: Queued[] = [];
  private engine: EngineId | null = null;
  private chars = 0;
  private timer: NodeJS.Timeout | null = null;

  count(engine: EngineId, texts: string[]): Promise<TokenCount[]> {
    if (this.engine !== null && this.engine !== engine) this.send();
    return new Promise((resolve, reject) => {
      this.engine = engine;
      this.queued.push({ texts, resolve, reject });
      for (const text of texts) this.chars += text.length;
      if (this.chars >= QUEUE_CHARS) this.send();
      else this.timer ??= setTimeout(() => this.send(), QUEUE_MS);
    });
  }

  send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const { queued, engine } = this;
    this.queued = [];
    this.engine = null;
    this.chars = 0;
    if (queued.length === 0 || engine === null) return;
    if (!importWorker || importWorker.ended) importWorker = new CountWorker();
    countingStats.importMessages++;
    importWorker
      .count(
        engine,
        queued.flatMap((batch) => batch.texts),
      )
      .then(
        (counts) => {
          let at = 0;
          for (const batch of queued) batch.resolve(counts.slice(at, (at += batch.texts.length)));
        },
        (error: Error) => {
          for (const batch of queued) batch.reject(error);
        },
      );
  }
}

const importQueue = new ImportQueue();

/**
 * A counter for a bulk import, on a worker apart from the one requests share, so an import counts
 * while it parses and writes (a 200 MB session spends about 4 s in o200k) without holding up a
 * request's counting. The worker outlives the import: the next one, of the next small file, finds
 * it started and its vocabulary loaded; it keeps no process alive while idle, and ends after IDLE_MS. `close` ends this
 * counter (later counts are refused), not the worker. Counts are the registry's, exactly. PAL's
 * character estimates, or a missing worker file, count on this thread instead.
 */
export function startBackgroundCounter(tokenizer: TokenizerId): BackgroundCounter {
  const recipe = engineRecipe(tokenizer);
  if (!recipe || !existsSync(WORKER_FILE)) {
    return { tokenizer, count: async (texts) => countHere(tokenizer, texts), send: () => {}, close: async () => {} };
  }
  if (!importWorker || importWorker.ended) importWorker = new CountWorker();
  let closed = false;
  return {
    tokenizer,
    count: async (texts) => {
      if (closed) throw new Error("token counting: this import's counter is closed");
      return (await importQueue.count(recipe.engine, texts)).map((counted) => scaleEngineCount(recipe, counted));
    },
    send: () => importQueue.send(),
    close: async () => {
      closed = true;
    },
  };
}

let shared: CountWorker | null = null;

/** The worker requests share, started on first use and again once the last one ended. */
function sharedWorker(): CountWorker {
  if (!shared || shared.ended) shared = new CountWorker();
  return shared;
}

/**
 * How many batches were counted off this thread, and workers started, and messages sent for imports, since the process started (tests read it).
 * @internal exported for its tests
 */
export const countingStats = { offThread: 0, inline: 0, workersStarted: 0, importMessages: 0 };

/**
 * The one way requests count: each text's tokens under `tokenizer`, in the order given. Counted
 * on the long-lived shared worker, so no request holds the event loop while a long text is
 * tokenised or a vocabulary loads (o200k's: 0.4 s on a quiet machine, 3.7-4.4 s on a busy one,
 * with every other request waiting); the server's thread never loads one (lib/context counts
 * ahead on the worker too), which also keeps a second copy of it (tens of MB) out of the server's
 * memory. A small batch is counted in place only where this thread has the vocabulary already
 * (a script's). Throws for an unknown tokenizer.
 */
export async function countTexts(tokenizer: TokenizerId, texts: string[]): Promise<TokenCount[]> {
  const recipe = engineRecipe(tokenizer);
  if (texts.length === 0) return [];
  let length = 0;
  for (const text of texts) length += text.length;
  if (!recipe || (length <= INLINE_CHARS && engineLoaded(recipe.engine)) || !existsSync(WORKER_FILE)) {
    countingStats.inline++;
    return countHere(tokenizer, texts);
  }
  countingStats.offThread++;
  return (await sharedWorker().count(recipe.engine, texts)).map((counted) => scaleEngineCount(recipe, counted));
}
