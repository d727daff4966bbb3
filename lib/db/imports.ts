import "server-only";
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { titleFromContent } from "@/lib/domain/title";
import { estimateTokens } from "@/lib/domain/tokens";
import { importedThreadId, importedTurnId } from "@/lib/importers/stable-id";
import type { ImportedThread, ImportedTurn, ImportFormat, ParsedSource, SkippedEntry, ThreadIdentity, ThreadImportResult } from "@/lib/importers/types";
import { startBackgroundCounter } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { serverSettings } from "@/lib/env";
import { db } from "./client";
import type { ThreadWriteRow, TurnInsertRow } from "./import-rows";
import { withImportWriter } from "./import-writer";
import { mergeModels, storedParts } from "./mappers";

/** What importing one file did. */
export type FileImportReport = {
  name: string;
  format: ImportFormat | null;
  /** "unchanged" when no thread changed (this content was imported before, or left every thread as it was). */
  status: "imported" | "unchanged" | "failed";
  threads: { created: number; updated: number; unchanged: number };
  turnsAdded: number;
  threadIds: string[];
  /** Thread by thread (in threadIds' order), what the import did. */
  threadResults: ThreadImportResult[];
  skipped: SkippedEntry[];
  warnings: string[];
  error?: string;
};


/** What an imported thread's metadata says of the import that last wrote it. */
type ImportedFrom = { format: ImportFormat; file: string; key: string; identity?: ThreadIdentity; sha256?: string };

export type SourceFile = { name: string; sha256: string; size: number };

const INSERT_BATCH = 500;
/** A batch also ends at this much text, so a run of huge tool results never sits in memory together. */
const INSERT_BATCH_CHARS = 1_000_000;
/** Batches whose token counts may be pending at once: enough to keep the counting core busy. */
const COUNTING_AHEAD = 8;

/**
 * The "unchanged" report when a file with exactly this content was imported before and every
 * thread it made still holds what it left there: nothing to do. Null otherwise, and the file
 * imports again: one of its threads was purged, or changed since by another import (an edited
 * file, then this content again), or it is a thread whose identity is its file name and the name
 * is another one, or none (`nameless`: such a file is a new conversation every time).
 */
export async function previousImport(sha256: string, name: string, nameless = false): Promise<FileImportReport | null> {
  const client = await db();
  const record = await client.importedFile.findUnique({ where: { sha256 }, select: { threadIds: true, format: true, name: true } });
  if (!record) return null;
  const ids = JSON.parse(record.threadIds) as string[];
  const threads = new Map((await client.thread.findMany({ where: { id: { in: ids } }, select: { id: true, title: true, metadata: true } })).map((t) => [t.id, t]));
  const threadResults: ThreadImportResult[] = [];
  for (const id of ids) {
    const thread = threads.get(id);
    const from = thread ? importedFromOf(thread.metadata) : null;
    if (!thread || from?.sha256 !== sha256) return null;
    const identity = from.identity ?? "source";
    if (identity === "new" || (identity === "name" && (nameless || record.name !== name))) return null;
    threadResults.push({ id, title: thread.title, change: "unchanged", turnsAdded: 0, turnsRemoved: 0, identity });
  }
  return { ...unchangedReport(name, record.format as ImportFormat), threads: { created: 0, updated: 0, unchanged: ids.length }, threadIds: ids, threadResults };
}

function importedFromOf(metadata: string | null): ImportedFrom | null {
  if (!metadata) return null;
  const parsed = JSON.parse(metadata) as { importedFrom?: ImportedFrom };
  return parsed.importedFrom ?? null;
}

