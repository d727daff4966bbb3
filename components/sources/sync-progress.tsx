"use client";

import Link from "next/link";
import { summarizeSources } from "@/lib/domain/sources/sources-summary";
import { formatInteger } from "@/lib/format";
import { useSourcesStatus } from "@/lib/queries/hooks";

/**
 * Above the thread list while a sync of the followed folders imports something (a first start
 * over thousands of sessions, most of all): how far it is, so the list growing meanwhile is
 * explained. Hidden otherwise, including a restart's sync that finds nothing changed.
 */
export function SyncProgress() {
  const { data: status } = useSourcesStatus();
  const summary = summarizeSources(status);
  if (summary.kind !== "following" || summary.activity !== "syncing" || summary.imported === 0 || summary.filesFound === null) return null;
  return (
    <p
      role="status"
      aria-live="polite"
      className="mb-4 rounded border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-900"
      data-testid="sync-progress"
    >
      Importing your agents&apos; sessions, newest first: {formatInteger(summary.filesSeen)} of {formatInteger(summary.filesFound)} files.
      Those imported can be opened and searched already.{" "}
      <Link href="/sources" className="text-indigo-800 underline">
        Sources
      </Link>
    </p>
  );
}
