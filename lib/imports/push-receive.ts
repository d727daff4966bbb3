import "server-only";
// The server's side of `threadline push` (issue 39): what a laptop sends is appended to a copy of
// its file in the push folder (THREADLINE_PUSH_DIR/<person>/<machine>/<path under its home>),
// and the copy is imported as a followed file is, as its pusher's. What the server holds of each
// file is acknowledged in the database (PushedFile) only after the copy is written and imported:
// a push cut short anywhere is sent again from the last acknowledged offset, and the bytes written
// past it are cut off first, so no turn is stored twice and none is lost.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { importingFor } from "@/lib/db/imports/import-owner";
import { startBulkImports } from "@/lib/db/imports/import-batch";
import { unchangedReport, type FileImportReport } from "@/lib/db/imports/imports";
import { pushedFilesAt, pushedFilesOf, savePushedFiles, type PushedFileRow } from "@/lib/db/imports/pushed-files";
import { AppError } from "@/lib/domain/errors";
import { serverSettings } from "@/lib/env";
import { isTranscriptPath } from "@/lib/importers";
import { isAgentDatabase } from "@/lib/importers/databases";
import { openCodeStoragePath } from "@/lib/importers/opencode/paths";
import { clineHistoryOf } from "@/lib/importers/cline/paths";
import type { PushBatch, PushedFileChunk } from "@/lib/validation/push";
import { importPath } from "./import-file";
import { openCodeTranscriptOf } from "./opencode-files";
import { clineTranscriptOf } from "./cline-task-files";
import { describeFsError } from "./transcript-files";

/** Who pushes: the token's person (lib/auth/person.ts pushingPerson). */
export type Pusher = { userId: string; ownsUnowned: boolean };

/**
 * What became of one file of a push:
 * - `imported` / `unchanged`: written and imported (unchanged: no thread changed);
 * - `stored`: written, not imported yet (more of it follows, or it is a piece of an OpenCode session);
 * - `failed`: written, but its content could not be imported (`error` says why; sent again only once it changes);
 * - `conflict`: not written: the server holds `offset` bytes of it, not what the push said (`base`).
 */
export type PushOutcome = {
  path: string;
  status: "imported" | "unchanged" | "stored" | "failed" | "conflict";
  offset: number;
  error?: string;
};

export type PushState = {
  machine: string;
  /** The largest request the server takes (THREADLINE_MAX_BODY_BYTES): a push sizes its batches by it. */
  maxBodyBytes: number;
  files: { path: string; offset: number; sha256: string; failure: string | null }[];
};

/** What the server holds of a person's files from one machine: where each push resumes. */
export async function pushState(person: Pusher, machine: string): Promise<PushState> {
  const rows = await pushedFilesOf(person.userId, machine);
  return {
    machine,
    maxBodyBytes: serverSettings().maxBodyBytes.value,
    files: rows.map(({ path: file, offset, sha256, failure }) => ({ path: file, offset, sha256, failure })),
  };
}

/** A machine's pushes run one after another: two at once would write the same copies. */
const machineQueues = new Map<string, Promise<unknown>>();

/** Writes, imports and acknowledges one batch of a laptop's files. */
export async function receivePush(person: Pusher, batch: PushBatch): Promise<{ files: PushOutcome[] }> {
  const key = `${person.userId}\0${batch.machine}`;
  const run = (machineQueues.get(key) ?? Promise.resolve()).then(() => receive(person, batch));
  const settled = run.catch(() => undefined);
  machineQueues.set(key, settled);
  void settled.then(() => {
    if (machineQueues.get(key) === settled) machineQueues.delete(key);
  });
  return run;
}

async function receive(person: Pusher, batch: PushBatch): Promise<{ files: PushOutcome[] }> {
  const paths = batch.files.map((file) => file.path);
  const twice = paths.find((file, index) => paths.indexOf(file) !== index);
  if (twice !== undefined)
    throw new AppError("validation_failed", `files: ${JSON.stringify(twice)} is named twice; send each file once per push`, [
      { field: "files", message: "a file is named twice" },
    ]);
  const folder = await machineFolder(person.userId, batch.machine);
  const held = await pushedFilesAt(person.userId, batch.machine, paths);
  const outcomes = new Map<string, PushOutcome>();
  const rows = new Map<string, PushedFileRow>();
  /** Copies to import once the batch is written: the copy's path, and the laptop path it stands for. */
  const toImport = new Map<string, string>();
  for (const file of batch.files) {
    const outcome = await write(folder, file, held.get(file.path));
    outcomes.set(file.path, outcome.outcome);
    if (outcome.row) rows.set(file.path, outcome.row);
    if (outcome.row && file.complete) {
      const target = await importTarget(folder, file.path);
      if (target) toImport.set(target.copy, target.path);
    }
  }
  // One run of imports for the batch, many files to a transaction, as a folder's sync imports them.
  const bulk = startBulkImports();
  let undone = false;
  const reports: [string, FileImportReport][] = [];
  try {
    for (const [copy, laptopPath] of toImport) {
      reports.push([laptopPath, await bulk.run(() => importCopy(person, batch, folder, copy, laptopPath))]);
      bulk.whenCommitted(
        () => {},
        () => (undone = true),
      );
    }
  } finally {
    await bulk.finish();
  }
  // Not acknowledged: the laptop sends the batch again (a server error is retried).
  if (undone) throw new Error("a batch of pushed files could not be committed");
  for (const [laptopPath, report] of reports) {
    const row = rows.get(laptopPath);
    if (!row) continue;
    row.failure = report.status === "failed" ? (report.error ?? "could not be imported") : null;
    outcomes.set(laptopPath, {
      path: laptopPath,
      status: report.status,
      offset: row.offset,
      ...(report.status === "failed" && { error: row.failure ?? undefined }),
    });
  }
  // Acknowledged last: until here, the laptop sends it all again and the copies are cut back first.
  await savePushedFiles(person.userId, batch.machine, [...rows.values()]);
  return { files: paths.map((file) => outcomes.get(file)!) };
}

