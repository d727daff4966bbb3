import type { TurnSecret } from "@/lib/domain/secrets/detect";

// The rows an import writes, shared by the SQLite writer (import-writer.ts) and the PostgreSQL one.

/**
 * The writes of one file's import, in one transaction, straight through the driver (better-sqlite3 or pg).
 *
 * Imports write tens of thousands of turns; through Prisma each statement is compiled by its Wasm
 * query compiler, which cost more than SQLite's own work (a 200 MB session: 3.5 s compiling of
 * 17 s). Here each statement is prepared once and run per row. The rest of the app keeps Prisma.
 */
export type ImportWriter = {
  /** The ids of a thread's stored turns in order from `fromIndex` (0: all), or null when the thread does not exist. */
  storedTurnIds(threadId: string, fromIndex?: number): Promise<string[] | null>;
  /** The stored thread's owner (null: nobody's, the first admin's), for an owned import's check (import-owner.ts). */
  threadOwnerId(threadId: string): Promise<string | null>;
  /** A new thread, with its owner's columns. */
  createThread(row: ThreadWriteRow): Promise<void>;
  /** A stored thread's row again; its owner, visibility and machine stay as they are. */
  updateThread(row: ThreadWriteRow): Promise<void>;
  /** Deletes a thread's turns from `index` on (their counts and search entries go with them). */
  deleteTurnsFrom(threadId: string, index: number): Promise<void>;
  /** Inserts turns (and the findings of secrets they carry) and answers their seqs, in order. */
  insertTurns(rows: readonly TurnInsertRow[]): Promise<number[]>;
  /**
   * Inserts counts, each only while its turn is stored as counted (the same seq and id) and has
   * no count yet under that tokenizer (a reader may have counted it first).
   */
  insertTokenCounts(rows: readonly TokenCountRow[]): Promise<void>;
  recordFile(row: ImportedFileRow): Promise<void>;
  /** Inserts a compaction run, or replaces the one with its id. */
  upsertCompactionRun(row: CompactionRunRow): Promise<void>;
  /** The stored parts (JSON text) of a thread's turns whose parts contain `needle`, in turn order. */
  partsContaining(threadId: string, needle: string): Promise<string[]>;
  /** The id and metadata (JSON text) of each thread whose parent is `parentId`. */
  childThreads(parentId: string): Promise<{ id: string; metadata: string | null }[]>;
  setThreadMetadata(threadId: string, metadata: string): Promise<void>;
};

/** A turn as the import writes it (column names as in the Turn table). */
export type TurnInsertRow = {
  id: string;
  threadId: string;
  index: number;
  role: string;
  content: string;
  /** The content masked for search when it holds a secret (searchableText), else null. */
  searchContent: string | null;
  timestamp: Date;
  files: string;
  images: string;
  toolName: string | null;
  modelProvider: string | null;
  modelName: string | null;
  modelMetadata: string | null;
  parts: string | null;
  tokenEstimate: number;
  /**
   * Not a column: the secrets in its content and parts, found where the turn was prepared (the
   * parse worker), which the writers store as the scan for secrets would (SecretFinding).
   */
  secrets: TurnSecret[];
};

export type ThreadWriteRow = {
  id: string;
  parentThreadId: string | null;
  title: string | null;
  /** The title masked for search when it holds a secret (searchableText), else null. */
  searchTitle: string | null;
  toolName: string;
  source: string;
  project: string | null;
  initialContext: string;
  metadata: string;
  createdAt: Date;
  lastUpdatedAt: Date;
  expiresAt: Date | null;
  turnCount: number;
  tokenEstimate: number;
  modelsUsed: string;
  /** Written when the thread is created only (import-owner.ts). */
  ownerId: string | null;
  visibility: string;
  machine: string | null;
};

/** `estimated`: the content held a run counted in pieces (lib/tokenizers/linear-count.mjs). `turnId`: the turn counted. */
export type TokenCountRow = { turnSeq: number; turnId: string; threadId: string; tokenizer: string; tokens: number; estimated: boolean };

type ImportedFileRow = { sha256: string; name: string; size: number; format: string; importedAt: Date; threadIds: string };

type CompactionRunRow = {
  id: string;
  threadId: string;
  runId: string;
  afterTurnKey: string | null;
  modelProvider: string | null;
  modelName: string | null;
  responses: string;
  sourceSha256: string;
  importedAt: Date;
};
