// One pass of `threadline push` (issue 39): asks the server what it holds of this laptop's files,
// and sends what grew or changed since, in batches, each file from its acknowledged offset.
// Redaction happens here, before anything leaves the laptop (unless --no-redact).
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { linesEnd, pushStep, type HeldFile } from "@/lib/domain/push/push-files";
import type { PushedFileChunk } from "@/lib/validation/push";
import { PushServer, type PushOutcomeReply } from "./http";
import { localFiles, type LeftOut, type LocalFile } from "./local-files";
import { redactDocument, redactJsonLines, redactText } from "./redact";

export type PushOptions = {
  server: PushServer;
  machine: string;
  home: string;
  folders: string[];
  redact: boolean;
  dryRun: boolean;
};

export type PushReport = {
  /** Files that had something sent (or, with --dry-run, would have). */
  sent: string[];
  bytesSent: number;
  unchanged: number;
  /** Files this pass could not push or the server could not import, with why. */
  failed: { path: string; reason: string }[];
  /** Unchanged files the server could not import when they were sent. */
  notImported: { path: string; reason: string }[];
  leftOut: LeftOut[];
};

/** A piece of a file on its way: the request's entry, its size in the request, and the laptop's bytes it stands for. */
type Piece = { chunk: PushedFileChunk; bytes: number; raw: number };

/** At most this much content in one request, whatever the server would take: a retry resends at most this. */
const BATCH_BYTES = 4 * 1024 * 1024;
/** A file this large is not read whole into memory to be pushed. */
const MAX_FILE_BYTES = 1024 * 1024 * 1024;

/** What a pass remembers for the next (in one `threadline push` that keeps following): files as they were when acknowledged. */
export type PushMemory = Map<string, { size: number; mtimeMs: number; held: HeldFile }>;

/** A pass sends what the server lacks; a file another push of this machine changed meanwhile (a conflict) is sent again in up to two more rounds. */
const ROUNDS = 3;

export async function pushOnce(options: PushOptions, memory: PushMemory = new Map()): Promise<PushReport> {
  const report: PushReport = { sent: [], bytesSent: 0, unchanged: 0, failed: [], notImported: [], leftOut: [] };
  const files: LocalFile[] = [];
  for await (const file of localFiles(options.home, options.folders, (entry) => report.leftOut.push(entry))) files.push(file);
  // Following, and nothing changed here since the last pass: the server is not asked.
  if (memory.size > 0 && files.every((file) => isAsRemembered(memory, file))) {
    report.unchanged = files.length;
    return report;
  }
  let only: Set<string> | null = null;
  for (let round = 0; round < ROUNDS && (only === null || only.size > 0); round++) {
    const pass = new Pass(options, report, memory);
    await pass.run(only === null ? files : files.filter((file) => only!.has(file.name)), round === 0);
    only = pass.conflicts;
  }
  for (const name of only ?? []) report.failed.push({ path: name, reason: "another push of this machine kept changing it; try again" });
  return report;
}

function isAsRemembered(memory: PushMemory, file: LocalFile): boolean {
  const remembered = memory.get(file.name);
  return remembered !== undefined && remembered.size === file.size && remembered.mtimeMs === file.mtimeMs;
}

/** One round: the server's state read once, the files compared with it, and what differs sent in batches. */
class Pass {
  private batch: Piece[] = [];
  private batchBytes = 0;
  /** The local file each name had when its pieces were made: remembered once the server acknowledges it. */
  private readonly pending = new Map<string, LocalFile>();
  readonly conflicts = new Set<string>();

  constructor(
    private readonly options: PushOptions,
    private readonly report: PushReport,
    private readonly memory: PushMemory,
  ) {}

  /** `first`: the pass's first round, whose files are counted (later rounds send again what met a conflict). */
  async run(files: LocalFile[], first: boolean): Promise<void> {
    const { options, report, memory } = this;
    const state = await options.server.state(options.machine);
    const held = new Map(state.files.map((file) => [file.path, file]));
    // A request's content at most (base64, in JSON), and a piece's bytes at most (base64 makes 4 of 3, redaction a little more).
    const budget = Math.min(BATCH_BYTES, Math.floor(state.maxBodyBytes * 0.9));
    const pieceLimit = Math.floor(budget * 0.7);
    for (const file of files) {
      const server = held.get(file.name);
      const remembered = memory.get(file.name);
      if (server && isAsRemembered(memory, file) && sameHeld(remembered!.held, server)) {
        if (first) count(report, file, server.failure);
        continue;
      }
      let pieces: Piece[];
      try {
        pieces = await piecesOf(file, server, options.redact, pieceLimit, (entry) => first && report.leftOut.push(entry));
      } catch (error) {
        report.failed.push({ path: file.path, reason: (error as Error).message });
        continue;
      }
      if (pieces.length === 0) {
        if (server) memory.set(file.name, { size: file.size, mtimeMs: file.mtimeMs, held: server });
        if (first) count(report, file, server?.failure ?? null);
        continue;
      }
      if (first) report.sent.push(file.path);
      report.bytesSent += pieces.reduce((sum, piece) => sum + piece.raw, 0);
      if (options.dryRun) continue;
      this.pending.set(file.name, file);
      // A file's later pieces start where its earlier ones end: each goes once the one before is acknowledged.
      for (const piece of pieces) {
        if (this.batch.length > 0 && (this.batchBytes + piece.bytes > budget || this.batch.length >= 1000 || pieces.length > 1))
          await this.flush();
        this.batch.push(piece);
        this.batchBytes += piece.bytes;
        if (pieces.length > 1) await this.flush();
      }
    }
    await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const pieces = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    const { machine, home } = this.options;
    const outcomes = await this.options.server.push({ machine, home, files: pieces.map((piece) => piece.chunk) });
    for (const outcome of outcomes) this.settle(outcome, pieces);
  }

