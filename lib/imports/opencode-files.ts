// OpenCode's JSON-tree storage on disk, without a database: what a session record stands for
// (its message and part files), how a followed folder stamps it, and which session a changed piece
// belongs to. lib/imports/opencode-storage.ts imports what this reads.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { openForReading, realInside, RefusedPathError } from "@/lib/files/inside";
import { agentDatabaseOf } from "@/lib/importers/databases";
import { openCodeStoragePath } from "@/lib/importers/opencode/paths";
import { documentTooLarge, longRecordEntry, type ImportLimits } from "@/lib/importers/long-lines";
import { ImportFormatError, isObject, type SkippedEntry } from "@/lib/importers/types";

type Json = Record<string, unknown>;
export type SessionDocument = { info: Json; messages: { info: Json; parts: Json[] }[]; todos?: unknown };

/** Which OpenCode source `filePath` is, for importPath: a JSON-tree session record, else null. */
export function openCodeSourceOf(filePath: string): "storage-session" | null {
  return openCodeStoragePath(filePath)?.kind === "session" ? "storage-session" : null;
}

/**
 * The .json files of a folder of the storage, by name. `within` (lib/files/inside): a folder that
 * leads out of it is not listed (it goes to `skipped` with the reason, when given).
 */
async function listJson(dir: string, within?: string, skipped?: SkippedEntry[]): Promise<string[]> {
  try {
    if (within !== undefined) await realInside(dir, within);
    return (await readdir(dir)).filter((name) => name.endsWith(".json")).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    if (!(error instanceof RefusedPathError)) throw error;
    skipped?.push({ path: dir, reason: error.reason });
    return [];
  }
}

/** A file of this many bytes or more was not read (a record over the line limit). */
class TooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`too large: ${bytes} bytes`);
  }
}

/**
 * A JSON file and its size, unless it is larger than `maxBytes` (TooLarge): its size is looked at
 * before it is read. `within`: opened only where it really is inside (lib/files/inside).
 */
async function readSizedJson(file: string, maxBytes: number, within?: string): Promise<{ value: unknown; size: number }> {
  const handle = await openForReading(file, within);
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new TooLarge(size);
    return { value: JSON.parse(await handle.readFile("utf8")) as unknown, size };
  } finally {
    await handle.close();
  }
}

async function readJson(file: string, maxBytes: number, within?: string): Promise<unknown> {
  return (await readSizedJson(file, maxBytes, within)).value;
}

/** Why a message or part file was left out: refused unopened (a link out), or not JSON. */
const unreadReason = (error: unknown, notJson: string) => (error instanceof RefusedPathError ? error.reason : notJson);

/**
 * A JSON-tree session as an export document: the session record, its messages in id order (ids
 * sort by creation time) each with its parts in id order, and its todo list. Ids come from the
 * file names where a record lacks them (OpenCode's own migration does the same). A message or
 * part file that is not JSON (being written, or broken) is left out and reported; so is one that
 * leads out of `within` (ImportOptions.within), unopened.
 */
