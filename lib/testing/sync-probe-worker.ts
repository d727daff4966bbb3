/**
 * One server-like sync of the folder THREADLINE_SOURCES names, on DATABASE_URL, for the first-sync
 * regression test (scripts/bench/first-sync.integration.test.ts): the server's own sync object,
 * then the secret scan and the usage sums caught up, as after a server's first start. Prints one
 * JSON line: the folder's counts and what the process did, as the kernel counted it (all threads).
 * Run as: node --import tsx --conditions=react-server lib/testing/sync-probe-worker.ts
 */
import { readFileSync } from "node:fs";
import { countBacklog } from "@/lib/db/threads/count-backlog";
import { refreshUsageBuckets } from "@/lib/db/usage/usage-aggregates";
import { scanForSecrets } from "@/lib/secrets/scan";
import { sourceSync } from "@/lib/sources/sync";

/** /proc/self/io: bytes and calls of read and write (files, sockets and pipes alike). */
function io(): { readBytes: number; writtenBytes: number; readCalls: number; writeCalls: number } {
  const fields = new Map(
    readFileSync("/proc/self/io", "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(": ") as [string, string]),
  );
  const field = (name: string) => Number(fields.get(name));
  return { readBytes: field("rchar"), writtenBytes: field("wchar"), readCalls: field("syscr"), writeCalls: field("syscw") };
}

const before = io();
const startedAt = performance.now();
const status = await sourceSync().sync();
const syncedAt = performance.now();
// Outside the sync's figures unless done here: the server runs both after every write.
await scanForSecrets();
const scannedAt = performance.now();
await refreshUsageBuckets();
const summedAt = performance.now();
const after = io();
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
// Token counts are no part of a synced folder: counted after it, and timed apart.
const countingFrom = performance.now();
await countBacklog();
const countingMs = Math.round(performance.now() - countingFrom);
await sourceSync().close();
const folder = status.folders[0]!;
console.log(
  JSON.stringify({
    filesSeen: folder.filesSeen,
    imported: folder.imported,
    unchanged: folder.unchanged,
    failed: folder.failed,
    peakRssBytes,
    peakRssWithCountingBytes: process.resourceUsage().maxRSS * 1024,
    readBytes: after.readBytes - before.readBytes,
    writtenBytes: after.writtenBytes - before.writtenBytes,
    readCalls: after.readCalls - before.readCalls,
    writeCalls: after.writeCalls - before.writeCalls,
    syncMs: Math.round(syncedAt - startedAt),
    scanMs: Math.round(scannedAt - syncedAt),
    usageMs: Math.round(summedAt - scannedAt),
    countingMs,
  }),
);
// The database client and the token counters' worker threads would keep the process alive.
process.exit(0);
