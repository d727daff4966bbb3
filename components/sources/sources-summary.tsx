"use client";

import Link from "next/link";
import { summarizeSources } from "@/lib/domain/sources/sources-summary";
import { formatInteger, plural } from "@/lib/format";
import { useSourcesStatus } from "@/lib/queries/hooks";

const ACTIVITY: Record<"syncing" | "watching" | "idle", { label: string; style: string }> = {
  syncing: { label: "syncing…", style: "bg-indigo-50 text-indigo-800" },
  watching: { label: "watching", style: "bg-emerald-50 text-emerald-800" },
  idle: { label: "idle", style: "bg-zinc-100 text-zinc-700" },
};

const code = "rounded bg-zinc-100 px-1 font-mono text-xs";

/**
 * The followed folders in one line on the import page, kept up to date as a sync runs (the live
 * event stream, or polling without it): how many, what the last sync saw, and whether a sync runs
 * or the folders are watched. The Sources page has each folder.
 */
export function SourcesSummaryLine() {
  const { data: status, error } = useSourcesStatus();
  const summary = summarizeSources(status);
  const sources = (
    <Link href="/sources" className="text-indigo-700 underline">
      Sources
    </Link>
  );
  return (
    <section
      aria-label="Followed folders"
      className="mb-4 rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm text-zinc-700"
      data-testid="import-sources"
    >
      {summary.kind === "off" && (
        <p>
          No folder is followed: set <code className={code}>THREADLINE_SOURCES</code> and Threadline imports your agents&apos; sessions as
          they are written. See {sources}.
        </p>
      )}
      {summary.kind === "none-found" && (
        <p>None of the agents&apos; default folders exists yet; each sync looks for them again. See {sources}.</p>
      )}
      {summary.kind === "following" && (
        <p role="status" aria-live="polite" className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span>
            Following {plural(summary.folders, "folder")}:{" "}
            <span data-testid="import-sources-counts">
              {formatInteger(summary.filesSeen)}
              {summary.filesFound !== null && ` of ${formatInteger(summary.filesFound)}`}{" "}
              {(summary.filesFound ?? summary.filesSeen) === 1 ? "file" : "files"} seen, {formatInteger(summary.imported)} imported,{" "}
              {formatInteger(summary.failed)} failed
            </span>
            {summary.skipped > 0 && `, ${formatInteger(summary.skipped)} skipped`}
            {summary.missing > 0 && `, ${summary.missing} missing`}
            {summary.errors > 0 && <span className="text-red-700">, {plural(summary.errors, "folder")} in error</span>}
          </span>
          <span
            className={`rounded px-1.5 py-0.5 text-xs font-medium ${ACTIVITY[summary.activity].style}`}
            data-testid="import-sources-activity"
          >
            {ACTIVITY[summary.activity].label}
          </span>
          {summary.heldElsewhere && <span>(another instance syncs this database)</span>}
          <span>Details on {sources}.</span>
        </p>
      )}
      {error && (
        <p role="alert" className="mt-1 text-red-700">
          The status could not be read: {error.message}
        </p>
      )}
    </section>
  );
}
