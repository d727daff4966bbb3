"use client";

import Link from "next/link";
import type { SourceFolderStatus, SourceFolderState } from "@/lib/domain/sources/sources";
import { formatDateTime, formatInteger, plural } from "@/lib/format";
import { useSourcesStatus, useSyncSources } from "@/lib/queries/hooks";
import { useHydrated } from "@/lib/queries/use-hydrated";
import { folderAgentLabel } from "@/lib/domain/display/source";
import { AgentLocations } from "./agent-locations";

const STATE_LABEL: Record<SourceFolderState, string> = {
  found: "found",
  missing: "missing",
  syncing: "syncing…",
  watching: "watching",
  error: "error",
};

const STATE_STYLE: Record<SourceFolderState, string> = {
  found: "bg-emerald-50 text-emerald-800",
  missing: "bg-zinc-100 text-zinc-700",
  syncing: "bg-indigo-50 text-indigo-800",
  watching: "bg-emerald-50 text-emerald-800",
  error: "bg-red-50 text-red-800",
};

const code = "rounded bg-zinc-100 px-1 font-mono text-xs break-all";

/**
 * The followed folders, each with its state and the last sync's counts and failures, and "Sync
 * now" for those who may sync (everyone with sign-in off, admins with it on).
 */
export function SourcesPanel({ canSync }: Readonly<{ canSync: boolean }>) {
  const { data: status, error, connected } = useSourcesStatus();
  const sync = useSyncSources(connected);
  const hydrated = useHydrated();
  const syncing = status.syncing || sync.isPending;

  if (status.origin === "off") return <NothingFollowed />;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        {canSync && (
          <button
            type="button"
            onClick={() => sync.mutate()}
            disabled={!hydrated || syncing}
            className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {syncing ? "Syncing…" : "Sync now"}
          </button>
        )}
        <p role="status" aria-live="polite" className="text-sm text-zinc-600" data-testid="sources-sync-state">
          {syncing ? "A sync is running; the counts update as files are imported." : "Idle."}
          {!canSync && " An admin syncs the folders; they are followed as files change."}
          {status.heldElsewhere && " The last sync was left to another Threadline instance on this database, which holds the sync lease."}
        </p>
      </div>
      {(sync.error ?? error) && (
        <p role="alert" className="text-sm text-red-700">
          {(sync.error ?? error)?.message}
        </p>
      )}
      {status.folders.length === 0 ? (
        <div className="text-sm text-zinc-600">
          <p>
            None of the agents&apos; folders exists yet; each sync looks for them again. To follow other folders, set{" "}
            <code className={code}>THREADLINE_SOURCES</code>.
          </p>
          <details className="mt-2">
            <summary className="cursor-pointer">Where each agent keeps its sessions</summary>
            <AgentLocations />
          </details>
        </div>
      ) : (
        <ul aria-label="Followed folders" className="space-y-3">
          {status.folders.map((folder) => (
            <FolderCard key={folder.path} folder={folder} />
          ))}
        </ul>
      )}
    </div>
  );
}

