import "server-only";
import { checkThreadOwner, currentImportOwner, newThreadColumns, type ImportOwner } from "./import-owner";
import { searchableText } from "@/lib/domain/secrets/detect";
import { titleFromContent } from "@/lib/domain/threads/title";
import { serverSettings } from "@/lib/env";
import { importedThreadId, stableUuid } from "@/lib/importers/stable-id";
import type {
  ImportedCompactionRun,
  ImportedThread,
  ThreadTurn,
  ImportFormat,
  ParsedSource,
  SkippedEntry,
  ThreadImportResult,
} from "@/lib/importers/types";
import { startBackgroundCounter, type BackgroundCounter } from "@/lib/tokenizers/background-counter";
import { DEFAULT_TOKENIZER_ID } from "@/lib/tokenizers/registry";
import { db } from "../engine/client";
import { bulkRunsActive } from "./import-batch";
import type { ImportWriter, ThreadWriteRow } from "./import-rows";
import { TurnBatches } from "./turn-batches";
import { withImportWriter } from "./import-writer";
import type { FileImportReport, SourceFile } from "./imports";
import { mergeModels, partsFromStored } from "../engine/mappers";
import { threadsWritten } from "../threads/thread-writes";
import { linkedMetadata, prepareTurn, threadMetadata, type PreparedThreadTurn } from "./imported-turn-rows";

/** What a parser knows of a source before its turns: threads without turns, skipped entries, warnings. */
export type SourceOutline = {
  format: ImportFormat;
  threads: Omit<ImportedThread, "turns">[];
  skipped: SkippedEntry[];
  warnings: string[];
  compactionRuns?: ImportedCompactionRun[];
};

/**
 * In a stream, the point after which turns may still change when the source grows (an assistant
 * message that may take more blocks): where each thread stands there is what a later import of
 * the grown source goes on from (StoreResume).
 */
type SettledMark = { settled: true };
/** A turn as parsed, or prepared already where it was parsed (TurnPreparer). */
export type StreamItem = ThreadTurn | PreparedThreadTurn | SettledMark;

/** What a thread's row is made of, summed over the turns taken so far. */
type ThreadTotals = {
  /** Turns taken. */
  index: number;
  tokenEstimate: number;
  models: (string | null)[];
  firstTime: number | null;
  lastTime: number;
  /** The first user turn's text: the title when the source gives none. */
  firstUserText: string | null;
  /** The id of the last turn taken (null before the first). */
  lastId: string | null;
};

/**
 * Where one thread stood at the settled mark of an import, and how many turns it had at the end.
 * `lastId` is checked against what is stored before a later import goes on from here.
 */
export type ThreadCheckpoint = ThreadTotals & { key: string; storedCount: number };

/**
 * A resumed import: `from` is what the last import of the source saved, the stream then holds only
 * the turns from each thread's checkpoint on. `saved` is filled with this import's checkpoint.
 */
export type StoreResume = { from?: ThreadCheckpoint[]; saved?: ThreadCheckpoint[] };

/** What is stored is not what the checkpoint says (another import, a purge): the source must be read whole. */
export class ResumeMismatch extends Error {}

/**
 * Stores a source's turns as they stream in (a 200 MB session is never in memory at once), in one
 * transaction: new threads are created; a thread imported before keeps the turns that are
 * unchanged and gets the rest (appended lines add turns; a conversation whose earlier turns
 * differ now, after a rewind or an edit say, is rewritten from the first difference; one that is
 * shorter now is truncated). Thread ids come from the source's keys, turn ids from their keys and
 * everything stored of them, so nothing is duplicated and no stale turn is kept. Turns are written
 * in batches with their o200k counts, counted on another core meanwhile; in a bulk run (a
 * folder's full sync, the import CLI) without them, counted once the run has ended
 * (lib/db/threads/count-backlog.ts). The file's hash is recorded, and each thread notes it, so an
 * unchanged file is skipped next time (previousImport).
 */
