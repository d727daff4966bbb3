import "server-only";
// Files of a followed folder read before their import asks for them.
import { serverSettings } from "@/lib/env";
import type { PreparedSession } from "./claude-code-lines";
import { heldSource, sourceBytes, type SourceBytes } from "./file-lines";
import { parseWorkerAvailable, readInWorker } from "./parse-pool";

/** A file read ahead: a Claude Code session prepared on the parse worker, its bytes, or null (read it again here). */
export type ReadAheadFile = { prepared: PreparedSession } | { source: SourceBytes } | null;

/**
 * A full sync reads the next files while it writes one. Each file's opening inside the folder
 * takes about eight round trips to the thread pool (openInside), and the sync's thread sat idle
 * in a sixth of a first sync waiting for them. With the parse worker (parse-pool.ts) the next
 * files are also parsed there, so more are read ahead: as many as keep the worker busy while this
 * thread writes, within a bound on the bytes held. A read is taken once; what is not taken is
 * dropped with this.
 */
export class ReadAhead {
  private readonly reads = new Map<string, { read: Promise<ReadAheadFile>; bytes: number }>();
  private readonly inWorker: boolean;
  private held = 0;

  /** `worker`: read and prepare on the parse worker (its bundle is built, and there is a core for it). */
  constructor(
    readonly within: string,
    { worker = parseWorkerAvailable() }: { worker?: boolean } = {},
  ) {
    this.inWorker = worker;
  }

  /** Whether a file of `bytes` should be read ahead now. */
  wants(bytes: number): boolean {
    const [files, maxBytes] = this.inWorker ? [16, 16 * 1024 * 1024] : [2, Infinity];
    return this.reads.size < files && (this.reads.size === 0 || this.held + bytes <= maxBytes);
  }

  start(path: string, bytes: number): void {
    if (this.reads.has(path)) return;
    const read: Promise<ReadAheadFile> = this.inWorker
      ? readInWorker(path, this.within, serverSettings().importLimits).then((got) =>
          got === null
            ? null
            : "prepared" in got
              ? got
              : { source: heldSource(Buffer.from(got.bytes.buffer, got.bytes.byteOffset, got.bytes.length), got.opened) },
        )
      : sourceBytes(path, this.within).then((source) => ({ source }));
    // Its failure is the import's to report, when the import takes it; until then it is not unhandled.
    read.catch(() => {});
    this.reads.set(path, { read, bytes });
    this.held += bytes;
  }

  /** Files read ahead and not taken yet. */
  get size(): number {
    return this.reads.size;
  }

  /** The read started for `path`, if one was: the import's own read, made earlier. */
  take(path: string): Promise<ReadAheadFile> | undefined {
    const ahead = this.reads.get(path);
    if (!ahead) return undefined;
    this.reads.delete(path);
    this.held -= ahead.bytes;
    return ahead.read;
  }
}