export async function assembleStorageSession(
  sessionFile: string,
  limits: ImportLimits,
  within?: string,
): Promise<{ doc: SessionDocument; skipped: SkippedEntry[] }> {
  const where = openCodeStoragePath(sessionFile);
  if (where?.kind !== "session")
    throw new ImportFormatError(`${sessionFile}: not an OpenCode session record (storage/session/<project>/<session>.json)`);
  // Each file is a record, held to the line limit; all of them together to the document limit.
  let total = 0;
  const read = async (file: string) => {
    const { value, size } = await readSizedJson(file, limits.maxLineBytes, within);
    total += size;
    if (total > limits.maxDocumentBytes)
      throw new ImportFormatError(documentTooLarge(sessionFile, total, limits, "an OpenCode session's files together"));
    return value;
  };
  let info: unknown;
  try {
    info = await read(sessionFile);
  } catch (error) {
    if (error instanceof ImportFormatError || error instanceof RefusedPathError) throw error;
    if (error instanceof TooLarge)
      throw new ImportFormatError(`${sessionFile}: ${longRecordEntry(sessionFile, error.bytes, limits).reason}`);
    throw new ImportFormatError(
      `${sessionFile}: an OpenCode session record that is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (!isObject(info)) throw new ImportFormatError(`${sessionFile}: an OpenCode session record that is not a JSON object`);
  const skipped: SkippedEntry[] = [];
  const messageDir = path.join(where.storage, "message", where.sessionId);
  const messages: SessionDocument["messages"] = [];
  for (const file of await listJson(messageDir, within, skipped)) {
    const messagePath = path.join(messageDir, file);
    let message: unknown;
    try {
      message = await read(messagePath);
    } catch (error) {
      if (error instanceof ImportFormatError) throw error;
      skipped.push(
        error instanceof TooLarge
          ? longRecordEntry(messagePath, error.bytes, limits)
          : { path: messagePath, reason: unreadReason(error, "message file is not valid JSON") },
      );
      continue;
    }
    if (!isObject(message)) {
      skipped.push({ path: messagePath, reason: "message file is not a JSON object" });
      continue;
    }
    const messageId = typeof message.id === "string" ? message.id : file.slice(0, -".json".length);
    const partDir = path.join(where.storage, "part", messageId);
    const parts: Json[] = [];
    for (const partFile of await listJson(partDir, within, skipped)) {
      const partPath = path.join(partDir, partFile);
      try {
        const part = await read(partPath);
        if (isObject(part)) parts.push({ id: partFile.slice(0, -".json".length), ...part });
        else skipped.push({ path: partPath, reason: "part file is not a JSON object" });
      } catch (error) {
        if (error instanceof ImportFormatError) throw error;
        skipped.push(
          error instanceof TooLarge
            ? longRecordEntry(partPath, error.bytes, limits)
            : { path: partPath, reason: unreadReason(error, "part file is not valid JSON") },
        );
      }
    }
    messages.push({ info: { ...message, id: messageId, sessionID: where.sessionId }, parts });
  }
  const doc: SessionDocument = { info: { ...info, id: where.sessionId }, messages };
  try {
    const todos = await readJson(path.join(where.storage, "todo", `${where.sessionId}.json`), limits.maxLineBytes, within);
    if (Array.isArray(todos) && todos.length > 0) doc.todos = todos;
  } catch {
    // No todo list (most sessions), one being written, or one out of `within`: the session reads without it.
  }
  return { doc, skipped };
}

/**
 * What a followed JSON-tree session looks like now: its record, message and part files together
 * (sizes summed, latest times), so that a part written during a live session changes the stamp
 * of the session file the sync compares. Stats every file of the session, and nothing more; lists
 * no folder that leads out of `within`.
 */
export async function storageSessionStamp(
  sessionFile: string,
  own: { size: number; mtimeMs: number; ctimeMs: number },
  within?: string,
): Promise<{ size: number; mtimeMs: number; ctimeMs: number }> {
  const where = openCodeStoragePath(sessionFile);
  if (where?.kind !== "session") return own;
  const stamp = { ...own };
  const add = async (file: string) => {
    const info = await stat(file).catch(() => null);
    if (!info) return;
    stamp.size += info.size;
    stamp.mtimeMs = Math.max(stamp.mtimeMs, info.mtimeMs);
    stamp.ctimeMs = Math.max(stamp.ctimeMs, info.ctimeMs);
  };
  const messageDir = path.join(where.storage, "message", where.sessionId);
  for (const file of await listJson(messageDir, within)) {
    await add(path.join(messageDir, file));
    const partDir = path.join(where.storage, "part", file.slice(0, -".json".length));
    const parts = await listJson(partDir, within);
    await Promise.all(parts.map((part) => add(path.join(partDir, part))));
  }
  return stamp;
}

/**
 * The transcript a changed path belongs to, for a followed folder: a message or part file (or
 * their folder) is its session's record; an agent database's -wal/-shm file is the database. Null:
 * not an OpenCode piece (the path is looked at as it is). A part names its session inside; a part
 * that is gone is found through its message's file; one out of `within` is not opened.
 */
export async function openCodeTranscriptOf(changed: string, within?: string): Promise<string | null> {
  const database = agentDatabaseOf(changed);
  if (database) return database;
  const parts = changed.split(/[\\/]/);
  // A folder of messages (storage/message/<session>) or of parts (storage/part/<message>).
  const folderOf = parts.at(-3) === "storage" ? parts.at(-2) : null;
  const storage = folderOf ? parts.slice(0, -2).join("/") : null;
  let sessionId: string | null = null;
  let base: string | null = null;
  if (folderOf === "message" && storage) [sessionId, base] = [parts.at(-1)!, storage];
  else if (folderOf === "part" && storage) [sessionId, base] = [await sessionOfMessage(storage, parts.at(-1)!), storage];
  else {
    const where = openCodeStoragePath(changed);
    if (!where || where.kind === "session" || where.kind === "side") return null;
    base = where.storage;
    if (where.kind === "message") sessionId = where.sessionId;
    else {
      // Only to learn its session: a part too large to read is found through its message instead.
      const part = await readJson(changed, PART_PEEK_BYTES, within).catch(() => null);
      sessionId =
        isObject(part) && typeof part.sessionID === "string" ? part.sessionID : await sessionOfMessage(where.storage, where.messageId);
    }
  }
  if (!sessionId || !base) return null;
  for (const project of await readdir(path.join(base, "session")).catch(() => [] as string[])) {
    const candidate = path.join(base, "session", project, `${sessionId}.json`);
    if (
      await stat(candidate)
        .then((s) => s.isFile())
        .catch(() => false)
    )
      return candidate;
  }
  return null;
}

const PART_PEEK_BYTES = 1024 * 1024;

/** The session a message belongs to: the folder holding its file (one look per session folder). */
async function sessionOfMessage(storage: string, messageId: string): Promise<string | null> {
  for (const session of await readdir(path.join(storage, "message")).catch(() => [] as string[])) {
    if (
      await stat(path.join(storage, "message", session, `${messageId}.json`))
        .then(() => true)
        .catch(() => false)
    )
      return session;
  }
  return null;
}
