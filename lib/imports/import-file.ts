import "server-only";
// The service that stores imports: reads a file or folder, asks lib/importers (pure parsers) what it
// holds and writes that through lib/db.
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import { openForReading } from "@/lib/files/inside";
import { nativeDocumentSchema } from "@/lib/domain/transfer/native-format";
import { previousImport, unchangedReport, type FileImportReport, type SourceFile } from "@/lib/db/imports/imports";
import { storeParsedSource, storeTurnStream } from "@/lib/db/imports/turn-stream-import";
import { importDocuments } from "@/lib/db/imports/transfer";
import { issuesOf } from "@/lib/domain/parse";
import { importClaudeCodeSession, resumeClaudeCodeSession } from "./claude-code-session";
import { importAgentDatabase } from "./agent-databases";
import { importStorageSession, openCodeSourceOf } from "./opencode-storage";
import { importClineTask } from "./cline-tasks";
import { isClineTaskHistory } from "@/lib/importers/cline/paths";
import { firstNonBlankLine, readLines, sourceBytes, sourceDigest, sourceText, type SourceBytes } from "./file-lines";
import { isClaudeCodeLine, LIVE_WITHIN_MS, type PreparedSession } from "./claude-code-lines";
import { readDroidSettings, withSettingsDigest, type DroidSettingsRead } from "./droid-settings";
import type { ReadAhead } from "./read-ahead";
import { serverSettings } from "@/lib/env";
import { detectFormat, detectLineFormat, parseDetected, type Detected, type ImportFormat } from "@/lib/importers";
import { isAgentDatabase } from "@/lib/importers/databases";
import { isFactoryDroidFirstLine } from "@/lib/importers/factory-droid";
import { looksLikeGooseJsonl } from "@/lib/importers/goose";
import { documentTooLarge, longLinesWarning, withoutLongLines, type ImportLimits } from "@/lib/importers/long-lines";
import { ImportFormatError, type ParsedSource, type SkippedEntry } from "@/lib/importers/types";

/**
 * `nameless`: the file came without a name (an upload posted without ?name=). A conversation whose
 * identity would be its file name (a format without ids) is then a new thread every time, never
 * merged into an earlier nameless upload.
 */
export type ImportOptions = {
  nameless?: boolean;
  /**
   * The file is followed (lib/sources): a Claude Code session written to within the last hour is
   * taken to be live, and what its import learnt is kept so that the next import of the grown file
   * reads only the lines appended since (lib/imports/claude-code-session.ts).
   */
  follow?: boolean;
  /**
   * The real path of the folder the file was found in (a followed folder, a folder given to the
   * import CLI): nothing that is not really inside it is opened, the file itself or what an
   * OpenCode session reads beside it. A refused path throws RefusedPathError (lib/files/inside),
   * which the caller lists as skipped.
   */
  within?: string;
  /** The folder sync's reads ahead: this file's bytes may have been read already (inside `within`). */
  readAhead?: ReadAhead;
};

/**
 * Imports one file of any supported format: skipped when the same content was imported before
 * (and left its threads as they are, see previousImport), else detected (or `format`), parsed and
 * stored in one transaction. Never throws for bad input: a file that cannot be imported comes back
 * with status "failed" and the reason, so one bad file never stops the others.
 * @internal exported for its tests
 */
export async function importFile(
  name: string,
  text: string,
  format?: ImportFormat,
  options: ImportOptions = {},
): Promise<FileImportReport> {
  const file: SourceFile = { name, sha256: createHash("sha256").update(text).digest("hex"), size: Buffer.byteLength(text) };
  return reportFailures(name, format, async () => {
    return (await previousImport(file.sha256, name, options.nameless)) ?? importText(file, text, format, options);
  });
}

/**
 * Imports a file on disk, as importFile does. A file up to 8 MB is read once (see sourceBytes);
 * a larger Claude Code session is streamed, twice (plan, then turns), so a 200 MB session never
 * sits in memory. Other JSON lines (a .jsonl name, or a file too large to read whole whose first
 * line is a JSON object) are read line by line and parsed at once; anything else is read whole, up
 * to the document limit. Every line is read in bounded pieces: one too long is left out and reported
 * (lib/imports/file-lines.ts, THREADLINE_MAX_LINE_MB).
 */