function toTurnRow(turn: ImportedTurn, threadId: string, index: number, fallbackTime: Date): TurnInsertRow {
  const parts: TurnPart[] = [...(turn.parts ?? [])];
  if (turn.compaction) parts.push({ type: "compaction", trigger: turn.compaction.trigger ?? null, tokensBefore: turn.compaction.tokensBefore ?? null, tokensAfter: turn.compaction.tokensAfter ?? null });
  const metadata: JsonObject = { ...(turn.metadata ?? {}) };
  if (turn.usage && Object.values(turn.usage).some((v) => v !== undefined)) {
    metadata.usage = { ...(turn.usage as Record<string, JsonValue>), source: "reported" };
  }
  const time = turn.timestamp ? new Date(turn.timestamp) : fallbackTime;
  const row: TurnInsertRow = {
    id: "",
    threadId,
    index,
    role: turn.role,
    content: turn.content,
    timestamp: Number.isNaN(time.getTime()) ? fallbackTime : time,
    files: JSON.stringify(turn.files ?? []),
    images: JSON.stringify(turn.images ?? []),
    toolName: turn.toolName ?? null,
    modelProvider: turn.modelProvider ?? null,
    modelName: turn.modelName ?? null,
    modelMetadata: Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : null,
    parts: parts.length > 0 ? storedParts(parts, turn.content) : null,
    tokenEstimate: estimateTokens(turn.content),
  };
  // Everything stored but the index and the fallback time (a source without times gets "now").
  row.id = importedTurnId(threadId, turn.key, [row.role, row.content, turn.timestamp ?? null, row.files, row.images, row.toolName, row.modelProvider, row.modelName, row.modelMetadata, row.parts]);
  return row;
}

/** The thread's own metadata and where it was imported from; `sha256` is the content it holds now (previousImport). */
function threadMetadata(thread: Omit<ImportedThread, "turns">, format: ImportFormat, file: SourceFile): JsonObject {
  const importedFrom: ImportedFrom = { format, file: file.name, key: thread.key, identity: thread.identity ?? "source", sha256: file.sha256 };
  return {
    ...(thread.metadata ?? {}),
    ...(thread.relation ? { relation: thread.relation as unknown as JsonObject } : {}),
    importedFrom,
  };
}

/** What a parser knows of a source before its turns: threads without turns, skipped entries, warnings. */
export type SourceOutline = {
  format: ImportFormat;
  threads: Omit<ImportedThread, "turns">[];
  skipped: SkippedEntry[];
  warnings: string[];
};

/** One turn of a streamed source and the thread (index into the outline's threads) it belongs to. */
export type StreamedTurn = { threadIndex: number; turn: ImportedTurn };

/**
 * Stores what a parser produced from one file, in one transaction. See storeTurnStream.
 * Threads that got no turns are stored only when they are no fork or sub-agent.
 */
export async function storeParsedSource(parsed: ParsedSource, file: SourceFile): Promise<FileImportReport> {
  async function* turns(): AsyncGenerator<StreamedTurn> {
    for (const [threadIndex, thread] of parsed.threads.entries()) for (const turn of thread.turns) yield { threadIndex, turn };
  }
  return storeTurnStream({ format: parsed.format, threads: parsed.threads, skipped: parsed.skipped, warnings: parsed.warnings }, turns(), file);
}

/** Per-thread state while its turns stream in. */
type ThreadProgress = {
  id: string;
  header: Omit<ImportedThread, "turns">;
  /** Ids of the turns stored before this import, in order; null until the thread is first seen. */
  stored: string[];
  existed: boolean;
  index: number;
  /** The first index whose stored turn was replaced, or null while the source matches what is stored. */
  divergedAt: number | null;
  added: number;
  tokenEstimate: number;
  models: (string | null)[];
  firstTime: number | null;
  lastTime: number;
};

/**
 * Stores a source's turns as they stream in (a 200 MB session is never in memory at once), in one
 * transaction: new threads are created; a thread imported before keeps the turns that are
 * unchanged and gets the rest (appended lines add turns; a conversation whose earlier turns
 * differ now, after a rewind or an edit say, is rewritten from the first difference; one that is
 * shorter now is truncated). Thread ids come from the source's keys, turn ids from their keys and
 * everything stored of them, so nothing is duplicated and no stale turn is kept. Turns are written
 * in batches with their o200k counts. The file's hash is recorded, and each thread notes it, so an
 * unchanged file is skipped next time (previousImport).
 */
