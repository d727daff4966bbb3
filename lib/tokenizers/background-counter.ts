import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { TokenizerId } from "@/lib/domain/tokenizer";
import { getTokenizer } from "./registry";

/** Counts batches of texts; `close` ends any worker once the last answer is in. */
export type BackgroundCounter = {
  tokenizer: TokenizerId;
  count(texts: string[]): Promise<number[]>;
  close(): Promise<void>;
};

/** Tokenizers the worker can run (gpt-tokenizer's encodings, named as its modules are). */
const WORKER_ENCODINGS: ReadonlySet<TokenizerId> = new Set(["o200k_base", "cl100k_base"]);

/** Resolved from the project root: the server bundle moves modules, never this plain file. */
const WORKER_FILE = path.join(process.cwd(), "lib", "tokenizers", "count-worker.mjs");

/**
 * A counter that runs on another core, so a bulk import counts while it parses and writes (a
 * 200 MB session spends about 4 s in o200k). Counts are the registry's, exactly. Tokenizers the
 * worker does not run, or a missing worker file, count on this thread instead.
 */
export function startBackgroundCounter(tokenizer: TokenizerId): BackgroundCounter {
  if (!WORKER_ENCODINGS.has(tokenizer) || !existsSync(WORKER_FILE)) {
    const counter = getTokenizer(tokenizer);
    return { tokenizer, count: async (texts) => texts.map((text) => counter.count(text)), close: async () => {} };
  }
  const worker = new Worker(WORKER_FILE, { workerData: { encoding: tokenizer } });
  const waiting = new Map<number, { resolve: (counts: number[]) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | null = null;
  const failAll = (error: Error) => {
    failure = error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on("message", ({ id, counts }: { id: number; counts: number[] }) => {
    waiting.get(id)?.resolve(counts);
    waiting.delete(id);
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error(`token counting worker exited (${code})`)));
  return {
    tokenizer,
    count(texts) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, texts });
      });
    },
    async close() {
      worker.removeAllListeners("exit");
      failAll(new Error("token counting worker is closed"));
      await worker.terminate();
    },
  };
}
