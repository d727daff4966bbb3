import "server-only";
import { setImmediate } from "node:timers/promises";
import { serverSettings } from "@/lib/env";
import type { ImportFormat, SkippedEntry, ThreadIdentity, ThreadImportResult } from "@/lib/importers/types";
import { db } from "../engine/client";
import { databaseKind } from "../engine/create-client";
import { importedFileRecord } from "./dialect-files";
import { withImportReader } from "./import-writer";

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
export type ImportedFrom = { format: ImportFormat; file: string; key: string; identity?: ThreadIdentity; sha256?: string };

export type SourceFile = { name: string; sha256: string; size: number };

/**
 * The "unchanged" report when a file with exactly this content was imported before and every
 * thread it made still holds what it left there: nothing to do. Null otherwise, and the file
 * imports again: one of its threads was purged, or changed since by another import (an edited
 * file, then this content again), or it is a thread whose identity is its file name and the name
 * is another one, or none (`nameless`: such a file is a new conversation every time).
 */
export async function previousImport(sha256: string, name: string, nameless = false): Promise<FileImportReport | null> {
  // Files are imported one after another, and neither this read nor a small file's import waits
  // for anything: let the event loop in, once a file (a few microseconds).
  await setImmediate();
  const client = await db();
  const record =
    databaseKind(client) === "sqlite"
      ? await withImportReader(serverSettings().databaseUrl, (reader) => importedFileRecord(reader, sha256))
      : await importedFileRecord(client, sha256);
  if (!record) return null;
  const ids = record.threadIds;
  // A file that gave no thread (a compaction run's) is skipped while what it gave is still there.
  if (ids.length === 0 && record.compactionRuns === 0) return null;
  const threads = new Map(record.threads.map((t) => [t.id, t]));
  const threadResults: ThreadImportResult[] = [];
  for (const id of ids) {
    const thread = threads.get(id);
    const from = thread ? importedFromOf(thread.metadata) : null;
    if (!thread || from?.sha256 !== sha256) return null;
    const identity = from.identity ?? "source";
    if (identity === "new" || (identity === "name" && (nameless || record.name !== name))) return null;
    threadResults.push({ id, title: thread.title, change: "unchanged", turnsAdded: 0, turnsRemoved: 0, identity });
  }
  return {
    ...unchangedReport(name, record.format as ImportFormat),
    threads: { created: 0, updated: 0, unchanged: ids.length },
    threadIds: ids,
    threadResults,
  };
}

function importedFromOf(metadata: string | null): ImportedFrom | null {
  if (!metadata) return null;
  const parsed = JSON.parse(metadata) as { importedFrom?: ImportedFrom };
  return parsed.importedFrom ?? null;
}

/** The report of a file skipped because its content was imported before. */
export function unchangedReport(name: string, format: ImportFormat | null): FileImportReport {
  return {
    name,
    format,
    status: "unchanged",
    threads: { created: 0, updated: 0, unchanged: 0 },
    turnsAdded: 0,
    threadIds: [],
    threadResults: [],
    skipped: [],
    warnings: [],
  };
}
