"use client";

import Link from "next/link";
import { useRef, useState } from "react";

type FileResult =
  | { name: string; status: "pending" }
  | { name: string; status: "imported"; threadIds: string[]; turnCount: number; warnings: string[] }
  | { name: string; status: "failed"; message: string; details: { field: string; message: string }[] };

/** Uploads each chosen file to POST /api/import in turn and reports per file. */
export function ImportForm() {
  const input = useRef<HTMLInputElement>(null);
  const [asCopies, setAsCopies] = useState(false);
  const [results, setResults] = useState<FileResult[]>([]);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);

  const importFiles = async (files: File[]) => {
    if (files.length === 0) return;
    setBusy(true);
    setResults(files.map((f) => ({ name: f.name, status: "pending" })));
    for (const [i, file] of files.entries()) {
      const result = await importOne(file, asCopies);
      setResults((all) => all.map((r, j) => (j === i ? result : r)));
    }
    setBusy(false);
    if (input.current) input.current.value = "";
  };

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
          void importFiles([...e.dataTransfer.files]);
        }}
        className={`rounded-lg border-2 border-dashed p-6 text-center ${dragging ? "border-indigo-500 bg-indigo-50" : "border-zinc-300 bg-white"}`}
      >
        <label className="block cursor-pointer">
          <span className="block font-medium">Choose JSON files</span>
          <span className="block text-sm text-zinc-500">or drop them here</span>
          <input
            ref={input}
            type="file"
            accept=".json,application/json"
            multiple
            disabled={busy}
            onChange={(e) => void importFiles([...(e.target.files ?? [])])}
            className="mx-auto mt-3 block text-sm"
            aria-label="JSON files to import"
          />
        </label>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={asCopies} onChange={(e) => setAsCopies(e.target.checked)} />
        Import as copies (new ids) when a thread already exists
      </label>

      {results.length > 0 && (
        <ul className="space-y-2" aria-label="Import results" aria-live="polite">
          {results.map((result, i) => (
            <li key={`${result.name}-${i}`} className="rounded border border-zinc-200 bg-white p-3 text-sm">
              <p className="font-medium">{result.name}</p>
              {result.status === "pending" && <p className="text-zinc-500">Importing…</p>}
              {result.status === "imported" && (
                <div className="text-emerald-800">
                  <p>
                    Imported {result.threadIds.length} thread{result.threadIds.length === 1 ? "" : "s"} with {result.turnCount} turns:
                  </p>
                  <ul className="list-disc pl-6">
                    {result.threadIds.map((id) => (
                      <li key={id}>
                        <Link href={`/threads/${id}`} className="font-mono text-xs text-indigo-700 underline">
                          {id}
                        </Link>
                      </li>
                    ))}
                  </ul>
                  {result.warnings.map((w) => (
                    <p key={w} className="text-amber-800">
                      {w}
                    </p>
                  ))}
                </div>
              )}
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

async function importOne(file: File, asCopies: boolean): Promise<FileResult> {
  try {
    const response = await fetch(`/api/import${asCopies ? "?mode=copy" : ""}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await file.text(),
    });
    const body = await response.json().catch(() => null);
    if (response.ok) return { name: file.name, status: "imported", threadIds: body.threadIds, turnCount: body.turnCount, warnings: body.warnings ?? [] };
    const details = Array.isArray(body?.error?.details) ? body.error.details : [];
    return { name: file.name, status: "failed", message: body?.error?.message ?? `HTTP ${response.status}`, details };
  } catch (error) {
    return { name: file.name, status: "failed", message: error instanceof Error ? error.message : "Upload failed", details: [] };
  }
}