function FolderCard({ folder }: Readonly<{ folder: SourceFolderStatus }>) {
  const synced = folder.lastSyncAt !== null;
  return (
    <li className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="source-folder" data-state={folder.state}>
      <div className="flex flex-wrap items-center gap-2">
        {folderAgentLabel(folder.path) && <span className="text-sm font-medium text-zinc-800">{folderAgentLabel(folder.path)}</span>}
        <span className="font-mono text-sm break-all">{folder.path}</span>
        <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_STYLE[folder.state]}`}>{STATE_LABEL[folder.state]}</span>
        {folder.watchMode === "polling" && (
          <span className="rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800" data-testid="source-polling">
            polled
          </span>
        )}
      </div>
      {folder.error && <p className="mt-1 text-sm text-red-700">{folder.error}</p>}
      {folder.watchNote && (
        <p className="mt-1 text-sm text-zinc-600" data-testid="source-watch-note">
          {folder.watchNote}
        </p>
      )}
      {folder.state === "missing" ? (
        <p className="mt-1 text-sm text-zinc-600">The folder does not exist; each sync looks for it again.</p>
      ) : (
        <p className="mt-1 text-sm text-zinc-700" data-testid="source-counts">
          {synced || folder.state === "syncing"
            ? `${filesCounted(folder)}: ${formatInteger(folder.imported)} imported, ${formatInteger(folder.unchanged)} unchanged, ${formatInteger(folder.failed)} failed${folder.skipped > 0 ? `, ${formatInteger(folder.skipped)} skipped` : ""}`
            : "Not synced yet."}
        </p>
      )}
      <p className="mt-1 text-xs text-zinc-500">
        {folder.lastSyncAt ? `Last sync ${formatDateTime(folder.lastSyncAt)}` : "No sync finished yet"}
        {folder.lastChangeAt && ` · last import ${formatDateTime(folder.lastChangeAt)}`}
      </p>
      {folder.failures.length > 0 && (
        <div className="mt-2">
          <h3 className="text-sm font-medium text-red-800">
            {folder.failed > folder.failures.length ? `Failures (first ${folder.failures.length} of ${folder.failed})` : "Failures"}
          </h3>
          <ul aria-label={`Failures in ${folder.path}`} className="mt-1 space-y-1 text-sm">
            {folder.failures.map((failure) => (
              <li key={failure.file} className="rounded bg-red-50 px-2 py-1">
                <span className="font-mono text-xs break-all">{failure.file}</span>
                <span className="block text-red-800">{failure.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {folder.warnings.length > 0 && (
        <div className="mt-2">
          <h3 className="text-sm font-medium text-amber-800">Imported with lines left out</h3>
          <ul aria-label={`Warnings in ${folder.path}`} className="mt-1 space-y-1 text-sm">
            {folder.warnings.map((warning) => (
              <li key={warning.file} className="rounded bg-amber-50 px-2 py-1">
                <span className="font-mono text-xs break-all">{warning.file}</span>
                <span className="block text-amber-900">{warning.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {folder.skippedEntries.length > 0 && <SkippedList folder={folder} />}
    </li>
  );
}

/** What was left unopened on purpose (links out of the folder, pipes and devices): not failures, so not red. */
function SkippedList({ folder }: Readonly<{ folder: SourceFolderStatus }>) {
  return (
    <div className="mt-2">
      <h3 className="text-sm font-medium text-zinc-800">
        {folder.skipped > folder.skippedEntries.length ? `Skipped (first ${folder.skippedEntries.length} of ${folder.skipped})` : "Skipped"}
        <span className="font-normal text-zinc-600"> · never opened</span>
      </h3>
      <ul aria-label={`Skipped in ${folder.path}`} className="mt-1 space-y-1 text-sm">
        {folder.skippedEntries.map((skipped) => (
          <li key={skipped.file} className="rounded bg-zinc-100 px-2 py-1">
            <span className="font-mono text-xs break-all">{skipped.file}</span>
            <span className="block text-zinc-700">{skipped.reason}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function NothingFollowed() {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-sm text-zinc-700" data-testid="sources-empty">
      <p className="font-medium">No folder is followed.</p>
      <p className="mt-2">
        Set <code className={code}>THREADLINE_SOURCES</code> to the folders to follow, separated by <code className={code}>:</code>, and
        restart the server, for example <code className={code}>THREADLINE_SOURCES=~/.claude/projects:~/.codex/sessions npm start</code>.
        Unset, it follows the agents&apos; own folders below where they exist, except on PostgreSQL, where it is off unless set.
      </p>
      <AgentLocations />
      <p className="mt-2">
        Meanwhile,{" "}
        <Link href="/import" className="text-indigo-700 underline">
          import files by hand
        </Link>{" "}
        or run <code className={code}>npm run import -- ~/.claude/projects</code>.
      </p>
    </div>
  );
}

/** "830 of 2,800 files" while a full sync reads the files its walk found; "2,800 files" otherwise. */
function filesCounted(folder: SourceFolderStatus): string {
  const found = folder.filesFound;
  if (folder.state === "syncing" && found !== null)
    return `${formatInteger(folder.filesSeen)} of ${formatInteger(found)} ${found === 1 ? "file" : "files"}`;
  return plural(folder.filesSeen, "file");
}
