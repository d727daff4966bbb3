"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { FORMAT_LABELS, isTranscriptPath, type ImportFormat, type ThreadImportResult } from "@/lib/importers/types";
import { plural } from "@/lib/format";
import { ApiError, apiFetch } from "@/lib/queries/api-client";
import { useHydrated } from "@/lib/queries/use-hydrated";

/** A file to upload and the name the importer sees: its path inside the folder chosen. */
type Upload = { file: File; name: string };

/** Makes a file input pick a whole folder (every browser we support reads webkitdirectory). */
const FOLDER_PICKER = { webkitdirectory: "", directory: "" };

type Skipped = { line?: number; path?: string; reason: string };

type FileResult =
  | { name: string; status: "waiting" | "importing" }
  | {
      name: string;
      status: "imported" | "unchanged";
      format: ImportFormat | null;
      threadIds: string[];
      threadsCreated: number;
      threadsUpdated: number;
      turnsAdded: number;
      threadResults: ThreadImportResult[];
      skipped: Skipped[];
      warnings: string[];
    }
  | { name: string; status: "failed"; message: string; details: { field: string; message: string }[] };

/** What POST /api/import answers: a file's import report, or (a Threadline export) the threads it made. */
type ImportAnswer =
  | {
      status: "imported" | "unchanged";
      format: ImportFormat | null;
      threadIds: string[];
      threads: { created: number; updated: number };
      turnsAdded: number;
      threadResults?: ThreadImportResult[];
      skipped: Skipped[];
      warnings: string[];
    }
  | { threadIds: string[]; turnCount: number; warnings?: string[] };

const SHOWN_SKIPPED = 20;

/**
 * Uploads the chosen files (or every transcript in a chosen or dropped folder) to POST
 * /api/import one at a time and reports on each: one bad file never stops the others.
 */
