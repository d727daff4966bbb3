// Checkpoints SQLite write-ahead logs for lib/db/engine/checkpoints.ts on a thread of its own. Plain
// JavaScript, run by node:worker_threads from its path: the app's bundler never sees it.
// A checkpoint copies the log's pages into the database file and waits for the disk twice (the
// log, then the database); PASSIVE: it takes no lock that a reader or the writer waits for.
import { statSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import Database from "better-sqlite3";

/** Closed after this long without a checkpoint, and reopened when the file at the path is another one. */
const KEEP_OPEN_MS = 2_000;
const connections = new Map();

/** The connection to `file`, or null when there is no such file any more (nothing to checkpoint). */
function connection(file) {
  const inode = statSync(file, { throwIfNoEntry: false })?.ino;
  if (inode === undefined) return null;
  let entry = connections.get(file);
  if (entry && entry.inode !== inode) {
    clearTimeout(entry.timer);
    entry.db.close();
    entry = undefined;
  }
  if (!entry) {
    entry = { db: new Database(file, { fileMustExist: true, timeout: 0 }), inode, timer: undefined };
    connections.set(file, entry);
  }
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => {
    connections.delete(file);
    entry.db.close();
  }, KEEP_OPEN_MS);
  return entry.db;
}

parentPort.on("message", ({ file }) => {
  try {
    const [result] = connection(file)?.pragma("wal_checkpoint(PASSIVE)") ?? [];
    parentPort.postMessage({ file, ...result });
  } catch (error) {
    parentPort.postMessage({ file, error: error instanceof Error ? error.message : String(error) });
  }
});