export async function storeTurnStream(
  outline: SourceOutline,
  turns: AsyncIterable<StreamItem>,
  file: SourceFile,
  resume?: StoreResume,
): Promise<FileImportReport> {
  await db(); // migrated, connection prepared
  const databaseUrl = serverSettings().databaseUrl;
  const counter = bulkRunsActive() ? null : startBackgroundCounter(DEFAULT_TOKENIZER_ID);
  const owner = await currentImportOwner();
  try {
    return await withImportWriter(
      databaseUrl,
      async (writer, end) => {
        const run = new TurnStreamImport(outline, file, writer, counter, owner);
        if (resume?.from) await run.resumeFrom(resume.from);
        for await (const item of turns) {
          if ("settled" in item) run.settle();
          else await run.add(item);
        }
        const report = await run.finish();
        if (resume) resume.saved = run.checkpoint();
        end.afterCommit(() =>
          threadsWritten(report.threadResults.filter((thread) => thread.change !== "unchanged").map((thread) => thread.id)),
        );
        return report;
      },
      file.size,
    );
  } finally {
    await counter?.close();
  }
}

/**
 * Stores what a parser produced from one file, in one transaction. See storeTurnStream.
 * Threads that got no turns are stored only when they are no fork or sub-agent.
 */
export async function storeParsedSource(parsed: ParsedSource, file: SourceFile): Promise<FileImportReport> {
  async function* turns(): AsyncGenerator<ThreadTurn> {
    for (const [threadIndex, thread] of parsed.threads.entries()) for (const turn of thread.turns) yield { threadIndex, turn };
  }
  const { format, threads, skipped, warnings, compactionRuns } = parsed;
  return storeTurnStream({ format, threads, skipped, warnings, ...(compactionRuns ? { compactionRuns } : {}) }, turns(), file);
}

/** Per-thread state while its turns stream in. */
type ThreadProgress = ThreadTotals & {
  id: string;
  header: Omit<ImportedThread, "turns">;
  /** Ids of the turns stored before this import, in order from `storedFrom` (empty for a new thread). */
  stored: string[];
  storedFrom: number;
  existed: boolean;
  /** The first index whose stored turn was replaced, or null while the source matches what is stored. */
  divergedAt: number | null;
  added: number;
};

/** One file's import inside its transaction: each thread's progress, and the turn batches. */
class TurnStreamImport {
  private readonly progress = new Map<number, ThreadProgress>();
  private readonly idOf: Map<string, string>;
  private readonly batches: TurnBatches;
  private readonly now = new Date();
  /** Per thread id: the tool calls whose results name a sub-agent (agentId -> call id), from this file's turns. */
  private readonly agentCalls = new Map<string, Map<string, string>>();
  /** Each thread as it stood at the settled mark. */
  private settled: ThreadCheckpoint[] = [];

  constructor(
    private readonly outline: SourceOutline,
    private readonly file: SourceFile,
    private readonly writer: ImportWriter,
    counter: BackgroundCounter | null,
    /** Whose the import is: the threads it creates are theirs, and it may change only theirs. */
    private readonly owner: ImportOwner,
  ) {
    this.idOf = new Map(outline.threads.map((t) => [t.key, importedThreadId(outline.format, t.key)]));
    this.batches = new TurnBatches(writer, counter);
  }