export function ImportForm() {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const [asCopies, setAsCopies] = useState(false);
  const [results, setResults] = useState<FileResult[]>([]);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [ignored, setIgnored] = useState(0);

  const importUploads = async (uploads: Upload[], ignoredCount = 0) => {
    setIgnored(ignoredCount);
    if (uploads.length === 0) {
      setResults([]);
      return;
    }
    setBusy(true);
    setResults(uploads.map((u) => ({ name: u.name, status: "waiting" })));
    for (const [i, upload] of uploads.entries()) {
      setResults((all) => all.map((r, j) => (j === i ? { name: upload.name, status: "importing" } : r)));
      const result = await importOne(upload, asCopies);
      setResults((all) => all.map((r, j) => (j === i ? result : r)));
    }
    setBusy(false);
    for (const input of [filesInput.current, folderInput.current]) if (input) input.value = "";
  };

  /** Files picked one by one are imported whatever their name; a folder's are filtered. */
  const fromFolder = (files: File[]) => {
    const named = files.map((file) => ({ file, name: file.webkitRelativePath || file.name }));
    const kept = named.filter((u) => isTranscriptPath(u.name)).sort((a, b) => a.name.localeCompare(b.name));
    void importUploads(kept, named.length - kept.length);
  };

  const done = results.filter((r) => r.status !== "waiting" && r.status !== "importing");
  const count = (status: FileResult["status"]) => results.filter((r) => r.status === status).length;
  const turnsAdded = done.reduce((sum, r) => sum + ("turnsAdded" in r ? r.turnsAdded : 0), 0);

  return (
    <div className="space-y-4">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (busy) return;
          void droppedUploads(e.dataTransfer).then(({ uploads, ignoredCount }) => importUploads(uploads, ignoredCount));
        }}
        data-testid="drop-zone"
        className={`rounded-lg border-2 border-dashed p-6 ${dragging ? "border-indigo-500 bg-indigo-50" : "border-zinc-300 bg-white"}`}
      >
        <p className="text-center font-medium">Drop transcript files or folders here</p>
        <div className="mt-4 flex flex-wrap justify-center gap-4 text-sm">
          <label className="flex flex-col items-center gap-1">
            <span className="font-medium">Files</span>
            <input
              ref={filesInput}
              type="file"
              accept=".json,.jsonl,.md,.db,.vscdb,application/json"
              multiple
              disabled={busy || !hydrated}
              onChange={(e) => void importUploads([...(e.target.files ?? [])].map((file) => ({ file, name: file.name })))}
              className="block max-w-full text-sm"
              aria-label="Transcript files to import"
            />
          </label>
          <label className="flex flex-col items-center gap-1">
            <span className="font-medium">A whole folder</span>
            <input
              ref={folderInput}
              // React's types do not name these attributes; spread, they are in the server's HTML too, so the
              // input picks folders from its first paint.
              {...FOLDER_PICKER}
              type="file"
              multiple
              disabled={busy || !hydrated}
              onChange={(e) => fromFolder([...(e.target.files ?? [])])}
              className="block max-w-full text-sm"
              aria-label="Folder of transcripts to import"
            />
          </label>
        </div>
        <p className="mt-3 text-center text-xs text-zinc-500">
          From a folder, every .json and .jsonl file is imported (index and settings files are left out), with Aider&apos;s
          .aider.chat.history.md and the agents&apos; databases (opencode.db, kilo.db, crush.db, Goose&apos;s sessions.db, Cursor&apos;s
          state.vscdb). Keep the folder layout: Claude Code sub-agent files are linked to their session by path.
        </p>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={asCopies} onChange={(e) => setAsCopies(e.target.checked)} />
        Threadline exports: import as copies (new ids) when a thread already exists
      </label>

      {results.length > 0 && (
        <p className="text-sm text-zinc-700" aria-live="polite" data-testid="import-summary">
          {busy ? `Importing ${done.length + 1} of ${results.length}…` : `${plural(results.length, "file")}:`} {count("imported")} imported,{" "}
          {count("unchanged")} unchanged, {count("failed")} failed; {plural(turnsAdded, "turn")} added
          {ignored > 0 ? `; ${plural(ignored, "other file")} in the folder left out` : ""}
        </p>
      )}
      {results.length === 0 && ignored > 0 && (
        <p role="alert" className="rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          No transcripts in that folder ({plural(ignored, "other file")}).
        </p>
      )}

      {results.length > 0 && (
        <ul className="space-y-2" aria-label="Import results">
          {results.map((result, i) => (
            <li key={`${result.name}-${i}`} className="rounded border border-zinc-200 bg-white p-3 text-sm" data-status={result.status}>
              <p className="font-mono text-xs break-all text-zinc-800">{result.name}</p>
              {result.status === "waiting" && <p className="text-zinc-500">Waiting</p>}
              {result.status === "importing" && <p className="text-zinc-500">Importing…</p>}
              {(result.status === "imported" || result.status === "unchanged") && <Report result={result} />}
              {result.status === "failed" && (
                <div role="alert" className="text-red-800">
                  <p>Not imported: {result.message}</p>
                  {result.details.length > 1 && (
                    <ul className="mt-1 list-disc pl-6">
                      {result.details.slice(0, 20).map((d) => (
                        <li key={`${d.field}:${d.message}`}>
                          <code>{d.field}</code>: {d.message}
                        </li>
                      ))}
                      {result.details.length > 20 && <li>…and {result.details.length - 20} more</li>}
                    </ul>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Report({ result }: { result: Extract<FileResult, { status: "imported" | "unchanged" }> }) {
  if (result.status === "unchanged") {
    return (
      <div className="text-zinc-600">
        <p>Unchanged since it was last imported: nothing to do.</p>
        <ThreadLinks ids={result.threadIds} />
      </div>
    );
  }
  const threads = [
    result.threadsCreated > 0 ? `${plural(result.threadsCreated, "new thread")}` : "",
    result.threadsUpdated > 0 ? `${plural(result.threadsUpdated, "updated thread")}` : "",
  ].filter(Boolean);
  return (
    <div className="text-emerald-800">
      <p>
        {result.format ? `${FORMAT_LABELS[result.format]}: ` : ""}
        {threads.length > 0 ? threads.join(", ") : "no thread changed"}, {plural(result.turnsAdded, "turn")} added
      </p>
      <ThreadLinks ids={result.threadIds} />
      <ThreadChanges results={result.threadResults} />
      {result.skipped.length > 0 && (
        <details className="mt-1 text-amber-900">
          <summary className="cursor-pointer">
            {result.skipped.length} {result.skipped.length === 1 ? "entry" : "entries"} skipped
          </summary>
          <ul className="mt-1 list-disc pl-6">
            {result.skipped.slice(0, SHOWN_SKIPPED).map((s, i) => (
              <li key={i}>
                {s.line !== undefined ? `line ${s.line}` : (s.path ?? "entry")}: {s.reason}
              </li>
            ))}
            {result.skipped.length > SHOWN_SKIPPED && <li>…and {result.skipped.length - SHOWN_SKIPPED} more</li>}
          </ul>
        </details>
      )}
      {result.warnings.map((w) => (
        <p key={w} className="text-amber-800">
          Warning: {w}
        </p>
      ))}
    </div>
  );
}

/** Thread by thread, in plain words: what changed, and for formats without ids where the identity came from. */
function ThreadChanges({ results }: { results: ThreadImportResult[] }) {
  const changed = results.filter((r) => r.change !== "unchanged" || r.identity !== "source");
  if (changed.length === 0) return null;
  return (
    <ul className="mt-1 list-disc pl-6 text-zinc-700" aria-label="Thread changes">
      {changed.slice(0, 50).map((r) => (
        <li key={r.id}>
          {r.title ? `“${r.title}”` : "Thread"}: {changeText(r)}
          {r.identity === "new"
            ? " (a new conversation: imported without a name)"
            : r.identity === "name"
              ? " (identified by its file name)"
              : ""}
        </li>
      ))}
    </ul>
  );
}

function changeText(r: ThreadImportResult): string {
  switch (r.change) {
    case "created":
      return `new, ${plural(r.turnsAdded, "turn")}`;
    case "appended":
      return `${plural(r.turnsAdded, "turn")} appended`;
    case "rewritten":
      return `rewritten from turn ${r.fromTurn} (${plural(r.turnsRemoved, "turn")} replaced by ${r.turnsAdded})`;
    case "truncated":
      return `cut to ${(r.fromTurn ?? 1) - 1} turns (${plural(r.turnsRemoved, "turn")} removed)`;
    case "unchanged":
      return "unchanged";
  }
}

function ThreadLinks({ ids }: { ids: string[] }) {
  if (ids.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1">
      {ids.slice(0, 50).map((id, i) => (
        <li key={id}>
          <Link href={`/threads/${id}`} className="text-indigo-700 underline">
            {ids.length === 1 ? "Open thread" : `Thread ${i + 1}`}
          </Link>
        </li>
      ))}
      {ids.length > 50 && <li className="text-zinc-600">…and {ids.length - 50} more</li>}
    </ul>
  );
}

async function importOne({ file, name }: Upload, asCopies: boolean): Promise<FileResult> {
  try {
    const params = new URLSearchParams({ name });
    if (asCopies) params.set("mode", "copy");
    // The file itself is the body: the browser streams it, the server spools it to disk.
    const body = await apiFetch<ImportAnswer | null>(`/api/import?${params}`, { raw: file, fallback: "Upload failed" });
    if (!body) throw new Error("Upload failed: the server's answer was not JSON");
    if ("status" in body) {
      return {
        name,
        status: body.status,
        format: body.format,
        threadIds: body.threadIds,
        threadsCreated: body.threads.created,
        threadsUpdated: body.threads.updated,
        turnsAdded: body.turnsAdded,
        threadResults: body.threadResults ?? [],
        skipped: body.skipped,
        warnings: body.warnings,
      };
    }
    // A Threadline export: {threadIds, turnCount, warnings}.
    return {
      name,
      status: "imported",
      format: "threadline",
      threadIds: body.threadIds,
      threadsCreated: body.threadIds.length,
      threadsUpdated: 0,
      turnsAdded: body.turnCount,
      threadResults: [],
      skipped: [],
      warnings: body.warnings ?? [],
    };
  } catch (error) {
    const details = error instanceof ApiError && Array.isArray(error.details) ? error.details : [];
    return { name, status: "failed", message: error instanceof Error ? error.message : "Upload failed", details };
  }
}

/** Files and folders dropped on the page; folders are walked, their files filtered like a chosen folder's. */
async function droppedUploads(data: DataTransfer): Promise<{ uploads: Upload[]; ignoredCount: number }> {
  const entries = [...data.items].map((item) => item.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => Boolean(e));
  if (entries.length === 0) return { uploads: [...data.files].map((file) => ({ file, name: file.name })), ignoredCount: 0 };
  const uploads: Upload[] = [];
  let ignoredCount = 0;
  const visit = async (entry: FileSystemEntry, inFolder: boolean): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      const name = entry.fullPath.replace(/^\//, "");
      if (!inFolder || isTranscriptPath(name)) uploads.push({ file, name });
      else ignoredCount += 1;
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await visit(child, true);
    }
  };
  for (const entry of entries) await visit(entry, false);
  uploads.sort((a, b) => a.name.localeCompare(b.name));
  return { uploads, ignoredCount };
}
