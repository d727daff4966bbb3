import Link from "next/link";
import type { ForkLinks } from "@/lib/domain/threads/links";
import { displayTitle } from "@/lib/domain/threads/title";
import { formatDateTime } from "@/lib/format";

/** A thread's forks both ways: the thread and turn it was forked from, and the forks made from it. */
export function ForkLineage({ links }: { links: ForkLinks }) {
  const { forkedFrom, forks } = links;
  return (
    <>
      {forkedFrom && (
        <div className="flex min-w-0 flex-wrap gap-2 sm:col-span-2 lg:col-span-3" data-testid="forked-from">
          <dt className="shrink-0 text-zinc-500">Forked from</dt>
          <dd className="min-w-0 break-words">
            {forkedFrom.sourceExists ? (
              <Link href={`/threads/${forkedFrom.sourceThreadId}`} className="text-indigo-700 underline">
                {displayTitle(forkedFrom.sourceTitle)}
              </Link>
            ) : (
              <span className="text-zinc-500">a thread purged since</span>
            )}{" "}
            <span className="text-zinc-600">
              at turn {forkedFrom.atTurn + 1}, <time dateTime={forkedFrom.createdAt}>{formatDateTime(forkedFrom.createdAt)}</time>
            </span>
          </dd>
        </div>
      )}
      {forks.length > 0 && (
        <div className="flex min-w-0 gap-2 sm:col-span-2 lg:col-span-3" data-testid="forks-made">
          <dt className="shrink-0 text-zinc-500">Forked into</dt>
          <dd className="flex min-w-0 flex-col gap-1">
            {forks.map((f) => (
              <span key={f.id} className="min-w-0 break-words">
                <Link href={`/threads/${f.forkThreadId}`} className="text-indigo-700 underline">
                  {displayTitle(f.forkTitle)}
                </Link>{" "}
                <span className="text-zinc-600">(at turn {f.atTurn + 1})</span>
              </span>
            ))}
          </dd>
        </div>
      )}
    </>
  );
}