  /** Keeps a turn stored before as it is, or writes it (rewriting the thread from the first difference). */
  async add(item: ThreadTurn | PreparedThreadTurn): Promise<void> {
    const state = await this.threadAt(item.threadIndex);
    const { row, userText, agentCalls } =
      "prepared" in item ? item.prepared : prepareTurn(item.turn, state.id, state, state.header.createdAt, this.now);
    // Prepared elsewhere (the parse worker) from the same positions: a row out of place is a bug.
    if (row.threadId !== state.id || row.index !== state.index) throw new Error(`turn ${row.index} of ${row.threadId} out of place`);
    if (state.firstTime === null) state.firstTime = row.timestamp.getTime();
    state.lastTime = Math.max(state.lastTime, row.timestamp.getTime());
    state.tokenEstimate += row.tokenEstimate;
    state.models.push(row.modelName);
    if (state.firstUserText === null) state.firstUserText = userText;
    this.noteAgentCalls(state.id, agentCalls);
    state.lastId = row.id;
    const index = state.index++;
    if (state.divergedAt === null && index < storedCount(state)) {
      if (state.stored[index - state.storedFrom] === row.id) return; // stored before, unchanged
      // The source changed before its end (a rewind, an edited export): rewrite from here.
      state.divergedAt = index;
      await this.batches.settle();
      await this.writer.deleteTurnsFrom(state.id, index);
    }
    if (!state.existed && state.added === 0) await this.writer.createThread(this.threadRow(state));
    await this.batches.add(row);
    state.added += 1;
  }

  /** Notes where every thread stands: the settled mark. */
  settle(): void {
    this.settled = [...this.progress.values()].map((state) => ({
      key: state.header.key,
      index: state.index,
      tokenEstimate: state.tokenEstimate,
      models: [...state.models],
      firstTime: state.firstTime,
      lastTime: state.lastTime,
      firstUserText: state.firstUserText,
      lastId: state.lastId,
      storedCount: 0,
    }));
  }

  /** The settled mark's checkpoint, with each thread's turns at the end. */
  checkpoint(): ThreadCheckpoint[] {
    const final = new Map([...this.progress.values()].map((state) => [state.header.key, state.index]));
    return this.settled.map((thread) => ({ ...thread, storedCount: final.get(thread.key) ?? thread.index }));
  }

  /**
   * Takes up each thread where the last import's checkpoint left it, after checking that what is
   * stored is what that import left (the turn before the checkpoint and the count).
   */
  async resumeFrom(checkpoint: readonly ThreadCheckpoint[]): Promise<void> {
    for (const thread of checkpoint) {
      const threadIndex = this.outline.threads.findIndex((header) => header.key === thread.key);
      if (threadIndex === -1) throw new ResumeMismatch(`thread ${thread.key} is not in the source any more`);
      const id = this.idOf.get(thread.key)!;
      const from = Math.max(0, thread.index - 1);
      const ids = await this.writer.storedTurnIds(id, from);
      if (ids === null || from + ids.length !== thread.storedCount || (thread.index > 0 && ids[0] !== thread.lastId)) {
        throw new ResumeMismatch(`thread ${thread.key} is not stored as the last import left it`);
      }
      this.progress.set(threadIndex, {
        id,
        header: this.outline.threads[threadIndex]!,
        stored: ids.slice(thread.index - from),
        storedFrom: thread.index,
        existed: true,
        index: thread.index,
        divergedAt: null,
        added: 0,
        tokenEstimate: thread.tokenEstimate,
        models: [...thread.models],
        firstTime: thread.firstTime,
        lastTime: thread.lastTime,
        firstUserText: thread.firstUserText,
        lastId: thread.lastId,
      });
    }
  }

