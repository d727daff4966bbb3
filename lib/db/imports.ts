import "server-only";
import type { JsonObject, JsonValue, TurnPart } from "@/lib/domain/types";
import { titleFromContent } from "@/lib/domain/title";
import { estimateTokens } from "@/lib/domain/tokens";
import { importedThreadId, importedTurnId } from "@/lib/importers/stable-id";
import type { ImportedThread, ImportedTurn, ImportFormat, ParsedSource, SkippedEntry } from "@/lib/importers/types";
import { startBackgroundCounter } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { serverSettings } from "@/lib/env";
import { db } from "./client";
import { withImportWriter, type ThreadWriteRow, type TurnInsertRow } from "./import-writer";
import { mergeModels, storedParts } from "./mappers";

/** What importing one file did. */
export type FileImportReport = {
  name: string;
  format: ImportFormat | null;
  status: "imported" | "unchanged" | "failed";
  threads: { created: number; updated: number; unchanged: number };
  turnsAdded: number;
  threadIds: string[];
  skipped: SkippedEntry[];
  warnings: string[];
  error?: string;
};

export type SourceFile = { name: string; sha256: string; size: number };

const INSERT_BATCH = 500;
/** A batch also ends at this much text, so a run of huge tool results never sits in memory together. */
const INSERT_BATCH_CHARS = 1_000_000;
/** Batches whose token counts may be pending at once: enough to keep the counting core busy. */
const COUNTING_AHEAD = 8;

/**
 * The "unchanged" report when a file with exactly this content was imported before and what it
 * made is still there: nothing to do. Null otherwise (after a purge of one of its threads, say,
 * the file imports again).
 */
export async function previousImport(sha256: string, name: string): Promise<FileImportReport | null> {
  const client = await db();
  const record = await client.importedFile.findUnique({ where: { sha256 }, select: { threadIds: true, format: true } });
  if (!record) return null;
  const ids = JSON.parse(record.threadIds) as string[];
  if (ids.length > 0 && (await client.thread.count({ where: { id: { in: ids } } })) !== ids.length) return null;
  return { ...unchangedReport(name, record.format as ImportFormat), threads: { created: 0, updated: 0, unchanged: ids.length }, threadIds: ids };
}

function toTurnRow(turn: ImportedTurn, threadId: string, index: number, fallbackTime: Date): TurnInsertRow {
  const parts: TurnPart[] = [...(turn.parts ?? [])];
  if (turn.compaction) parts.push({ type: "compaction", trigger: turn.compaction.trigger ?? null, tokensBefore: turn.compaction.tokensBefore ?? null, tokensAfter: turn.compaction.tokensAfter ?? null });
  const metadata: JsonObject = { ...(turn.metadata ?? {}) };
  if (turn.usage && Object.values(turn.usage).some((v) => v !== undefined)) {
    metadata.usage = { ...(turn.usage as Record<string, JsonValue>), source: "reported" };
  }
  const time = turn.timestamp ? new Date(turn.timestamp) : fallbackTime;
  return {
    id: importedTurnId(threadId, turn.key),
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
}

function threadMetadata(thread: Omit<ImportedThread, "turns">, format: ImportFormat, fileName: string): JsonObject {
  return {
    ...(thread.metadata ?? {}),
    ...(thread.relation ? { relation: thread.relation as unknown as JsonObject } : {}),
    importedFrom: { format, file: fileName, key: thread.key },
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
 * differ now, after a rewind say, is rewritten from the first difference). Thread and turn ids
 * come from the source's keys, so nothing is duplicated. Turns are written in batches with their
 * o200k counts. The file's hash is recorded, so an unchanged file is skipped next time.
 */
export async function storeTurnStream(outline: SourceOutline, turns: AsyncIterable<StreamedTurn>, file: SourceFile): Promise<FileImportReport> {
  const report: FileImportReport = {
    name: file.name,
    format: outline.format,
    status: "imported",
    threads: { created: 0, updated: 0, unchanged: 0 },
    turnsAdded: 0,
    threadIds: [],
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
          metadata: JSON.stringify(threadMetadata(header, format, file.name)),
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
        if (state.existed && state.added === 0 && !shorter) {
          report.threads.unchanged += 1;
          continue;
        }
        if (shorter) await writer.deleteTurnsFrom(state.id, state.index);
        if (state.divergedAt !== null || shorter) {
          report.warnings.push(`${state.header.title ?? state.header.key}: turns from ${(state.divergedAt ?? state.index) + 1} on differ from the stored ones and were replaced`);
        }
        const data = threadRow(state);
        if (data.title === null) data.title = titleFromContent(firstUserText.get(threadIndex) ?? "") ?? null;
        if (state.existed || state.added > 0) await writer.updateThread(data);
        else await writer.createThread(data);
        if (state.existed) report.threads.updated += 1;
        else report.threads.created += 1;
        report.turnsAdded += state.added;
      }
      await writer.recordFile({ sha256: file.sha256, name: file.name, size: file.size, format, importedAt: now, threadIds: JSON.stringify(report.threadIds) });
    });
  } finally {
    await counter.close();
  }
  return report;
}

/** The report of a file skipped because its content was imported before. */
export function unchangedReport(name: string, format: ImportFormat | null): FileImportReport {
  return { name, format, status: "unchanged", threads: { created: 0, updated: 0, unchanged: 0 }, turnsAdded: 0, threadIds: [], skipped: [], warnings: [] };
}

