// The parse worker (parse-pool.ts starts it, from the bundle scripts/build-workers.mjs makes of this
// file): reads a followed folder's file and, when it is a whole Claude Code session that is not live,
// makes the rows its import stores, while the importing thread writes the files before it. No
// database here, and nothing the importing thread would not do itself.
import { parentPort } from "node:worker_threads";
import { prepareSession } from "./claude-code-lines";
import { heldSourceInside, type SourceBytes } from "./file-lines";
import type { ParseAnswer, ParseJob } from "./parse-messages";

const port = parentPort!;

/** Files are read as they come, and prepared one at a time in the order asked: the importing thread takes them in that order. */
let inOrder: Promise<unknown> = Promise.resolve();

async function answer(job: ParseJob, read: Promise<SourceBytes | null>): Promise<ParseAnswer> {
  try {
    const source = await read;
    const bytes = source?.held;
    // Too large to hold: the importing thread streams it, as it always has.
    if (!source || !bytes || !source.opened) return { id: job.id, read: null };
    const prepared = await prepareSession(source, job.name, job.limits, job.now);
    return { id: job.id, read: prepared ? { prepared } : { bytes, opened: source.opened } };
  } catch {
    // Whatever failed here fails again on the importing thread, which reports it as an import does.
    return { id: job.id, read: null };
  }
}

port.on("message", (job: ParseJob) => {
  // Read at once, with blocking calls: this thread's turns come only between two files' parsing.
  const read = heldSourceInside(job.path, job.within);
  read.catch(() => {}); // answered in order, below
  inOrder = inOrder.then(() => answer(job, read)).then((message) => port.postMessage(message));
});
