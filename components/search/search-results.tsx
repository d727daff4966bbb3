"use client";

import Link from "next/link";
import { groupHitsByThread } from "@/lib/domain/threads/snippet";
import { displayTitle } from "@/lib/domain/threads/title";
import { formatInteger, plural } from "@/lib/format";
import { useSearchHits } from "@/lib/queries/hooks";
import { hitHref } from "@/lib/queries/search";
import { HighlightedText } from "./highlighted-text";

const ROLE_STYLE: Record<string, string> = {
  user: "bg-sky-100 text-sky-900",
  assistant: "bg-emerald-100 text-emerald-900",
  tool: "bg-zinc-200 text-zinc-800",
  system: "bg-amber-100 text-amber-900",
};

/**
 * The hits for `q`, grouped by thread (threads in the order of their best hit), each a link to its
 * turn with the words kept: role, turn number, and the snippet with the matches marked. The first
 * page comes with the page (app/search/page.tsx); "Load more" reads the next.
 */
export function SearchResults({ q }: { q: string }) {
  const query = useSearchHits(q);
  const hits = query.data?.pages.flatMap((page) => page.items) ?? [];
  const groups = groupHitsByThread(hits);

  if (query.isPending) {
    return (
      <p className="py-8 text-center text-zinc-500" aria-live="polite" aria-busy="true">
        Searching…
      </p>
    );
  }
  if (query.isError && hits.length === 0) {
    return (
      <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        {query.error.message}{" "}
        <button type="button" className="underline" onClick={() => void query.refetch()}>
          Retry
        </button>
      </p>
    );
  }
  if (hits.length === 0) {
    return (
      <p className="rounded border border-dashed border-zinc-300 bg-white p-8 text-center text-zinc-600" data-testid="search-empty">
        No turn holds every word of “{q}”. Fewer words, or the start of a word, find more.
      </p>
    );
  }
  return (
    <div>
      <p className="mb-3 text-sm text-zinc-600" aria-live="polite">
        {plural(hits.length, "hit")}
        {query.hasNextPage ? " so far" : ""} in {plural(groups.length, "thread")}, best first
      </p>
      <ol className="space-y-4" aria-label="Threads with hits">
        {groups.map((group) => (
          <li key={group.threadId} className="overflow-hidden rounded-lg border border-zinc-200 bg-white" data-testid="search-group">
            <h2 className="border-b border-zinc-200 bg-zinc-50 px-4 py-2 font-medium break-words">
              <Link href={`/threads/${group.threadId}`} prefetch={false} className="text-zinc-900 hover:underline">
                {displayTitle(group.threadTitle)}
              </Link>
            </h2>
            <ol className="divide-y divide-zinc-100" aria-label={`Hits in ${displayTitle(group.threadTitle)}`}>
              {group.hits.map((hit) => (
                <li key={hit.turnId}>
                  <Link
                    href={hitHref(hit, q)}
                    prefetch={false}
                    className="block px-4 py-2 hover:bg-zinc-50 focus-visible:bg-zinc-50"
                    data-testid="search-hit"
                  >
                    <span className="mb-1 flex items-center gap-2 text-xs">
                      <span className={`rounded px-1.5 py-0.5 font-medium ${ROLE_STYLE[hit.role] ?? ROLE_STYLE.tool}`}>{hit.role}</span>
                      <span className="font-mono text-zinc-600">#{formatInteger(hit.turnIndex)}</span>
                    </span>
                    <span className="block text-sm break-words text-zinc-800">
                      <HighlightedText text={hit.snippet} highlights={hit.highlights} />
                    </span>
                  </Link>
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
      {query.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {query.error.message}
        </p>
      )}
      {query.hasNextPage && (
        <div className="mt-4 text-center">
          <button
            type="button"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            aria-busy={query.isFetchingNextPage}
            className="rounded border border-zinc-300 bg-white px-4 py-2 text-sm text-zinc-700 hover:bg-zinc-50 disabled:opacity-60"
          >
            {query.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      )}
    </div>
  );
}