export async function importPath(path: string, name = path, format?: ImportFormat, options: ImportOptions = {}): Promise<FileImportReport> {
  const within = options.within;
  // Nothing opens it unless it really is inside `within`: every open checks (openInside).
  const limits = serverSettings().importLimits;
  // Taken at once, so that a read made for nothing (a session resumed, an OpenCode file) is not held.
  const readAhead = options.readAhead?.within === within ? options.readAhead?.take(path) : undefined;
  return reportFailures(name, format, async () => {
    // An agent's database is read session by session (an uploaded one too, known by its SQLite
    // header: its spooled copy has no telling name); an OpenCode session record with its message
    // and part files. Transcripts by name (.json, .jsonl, .md: every file a folder walk finds) are
    // never opened for the header.
    if (isAgentDatabase(path) || (!TRANSCRIPT_NAME.test(name) && (await isSqliteFile(path, within))))
      return importAgentDatabase(path, name, limits, within);
    if ((format === undefined || format === "opencode" || format === "kilo-code") && openCodeSourceOf(path) === "storage-session")
      return importStorageSession(path, name, limits, within);
    // A Cline, Roo Code or Kilo Code task folder: its API history is read with ui_messages.json and
    // task_metadata.json beside it (the usage is there). A history outside a task folder (an upload) goes on below.
    if ((format === undefined || CLINE_FORMATS.has(format)) && isClineTaskHistory(path)) return importClineTask(path, name, limits, within);
    if (options.follow && (format === undefined || format === "claude-code")) {
      const resumed = await resumeClaudeCodeSession(path, name, limits, within);
      if (resumed) return resumed;
    }
    const ahead = await readAhead;
    if (ahead && "prepared" in ahead && ahead.prepared.file.name === name && format === undefined)
      return storePreparedSession(ahead.prepared, options);
    const source = (ahead && "source" in ahead ? ahead.source : null) ?? (await sourceBytes(path, within));
    const file: SourceFile = { name, ...(await sourceDigest(source)) };
    const jsonl = /\.jsonl$/i.test(name);
    const head = jsonl ? await firstNonBlankLine(source, limits) : undefined;
    // A Factory Droid session's totals are in the settings beside it: part of what is imported, and of its digest.
    const droidSettings =
      jsonl && (format === undefined || format === "factory-droid") && isFactoryDroidFirstLine(head ?? null)
        ? await readDroidSettings(path, limits, within)
        : null;
    if (droidSettings && "sha256" in droidSettings) file.sha256 = withSettingsDigest(file.sha256, droidSettings.sha256);
    if (jsonl && (format === undefined || format === "goose") && (await gooseCopiedIntoDatabase(path, head ?? null)))
      return { ...unchangedReport(name, "goose"), skipped: [{ path: name, reason: GOOSE_COPIED }] };
    const previous = await previousImport(file.sha256, name, options.nameless);
    if (previous) return previous;
    if (!jsonl && file.size <= limits.maxDocumentBytes) return importText(file, await sourceText(source), format, options);
    const first = head !== undefined ? head : await firstNonBlankLine(source, limits);
    if ((format === undefined || format === "claude-code") && (format === "claude-code" || isClaudeCodeLine(first, name))) {
      const info = source.opened;
      const live = options.follow && info && Date.now() - info.mtimeMs < LIVE_WITHIN_MS ? { path, dev: info.dev, ino: info.ino } : null;
      return importClaudeCodeSession(source, file, live, limits);
    }
    // Too large to read whole: only JSON lines are read on, line by line.
    if (!jsonl && !isJsonObject(first)) throw new ImportFormatError(documentTooLarge(name, file.size, limits));
    return importLineFile(file, source, format, options, limits, droidSettings);
  });
}

/** A file of lines parsed at once (Codex, Gemini CLI, Pi, Copilot CLI): its lines read in bounded pieces, long ones left out and reported. */
async function importLineFile(
  file: SourceFile,
  source: SourceBytes,
  format: ImportFormat | undefined,
  options: ImportOptions,
  limits: ImportLimits,
  droidSettings: DroidSettingsRead = null,
): Promise<FileImportReport> {
  const { lines, skipped } = await readLines(file.name, source, limits);
  if (skipped.length > 0 && !lines.some((l) => l.text.trim()))
    throw new ImportFormatError(`${file.name}: nothing to import. ${longLinesWarning(skipped)}`);
  return importDetected(file, detectLineFormat(file.name, lines, format), options, skipped, droidSettings);
}

function isJsonObject(line: string | null): boolean {
  if (line === null || !line.trimStart().startsWith("{")) return false;
  try {
    return typeof JSON.parse(line) === "object";
  } catch {
    return false;
  }
}

const CLINE_FORMATS: ReadonlySet<ImportFormat> = new Set(["cline", "roo-code", "kilo-code"]);

const GOOSE_COPIED = "a Goose session of the older JSONL format, which Goose copied into the sessions.db beside it: read from there";

/**
 * Whether a Goose JSONL session has a sessions.db beside it: Goose copies every such file into the
 * database (same session ids) the first time a build with the database starts and leaves the file,
 * so the two would fight over the same thread.
 */