/** The folder of one person's copies from one machine, made when missing; its real path. */
async function machineFolder(userId: string, machine: string): Promise<string> {
  const person = /^[A-Za-z0-9_-]{1,128}$/.test(userId) ? userId : createHash("sha256").update(userId).digest("hex");
  const folder = path.join(serverSettings().pushDir, person, machine);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  return realpath(folder);
}

/** Writes one file's bytes into its copy, after what the server holds; the row to acknowledge, unless refused. */
async function write(
  folder: string,
  file: PushedFileChunk,
  before: PushedFileRow | undefined,
): Promise<{ outcome: PushOutcome; row?: PushedFileRow }> {
  const refuse = (error: string): { outcome: PushOutcome } => ({
    outcome: { path: file.path, status: "failed", offset: before?.offset ?? 0, error },
  });
  if (!isTranscriptPath(file.path) && openCodeStoragePath(file.path) === null && clineHistoryOf(file.path) === null)
    return refuse("not a transcript Threadline reads (nor a piece of an OpenCode session or of a Cline task)");
  if (isAgentDatabase(file.path)) return refuse("an agent's database is not taken by push");
  const offset = before?.offset ?? 0;
  if (file.base !== offset) return { outcome: { path: file.path, status: "conflict", offset } };
  const copy = path.join(folder, ...file.path.split("/"));
  const start = file.from === 0 ? 0 : (before?.stored ?? 0);
  const size = await stat(copy).then(
    (info) => info.size,
    () => 0,
  );
  if (size < start) {
    // The copy lost bytes the database says it holds (its folder was restored from an older backup):
    // the laptop sends the file whole.
    return {
      outcome: { path: file.path, status: "conflict", offset: 0 },
      row: { path: file.path, offset: 0, stored: 0, sha256: "", failure: null },
    };
  }
  const bytes = Buffer.from(file.content, "base64");
  await mkdir(path.dirname(copy), { recursive: true, mode: 0o700 });
  const handle = await open(copy, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.truncate(start);
    await handle.write(bytes, 0, bytes.length, start);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return {
    outcome: { path: file.path, status: "stored", offset: file.to },
    row: { path: file.path, offset: file.to, stored: start + bytes.length, sha256: file.sha256, failure: before?.failure ?? null },
  };
}

/**
 * What a complete file's push imports: the file's copy, or for a piece of an OpenCode session, its
 * session's, for a task's ui_messages.json or task_metadata.json (Cline, Roo Code, Kilo Code), its
 * api_conversation_history.json's (when pushed).
 */
async function importTarget(folder: string, laptopPath: string): Promise<{ copy: string; path: string } | null> {
  const copy = path.join(folder, ...laptopPath.split("/"));
  if (clineHistoryOf(laptopPath) !== null) {
    const history = await clineTranscriptOf(copy);
    return history ? { copy: history, path: path.relative(folder, history).split(path.sep).join("/") } : null;
  }
  const piece = openCodeStoragePath(laptopPath);
  if (piece === null || piece.kind === "session") return { copy, path: laptopPath };
  const session = await openCodeTranscriptOf(copy, folder).catch(() => null);
  if (
    session === null ||
    !(await stat(session).then(
      (info) => info.isFile(),
      () => false,
    ))
  )
    return null;
  return { copy: session, path: path.relative(folder, session).split(path.sep).join("/") };
}

/** Imports one copy as its pusher's, named as the laptop names it (the thread's file is the laptop's). */
async function importCopy(person: Pusher, batch: PushBatch, folder: string, copy: string, laptopPath: string): Promise<FileImportReport> {
  const name = `${batch.home.replace(/[\\/]+$/, "")}/${laptopPath}`;
  try {
    return await importingFor(person, batch.machine, () => importPath(copy, name, undefined, { follow: true, within: folder }));
  } catch (error) {
    return { ...unchangedReport(name, null), status: "failed", error: describeFsError(error) };
  }
}
