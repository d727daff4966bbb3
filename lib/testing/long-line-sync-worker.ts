/**
 * A server-like process for the long-line test (lib/sources/long-line.integration.test.ts): it
 * follows one folder as the server's sync does, while a DB read is asked for every 20 ms and the
 * process's RSS is sampled, and prints what it measured as one JSON line.
 * Run as: node --expose-gc --import tsx --conditions=react-server lib/testing/long-line-sync-worker.ts <warm-up folder> <folder>
 * with DATABASE_URL in the environment. The warm-up folder is synced first and not measured: a
 * server at rest has imported before (the tokenizer the token counts use alone adds 90 MB).
 *
 * Latencies are counted from when each read was due, not from when the event loop got to it: a
 * loop held up for 5 s makes 250 reads late, as it would 250 requests.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { db } from "@/lib/db/engine/client";
import { createSourceSync } from "@/lib/sources/sync";

const [warmUp, folder] = process.argv.slice(2);
if (!warmUp || !folder) {
  console.error("usage: long-line-sync-worker <warm-up folder> <folder>");
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error("run with --expose-gc");
  process.exit(2);
}
const MB = 1024 * 1024;
const EVERY_MS = 20;

async function settle(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc!();
    await sleep(100);
  }
  return process.memoryUsage().rss;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const syncOf = (path: string) =>
  createSourceSync({ setting: () => ({ origin: "setting", folders: [path], warnings: [] }), log: () => undefined });
const client = await db();
const read = () => client.thread.count();
await read(); // connected, the query compiled once
const warm = syncOf(warmUp);
await warm.sync();
await warm.close();
const rest = await settle();
const maxRssBefore = process.resourceUsage().maxRSS * 1024;

const reads: number[] = [];
const lags: number[] = [];
let peak = rest;
let running = true;
let due = performance.now() + EVERY_MS;
const pending: Promise<unknown>[] = [];
const tick = () => {
  const now = performance.now();
  peak = Math.max(peak, process.memoryUsage().rss);
  for (; due <= now; due += EVERY_MS) {
    const at = due;
    lags.push(now - at);
    pending.push(read().then(() => reads.push(performance.now() - at)));
  }
  if (running) setTimeout(tick, Math.max(0, due - performance.now()));
};
setTimeout(tick, EVERY_MS);

const started = performance.now();
const sync = syncOf(folder);
const status = await sync.sync();
const seconds = (performance.now() - started) / 1000;
running = false;
await Promise.all(pending);
await sync.close();
const maxRss = process.resourceUsage().maxRSS * 1024;
const after = await settle();

const mb = (bytes: number) => Math.round(bytes / MB);
const ms = (value: number) => Math.round(value * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    status,
    seconds: Math.round(seconds * 100) / 100,
    rssMb: { rest: mb(rest), peakSampled: mb(peak), peakMaxRss: maxRss > maxRssBefore ? mb(maxRss) : null, after: mb(after) },
    readsMs: { n: reads.length, p50: ms(percentile(reads, 50)), p95: ms(percentile(reads, 95)), max: ms(Math.max(...reads)) },
    eventLoopLagMs: { n: lags.length, p50: ms(percentile(lags, 50)), p95: ms(percentile(lags, 95)), max: ms(Math.max(...lags)) },
  })}\n`,
);
process.exit(0);