export async function storeTurnStream(outline: SourceOutline, turns: AsyncIterable<StreamedTurn>, file: SourceFile): Promise<FileImportReport> {
  const report: FileImportReport = {
    name: file.name,
    format: outline.format,
    status: "imported",
    threads: { created: 0, updated: 0, unchanged: 0 },
    turnsAdded: 0,
    threadIds: [],
    threadResults: [],
    skipped: outline.skipped,
    warnings: [...outline.warnings],
  };
  const format = outline.format;
  const idOf = new Map(outline.threads.map((t) => [t.key, importedThreadId(format, t.key)]));
  const now = new Date();
  await db(); // migrated, connection prepared
  const counter = startBackgroundCounter(DEFAULT_TOKENIZER_ID);

  try {
    await withImportWriter(serverSettings().databaseUrl, async (writer) => {
      const progress = new Map<number, ThreadProgress>();
      let batch: TurnInsertRow[] = [];
      let batchChars = 0;
      /** Batches written whose counts the other core is still working out, oldest first. */
      const counting: Promise<void>[] = [];

      const flush = async () => {
        if (batch.length === 0) return;
        const rows = batch;
        batch = [];
        batchChars = 0;
        const seqs = await writer.insertTurns(rows);
        const counted = counter
          .count(rows.map((row) => row.content))
          .then((counts) => writer.insertTokenCounts(rows.map((row, i) => ({ turnSeq: seqs[i]!, threadId: row.threadId, tokenizer: counter.tokenizer, ...counts[i]! }))));
        // Awaited below; when the import fails first, it ends against a closed connection, unheard.
        counted.catch(() => {});
        counting.push(counted);
        while (counting.length >= COUNTING_AHEAD) await counting.shift();
      };
      /** Writes what is batched and waits for every count: before turns are deleted, and at the end. */
      const settle = async () => {
        await flush();
        while (counting.length > 0) await counting.shift();
      };

      /** The thread's progress, loading what is stored of it the first time it is seen. */
      const threadAt = async (threadIndex: number): Promise<ThreadProgress> => {
        const known = progress.get(threadIndex);
        if (known) return known;
        const header = outline.threads[threadIndex];
        if (!header) throw new Error(`turn for thread ${threadIndex}, which the outline does not have`);
        const id = idOf.get(header.key)!;
        const storedIds = await writer.storedTurnIds(id);
        const state: ThreadProgress = { id, header, stored: storedIds ?? [], existed: storedIds !== null, index: 0, divergedAt: null, added: 0, tokenEstimate: 0, models: [], firstTime: null, lastTime: 0 };
        progress.set(threadIndex, state);
        return state;
      };

      const threadRow = (state: ThreadProgress): ThreadWriteRow => {
        const { header } = state;
        const parentThreadId = header.parentKey ? (idOf.get(header.parentKey) ?? importedThreadId(format, header.parentKey)) : null;
        const createdAt = header.createdAt ? new Date(header.createdAt) : new Date(state.firstTime ?? now.getTime());
        const lastUpdatedAt = new Date(Math.max(header.lastUpdatedAt ? Date.parse(header.lastUpdatedAt) || 0 : 0, state.lastTime, createdAt.getTime()));
        return {
          id: state.id,
          parentThreadId,
          title: header.title?.trim() ? header.title.trim().slice(0, 500) : null,
          toolName: header.toolName,
          source: `import:${format}`,
          project: header.project ?? null,
          initialContext: JSON.stringify(header.initialContext ?? {}),
          metadata: JSON.stringify(threadMetadata(header, format, file)),
          createdAt,
          lastUpdatedAt,
          expiresAt: null,
          turnCount: state.index,
          tokenEstimate: state.tokenEstimate,
          modelsUsed: JSON.stringify(mergeModels([], state.models)),
        };
      };

      const firstUserText = new Map<number, string>();
      for await (const { threadIndex, turn } of turns) {
        const state = await threadAt(threadIndex);
        const fallback = state.firstTime ?? (state.header.createdAt ? Date.parse(state.header.createdAt) : now.getTime());
        const row = toTurnRow(turn, state.id, state.index, new Date(Number.isFinite(fallback) ? fallback : now.getTime()));
        if (state.firstTime === null) state.firstTime = row.timestamp.getTime();
        state.lastTime = Math.max(state.lastTime, row.timestamp.getTime());
        state.tokenEstimate += row.tokenEstimate;
        state.models.push(row.modelName);
        if (turn.role === "user" && !firstUserText.has(threadIndex)) firstUserText.set(threadIndex, turn.content);
        const index = state.index++;
        if (state.divergedAt === null && index < state.stored.length) {
          if (state.stored[index] === row.id) continue; // stored before, unchanged
          // The source changed before its end (a rewind, an edited export): rewrite from here.
          state.divergedAt = index;
          await settle();
          await writer.deleteTurnsFrom(state.id, index);
        }
        if (!state.existed && state.added === 0) await writer.createThread(threadRow(state));
        batch.push(row);
        batchChars += row.content.length + (row.parts?.length ?? 0);
        state.added += 1;
        if (batch.length >= INSERT_BATCH || batchChars >= INSERT_BATCH_CHARS) await flush();
      }
      await settle();

      // Threads with no turns at all: a main thread is still stored (it says the file held nothing
      // to show), a fork or sub-agent without turns is not.
      for (const [threadIndex, header] of outline.threads.entries()) {
        if (!progress.has(threadIndex) && header.relation == null) await threadAt(threadIndex);
      }
      for (const [threadIndex, state] of [...progress.entries()].sort((a, b) => a[0] - b[0])) {
        report.threadIds.push(state.id);
        const shorter = state.divergedAt === null && state.index < state.stored.length;
        if (shorter) await writer.deleteTurnsFrom(state.id, state.index);
        if (state.divergedAt !== null || shorter) {
          report.warnings.push(`${state.header.title ?? state.header.key}: turns from ${(state.divergedAt ?? state.index) + 1} on differ from the stored ones and were replaced`);
        }
        const data = threadRow(state);
        if (data.title === null) data.title = titleFromContent(firstUserText.get(threadIndex) ?? "") ?? null;
        // Unchanged threads are written too: their metadata names the content they now hold.
        if (state.existed || state.added > 0) await writer.updateThread(data);
        else await writer.createThread(data);
        const result = threadResult(state, data.title);
        report.threadResults.push(result);
        if (result.change === "created") report.threads.created += 1;
        else if (result.change === "unchanged") report.threads.unchanged += 1;
        else report.threads.updated += 1;
        report.turnsAdded += state.added;
      }
      if (report.threadResults.length > 0 && report.threadResults.every((t) => t.change === "unchanged")) report.status = "unchanged";
      await writer.recordFile({ sha256: file.sha256, name: file.name, size: file.size, format, importedAt: now, threadIds: JSON.stringify(report.threadIds) });
    });
  } finally {
    await counter.close();
  }
  return report;
}

/** What the import did to a thread, from its progress once every turn is in. */
function threadResult(state: ThreadProgress, title: string | null): ThreadImportResult {
  const base = { id: state.id, title, turnsAdded: state.added, turnsRemoved: 0, identity: state.header.identity ?? "source" };
  if (!state.existed) return { ...base, change: "created" };
  if (state.divergedAt !== null) return { ...base, change: "rewritten", fromTurn: state.divergedAt + 1, turnsRemoved: state.stored.length - state.divergedAt };
  if (state.index < state.stored.length) return { ...base, change: "truncated", fromTurn: state.index + 1, turnsRemoved: state.stored.length - state.index };
  return { ...base, change: state.added > 0 ? "appended" : "unchanged" };
}

/** The report of a file skipped because its content was imported before. */
export function unchangedReport(name: string, format: ImportFormat | null): FileImportReport {
  return { name, format, status: "unchanged", threads: { created: 0, updated: 0, unchanged: 0 }, turnsAdded: 0, threadIds: [], threadResults: [], skipped: [], warnings: [] };
}