async function gooseCopiedIntoDatabase(path: string, first: string | null): Promise<boolean> {
  if (first === null) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(first);
  } catch {
    return false;
  }
  if (!looksLikeGooseJsonl(parsed)) return false;
  return stat(join(dirname(path), "sessions.db")).then(
    (info) => info.isFile(),
    () => false,
  );
}

const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
const TRANSCRIPT_NAME = /\.(jsonl?|md)$/i;

/** Whether a file is an SQLite database, by the header every one starts with. */
async function isSqliteFile(path: string, within: string | undefined): Promise<boolean> {
  const file = await openForReading(path, within);
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(SQLITE_HEADER);
  } finally {
    await file.close();
  }
}

/** A session the parse worker prepared (read-ahead.ts): stored as importClaudeCodeSession would store it. */
async function storePreparedSession({ file, outline, items }: PreparedSession, options: ImportOptions): Promise<FileImportReport> {
  const previous = await previousImport(file.sha256, file.name, options.nameless);
  if (previous) return previous;
  async function* stream() {
    yield* items;
  }
  return storeTurnStream(outline, stream(), file);
}

async function importText(
  file: SourceFile,
  text: string,
  format: ImportFormat | undefined,
  options: ImportOptions,
): Promise<FileImportReport> {
  const detected = detectFormat(file.name, text, format);
  if (detected.lines) {
    const { lines, skipped } = withoutLongLines(detected.lines, serverSettings().importLimits);
    if (skipped.length > 0) return importDetected(file, { ...detected, lines }, options, skipped);
  }
  if (detected.format === "threadline") {
    const parsed = nativeDocumentSchema.safeParse(detected.document);
    if (!parsed.success) {
      const first = issuesOf(parsed.error)[0];
      throw new ImportFormatError(
        `${file.name}: not a valid threadline/v1 document: ${first ? `${first.field}: ${first.message}` : "invalid"}`,
      );
    }
    const result = await importDocuments([parsed.data], "strict");
    const threadResults = result.threadIds.map((id) => ({
      id,
      title: null,
      change: "created" as const,
      turnsAdded: 0,
      turnsRemoved: 0,
      identity: "source" as const,
    }));
    return {
      ...unchangedReport(file.name, "threadline"),
      status: "imported",
      threads: { created: result.threadIds.length, updated: 0, unchanged: 0 },
      turnsAdded: result.turnCount,
      threadIds: result.threadIds,
      threadResults,
      warnings: result.warnings,
    };
  }
  return importDetected(file, detected, options, []);
}

/**
 * Parses and stores a detected source; `long`: the lines left out as too long, reported with the
 * parser's own skipped entries. `droidSettings`: a Factory Droid session's settings read beside it
 * (droid-settings.ts), given to its parser, or the reason it was left out, reported.
 */
async function importDetected(
  file: SourceFile,
  detected: Detected,
  options: ImportOptions,
  long: SkippedEntry[],
  droidSettings: DroidSettingsRead = null,
): Promise<FileImportReport> {
  const droid = detected.format === "factory-droid" ? droidSettings : null;
  const parsed = await parseDetected(file.name, detected, droid && "value" in droid ? { droidSettings: droid.value } : {});
  const extra = droid && "skipped" in droid ? [...long, droid.skipped] : long;
  const withLong =
    extra.length > 0 ? { ...parsed, skipped: [...parsed.skipped, ...extra].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) } : parsed;
  return storeParsedSource(options.nameless ? asNewConversations(withLong) : withLong, file);
}

/** Threads whose identity would be the file name get a key of their own: a nameless upload is a new conversation. */
function asNewConversations(parsed: ParsedSource): ParsedSource {
  const keys = new Map(parsed.threads.filter((t) => t.identity === "name").map((t) => [t.key, `upload:${randomUUID()}`]));
  if (keys.size === 0) return parsed;
  const rekey = (key: string | null | undefined) => (key ? (keys.get(key) ?? key) : key);
  return {
    ...parsed,
    threads: parsed.threads.map((t) => ({
      ...t,
      key: rekey(t.key)!,
      parentKey: rekey(t.parentKey),
      ...(keys.has(t.key) ? { identity: "new" as const } : {}),
    })),
  };
}

/** Bad input becomes a "failed" report naming the reason; anything else is a bug and throws. */
async function reportFailures(
  name: string,
  format: ImportFormat | undefined,
  run: () => Promise<FileImportReport>,
): Promise<FileImportReport> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ImportFormatError || error instanceof AppError) {
      return { ...unchangedReport(name, format ?? null), status: "failed", error: error.message };
    }
    throw error;
  }
}