  /** Writes what is left, brings every thread's row up to date, records the file; answers the report. */
  async finish(): Promise<FileImportReport> {
    await this.batches.settle();
    // Threads with no turns at all: a main thread is still stored (it says the file held nothing
    // to show), a fork or sub-agent without turns is not.
    for (const [threadIndex, header] of this.outline.threads.entries()) {
      if (!this.progress.has(threadIndex) && header.relation == null) await this.threadAt(threadIndex);
    }
    await this.linkSubagents();
    await this.storeCompactionRuns();
    const { format, skipped, warnings } = this.outline;
    const report: FileImportReport = {
      name: this.file.name,
      format,
      status: "imported",
      threads: { created: 0, updated: 0, unchanged: 0 },
      turnsAdded: 0,
      threadIds: [],
      threadResults: [],
      skipped,
      warnings: [...warnings],
    };
    for (const [, state] of [...this.progress.entries()].sort((a, b) => a[0] - b[0])) {
      const result = await this.finishThread(state, report.warnings);
      report.threadIds.push(state.id);
      report.threadResults.push(result);
      if (result.change === "created") report.threads.created += 1;
      else if (result.change === "unchanged") report.threads.unchanged += 1;
      else report.threads.updated += 1;
      report.turnsAdded += state.added;
    }
    if (report.threadResults.length > 0 && report.threadResults.every((t) => t.change === "unchanged")) report.status = "unchanged";
    const { sha256, name, size } = this.file;
    await this.writer.recordFile({ sha256, name, size, format, importedAt: this.now, threadIds: JSON.stringify(report.threadIds) });
    return report;
  }

  private noteAgentCalls(threadId: string, agentCalls: readonly [string, string][]): void {
    for (const [agentId, toolCallId] of agentCalls) {
      const calls = this.agentCalls.get(threadId) ?? new Map<string, string>();
      if (!calls.has(agentId)) calls.set(agentId, toolCallId);
      this.agentCalls.set(threadId, calls);
    }
  }

  /**
   * Ties each sub-agent to the tool call that started it, whichever file arrives first: a
   * sub-agent of this file looks for the call in its parent (this file's turns, else the stored
   * ones); a parent in this file names the call to its sub-agents stored before.
   */
  private async linkSubagents(): Promise<void> {
    const inThisFile = new Set([...this.progress.values()].map((state) => state.id));
    for (const state of this.progress.values()) {
      const relation = state.header.relation;
      if (relation?.kind !== "subagent" || relation.toolCallId || !relation.agentId || !state.header.parentKey) continue;
      const parentId = this.threadIdOf(state.header.parentKey);
      const callId = this.agentCalls.get(parentId)?.get(relation.agentId) ?? (await this.storedAgentCalls(parentId)).get(relation.agentId);
      if (callId) state.header = { ...state.header, relation: { ...relation, toolCallId: callId } };
    }
    for (const [parentId, calls] of this.agentCalls) {
      for (const child of await this.writer.childThreads(parentId)) {
        if (inThisFile.has(child.id)) continue;
        const metadata = linkedMetadata(child.metadata, calls);
        if (metadata) await this.writer.setThreadMetadata(child.id, metadata);
      }
    }
  }

  /** The sub-agent calls in a stored thread's tool results. */
  private async storedAgentCalls(threadId: string): Promise<Map<string, string>> {
    const calls = new Map<string, string>();
    for (const parts of await this.writer.partsContaining(threadId, `"agentId"`)) {
      for (const part of partsFromStored(parts, "") ?? []) {
        if (part.type === "tool_result" && typeof part.agentId === "string" && !calls.has(part.agentId))
          calls.set(part.agentId, part.toolCallId);
      }
    }
    return calls;
  }

  private async storeCompactionRuns(): Promise<void> {
    for (const run of this.outline.compactionRuns ?? []) {
      const threadId = this.threadIdOf(run.threadKey);
      await this.writer.upsertCompactionRun({
        id: stableUuid("threadline:compaction-run", `${threadId}:${run.runId}`),
        threadId,
        runId: run.runId,
        afterTurnKey: run.afterTurnKey,
        modelProvider: run.modelProvider,
        modelName: run.modelName,
        responses: JSON.stringify(run.responses),
        sourceSha256: this.file.sha256,
        importedAt: this.now,
      });
    }
  }

  private threadIdOf(key: string): string {
    return this.idOf.get(key) ?? importedThreadId(this.outline.format, key);
  }