  private settle(outcome: PushOutcomeReply, pieces: Piece[]): void {
    const piece = pieces.find((p) => p.chunk.path === outcome.path);
    const local = this.pending.get(outcome.path);
    if (outcome.status === "conflict") {
      // The server holds another offset than this pass read (another push of this machine, or a lost copy): sent again.
      this.memory.delete(outcome.path);
      this.conflicts.add(outcome.path);
      return;
    }
    if (outcome.status === "failed")
      this.report.failed.push({ path: local?.path ?? outcome.path, reason: outcome.error ?? "the server could not import it" });
    if (piece?.chunk.complete && local)
      this.memory.set(outcome.path, {
        size: local.size,
        mtimeMs: local.mtimeMs,
        held: { offset: outcome.offset, sha256: piece.chunk.sha256 },
      });
  }
}

function sameHeld(a: HeldFile, b: HeldFile): boolean {
  return a.offset === b.offset && a.sha256 === b.sha256;
}

function count(report: PushReport, file: LocalFile, failure: string | null): void {
  report.unchanged += 1;
  if (failure !== null) report.notImported.push({ path: file.path, reason: failure });
}

/**
 * What to send of one file: nothing when the server holds all of it; else its new part (or all of
 * it), in pieces of at most `limit` bytes. A line longer than that is sent as an empty line (the
 * server's copy stays line for line; `leftOut` is told), since no request could carry it; a
 * document longer than that is not sent (it throws, naming why).
 */
async function piecesOf(
  file: LocalFile,
  held: HeldFile | undefined,
  redact: boolean,
  limit: number,
  leftOut: (entry: LeftOut) => void,
): Promise<Piece[]> {
  if (file.size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 ** 3} GB: not pushed`);
  const bytes = await readFile(file.path);
  const end = file.kind === "document" ? bytes.length : bytes.lastIndexOf(0x0a) + 1;
  const hash = createHash("sha256");
  let startSha256: string | null = null;
  if (held && held.offset <= bytes.length) {
    hash.update(bytes.subarray(0, held.offset));
    startSha256 = hash.copy().digest("hex");
  }
  const step = pushStep(end, held, startSha256);
  if (step.kind === "unchanged") return [];
  if (file.kind === "document" && end > limit)
    throw new Error(`${megabytes(end)}: more than the server takes in one request (its THREADLINE_MAX_BODY_BYTES); not pushed`);
  const base = held?.offset ?? 0;
  const from = step.kind === "append" ? step.from : 0;
  const running = step.kind === "append" ? hash : createHash("sha256");
  const pieces: Piece[] = [];
  for (let start = from; start < end;) {
    const stop = file.kind === "document" ? end : Math.min(end, linesEnd(bytes, start, limit));
    const raw = bytes.subarray(start, stop);
    running.update(raw);
    let content = redact ? Buffer.from(redacted(file.kind, raw.toString("utf8"))) : raw;
    if (stop - start > limit) {
      leftOut({
        path: file.path,
        reason: `a line of ${megabytes(stop - start)} at byte ${start} is more than the server takes in one request`,
      });
      content = Buffer.from("\n");
    }
    const chunk: PushedFileChunk = {
      path: file.name,
      base: pieces.length === 0 ? base : start,
      from: start,
      to: stop,
      sha256: running.copy().digest("hex"),
      content: content.toString("base64"),
      complete: stop === end,
    };
    pieces.push({ chunk, bytes: chunk.content.length, raw: stop - start });
    start = stop;
  }
  return pieces;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function redacted(kind: LocalFile["kind"], text: string): string {
  if (kind === "json-lines") return redactJsonLines(text);
  if (kind === "text-lines") return redactText(text);
  return redactDocument(text);
}
