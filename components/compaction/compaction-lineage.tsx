import Link from "next/link";
import type { CompactionLinks, CompactionRecord } from "@/lib/domain/compaction/records";
import { displayTitle } from "@/lib/domain/threads/title";
import { formatDateTime, formatInteger } from "@/lib/format";
import { UndoCompactionButton } from "./undo-compaction-button";

const STRATEGY_LABELS: Record<string, string> = {
  full: "full compact",
  window: "sliding window",
  range: "range",
  "trim-tool-output": "tool output trimmed",
};

/** How a compaction was made, in a few words: "sliding window, extractive · 12,345 → 2,345 tokens". */
export function describeCompaction(c: CompactionRecord): string {
  const summarizer = c.summarizer === "llm" ? `LLM ${c.summarizerModel ?? ""}`.trim() : c.summarizer === "none" ? null : c.summarizer;
  const edited = c.summaryEdited ? ", summary edited" : "";
  return `${STRATEGY_LABELS[c.strategy] ?? c.strategy}${summarizer ? `, ${summarizer}` : ""}${edited} · ${formatInteger(c.tokensBefore)} → ${formatInteger(c.tokensAfter)} tokens`;
}

/** A thread's compaction lineage both ways: what it was compacted from (with undo), and its revisions. */
export function CompactionLineage({ links, undoWarning }: { links: CompactionLinks; undoWarning: string | null }) {
  const { compactedFrom, revisions } = links;
  if (!compactedFrom && revisions.length === 0) return null;
  return (
    <>
      {compactedFrom && (
        <div className="flex min-w-0 flex-wrap items-center gap-2 sm:col-span-2 lg:col-span-3" data-testid="compacted-from">
          <dt className="shrink-0 text-zinc-500">Compacted from</dt>
          <dd className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
            {compactedFrom.originalExists ? (
              <Link href={`/threads/${compactedFrom.originalThreadId}`} className="text-indigo-700 underline">
                {displayTitle(compactedFrom.originalTitle)}
              </Link>
            ) : (
              <span className="text-zinc-500">the original (purged since)</span>
            )}
            <span className="text-zinc-600">
              {describeCompaction(compactedFrom)},{" "}
              {compactedFrom.replaced.length > 0
                ? `turns #${compactedFrom.replaced[0]! + 1}-#${compactedFrom.replaced.at(-1)! + 1} summarised`
                : `${compactedFrom.trimmed.length} outputs trimmed`}
              , <time dateTime={compactedFrom.createdAt}>{formatDateTime(compactedFrom.createdAt)}</time>
            </span>
            {compactedFrom.originalExists && (
              <UndoCompactionButton revisionThreadId={compactedFrom.revisionThreadId} warning={undoWarning} />
            )}
          </dd>
        </div>
      )}
      {revisions.length > 0 && (
        <div className="flex min-w-0 gap-2 sm:col-span-2 lg:col-span-3" data-testid="compacted-revisions">
          <dt className="shrink-0 text-zinc-500">Compacted revisions</dt>
          <dd className="flex min-w-0 flex-col gap-1">
            {revisions.map((r) => (
              <span key={r.id} className="min-w-0 break-words">
                <Link href={`/threads/${r.revisionThreadId}`} className="text-indigo-700 underline">
                  {displayTitle(r.revisionTitle)}
                </Link>{" "}
                <span className="text-zinc-600">({describeCompaction(r)})</span>
              </span>
            ))}
          </dd>
        </div>
      )}
    </>
  );
}