  /** Truncates a thread that is shorter now and writes its row; answers what the import did to it. */
  private async finishThread(state: ThreadProgress, warnings: string[]): Promise<ThreadImportResult> {
    const shorter = state.divergedAt === null && state.index < storedCount(state);
    if (shorter) await this.writer.deleteTurnsFrom(state.id, state.index);
    if (state.divergedAt !== null || shorter) {
      warnings.push(
        `${state.header.title ?? state.header.key}: turns from ${(state.divergedAt ?? state.index) + 1} on differ from the stored ones and were replaced`,
      );
    }
    const data = this.threadRow(state);
    if (data.title === null) {
      data.title = titleFromContent(state.firstUserText ?? "") ?? null;
      data.searchTitle = searchableText(data.title);
    }
    // Unchanged threads are written too: their metadata names the content they now hold.
    if (state.existed || state.added > 0) await this.writer.updateThread(data);
    else await this.writer.createThread(data);
    return threadResult(state, data.title);
  }

  /** The thread's progress, loading what is stored of it the first time it is seen. */
  private async threadAt(threadIndex: number): Promise<ThreadProgress> {
    const known = this.progress.get(threadIndex);
    if (known) return known;
    const header = this.outline.threads[threadIndex];
    if (!header) throw new Error(`turn for thread ${threadIndex}, which the outline does not have`);
    const id = this.idOf.get(header.key)!;
    const storedIds = await this.writer.storedTurnIds(id);
    if (storedIds !== null && this.owner.ownerId !== null) checkThreadOwner(this.owner, id, await this.writer.threadOwnerId(id));
    const state: ThreadProgress = {
      id,
      header,
      stored: storedIds ?? [],
      storedFrom: 0,
      existed: storedIds !== null,
      index: 0,
      divergedAt: null,
      added: 0,
      tokenEstimate: 0,
      models: [],
      firstTime: null,
      lastTime: 0,
      firstUserText: null,
      lastId: null,
    };
    this.progress.set(threadIndex, state);
    return state;
  }

  private threadRow(state: ThreadProgress): ThreadWriteRow {
    const { header } = state;
    const { format } = this.outline;
    const parentThreadId = header.parentKey ? this.threadIdOf(header.parentKey) : null;
    const createdAt = header.createdAt ? new Date(header.createdAt) : new Date(state.firstTime ?? this.now.getTime());
    const lastUpdatedAt = new Date(
      Math.max(header.lastUpdatedAt ? Date.parse(header.lastUpdatedAt) || 0 : 0, state.lastTime, createdAt.getTime()),
    );
    const title = header.title?.trim() ? header.title.trim().slice(0, 500) : null;
    return {
      id: state.id,
      parentThreadId,
      title,
      searchTitle: searchableText(title),
      toolName: header.toolName,
      source: `import:${format}`,
      project: header.project ?? null,
      initialContext: JSON.stringify(header.initialContext ?? {}),
      metadata: JSON.stringify(threadMetadata(header, format, this.file)),
      createdAt,
      lastUpdatedAt,
      expiresAt: null,
      turnCount: state.index,
      tokenEstimate: state.tokenEstimate,
      modelsUsed: JSON.stringify(mergeModels([], state.models)),
      ...newThreadColumns(this.owner, header.project ?? null),
    };
  }
}

/** How many turns the thread had before this import. */
function storedCount(state: ThreadProgress): number {
  return state.storedFrom + state.stored.length;
}

/** What the import did to a thread, from its progress once every turn is in. */
function threadResult(state: ThreadProgress, title: string | null): ThreadImportResult {
  const base = { id: state.id, title, turnsAdded: state.added, turnsRemoved: 0, identity: state.header.identity ?? "source" };
  if (!state.existed) return { ...base, change: "created" };
  const stored = storedCount(state);
  if (state.divergedAt !== null)
    return { ...base, change: "rewritten", fromTurn: state.divergedAt + 1, turnsRemoved: stored - state.divergedAt };
  if (state.index < stored) return { ...base, change: "truncated", fromTurn: state.index + 1, turnsRemoved: stored - state.index };
  return { ...base, change: state.added > 0 ? "appended" : "unchanged" };
}
